"""The discovery tests' ``tab``: one Chromium per module (``module_browser``,
tests/conftest.py) and, for most modules, **one page per module with a new document per
test**. Fixture pages are the tests' own small HTML documents (``page.set_content``), each
element of interest carrying an ``id`` so a test asserts *which* element was chosen, not just
that one was.

A new context per test cost a renderer process each (about 0.15 s of CPU, the suite being
CPU-bound: docs/testing.md); ``set_content`` replaces the whole document, and discovery
installs its in-page code per document, so the tests of a module do not see each other's
pages. What a written-over document does not reset is the window: its custom element
definitions, timers and globals. A module whose tests change the page itself (routes, init
scripts, listeners, the viewport, closing or crashing it) or its window (custom elements,
timers, scripts that declare globals) says ``FRESH_CONTEXT = True`` and gets a new context per
test, as before.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page


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
    """The module's page on an empty document, or a fresh context where the module asks."""
    if getattr(request.module, "FRESH_CONTEXT", False):
        fresh = _new_page(module_browser)
        yield fresh
        fresh.context.close()
        return
    page = request.getfixturevalue("_module_page")
    assert isinstance(page, Page)
    assert not page.is_closed(), "a test closed the module's page: say FRESH_CONTEXT = True"
    page.set_content("")  # the same way the tests write theirs: the page stays at about:blank
    yield page
