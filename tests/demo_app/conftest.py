"""Fixtures for the demo app's tests: both releases served once, one Chromium per module.

The browser comes from pytest-playwright's session-wide ``playwright`` fixture (so it
coexists with other modules that use it) and is launched with our ``launch_options()``.
Each test gets a fresh context, so storage (session, cart, cookie consent) never leaks.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from pytest_pacts.demo_app import RELEASES, DemoServer

from .demo_helpers import TEXT, App, log_in


@pytest.fixture(scope="session")
def demo_servers() -> Iterator[dict[str, DemoServer]]:
    servers = {release: DemoServer(release).start() for release in RELEASES}
    yield servers
    for server in servers.values():
        server.stop()


@pytest.fixture(params=RELEASES)
def app(request: pytest.FixtureRequest, demo_servers: dict[str, DemoServer]) -> App:
    release: str = request.param
    return App(release, demo_servers[release].url, TEXT[release])


@pytest.fixture
def demo_page(module_browser: Browser) -> Iterator[Page]:
    context = module_browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(5_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def shop_page(demo_page: Page, app: App) -> Page:
    """A page signed in as ``standard_user``, on Products."""
    log_in(demo_page, app)
    return demo_page
