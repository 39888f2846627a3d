"""A single-page app's view drawn after its URL changed: the old view is not acted on.

The HTML History API (``history.pushState``, ``replaceState``, ``popstate``) moves a
document's URL with no new document; Playwright reports it as a navigation of the frame
(``framenavigated``) with no request. A router moves the URL first and draws the route's view
afterwards: in a later task, or once the old view's leave transition has run (Vue's
``<Transition mode="out-in">`` around its router view: the old view fades out, with no
request open and no DOM change, then the new one is drawn and fades in). Meanwhile the page
looks settled, and an element of the old view that has the next step's name (a dashboard card
linking the same item as the list being opened) would be acted on: Prefect 2.20.27 and 3.9.1,
REQ-PREFECT-011 (docs/real-apps.md, "Prefect 011: the old view acted on").

So after the page's route changed within its document (:func:`route_of`:
``EnvMonitor.routes``), the next step's readiness first waits until the view is drawn
(:func:`wait_for_view`): a DOM change seen while the document's URL was already the new route
(the change watch records the URL with each change), no finite CSS transition or animation
running in the document (the Web Animations API's ``document.getAnimations()``: a view
leaving or entering; one longer than :data:`VIEW_TRANSITION_MS` or endless, a toast's or a
spinner's, is not waited on), and two animation frames
drawn since the last change. At most the readiness cap after the URL changed. Nothing is
asked on a page whose URL did not move within its document.
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.runtime import bounded

# The longest transition or animation a view's leaving or entering is taken to be (its delay
# and duration): a longer one is the content's (a toast fading out over seconds, a progress
# bar), and an endless one a spinner: neither is waited on.
VIEW_TRANSITION_MS = 1_000

# The shortest wait for a view once its route changed, however long ago: enough to see a
# transition still running (a step that began late, on a loaded machine).
VIEW_SLICE_MS = 250.0


def route_of(url: str) -> str:
    """The part of a URL that names a view: its origin and path, and a hash router's path
    (a fragment that starts with ``/`` or ``!/``, the form Vue Router's, React Router's and
    Angular's hash modes write). A change of the query alone (a filter, a page number, a tab)
    or of a plain fragment (an anchor on the page) keeps the view."""
    parts = urlsplit(url)
    fragment = parts.fragment if parts.fragment.startswith(("/", "!/")) else ""
    return f"{parts.scheme}://{parts.netloc}{parts.path}#{fragment}"


# True once the view of the current route is drawn (see the module's text); false after
# ``cap`` ms without that, null without the change watch. A transition or animation is waited
# on while it runs if it lasts ``longest`` ms at most. A hidden page draws no frames: a
# timer stands in for them.
_VIEW_DRAWN = """([cap, longest]) => new Promise((resolve) => {
  const seen = globalThis.__pacts_changes;
  if (!seen || !seen.flush) { resolve(null); return; }
  const routeOf = (href) => {
    const u = new URL(href);
    const hash = /^#!?\\//.test(u.hash) ? u.hash : '';
    return u.origin + u.pathname + hash;
  };
  const moving = () => {
    if (!document.getAnimations) return false;
    return document.getAnimations().some((a) => {
      if (a.playState !== 'running' || !a.effect) return false;
      const end = a.effect.getComputedTiming().endTime;
      return typeof end === 'number' && end <= longest;
    });
  };
  const drawn = () => {
    seen.flush();
    return typeof seen.url === 'string' && routeOf(seen.url) === routeOf(location.href)
      && seen.frames >= 2 && !moving();
  };
  const start = performance.now();
  const next = () => {
    if (drawn()) { resolve(true); return; }
    if (performance.now() - start >= cap) { resolve(false); return; }
    const hidden = document.visibilityState === 'hidden';
    let done = false;
    const tick = () => { if (!done) { done = true; clearTimeout(timer); next(); } };
    const timer = setTimeout(tick, hidden ? 50 : 100);
    requestAnimationFrame(tick);
  };
  next();
})"""


def wait_for_view(page: Page, routed_at: float, cap_ms: float) -> bool | None:
    """Wait until the view of the page's current route is drawn (the module's text), at most
    ``cap_ms`` after the route changed (``routed_at``: ``time.monotonic()`` seconds, when
    Playwright reported it) and at least :data:`VIEW_SLICE_MS`. True when it was; False when
    the time ran out; None when it cannot be told (no change watch in the document, the
    document gone meanwhile: a new page is readiness's own)."""
    left = max(cap_ms - (time.monotonic() - routed_at) * 1000.0, VIEW_SLICE_MS)
    try:
        drawn = bounded.call(
            page,
            "waiting for the route's view",
            page.evaluate,
            _VIEW_DRAWN,
            [left, VIEW_TRANSITION_MS],
            timeout_ms=left + 1_500.0,  # and a frame that never came
        )
    except PlaywrightError as exc:
        if "context was destroyed" in str(exc) or "navigat" in str(exc):
            return None
        raise
    return drawn if isinstance(drawn, bool) else None
