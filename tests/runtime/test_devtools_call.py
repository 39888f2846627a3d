"""``relocate_element``'s one call through the page's DevTools session (``runtime/devtools.py``):
on Chromium it is a ``Runtime.evaluate`` on a session kept for the page, not Playwright's
``Frame.evaluate``, whose first call in a new document builds Playwright's evaluation script
there (one more round trip to the browser and a script compiled: docs/benchmarks.md, issue
40); the same answer either way, and Playwright's call wherever the session cannot answer.

In a real Chromium, on a small page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from playwright._impl.connection import Connection
from playwright.sync_api import Page

import pytest_pacts
from pytest_pacts.runtime import devtools

FORM = """<form id="login_form"><label>User <input name="user"></label>
<button type="button">Sign in</button></form>"""


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every message this process sends to Playwright's driver (its method)."""
    methods: list[str] = []
    real = Connection.send_message_to_server

    def logged(self: Any, obj: Any, method: str, params: Any, options: Any) -> Any:
        methods.append(method)
        return real(self, obj, method, params, options)

    monkeypatch.setattr(Connection, "send_message_to_server", logged)
    yield methods


def _recorded(tab: Page) -> pytest_pacts.DiscoveryResult:
    url = "data:text/html," + quote(FORM)
    tab.goto(url)
    found = pytest_pacts.discover_element(tab, "Sign in")
    assert found.locator is not None, found.unresolved
    tab.goto(url)  # a new document: the next release's page
    return found


def test_an_unchanged_page_is_checked_without_playwrights_evaluation_script(
    tab: Page, sent: list[str]
) -> None:
    """The check is one ``Runtime.evaluate`` on the page's session (made on the page's first
    such call, once per page); a second new document of the page reuses the session: one
    message, and no ``Frame.evaluate`` (before: ``Frame.evaluateExpression``, which builds
    Playwright's evaluation script in each new document first)."""
    recorded = _recorded(tab)
    sent.clear()
    same = pytest_pacts.relocate_element(tab, recorded)
    assert same.found and not same.moved, same.reason
    assert sent == ["newCDPSession", "send"], sent
    tab.reload()
    sent.clear()
    again = pytest_pacts.relocate_element(tab, recorded)
    assert again.found and not again.moved, again.reason
    assert sent == ["send"], sent


def test_without_a_session_the_check_goes_through_playwright(
    tab: Page, sent: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A browser without DevTools sessions (Firefox, WebKit), or a page that threw: the same
    call through ``Frame.evaluate``, with the same answer."""
    recorded = _recorded(tab)
    monkeypatch.setattr(devtools, "_session", lambda _frame, _key: None)
    sent.clear()
    same = pytest_pacts.relocate_element(tab, recorded)
    assert same.found and not same.moved, same.reason
    assert sent == ["evaluateExpression"], sent
    monkeypatch.undo()
    threw = "async (text) => { throw new Error('a page that threw'); }"
    assert devtools.call_json(tab.main_frame, "a call", threw, "{}") is devtools.UNAVAILABLE
