"""A test's page: the module's own page made new for each test, or a new context where the
module asks (``FRESH_CONTEXT = True``).

A new context per test costs a renderer process each, about 0.15 s of CPU, and the suite is
CPU-bound (docs/testing.md, "One page per module"). A module whose tests change the page
itself (routes, init scripts, listeners, bindings, the viewport, closing it) or its window
(custom elements, timers, globals that outlive a document written over) says
``FRESH_CONTEXT = True``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page


def page_for_test(
    request: pytest.FixtureRequest,
    module_page: str,
    new_page: Callable[[], Page],
    renew: Callable[[Page], object],
) -> Iterator[Page]:
    """Yield the module's page (the fixture named ``module_page``) after ``renew`` gave it a
    new document, or a page of a new context from ``new_page`` (closed after the test)."""
    if getattr(request.module, "FRESH_CONTEXT", False):
        fresh = new_page()
        yield fresh
        fresh.context.close()
        return
    page = request.getfixturevalue(module_page)
    assert isinstance(page, Page)
    assert not page.is_closed(), "a test closed the module's page: say FRESH_CONTEXT = True"
    renew(page)
    yield page
