"""The web fonts a page drew with, added to its MHTML snapshot.

Chromium's ``Page.captureSnapshot`` saves a page's document, style sheets and images, not
the fonts its ``@font-face`` rules load. Served from the snapshot (``peers/common.py``), the
page then lays its text out in a fallback font, wider or narrower than the one it was drawn
with, and whatever the layout fits to the text moves. ArchiveBox 0.7.4's change list floats
its action bar right, beside the search form, at the width of its buttons' words: in the
fallback font the bar grew over the "Search" button, and a tool that checks an element
receives the pointer (pytest-pacts' gate: a hit test, as Playwright's actionability checks do)
found the button "covered by ul.select2-selection__rendered" on the saved page only, while on
the live page, with Django admin's Roboto, the same step passed (docs/real-apps.md,
"ArchiveBox's renamed controls, and ArchiveBox moves to dev"). Any page whose layout depends
on a web font's metrics can differ in the same way.

:func:`with_fonts` fetches, in the page (each fetch bounded by :data:`TIMEOUT_MS`), the
fonts it loaded from its own origin (the Resource Timing entries of the document) and
appends each to the MHTML as one more part at its address, which the snapshot's server
answers like any other part.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from playwright.sync_api import Error as PlaywrightError

FONT_EXTENSIONS = (".woff2", ".woff", ".ttf", ".otf", ".eot")
FONT_TYPES = {".woff2": "font/woff2", ".woff": "font/woff", ".ttf": "font/ttf",
              ".otf": "font/otf", ".eot": "application/vnd.ms-fontobject"}  # fmt: skip
MAX_FONTS = 16
TIMEOUT_MS = 5_000

_LOADED = """() => [...new Set(performance.getEntriesByType('resource')
  .map((e) => e.name).filter((u) => new URL(u).origin === location.origin))]"""
# the font as the page gets it (its routes, its cache), as base64; null when not answered
_FETCH = """async ([url, ms]) => {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(ms) });
    if (!r.ok) return null;
    const bytes = new Uint8Array(await r.arrayBuffer());
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return btoa(s);
  } catch (e) { return null; }
}"""
_BOUNDARY = re.compile(r'boundary="?([^";\r\n]+)"?')


def font_urls(urls: list[str]) -> list[str]:
    """Of the addresses a document loaded, its fonts (by extension), at most
    :data:`MAX_FONTS`."""
    fonts = [u for u in urls if u.split("?")[0].split("#")[0].lower().endswith(FONT_EXTENSIONS)]
    return fonts[:MAX_FONTS]


def add_parts(mhtml: str, parts: list[tuple[str, str, bytes]]) -> str:
    """``mhtml`` with one part per ``(address, content type, body)`` appended before its
    closing boundary; unchanged when it has none to add or no boundary is found."""
    found = _BOUNDARY.search(mhtml[:2000])
    if not parts or found is None:
        return mhtml
    boundary = found.group(1)
    closing = f"--{boundary}--"
    at = mhtml.rfind(closing)
    if at < 0:
        return mhtml
    added = []
    for url, kind, body in parts:
        data = base64.encodebytes(body).decode("ascii").replace("\n", "\r\n")
        added.append(
            f"--{boundary}\r\nContent-Type: {kind}\r\nContent-Transfer-Encoding: base64\r\n"
            f"Content-Location: {url}\r\n\r\n{data}\r\n"
        )
    return mhtml[:at] + "".join(added) + mhtml[at:]


def with_fonts(page: Any, mhtml: str) -> str:
    """``mhtml`` (the page's snapshot) with the fonts the page loaded from its own origin;
    as it was when none can be read."""
    try:
        urls = font_urls(list(page.evaluate(_LOADED)))
    except PlaywrightError:
        return mhtml
    parts = []
    for url in urls:
        try:
            data = page.evaluate(_FETCH, [url, TIMEOUT_MS])
        except PlaywrightError:
            continue
        if isinstance(data, str):
            ext = next(e for e in FONT_EXTENSIONS if url.split("?")[0].lower().endswith(e))
            parts.append((url, FONT_TYPES[ext], base64.b64decode(data)))
    return add_parts(mhtml, parts)
