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
drawn since the last change. At most the readiness cap; once the URL changed longer ago
than that, the first point is not asked for. Nothing is asked on a page whose URL did not
move within its document.
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
# on while it runs if it lasts ``longest`` ms at most. ``late``: the URL changed longer than
# the cap ago, and the page had that long to draw: no DOM change since is asked for. A hidden
# page draws no frames: a timer stands in for them.
_VIEW_DRAWN = """([cap, longest, late]) => new Promise((resolve) => {
  const seen = globalThis.__pacts_changes;
  if (!seen || !seen.flush) { resolve(null); return; }
  // plain string work: a page's library may replace URL or Array's methods
  const routeOf = (href) => {
    const at = href.indexOf('#');
    const hash = at < 0 ? '' : href.slice(at);
    const rest = at < 0 ? href : href.slice(0, at);
    const query = rest.indexOf('?');
    const path = query < 0 ? rest : rest.slice(0, query);
    return path + (hash.startsWith('#/') || hash.startsWith('#!/') ? hash : '#');
  };
  const moving = () => {
    const all = document.getAnimations ? document.getAnimations() : [];
    for (let i = 0; i < all.length; i++) {
      const a = all[i];
      if (a.playState !== 'running' || !a.effect) continue;
      const end = a.effect.getComputedTiming().endTime;
      if (typeof end === 'number' && end <= longest) return true;
    }
    return false;
  };
  const drawn = () => {
    seen.flush();
    const here = typeof seen.url === 'string' && routeOf(seen.url) === routeOf(location.href);
    return (late || here) && seen.frames >= 2 && !moving();
  };
  const start = performance.now();
  const next = () => {
    try {
      if (drawn()) { resolve(true); return; }
    } catch (e) { resolve(null); return; }
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
    ``cap_ms``. The URL changed at ``routed_at`` (``time.monotonic()`` seconds, when
    Playwright reported it); once that is longer ago than ``cap_ms`` (the page had that long
    to draw), no DOM change since is asked for, but a transition still running is waited
    for all the same (a step that began late on a loaded machine). True when it was drawn;
    False when the time ran out; None when it cannot be told (no change watch in the
    document, the document gone meanwhile: a new page is readiness's own)."""
    late = (time.monotonic() - routed_at) * 1000.0 >= cap_ms
    try:
        drawn = bounded.call(
            page,
            "waiting for the route's view",
            page.evaluate,
            _VIEW_DRAWN,
            [cap_ms, VIEW_TRANSITION_MS, late],
            timeout_ms=cap_ms + 1_500.0,  # and a frame that never came
        )
    except PlaywrightError as exc:
        if "context was destroyed" in str(exc) or "navigat" in str(exc):
            return None
        raise
    return drawn if isinstance(drawn, bool) else None
