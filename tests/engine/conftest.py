"""Fixtures for the engine tests: one Chromium and one demo server (v1) per module.

Small fixture pages are served from a fake origin (``http://pacts.test/``) by a route on the
test's browser context, so a requirement can start from a URL like a real one without any
network. Each test gets a fresh context (storage never leaks); the browser is shared.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Route

from pytest_pacts.demo_app import DemoServer
from tests.hostile_pages import NEVER_ANSWERED
from tests.tabs import page_for_test

from .helpers import SITE, Site


@pytest.fixture(scope="module")
def engine_browser(module_browser: Browser) -> Browser:
    return module_browser


@pytest.fixture(scope="module")
def demo_v1() -> Iterator[DemoServer]:
    server = DemoServer("v1").start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def site() -> Site:
    return Site()


def open_tab(browser: Browser, site: Site, scale: float = 1) -> Page:
    """A page of a new context (1000×700 CSS pixels, ``scale`` device pixels to one) that
    serves ``site``."""
    context = browser.new_context(
        viewport={"width": 1000, "height": 700}, device_scale_factor=scale
    )
    context.set_default_timeout(5_000)

    def serve(route: Route) -> None:
        path = route.request.url.removeprefix(SITE).split("?", 1)[0]
        if path == NEVER_ANSWERED:
            return  # left pending: the page waits on it for as long as it lives
        body = site.pages.get(path)
        if body is None:
            route.fulfill(status=404, body="<h1>Not found</h1>", content_type="text/html")
        else:
            route.fulfill(status=200, body=body, content_type="text/html; charset=utf-8")

    context.route(SITE + "**", serve)
    return context.new_page()


@pytest.fixture(scope="module")
def _module_tab(engine_browser: Browser, site: Site) -> Iterator[Page]:
    page = open_tab(engine_browser, site)
    yield page
    page.context.close()


@pytest.fixture
def tab(request: pytest.FixtureRequest, engine_browser: Browser, site: Site) -> Iterator[Page]:
    """The module's page, navigated to a new blank document (a new window: no script, timer
    or listener of the last test's page is left), or a new context per test where the module
    says ``FRESH_CONTEXT = True`` (tests/tabs.py)."""
    yield from page_for_test(
        request,
        "_module_tab",
        lambda: open_tab(engine_browser, site),
        lambda p: p.goto("about:blank"),
    )


@pytest.fixture(scope="module")
def shared_tab(engine_browser: Browser, site: Site) -> Iterator[Page]:
    """One page for a module whose runs cannot affect each other (each run navigates)."""
    page = open_tab(engine_browser, site)
    yield page
    page.context.close()
