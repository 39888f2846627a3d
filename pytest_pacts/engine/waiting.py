"""Waiting without sleeping: for the DOM to change, for the page to settle (SPEC.md §5).

Retries in the executor wait for something to *happen* (a DOM mutation, an animation frame,
a navigation), capped so a change the observer cannot see (inside a shadow root or an
iframe) is still noticed within ``cap_ms``. Never a fixed sleep (STYLE.md habit 7).
"""

from __future__ import annotations

import time

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.engine.env import EnvMonitor

# Resolves true on the next DOM mutation, false after ``ms`` without one.
_NEXT_CHANGE = """(ms) => new Promise((resolve) => {
  const done = (changed) => { observer.disconnect(); clearTimeout(timer); resolve(changed); };
  const observer = new MutationObserver(() => done(true));
  observer.observe(document, {subtree: true, childList: true, attributes: true,
                              characterData: true});
  const timer = setTimeout(() => done(false), ms);
})"""

POLL_CAP_MS = 100.0


def now_ms() -> float:
    return time.monotonic() * 1000.0


def wait_for_change(page: Page, cap_ms: float = POLL_CAP_MS) -> bool:
    """Wait for the next DOM mutation of the top document, at most ``cap_ms``.

    True when something changed (a navigation counts). Errors other than a navigation
    destroying the context propagate: a crashed page must be reported, not waited on.
    """
    try:
        return bool(page.evaluate(_NEXT_CHANGE, max(int(cap_ms), 1)))
    except PlaywrightError as exc:
        if "context was destroyed" in str(exc) or "navigat" in str(exc):
            return True
        raise


def settled(page: Page, monitor: EnvMonitor, quiet_ms: float = POLL_CAP_MS) -> bool:
    """Loaded and quiet: no navigation in flight, ``readyState`` complete, and no DOM change
    for ``quiet_ms``. A missing element on a settled page is missing (SPEC.md §5)."""
    if monitor.navigating:
        return False
    try:
        if page.evaluate("document.readyState") != "complete":
            return False
    except PlaywrightError as exc:
        if "context was destroyed" in str(exc) or "navigat" in str(exc):
            return False
        raise
    return not wait_for_change(page, quiet_ms)
