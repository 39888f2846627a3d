"""The nine element actions (plus keyboard ``press`` without an element).

Each runs on a locator the gate has just verified (unique, visible, enabled, stable, scoped), so
Playwright's own actionability wait is skipped (``force=True``) instead of being done a second
time (the overhead budget: ≤ 1.05× plain Playwright, docs/benchmarks.md). One thing can change
between the gate and a pointer action: the gate measures the element where it receives events
(scrolling it clear of a sticky banner if needed) and then restores the scroll position. So a
pointer action whose hit test passed only once scrolled (``reach``) first re-runs the hit test
at the element's centre in the page (one round trip, no animation frames), scrolling it to the
viewport's centre if something covers it; if it is still covered, Playwright's full checks run
instead of the forced action. Acting on the wrong element is the worst outcome. When that scroll
moves the page under the pointer, the pointer follows the element it was hovering, as a hand
would: a menu opened by the previous step's hover stays open for the click on its item. Values
arrive resolved; :func:`reveal` is called only here, at the moment of typing, so a secret never
reaches a message.

The element acted on is the one the gate check passed, in the document it was checked in
(the executor hands in ``discovery.render.kept_locator``): Playwright resolves a locator again
at every action, and a page that navigated by itself after the check (a search box that
submits itself on a timer) would otherwise have the action land on whatever the locator
matches in the new document. When that document no longer holds the checked element, the
action raises :class:`CheckedElementGone` before anything reaches the page, and the executor
checks the page again (docs/engine.md, "When the page changes between the check and the
action").

Errors become :class:`~pytest_pacts.models.outcome.Failure` values; a field that does not take
the value typed into it is a ``value_rejected`` failure (RCA ``data_issue``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Page
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.engine import widgets
from pytest_pacts.engine.artifacts import await_heal_pictures
from pytest_pacts.engine.by_label import by_label
from pytest_pacts.engine.errors import classify_error
from pytest_pacts.engine.pointer_guard import missed_by
from pytest_pacts.engine.select_step import Read, select
from pytest_pacts.errors import PactsError
from pytest_pacts.models import Action
from pytest_pacts.models.outcome import DropdownUse, Failure, FailureType
from pytest_pacts.planner.templating import Secret, reveal
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.bridge import evaluate_on_element, kept_gone, kept_unknown, unkept


class CheckedElementGone(PactsError):
    """The document no longer holds the element the gate check passed (the page navigated
    by itself, or re-rendered the element), and nothing was done to the page yet."""


class PointerMissed(CheckedElementGone):
    """A forced click's pointer events reached another element than the one the gate
    passed (the page moved it between the check and the click) and were stopped before the
    page handled them (``pointer_guard``): nothing was done, and the step checks its
    element again."""


class _Progress:
    """Whether the action itself has been done (the reads after it may find the element's
    document replaced by what the action started: that is not a reason to act again)."""

    acted = False


def _shown(value: str) -> str:
    return str(value) if isinstance(value, Secret) else repr(value)


# long because: mostly its docstring; the body is one try over the action's dispatch
def perform(
    page: Page,
    element: PWLocator | None,
    action: Action,
    value: str | None,
    *,
    step_index: int,
    timeout_ms: float,
    reach: str | None = None,
    frame: Frame | None = None,
    keep: str | None = None,
    used: list[DropdownUse] | None = None,
    fallback: PWLocator | None = None,
    words: str | None = None,
) -> Failure | None:
    """Do ``action``; ``None`` when it was done (and, for fill/type, the field took it).
    Raises :class:`CheckedElementGone` when ``element`` (a kept locator) finds its document no
    longer holds the checked element before the action was done; ``fallback``: the plain
    locator, acted on when the kept locator cannot be used (its engine is not registered with
    this Playwright, or the page's world runs no listener: scripts disabled).
    ``used``: told how a select chose in a custom dropdown (the step record keeps it).
    ``words``: the element's text when the gate passed it, which a click's guard holds it to.
    ``reach``: how the gate check that just passed the element found the action reaches it
    (``GateSnapshot.reach``); ``None`` when unknown, so every check of the action's own runs.
    ``frame`` (the frame holding the element) and ``keep`` (the token the gate check kept
    it under): the action's reads of the element ask that very element, with no selector
    code in the page's world (``runtime/bridge.py``, ``evaluate_on_element``)."""
    await_heal_pictures(page)  # a heal's picture shows the page before the healed action
    try:
        if element is None:
            if action is Action.PRESS and value is not None:
                bounded.call(page, "pressing a key", page.keyboard.press, reveal(value))
                return None
            raise ValueError(f"{action.value} needs an element")
        target = element
        progress = _Progress()

        def read(js: str, arg: object = None) -> Any:
            return evaluate_on_element(
                target, js, arg, frame=frame, keep=keep, what="reading the element"
            )

        return bounded.call(
            page, action.value, _on_element, element, read, action, value, step_index,
            timeout_ms, reach, used, progress, words, frame, timeout_ms=timeout_ms,
        )  # fmt: skip
    except PlaywrightError as exc:
        if kept_gone(exc):
            if progress.acted:
                return None  # done on the checked element; its document was replaced since
            raise CheckedElementGone(str(exc).splitlines()[0]) from exc
        if kept_unknown(exc) and fallback is not None and not progress.acted:
            if "Unknown engine" in str(exc):
                unkept(page.context)  # no bridge engines here: the locator, as Playwright acts
            return perform(
                page, fallback, action, value, step_index=step_index, timeout_ms=timeout_ms,
                reach=reach, frame=frame, keep=keep, used=used, words=words,
            )  # fmt: skip
        failure = classify_error(exc, f"{action.value} failed", step_index)
        # Playwright's select_option on a native select that lacks the option
        native = "select_option" in str(exc)
        if (
            action is Action.SELECT
            and native
            and "option" in str(exc).lower()
            and value is not None
        ):
            return Failure(
                type=FailureType.EXPECTATION_FAILED,
                message=f"select: no option {_shown(value)} in the list",
                step_index=step_index,
                cause="value_rejected",
                evidence=failure.evidence,
            )
        return failure
    except ValueError as exc:
        return Failure(
            type=FailureType.EXPECTATION_FAILED,
            message=str(exc),
            step_index=step_index,
            cause="configuration",
        )


# Is the pointer's point on the element the element (or inside it, or inside a label of it)?
# If not, centre it in the viewport and ask again. The gate's point (``pointOf`` in dom.js:
# the middle of its first own box, where Playwright clicks) and shadow-aware hit test.
_READY_FOR_POINTER = """([el]) => {
  if (!el) return {hit: false, anchor: null};
  const up = (e) => e.parentElement || (e.parentNode && e.parentNode.host) || null;
  const hits = () => {
    const r = [...el.getClientRects()].find((q) => q.width * q.height > 0.99);
    if (!r) return false;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const win = el.ownerDocument.defaultView;
    if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) return false;
    let h = el.ownerDocument.elementFromPoint(x, y);
    while (h && h.shadowRoot) {
      const inner = h.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === h) break;
      h = inner;
    }
    // the gate's rule (receivesEvents in actionability.js): the element's button or link, or
    // a label of it with nothing interactive between (a custom checkbox's styled span)
    const own = el.matches('input, textarea, select') || el.isContentEditable;
    const target = own ? el : el.closest('button, [role=button], a, [role=link]') || el;
    for (let e = h; e; e = up(e)) if (e === target) return true;
    for (let e = h; e; e = up(e)) {
      if (e.tagName === 'LABEL') return e.control === el;
      if (e.matches('a[href], button, input, select, textarea')) return false;
    }
    return false;
  };
  if (hits()) return {hit: true, anchor: null};
  // Scrolling moves the page under a pointer that stays put: whatever it hovers (a menu's
  // trigger) slides away and a hover-revealed target closes. Note the hovered element so the
  // pointer can follow it, as a person's hand would.
  const doc = el.ownerDocument;
  const chain = [...doc.querySelectorAll(':hover')];
  const held = chain.length ? chain[chain.length - 1] : null;
  const keep = held && held !== doc.documentElement && held !== doc.body && !held.contains(el)
    ? held.getBoundingClientRect() : null;
  el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
  const hit = hits();
  if (!keep || !held.isConnected) return {hit, anchor: null};
  const now = held.getBoundingClientRect();
  if (now.x === keep.x && now.y === keep.y) return {hit, anchor: null};
  let x = now.left + now.width / 2, y = now.top + now.height / 2;
  const win = doc.defaultView;
  if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) return {hit, anchor: null};
  try {  // into the top viewport's coordinates (same-origin frames)
    for (let w = win; w.frameElement; w = w.parent) {
      const f = w.frameElement.getBoundingClientRect();
      x += f.left + w.frameElement.clientLeft; y += f.top + w.frameElement.clientTop;
    }
  } catch (e) { return {hit, anchor: null}; }
  return {hit, anchor: [x, y]};
}"""

_POINTER = frozenset({Action.CLICK, Action.HOVER, Action.CHECK, Action.UNCHECK})
# The pointer actions whose events do something to the element they reach (hover's only
# effect, the :hover state, is the browser's own and cannot be stopped by a listener)
_GUARDED = frozenset({Action.CLICK, Action.CHECK, Action.UNCHECK})
_ONE_CALL = _POINTER | {Action.FOCUS, Action.PRESS}


# long because: a table of the actions (click, fill, select, ...) over one located element
def _on_element(
    el: PWLocator,
    read: Read,
    action: Action,
    value: str | None,
    step_index: int,
    timeout_ms: float,
    reach: str | None,
    used: list[DropdownUse] | None = None,
    progress: _Progress | None = None,
    words: str | None = None,
    frame: Frame | None = None,
) -> Failure | None:
    t = timeout_ms
    done = progress or _Progress()
    force = True
    if reach == "label" and action in _GUARDED:
        # a hidden checkbox or radio drawn by its own label: the pointer goes to the label,
        # the control's state is read before and after (``by_label``)
        def guarded(act: Callable[[], None]) -> None:
            _guard(read, act, words, frame)
            done.acted = True

        return by_label(el, read, action, t, step_index, guarded)
    if action in _POINTER and reach != "in_place":
        # The gate's hit test passed only once it scrolled the element to the centre (and it
        # put the scroll back), or is unknown: forced only when the hit test right now says
        # the pointer lands on the element. When it passed where the element is, nothing
        # has moved since but the time of one round trip, as with a check here.
        ready = read(_READY_FOR_POINTER)
        force = bool(ready["hit"])
        if ready["anchor"] is not None:  # the page scrolled: the pointer follows what it held
            el.page.mouse.move(*ready["anchor"])
    # a field set by steps, and an input's type (a date's format), in one read
    kind = widgets.field_kind(read) if action is Action.FILL else (None, None)
    if action in _GUARDED:
        _guarded_call(el, read, action, value, force, t, words, frame)
        done.acted = True
    elif action in _ONE_CALL:
        _one_call(el, action, value, force, t)
        done.acted = True
    elif action is Action.SELECT:
        # A string matches an option's value or its label (Playwright), so a sheet may name
        # either: "Price (low to high)" or "lohi".
        if value is None:
            raise ValueError("select needs a value")
        chosen = select(el, read, reveal(value), t, widget=reach != "in_place")
        done.acted = True
        if isinstance(chosen, DropdownUse):
            if used is not None:
                used.append(chosen)
        elif chosen is not True:
            return Failure(
                type=FailureType.EXPECTATION_FAILED,
                message=_masked(chosen, value) or f"select: no option {_shown(value)} in the list",
                step_index=step_index,
                cause="value_rejected",
            )
    elif action is Action.FILL and kind[0] is not None:
        problem = widgets.set_by_steps(el, reveal(value or ""), t)
        done.acted = True
        if problem is not None:
            return Failure(
                type=FailureType.EXPECTATION_FAILED,
                message=_masked(problem, value or ""),
                step_index=step_index,
                cause="value_rejected",
            )
    elif action is Action.FILL or action is Action.TYPE:
        text = reveal(value or "")
        date_kind = kind[1]
        if date_kind in widgets.DATE_FORMATS:
            fitted, problem = widgets.date_value(str(date_kind), text)
            if fitted is None:
                return Failure(
                    type=FailureType.EXPECTATION_FAILED,
                    message=_masked(problem or "", value or ""),
                    step_index=step_index,
                    cause="value_rejected",
                )
            el.fill(fitted, force=force, timeout=t)
            done.acted = True
            return _took(read(_VALUE), action, value or "", fitted, step_index)
        end_from: object = None  # the field's value before the End key, when pressed
        if action is Action.FILL:
            el.fill(text, force=force, timeout=t)
            done.acted = True
            end_from = read(_END_KEY_REACHES_FIELD)
            if isinstance(end_from, str):
                # A person's typing ends with key events; fill sends only ``input``. A filter
                # box that reacts to ``keyup`` alone (Flask-Admin's) never sees the value. The
                # End key adds a keydown/keyup pair (no keypress, no character) that leaves
                # the value as it is. It goes where the focus is, the field the fill focused
                # (one round trip, where ``Locator.press`` finds and focuses it again). A
                # field that gave the focus away on input (a code box moving on to the next
                # one) has seen its value: no End, and the focus stays where the app put it.
                el.page.keyboard.press("End")
        else:
            # keystrokes go where a person's would: after what the field already holds
            read(_CARET_TO_END)
            el.press_sequentially(text, timeout=t)
            done.acted = True
        # read after the keys: a code editor's input field (CodeMirror's) hands its text on
        # to the editor and empties itself only then
        current = read(_VALUE)
        if isinstance(end_from, str) and current and current != end_from:
            # End changed the value: the field gives it a meaning of its own (WAI-ARIA's
            # spinbutton pattern: End sets the maximum; React Aria's number field). Put
            # back what Playwright's fill alone leaves: the value, and ``input``, no key.
            # (A code editor's field that handed its text on is empty: not filled again.)
            el.fill(text, force=force, timeout=t)
            current = read(_VALUE)
        failure = _took(current, action, value or "", text, step_index)
        took = failure is None or action is not Action.FILL or not text
        if not took and _editor_took(el, read, text, t):
            return None
        return failure
    else:
        raise ValueError(f"{action.value} is not an element action")
    return None


def _guarded_call(
    el: PWLocator,
    read: Read,
    action: Action,
    value: str | None,
    force: bool,
    t: float,
    words: str | None,
    frame: Frame | None,
) -> None:
    """A click, check or uncheck, forced under ``pointer_guard`` (unforced, Playwright's own
    interception does the same); raises :class:`PointerMissed` when its events reached
    another element and were stopped."""
    if not force:
        _one_call(el, action, value, force, t)
        return
    _guard(read, lambda: _one_call(el, action, value, force, t), words, frame)


def _guard(read: Read, act: Callable[[], None], words: str | None, frame: Frame | None) -> None:
    """``act`` (a forced click) under the pointer guard, read back through the element, and
    from ``frame``'s window when the element is gone (``pointer_guard.missed_by``); raises
    :class:`PointerMissed`."""
    missed = missed_by(read, act, words, frame)
    if missed:
        raise PointerMissed(
            f"{missed} (the page moved or redrew it between the check and the click); it "
            "was stopped before the page handled it"
        )


def _one_call(el: PWLocator, action: Action, value: str | None, force: bool, t: float) -> None:
    """The actions that are one Playwright call on the element (:data:`_ONE_CALL`)."""
    if action is Action.CLICK:
        el.click(force=force, timeout=t)
    elif action is Action.HOVER:
        el.hover(force=force, timeout=t)
    elif action is Action.FOCUS:
        el.focus(timeout=t)
    elif action is Action.CHECK:
        el.check(force=force, timeout=t)
    elif action is Action.UNCHECK:
        el.uncheck(force=force, timeout=t)
    else:
        el.press(reveal(value or ""), timeout=t)


# A field where End only moves the caret (text-like inputs, textareas, contenteditable: in a
# date or time field Chromium's End sets the focused part to its maximum; range, color and
# the rest are left alone), that has the keyboard's focus (its document has it, and it is its
# document's or shadow root's focused element, or inside the focused editing host): its value
# then (what ``_VALUE`` reads), else null.
_END_KEY_REACHES_FIELD = """([el]) => {
  if (!el || !(el.tagName === 'TEXTAREA' || el.isContentEditable
    || (el.tagName === 'INPUT' && ['text', 'search', 'email', 'url', 'tel', 'password', 'number']
      .includes((el.getAttribute('type') || 'text').toLowerCase())))) return null;
  const active = el.getRootNode().activeElement;
  const focused = el.ownerDocument.hasFocus()
    && (active === el || (el.isContentEditable && !!active && active.contains(el)));
  return !focused ? null : typeof el.value === 'string' ? el.value : el.innerText;
}"""

_CARET_TO_END = """([el]) => { if (!el) return; el.focus();
  if (typeof el.setSelectionRange === 'function' && typeof el.value === 'string') {
    try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) { /* email */ }
  } }"""


def _masked(message: str | bool, value: str) -> str:
    """``message`` with a secret value's text replaced by ``***``."""
    text = "" if isinstance(message, bool) else message
    if isinstance(value, Secret):
        for part in sorted({reveal(value), *widgets.split_choices(reveal(value))}, key=len)[::-1]:
            if part:
                text = text.replace(part, "***")
    return text


# A code editor's input field (CodeMirror's hidden textarea) hands what is typed into it on to
# the editor and empties itself, and a fill there inserts at the caret rather than replacing
# the editor's text. A person selects all and types: so when a filled field ended up empty,
# the text is entered again that way (select all, insert the text, as the keyboard does) and
# the fill took if the editor around the field now shows exactly that text.
_EDITOR_SHOWS = """([el], text) => {
  if (!el || ('value' in el && el.value !== '')) return false;
  const norm = (t) => (t || '').replace(/\\s+/g, ' ').trim();
  const want = norm(text);
  let a = el.parentElement;
  for (let i = 0; a && i < 6; i++, a = a.parentElement) {
    const shown = norm(a.innerText);
    if (!shown.includes(want)) continue;
    // the closest container showing the text shows nothing else but line numbers
    return /^[\\d\\s]*$/.test(shown.replace(want, ''));
  }
  return false;
}"""


def _editor_took(el: PWLocator, read: Read, text: str, timeout_ms: float) -> bool:
    if read(_VALUE) != "":
        return False
    el.focus(timeout=timeout_ms)
    el.page.keyboard.press("ControlOrMeta+A")
    el.page.keyboard.insert_text(text)
    el.page.keyboard.press("End")
    return bool(read(_EDITOR_SHOWS, text))


_VALUE = """([el]) => !el ? null : ('value' in el && typeof el.value === 'string') ? el.value
  : (el.isContentEditable ? el.innerText : null)"""


def _took(
    current: str | None, action: Action, value: str, text: str, step_index: int
) -> Failure | None:
    """Did the field keep what was typed (``current``: what it holds)? A maxlength, an input
    mask or a number field can silently drop it: ``data_issue``."""
    if current is None:
        return None
    ok = current == text if action is Action.FILL else str(current).endswith(text)
    if ok:
        return None
    shown = "***" if isinstance(value, Secret) else repr(current)
    return Failure(
        type=FailureType.EXPECTATION_FAILED,
        message=f"{action.value}: the field did not take the value {_shown(value)} "
        f"(it holds {shown})",
        step_index=step_index,
        cause="value_rejected",
    )


# The actions that are one plain Playwright call on a located element, with their value and
# a timeout in ms: what generated code and an imported recording's replay both do (the
# engine's own steps go through perform(), gated).
PLAIN_CALLS: dict[Action, Callable[[PWLocator, str, float], None]] = {
    Action.CLICK: lambda loc, _value, ms: loc.click(timeout=ms),
    Action.FILL: lambda loc, value, ms: loc.fill(value, timeout=ms),
    Action.TYPE: lambda loc, value, ms: loc.press_sequentially(value, timeout=ms),
    Action.PRESS: lambda loc, value, ms: loc.press(value, timeout=ms),
    Action.CHECK: lambda loc, _value, ms: loc.check(timeout=ms),
    Action.UNCHECK: lambda loc, _value, ms: loc.uncheck(timeout=ms),
    Action.HOVER: lambda loc, _value, ms: loc.hover(timeout=ms),
    Action.FOCUS: lambda loc, _value, ms: loc.focus(timeout=ms),
}
