"""Fixtures for the discovery tests: one Chromium per module, a fresh context per test.

The browser comes from pytest-playwright's session ``playwright`` fixture (so these modules
coexist with others that use it), launched with ``launch_options()``. Fixture pages are the
tests' own small HTML documents (``page.set_content``), each element of interest carrying an
``id`` so a test asserts *which* element was chosen, not just that one was.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Playwright

from pytest_pacts.browser import launch_options


@pytest.fixture(scope="module")
def discovery_browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(**launch_options())  # type: ignore[arg-type]
    yield browser
    browser.close()


@pytest.fixture
def tab(discovery_browser: Browser) -> Iterator[Page]:
    context = discovery_browser.new_context(viewport={"width": 1000, "height": 700})
    context.set_default_timeout(5_000)
    page = context.new_page()
    yield page
    context.close()
