from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Playwright

from pytest_pacts.browser import launch_options

pytest_plugins = ["pytester"]


@pytest.fixture(scope="module")
def module_browser(playwright: Playwright) -> Iterator[Browser]:
    """One Chromium per test module (the tests' own, not pytest-playwright's ``browser``)."""
    browser = playwright.chromium.launch(**launch_options())  # type: ignore[arg-type]
    yield browser
    browser.close()


@pytest.fixture
def tab(module_browser: Browser) -> Iterator[Page]:
    """A fresh context and page per test: 1000×700, 5 s default timeout."""
    context = module_browser.new_context(viewport={"width": 1000, "height": 700})
    context.set_default_timeout(5_000)
    page = context.new_page()
    yield page
    context.close()
