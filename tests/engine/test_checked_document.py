"""The action lands on the element the gate checked, in the document it was checked in.

HTML: a navigation replaces the browsing context's active ``Document`` with a new one (HTML
Standard, "Navigation and session history"), and a page may start one by itself at any
moment (a timer, a scripted ``click()`` or ``requestSubmit()``). Playwright resolves a
locator again at every action and retries an action whose element was detached in the
document now there; an ``ElementHandle`` does not (Playwright's docs, "Locators" and
"ElementHandle"). Observed on sqladmin 0.21 (docs/real-apps.md, "the search box searches by
itself": ``keyup`` → a timeout → a scripted click loading ``?search=...``): under load
"Search | click" was checked in the page the fill left and clicked in the page the search
loaded, which no check had seen; Datasette's and Flask-Admin's filter boxes react to keys
the same way. Here the page's own navigation is set off between the check and the action
(the action observer runs exactly there), so the race is forced, not left to load. The new
document holds a *different* element of the same name (in the header, where the checked one
was in the main content): it must never be acted on without a fresh check, which refuses it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

from pytest_pacts.models import Step

from .helpers import Site, failure_of, plan, run

FORM = """
<header><h1>Books</h1></header>
<main>
  <form action="{next}" onsubmit="event.preventDefault(); location.href = '{next}'">
    <label>Query <input name="q" oninput="hits('{name}-fill')"></label>
    <button type="submit" onclick="hits('{name}-click')">Search</button>
  </form>
</main>
<script>{note}
  // what the app's keyup timer does a second after the last key (sqladmin 0.21)
  window.searchNow = () => {{ location.href = '{next}'; }};</script>
"""
# what was done to each page, kept across its documents
NOTE = "window.hits = (x) => sessionStorage.setItem('hits', (sessionStorage.getItem('hits') || '') + x + ' ');"
# the page the search loaded, with another "Query" field and "Search" button, in the header
OTHER = """
<header><label>Query <input oninput="hits('other-fill')"></label>
  <button onclick="hits('other-click')">Search</button></header>
<main><p>2 results</p></main>
<script>{note}</script>
"""


def _navigating_once(page: Page, to: str) -> tuple[Callable[[Step, Locator], None], list[str]]:
    """An observer (told the element after the gate, before the action) that lets the page's
    own search timer fire once, there, and waits for the new document; and the documents
    each announcement reached."""
    reached: list[str] = []

    def observe(_step: Step, element: Locator) -> None:
        if not reached:
            page.evaluate("() => window.searchNow()")
            page.wait_for_url(to)
        try:
            reached.append(str(element.evaluate("el => el.ownerDocument.URL", timeout=2_000)))
        except PlaywrightError as exc:  # the checked element is not in the new document
            reached.append("gone" if "__pacts_kept_gone__" in str(exc) else str(exc))

    return observe, reached


def _hits(page: Page) -> list[str]:
    return str(page.evaluate("() => sessionStorage.getItem('hits') || ''")).split()


@pytest.mark.parametrize(
    ("action", "element", "value"), [("click", "Search", ""), ("fill", "Query", "tea")]
)
def test_an_element_of_the_same_name_in_the_new_document_is_never_acted_on(
    tab: Page, site: Site, action: str, element: str, value: str
) -> None:
    """The page replaced its document after the check: the step checks the element again
    there, against the one it checked (its landmark: header, not main), and fails before
    acting; the header's control of the same name is never touched."""
    other = site.add("other.html", OTHER.format(note=NOTE))
    start = site.add("form.html", FORM.format(next="other.html", name="form", note=NOTE))
    observe, _ = _navigating_once(tab, other)
    record = run(tab, plan(start, (action, element, value)), observer=observe)
    assert tab.url == other
    assert _hits(tab) == []  # nothing was done to the new page (nor to the first)
    assert record.verdict == "fail", record.steps
    failure = record.steps[0].failure
    assert failure is not None and failure_of(record) == "not_unique"
    assert failure.message.startswith("the page navigated by itself between the check and the")
    assert "other.html" in failure.message


def test_the_same_element_on_the_new_page_is_checked_again_then_acted_on(
    tab: Page, site: Site
) -> None:
    """sqladmin's case: the search loaded a page with the same form. The click is made
    there, after a fresh check, and announced to the observer in that document (a page-side
    click watch sees it where the click lands); the step's record says so."""
    again = site.add("again.html", FORM.format(next="again.html", name="again", note=NOTE))
    start = site.add("first.html", FORM.format(next="again.html", name="first", note=NOTE))
    observe, reached = _navigating_once(tab, again)
    record = run(tab, plan(start, ("click", "Search", "", "url_contains:again")), observer=observe)
    assert record.verdict == "pass", record.steps[0].failure
    assert _hits(tab) == ["again-click"]
    assert reached == ["gone", again]
    assert any("navigated by itself" in note for note in record.steps[0].notes)
