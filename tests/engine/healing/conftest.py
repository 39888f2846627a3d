"""Fixtures for the healing tests: one Chromium per module, a fresh context per test, the
demo app's two releases, and a store in a temporary directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright

from pytest_pacts.browser import launch_options
from pytest_pacts.demo_app import RELEASES, DemoServer
from pytest_pacts.store import Store, open_store


@pytest.fixture(scope="module")
def heal_browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(**launch_options())  # type: ignore[arg-type]
    yield browser
    browser.close()


@pytest.fixture
def tab(heal_browser: Browser) -> Iterator[Page]:
    context = heal_browser.new_context(viewport={"width": 1000, "height": 700})
    context.set_default_timeout(5_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def demo() -> Iterator[dict[str, DemoServer]]:
    servers = {release: DemoServer(release).start() for release in RELEASES}
    yield servers
    for server in servers.values():
        server.stop()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(tmp_path / "pacts.db")
    yield opened
    opened.close()
