"""The recording tests use the engine tests' fixtures: one Chromium and one demo server
(v1) per module, fixture pages served from ``http://pacts.test/`` by a route."""

from tests.engine.conftest import demo_v1, engine_browser, site, tab

__all__ = ["demo_v1", "engine_browser", "site", "tab"]
