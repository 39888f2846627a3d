"""A forced click's pointer events, stopped when they reach another element.

The engine forces its pointer actions after its own gate (``actions.py``), which skips
Playwright's hit-target interception: unforced, Playwright stops the click's events in the
page when the first of them reaches another element than its target ("element intercepts
pointer events") and tries again. The page can move the element between Playwright's reading
of its box and the button press (a block drawn above a list once its data arrives), and a
forced click then lands on whatever took its place (docs/engine.md, "After the gate").
:func:`missed_by` runs a forced click under the same interception, and holds the element to
the words the gate judged it by: a list patched in place (a framework reusing its nodes when
an entry is inserted above) leaves the checked node where it was, showing another entry.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame

from pytest_pacts.engine.env import navigations_of
from pytest_pacts.engine.select_step import Read
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.scripts import realm_function

__all__ = ["GUARD", "MISSED", "MISSED_IN_WINDOW", "missed_by"]

# Until the click is done, the element's window stops, in its capture phase, every trusted
# pointer event of the click when the first of them reached another element than the one the
# gate passed, by the gate's rule (``receivesEvents`` in actionability.js: the element's
# button or link, or a label of it with nothing interactive between), as Playwright's
# ``setupHitTargetInterceptor`` does; and the release with what follows it when the button
# came up on another element while the pressed one is still in the page (the press moved it:
# a field's blur showing a line above it). Removed by the read after the click, or after 10 s
# by itself. The listeners are added by the window's own ``addEventListener`` named bare: on a
# page that replaced a JavaScript built-in this function runs compiled in a fresh realm
# (``runtime/js/realm.js``), whose functions the window never calls back, and the bare name
# is then the realm's wrapper of the page's own.
# ``words``: the element's text when the gate passed it (``GateSnapshot.text``, at most 200
# characters). At the press and at the release the element must still show every one of them
# (a hover may add words: a card's revealed button), else the events are stopped as above: a
# list patched in place (Vue's default for a list without keys, React's with index keys) moves
# no node when an entry is drawn above the target, it gives the checked node the words of the
# entry above, and the hit test, being on that very node, passes (doccano 1.6.2's sidebar:
# "Members" checked, the node then showing "Labels" under the pointer).
GUARD = """([el], words) => {
  const win = el.ownerDocument.defaultView;
  const key = Symbol.for('pytest-pacts.pointer-guard');
  if (win[key]) win[key]();
  const up = (e) => e.parentElement || (e.parentNode && e.parentNode.host) || null;
  const own = el.matches('input, textarea, select') || el.isContentEditable;
  const target = own ? el : el.closest('button, [role=button], a, [role=link]') || el;
  const reaches = (h) => {
    for (let e = h; e; e = up(e)) if (e === target) return true;
    for (let e = h; e; e = up(e)) {
      if (e.tagName === 'LABEL') return e.control === el;
      if (e.matches('a[href], button, input, select, textarea')) return false;
    }
    return false;
  };
  const describe = (h) => {
    const words = (h.innerText || h.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return h.tagName.toLowerCase() + (h.id ? '#' + h.id : '') + (words ? ` "${words}"` : '');
  };
  const wordsOf = (t) => (t || '').toLowerCase().split(/\\s+/).filter(Boolean);
  const judged = wordsOf(words);
  if (words && words.length >= 200) judged.pop();  // cut there: its last word may be a part
  const changed = () => {  // the checked element no longer shows what the gate judged
    if (!judged.length) return null;
    const now = new Set(wordsOf(el.innerText || el.textContent));
    if (judged.every((w) => now.has(w))) return null;
    return {now: describe(el), was: words.slice(0, 40)};
  };
  const kinds = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick',
    'dblclick', 'contextmenu'];
  const hit = (ev) => {
    const path = ev.composedPath();
    return path[0] && path[0].nodeType === 1 ? path[0] : null;
  };
  let missed;  // undefined: no event yet; null: the first one reached the element
  let released = false;
  const listener = (ev) => {
    if (!ev.isTrusted) return;
    if (missed === undefined) {
      const h = hit(ev);
      missed = h && reaches(h) ? changed() : describe(h || el);
    } else if (missed === null && !released && (ev.type === 'pointerup' || ev.type === 'mouseup')) {
      // UI Events: a click goes to the nearest common ancestor of where the button went
      // down and where it came up; released elsewhere (the page moved the element between
      // the two), it is a click on that ancestor, not on the element
      released = true;
      const h = hit(ev);
      if (target.isConnected) missed = h && reaches(h) ? changed() : describe(h || el);
    }
    if (missed !== null) {
      stop.stopped = true;  // for a listener that ran before this one (the corpus's click watch)
      ev.preventDefault(); ev.stopPropagation(); ev.stopImmediatePropagation();
    }
  };
  const stop = () => {
    for (const k of kinds) removeEventListener(k, listener, true);
    clearTimeout(timer);
    if (win[key] === stop) delete win[key];
    return missed || null;
  };
  for (const k of kinds) addEventListener(k, listener, true);
  const timer = setTimeout(stop, 10000);
  win[key] = stop;
}"""
MISSED = """([el]) => {
  const stop = el.ownerDocument.defaultView[Symbol.for('pytest-pacts.pointer-guard')];
  return stop ? stop() : null;
}"""
# The same, read from the window of the frame that held the element: the guard is the
# window's, so it needs no element. One round trip whatever the click did: the element
# removed or redrawn by the click (no element to ask for its window, where the guard still
# is), or its document replaced by a navigation (a new window, with no guard: null).
MISSED_IN_WINDOW = """() => {
  const stop = window[Symbol.for('pytest-pacts.pointer-guard')];
  return stop ? stop() : null;
}"""


def missed_by(
    read: Read, click: Callable[[], None], words: str | None = None, frame: Frame | None = None
) -> str | None:
    """Do ``click`` (a forced click, check or uncheck on the element ``read`` asks) under
    :data:`GUARD`: what its pointer events reached instead of the element, in words, when
    they were stopped; ``None`` when they reached it (or its document is gone: the click on
    the element navigated it away). ``words``: the element's text when the gate passed it.
    ``frame``: the frame that holds the element, whose window the guard is read from when the
    element can no longer be read after the click (:data:`MISSED_IN_WINDOW`)."""
    read(GUARD, words or "")
    before = navigations_of(frame.page) if frame is not None else None
    click()
    if frame is not None and before is not None and navigations_of(frame.page) != before:
        # The click set off a navigation of the page: the element's document is gone or
        # going, and a read through the element would look for it in the next one (with
        # Playwright's selector code built there) before failing. The guard is read from
        # the window, one call: the old one's verdict while it is still there, null once
        # the new document is (the click on the element navigated it away).
        missed = _from_window(frame)
    else:
        try:
            missed = read(MISSED)
        except PlaywrightError:
            # The element is gone: its document navigated away (a new window, no guard:
            # null), or the page redrew the element as the pointer came (Kedro-Viz 12.5.0's
            # node rows drawn again on hover), where the window still holds the guard and
            # its verdict. Read first through the element, the clean path keeps one call
            # (docs/engine.md, "After the gate").
            missed = _from_window(frame) if frame is not None else None
    if isinstance(missed, dict):
        now, was = missed["now"], missed["was"]
        return f'the checked element shows other words now ({now}; checked as "{was}")'
    return f"the click reached {missed}, not the checked element" if missed else None


def _from_window(frame: Frame) -> object:
    """The guard's verdict read from ``frame``'s window (:data:`MISSED_IN_WINDOW`); ``None``
    when the frame cannot answer (detached, navigating)."""
    try:
        stopped = realm_function(MISSED_IN_WINDOW)
        return bounded.call(frame, "reading the click's guard", frame.evaluate, stopped)
    except PlaywrightError:
        return None
