"""What an action changed, suggested as its row's expected outcome (``pacts record``;
docs/user-guide.md, "Record a sheet").

A new page (a new path) suggests ``navigates_to:`` with the page's name; otherwise the
first new short text, headings, alerts and live regions first, suggests ``text_visible:``.
A text that will read differently on the next run is never suggested
(:func:`volatile`): one that changed while the page was read twice, one the page marks as
a time (HTML's ``<time>``, ARIA's ``timer`` and ``marquee`` roles), and one that holds a
measured time, a date or a generated id (``Query took 3.879ms``, ``12:04:31``,
``2026-11-28``, a UUID).
"""

from __future__ import annotations

import re
from contextlib import suppress
from typing import Any, cast
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.engine.pagename import PAGE_NAMES_JS
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.scripts import realm_function

#: how long after the first read the texts are read again: a text that changed meanwhile
#: is a clock, a counter or a spinner, not an outcome of the action
READ_AGAIN_MS = 400.0

# Visible short texts of the page, each with a rank (0: a heading, an alert, a status or a
# live region; 1: any other text) and whether the page marks it as a time (HTML: the
# <time> element; ARIA: role "timer", a numerical counter of elapsed time, and "marquee",
# non-essential information that changes frequently), to suggest `text_visible:`.
TEXTS_JS = r"""() => {
  const out = [];
  const seen = new Set();
  const important = 'h1, h2, h3, h4, h5, h6, [role=heading], [role=alert], [role=status], '
    + '[aria-live], output, dialog, [role=dialog]';
  const timed = 'time, [role=timer], [role=marquee]';
  const all = document.body ? document.body.querySelectorAll('*') : [];
  for (let i = 0; i < all.length && out.length < 3000; i++) {
    const el = all[i];
    if (['SCRIPT', 'STYLE', 'PACTS-RECORDER'].includes(el.tagName)) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || getComputedStyle(el).visibility === 'hidden') continue;
    const text = (el.innerText || '').replace(/\s+/g, ' ').trim();
    if (text.length < 2 || text.length > 60 || seen.has(text)) continue;
    seen.add(text);
    const time = !!(el.closest(timed) || el.querySelector(timed));
    out.push([text, el.closest(important) ? 0 : 1, time]);
  }
  return out;
}"""

# A measured time (a number with a unit of time: SI's s and ms, and their words), a time
# of day or a date (ISO 8601's forms and the common d/m/y one), "N units ago", and a
# generated identifier (RFC 9562's UUID form, a long hex token with digits in it).
_VOLATILE = re.compile(
    r"\d(?:[\d.,]*\d)?\s?(?:[mµμn]s|s|secs?|seconds?|mins?|minutes?)(?![\w])"
    r"|\b\d+\s(?:hours?|days?|weeks?|months?|years?)\sago\b"
    r"|\b\d{1,2}:\d{2}(?::\d{2})?\b"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
    r"|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"
    r"|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{16,}\b",
    re.IGNORECASE,
)


def volatile(text: str) -> bool:
    """Whether ``text`` holds a measured time, a time of day, a date or a generated id:
    what differs between two runs of the same steps."""
    return _VOLATILE.search(text) is not None


def read_texts(page: Page) -> dict[str, tuple[int, bool]]:
    """The page's visible short texts -> (rank, marked as a time)."""
    with suppress(PlaywrightError):
        rows = cast(
            list[list[Any]], bounded.call(page, "reading the texts", page.evaluate, TEXTS_JS)
        )
        return {str(t): (int(r), bool(m)) for t, r, m in rows}
    return {}


def page_name(page: Page) -> str | None:
    """The name the page shows (its main heading, else its title), for ``navigates_to:``."""
    with suppress(PlaywrightError):
        names = cast(
            list[list[str]],
            bounded.call(
                page, "reading the page's name", page.evaluate, realm_function(PAGE_NAMES_JS)
            ),
        )
        for text, _why in names:
            if text and len(text) <= 60 and "|" not in text:
                return text
        title = bounded.call(page, "reading the title", page.title).strip()
        if title and "|" not in title:
            return title[:60]
    return None


def same_page(a: str, b: str) -> bool:
    return a.split("#", 1)[0] == b.split("#", 1)[0]


def suggest(
    page: Page, before_url: str, before: dict[str, tuple[int, bool]], typed: set[str]
) -> str | None:
    """The expected outcome of the action just done (``before_url`` and ``before``: the
    page before it; ``typed``: the values typed so far, never suggested back)."""
    if urlsplit(page.url).path != urlsplit(before_url).path:
        # a new page; the same path with another query (a form saved back to itself, a
        # sort link) is the same page to a person: what it shows new says more
        name = page_name(page)
        return f"navigates_to:{name}" if name else f"url_contains:{urlsplit(page.url).path}"
    new = [
        (rank, n, text)
        for n, (text, (rank, timed)) in enumerate(read_texts(page).items())
        if text not in before and text not in typed and "|" not in text
        and not timed and not volatile(text)
    ]  # fmt: skip
    if not new:
        return None
    # read again a moment later: what changed meanwhile is no outcome of the action
    with suppress(PlaywrightError):
        page.wait_for_timeout(READ_AGAIN_MS)
    again = read_texts(page)
    steady = [item for item in new if item[2] in again]
    return f"text_visible:{min(steady)[2]}" if steady else None
