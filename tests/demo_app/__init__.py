"""Tests of the bundled demo app (pytest_pacts/demo_app): server, shop, widgets, drift."""
