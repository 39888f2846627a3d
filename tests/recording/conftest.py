"""The recording tests use the engine tests' fixtures: one Chromium and one demo server
(v1) per module, fixture pages served from ``http://pacts.test/`` by a route. The recorder
adds an init script and a binding to the page it records, so these modules take a new
context per test (``FRESH_CONTEXT``, tests/tabs.py)."""

from tests.engine.conftest import _module_tab, demo_v1, engine_browser, site, tab

__all__ = ["_module_tab", "demo_v1", "engine_browser", "site", "tab"]
