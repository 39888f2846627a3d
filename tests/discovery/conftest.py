"""The discovery tests' ``tab``: one Chromium per module (``module_browser``,
tests/conftest.py) and, for most modules, **one page per module with a new document per
test**. Fixture pages are the tests' own small HTML documents (``page.set_content``), each
element of interest carrying an ``id`` so a test asserts *which* element was chosen, not just
that one was.

``set_content`` replaces the whole document, and discovery installs its in-page code per
document, so the tests of a module do not see each other's pages; what a written-over document
does not reset is the window (custom elements, timers, globals): such modules, and those that
change the page itself, say ``FRESH_CONTEXT = True`` (tests/tabs.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.tabs import page_for_test


def _new_page(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    context.set_default_timeout(5_000)
    return context.new_page()


@pytest.fixture(scope="module")
def _module_page(module_browser: Browser) -> Iterator[Page]:
    page = _new_page(module_browser)
    yield page
    page.context.close()


@pytest.fixture
def tab(request: pytest.FixtureRequest, module_browser: Browser) -> Iterator[Page]:
    """The module's page on an empty document (written over the way the tests write theirs:
    the page stays at about:blank), or a fresh context where the module asks."""
    yield from page_for_test(
        request, "_module_page", lambda: _new_page(module_browser), lambda p: p.set_content("")
    )
