"""Waiting without sleeping: for the DOM to change, for the page to settle.

Retries in the executor wait for something to *happen* (a DOM mutation, an animation frame,
a navigation), capped so a change the observer cannot see (inside a shadow root or an
iframe) is still noticed within ``cap_ms``. Never a fixed sleep.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.runtime import bounded

# Does this world run the callbacks it registers? A page whose scripts are disabled (a context
# with ``java_script_enabled=False``) runs none: no listener, timer, animation frame or
# mutation observer callback, so a wait on one never ended (the call reached its deadline and
# the page was taken for hung). Such a page changes only by being parsed and loaded. The
# probe is ``callbacksRun`` in runtime/js/actionability.js; its document's own event
# factory, since libraries replace ``window.Event``.
_CALLBACKS_RUN = """const callbacksRun = () => {
  let ran = false;
  const probe = document.createElement('i');
  probe.addEventListener('pacts-probe', () => { ran = true; });
  const event = document.createEvent('Event');
  event.initEvent('pacts-probe', false, false);
  probe.dispatchEvent(event);
  return ran;
};"""

# Resolves true on the next DOM mutation, false after ``ms`` without one.
# The next DOM change of the document (or its next readiness step: parsed, loaded, a script
# or picture loaded), at most
# ``ms``. ``since`` (epoch milliseconds, or null): when the caller last looked at the page; a
# change the page's watch (``runtime/js/watch.js``) saw after it, or a document newer than
# it (a navigation that committed meanwhile), answers at once: a probe that ran just before
# the change must not then wait out the cap for another one.
_NEXT_CHANGE = (
    """([ms, since]) => new Promise((resolve) => {
"""
    + _CALLBACKS_RUN
    + """
  // without callbacks nothing could wake this wait: answer "no change" at once (the caller
  // looks at the page's requests again)
  if (!callbacksRun()) { resolve(false); return; }
  if (since !== null) {
    const seen = globalThis.__pacts_changes;
    if (seen && seen.flush) seen.flush();
    const last = performance.timeOrigin + (seen ? seen.at : 0);
    if (last > since) { resolve(true); return; }
  }
  const events = ['readystatechange', 'load', 'error'];
  const done = (changed) => {
    observer.disconnect(); clearTimeout(timer);
    for (const e of events) document.removeEventListener(e, step, true);
    resolve(changed);
  };
  const step = () => done(true);
  const observer = new MutationObserver(step);
  observer.observe(document, {subtree: true, childList: true, attributes: true,
                              characterData: true});
  // a script, style or picture that finished loading (or failed) is a step of the page's
  // readiness too, though nothing in the DOM changes (load and error do not bubble: caught
  // on their way down)
  for (const e of events) document.addEventListener(e, step, true);
  const timer = setTimeout(() => done(false), ms);
})"""
)

POLL_CAP_MS = 100.0


def now_ms() -> float:
    return time.monotonic() * 1000.0


def epoch_ms() -> float:
    """Wall-clock milliseconds, the page's ``performance.timeOrigin`` scale (``since``)."""
    return time.time() * 1000.0


def wait_for_change(page: Page, cap_ms: float = POLL_CAP_MS, since: float | None = None) -> bool:
    """Wait for the next DOM mutation (or readiness step) of the top document, at most
    ``cap_ms``. ``since`` (:func:`epoch_ms`): when the caller's last look at the page began;
    a change or a new document after it answers at once.

    True when something changed (a navigation counts). Errors other than a navigation
    destroying the context propagate: a crashed page must be reported, not waited on.
    """
    try:
        return bool(
            bounded.call(
                page,
                "waiting for a DOM change",
                lambda: page.evaluate(_NEXT_CHANGE, [max(int(cap_ms), 1), since]),
                timeout_ms=cap_ms,
            )
        )
    except PlaywrightError as exc:
        if "context was destroyed" in str(exc) or "navigat" in str(exc):
            return True
        raise


def settled(
    page: Page, monitor: EnvMonitor, quiet_ms: float | None = None, looked: float | None = None
) -> bool:
    """Loaded and quiet, as observed: no navigation or request the page is waiting on in
    flight (:meth:`EnvMonitor.busy`, and the page's own count of the requests its scripts
    opened, which Playwright's events can lag behind: ``runtime/js/watch.js``), nothing
    still being drawn from its sockets (:meth:`EnvMonitor.drawing`; ``quiet_ms``: how long
    the caller has seen the DOM unchanged, None when not known), ``readyState`` complete,
    and no DOM change for two animation frames (one round trip). A missing element on a
    settled page is missing. ``looked`` (:func:`epoch_ms`): when the caller's last look at
    the page began; a change after it is not settled (what it looked at is stale)."""
    if monitor.busy(READY_CAP_MS) or monitor.drawing(READY_CAP_MS, quiet_ms):
        return False
    try:
        quiet = bounded.call(
            page,
            "waiting for a quiet page",
            lambda: page.evaluate(
                _QUIET_FRAMES, ["complete", monitor.acted_at, READY_CAP_MS, looked]
            ),
        )
    except PlaywrightError as exc:
        if "context was destroyed" in str(exc) or "navigat" in str(exc):
            return False
        raise
    return bool(quiet) and not monitor.busy(READY_CAP_MS)


def settled_after_check(
    page: Page,
    monitor: EnvMonitor,
    observed: bool | None,
    quiet_ms: float | None = None,
    lag_ms: float = 0.0,
) -> bool:
    """:func:`settled`, using what a gate check already observed over its two animation
    frames (``GateSnapshot.settled``, and ``quiet_ms``): no round trip when it was observed.
    ``lag_ms``: the check's round trip (how late a socket's frame may have been heard,
    :meth:`EnvMonitor.drawing`)."""
    if observed is None:
        return settled(page, monitor, quiet_ms)
    return (
        observed
        and not monitor.busy(READY_CAP_MS)
        and not monitor.drawing(READY_CAP_MS, quiet_ms, lag_ms)
    )


# True when the document is parsed (its deferred and module scripts have run; with
# "complete": loaded, images included) and nothing in it changed for two animation frames.
# The change watch (``runtime/js/watch.js``, in every document the engine opens) may
# already have seen two frames drawn since the last change, itself after the run's last action
# on the page (``since``, wall-clock ms): then the answer comes at once.
# Otherwise the next two frames are watched. Not quiet while a request the page's scripts
# opened less than ``requestsMs`` ago is open (the watch's count; 0: not asked). A hidden
# page gets no animation frames: a timer stands in for them. On a shown page the timer
# firing first means no frame came for a second (a starved renderer on a loaded machine):
# that is no evidence of quiet, so the answer is "not quiet" and the caller looks again.
_QUIET_FRAMES = (
    """([state, since, requestsMs, looked]) => new Promise((resolve) => {
  const seen = globalThis.__pacts_changes;
  // changed since the caller last looked: what it saw is stale
  if (looked && seen && seen.flush && (seen.flush(), performance.timeOrigin + seen.at > looked)) {
    resolve(false); return;
  }
  const idle = () => !(requestsMs && seen && seen.requests && seen.requests(requestsMs) > 0);
  const ready = () => (state ? document.readyState === state : document.readyState !== 'loading')
    && idle();
  // a body drawing no text and no control yet (a boot screen) is not settled (watch.js)
  const drawn = () => !(seen && seen.blank && seen.blank());
"""
    + _CALLBACKS_RUN
    + """
  // no scripts run: nothing but parsing and loading changes the page
  if (!callbacksRun()) { resolve(ready()); return; }
  if (seen && seen.flush && ready()) {
    seen.flush();
    // a quiet spell counts when it began after the run last acted on the page
    if (seen.frames >= 2 && performance.timeOrigin + seen.at >= since && drawn()) {
      resolve(true); return;
    }
  }
  let changed = false;
  let missed = false;
  const observer = new MutationObserver(() => { changed = true; });
  observer.observe(document, {subtree: true, childList: true, attributes: true,
                              characterData: true});
  const frame = () => new Promise((next) => {
    const hidden = document.visibilityState === 'hidden';
    const timer = setTimeout(() => { missed = missed || !hidden; next(); }, hidden ? 50 : 1000);
    requestAnimationFrame(() => { clearTimeout(timer); next(); });
  });
  frame().then(frame).then(() => {
    changed = changed || observer.takeRecords().length > 0;
    observer.disconnect(); resolve(!changed && !missed && ready() && drawn());
  });
})"""
)

READY_CAP_MS = 2_500.0

# Readiness's wait, in the page, on every animation frame: true as soon as the document is
# parsed and the change watch has seen two frames drawn since the last DOM change, a change
# after ``since`` (wall-clock ms), or two frames went by here without a change (no quiet
# spell that began before ``since`` counts).
# False after ``cap`` ms without that, or when a shown page got no frame for a second (a
# starved renderer: no evidence of quiet). null without the watch, or in a world that runs
# no callbacks (the caller then asks ``_QUIET_FRAMES``). Where asking for two fresh frames
# again after every change costs up to two frames more than the page needs, this answers on
# the first frame it is quiet. Not quiet while a request the page's scripts opened less than
# ``requestsMs`` ago is open (the watch's count: Playwright's request events can lag behind).
_QUIET_SOON = (
    """([since, cap, requestsMs]) => new Promise((resolve) => {
  const seen = globalThis.__pacts_changes;
"""
    + _CALLBACKS_RUN
    + """
  if (!seen || !seen.flush || !callbacksRun()) { resolve(null); return; }
  const start = performance.now();
  let own = 0;  // frames seen here since the last change
  let last = seen.at;
  const quiet = () => {
    seen.flush();
    if (seen.at !== last) { last = seen.at; own = 0; }
    return document.readyState !== 'loading' && seen.frames >= 2
      && (performance.timeOrigin + seen.at >= since || own >= 2)
      && !(requestsMs && seen.requests && seen.requests(requestsMs) > 0)
      && !(seen.blank && seen.blank());  // a boot screen is not quiet (watch.js)
  };
  if (quiet()) { resolve(true); return; }
  const next = () => {
    const hidden = document.visibilityState === 'hidden';
    let done = false;
    const tick = (real) => {
      if (done) return;
      done = true; clearTimeout(timer);
      if (!real) { resolve(false); return; }
      own += 1;
      if (quiet()) resolve(true);
      else if (performance.now() - start >= cap) resolve(false);
      else next();
    };
    const timer = setTimeout(() => tick(hidden), hidden ? 50 : 1000);
    requestAnimationFrame(() => tick(true));
  };
  next();
})"""
)

# How long one in-page wait of readiness may last before the run looks at the page's
# requests again (a request started meanwhile is seen then).
READY_SLICE_MS = 250.0


@dataclass(frozen=True)
class PageMark:
    """What can be observed of a page at one moment (:func:`mark_page`), to tell later
    whether anything happened to it since (:func:`unchanged_since`)."""

    at: float  # wall-clock ms (``epoch_ms``)
    documents: int  # ``EnvMonitor.documents``
    requests: int  # ``EnvMonitor.requests``
    active_at: float  # ``EnvMonitor.active_at``


def mark_page(monitor: EnvMonitor) -> PageMark:
    return PageMark(epoch_ms(), monitor.documents, monitor.requests, monitor.active_at)


# When the document last changed (wall-clock ms), and whether it has drawn two animation
# frames since with no request its scripts opened less than ``requestsMs`` ago still open,
# from the change watch; null without it.
_LAST_CHANGE = """(requestsMs) => {
  const seen = globalThis.__pacts_changes;
  if (!seen || !seen.flush) return null;
  seen.flush();
  const fetching = !!seen.requests && seen.requests(requestsMs) > 0;
  // a body drawing no text and no control yet (a boot screen) is not settled (watch.js)
  const blank = !!seen.blank && seen.blank();
  return {at: performance.timeOrigin + seen.at, quiet: seen.frames >= 2 && !fetching && !blank};
}"""


def unchanged_since(page: Page, monitor: EnvMonitor, mark: PageMark) -> bool:
    """Nothing observable happened to the page since ``mark`` and it is settled: no
    navigation, no request started or finished and none still open, no DOM change in the
    document since ``mark`` and two animation frames drawn since the last one (the change
    watch; one round trip). A page still changing (a ticking clock) may look different a
    moment later. False when that is not known. The watch does not see inside shadow roots
    or iframes: a change there alone goes unseen."""
    now = (monitor.documents, monitor.requests, monitor.active_at)
    if now != (mark.documents, mark.requests, mark.active_at) or monitor.navigating:
        return False
    if monitor.open_requests():
        return False
    try:
        last = bounded.call(
            page, "reading the page's last change", page.evaluate, _LAST_CHANGE, READY_CAP_MS
        )
    except PlaywrightError:
        return False
    if not isinstance(last, dict):
        return False
    at, quiet = last.get("at"), last.get("quiet")
    return quiet is True and isinstance(at, int | float) and at < mark.at


@dataclass(frozen=True)
class Readiness:
    """How waiting for a new page to be ready went (for the step's notes)."""

    waited_ms: float
    ready: bool  # False: the cap passed first
    open_requests: int  # requests still open when it stopped waiting
    # answered calls no longer waited on: the page drew two animation frames after their
    # headers and did not read their bodies (a beacon, a call whose answer it ignores)
    unread: int = 0
    # the page's quiet frames are left to the caller (``frames=False``): the requests are
    # done, the DOM has not been watched
    frames_left: bool = False


# long because: readiness's one loop over navigation, requests and quiet frames with one deadline
def wait_until_ready(
    page: Page,
    monitor: EnvMonitor,
    cap_ms: float = READY_CAP_MS,
    *,
    frames: bool = True,
    seen_changing: bool = False,
) -> Readiness:
    """Wait until a page is ready for its first action, by what can be observed: no
    navigation or request of the page in flight, then no DOM change for two animation
    frames; at most ``cap_ms`` (a page that polls or long-polls never settles).

    Apps that bind their handlers late (a module fetched after ``load``, a script injected by
    the load handler) drop an Enter or a click that comes before; so the first action on a
    new page waits for what the page is still fetching. A page that has loaded and started
    no request since (``EnvMonitor.quiet``) is ready at once, with no round trip.

    ``frames=False`` leaves the DOM's two quiet frames to the caller once the requests are
    done (``Readiness.frames_left``): the executor has the gate's check watch them, in the
    check's own round trip (``run_gate``'s ``settle``). With only answered calls open, the
    frames are watched here all the same (they decide whether the page reads the answers).
    ``seen_changing``: the caller saw the DOM change (such a check's frames), or nothing has
    looked at the page yet (a key press on the page): its quiet frames are watched even when
    the monitor has seen no request since ``load``.
    """
    if monitor.quiet and not seen_changing:
        return Readiness(0.0, True, 0)
    start = now_ms()
    deadline = start + cap_ms
    unread = 0
    while True:
        answered = not monitor.navigating and monitor.only_answered()
        if not frames and not answered and not (monitor.navigating or monitor.open_requests()):
            return Readiness(now_ms() - start, True, 0, unread, frames_left=True)
        if answered or not (monitor.navigating or monitor.open_requests()):
            started = monitor.requests
            looked = time.monotonic()
            # With only answered calls open, two new frames are watched (no quiet spell
            # from before counts): the page, which has their bodies, reads them meanwhile
            # or not at all.
            since = epoch_ms() if answered else monitor.acted_at
            try:
                # quiet: no DOM change, and no new request (a module importing the next one)
                cap = min(READY_SLICE_MS, max(deadline - now_ms(), 1.0))
                quiet = bounded.call(
                    page,
                    "waiting for a quiet page",
                    page.evaluate,
                    _QUIET_SOON,
                    [since, cap, READY_CAP_MS],
                    timeout_ms=cap + 1_500.0,  # and a frame that never came (1 s)
                )
                if quiet is None:  # no change watch in this document
                    quiet = bounded.call(
                        page,
                        "waiting for a quiet page",
                        page.evaluate,
                        _QUIET_FRAMES,
                        [None, since, READY_CAP_MS, None],
                    )
                if answered:
                    unread += monitor.drop_unread(looked)
                if quiet and monitor.requests == started and not monitor.open_requests():
                    return Readiness(now_ms() - start, True, 0, unread)
            except PlaywrightError as exc:
                if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                    raise
        if now_ms() >= deadline:
            return Readiness(now_ms() - start, False, len(monitor.open_requests()), unread)
        if monitor.navigating or monitor.open_requests():
            # wake on a DOM change or after a short cap; Playwright delivers the request
            # events meanwhile
            wait_for_change(page, min(50.0, max(deadline - now_ms(), 1.0)))
