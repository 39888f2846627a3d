"""The discovery API's init script run in the document already open, as the same script.

V8 keeps what it compiled of a script, inner functions compiled later included, for the
renderer process's later scripts of the same source (its isolate's compilation cache).
A page's init scripts (``Page.add_init_script``) run in its later documents with one source,
so the second document of a process reuses the functions the first compiled. But the
document open when the library API first meets a page (``discover_element`` on the page a
test opened) has no init script: its copy of the API is installed by the first call, inside
that call's own source, which V8 caches as another script. The next document's first
``relocate_element`` then compiled its check's functions again: 87 of them on a small page
against 24 when the open document's copy was the init script's source (V8's
``--log-function-events``; docs/benchmarks.md, "2026-11-30 (afternoon): the retry's gate
without frames, and the no-drift check's compiled functions").

Playwright wraps an init script in a fixed text (``InitScript``, ``(() => {`` ...) and
its ``evaluate`` adds its own wrapper, so the open document gets the script through the
DevTools protocol's ``Runtime.evaluate`` in that exact text. Only the speed depends on it:
the installer puts one copy per document (it answers the one there), so a Playwright that
wraps otherwise makes this a plain install, and a browser without the protocol (or a page
that refuses) is left to install on first use, as before.
"""

from __future__ import annotations

import contextlib

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.runtime import bounded

# Playwright's InitScript text around an init script's source (playwright-core,
# server/page.ts): what Chromium compiles for every later document of the page
_PLAYWRIGHT_WRAPPER = "(() => {{\n      {source}\n    }})();"


def run_as_init_script(page: Page, source: str) -> None:
    """Run the init script ``source`` in ``page``'s open document as the source its later
    documents compile (module doc); one protocol session, bounded; errors are ignored (the
    API then installs on first use)."""
    script = _PLAYWRIGHT_WRAPPER.format(source=source)

    def run() -> None:
        session = page.context.new_cdp_session(page)
        try:
            session.send("Runtime.evaluate", {"expression": script, "returnByValue": True})
        finally:
            session.detach()

    with contextlib.suppress(PlaywrightError, bounded.PageUnresponsive):
        bounded.call(page, "installing the in-page API as its init script", run)
