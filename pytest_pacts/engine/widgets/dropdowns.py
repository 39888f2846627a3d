"""Custom dropdowns, chosen as a person chooses (the rules: ``widgets/__init__.py``).

``choose`` opens the combobox unless its list is shown, types the option's name into its
editable field when it has one, clicks the option named by the value in the list the
combobox names (or the one list shown), and waits until the widget took it; the in-page parts
are in ``dropdown_js.py``.
"""

from __future__ import annotations

import contextlib

from playwright.sync_api import ElementHandle, JSHandle
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from pytest_pacts.engine.widgets.clock import Clock
from pytest_pacts.engine.widgets.dropdown_js import (
    FIELD_JS,
    FIND_JS,
    IS_OPEN_JS,
    ON_SHOW_JS,
    SHOWN_VALUE_JS,
    TARGET_JS,
    TOOK_JS,
)
from pytest_pacts.models.outcome import DropdownUse

SEPARATOR = ";"
"""Several options in one ``select`` cell: ``Apple; Banana`` (docs/reference.md)."""


def split_choices(value: str) -> list[str]:
    """The options one ``select`` cell names: the parts between :data:`SEPARATOR` (one part
    when there is none)."""
    parts = [p.strip() for p in value.split(SEPARATOR)]
    return [p for p in parts if p] or [value.strip()]


def _element(handle: JSHandle) -> ElementHandle | None:
    return handle.as_element()


def choose(el: PWLocator, value: str, timeout_ms: float) -> DropdownUse | str:
    """Choose the options ``value`` names in the custom dropdown ``el``: how it was done
    when done (the generated test repeats it), else what went wrong (before any option was
    clicked when no option or list is evident)."""
    clock = Clock(timeout_ms)
    own = el.element_handle(timeout=clock.left())
    combo = _element(own.evaluate_handle(TARGET_JS))
    if combo is None:
        return "select: the dropdown is no longer in the page"
    names = split_choices(value)
    uses: list[DropdownUse] = []
    for name in names:
        done = _choose_one(combo, own, name, clock)
        if isinstance(done, str):
            _close(combo)
            return done
        uses.append(done)
    if len(names) > 1:
        _close(combo)
    return DropdownUse(
        opened=tuple(o for u in uses for o in u.opened),
        typed=any(u.typed for u in uses),
        option_role=uses[0].option_role,
        text_field=uses[0].text_field,
    )


def _choose_one(
    combo: ElementHandle, own: ElementHandle, name: str, clock: Clock
) -> DropdownUse | str:
    # a text field that is no drop-down by its markup is clicked, as a person does, and its
    # list must be one that opens then: nothing is typed into it (docs/engine.md)
    before = combo.evaluate_handle(ON_SHOW_JS)
    text_field = bool(before.evaluate("(b) => b !== null"))
    opened = not combo.evaluate(IS_OPEN_JS)
    if opened:
        combo.click(timeout=clock.left())
    field = None if text_field else _element(combo.evaluate_handle(FIELD_JS))
    if field is not None:
        field.fill("", timeout=clock.left())
        field.type(name, timeout=clock.left())  # key by key: a filter that listens to keys
    option = _find_and_click(combo, name, before, clock, typed=field is not None)
    if isinstance(option, str):
        return option
    # read after the click (nothing between finding the option and clicking it: a list
    # drawn again meanwhile would move it); a removed option still answers
    role = "option"
    with contextlib.suppress(PlaywrightError):
        role = option.get_attribute("role") or role
    frame = combo.owner_frame()
    if frame is None:
        return "select: the dropdown's frame is gone"
    try:
        frame.wait_for_function(TOOK_JS, arg=[combo, option, name, own], timeout=clock.left())
    except PlaywrightTimeout:
        shown = own.evaluate(SHOWN_VALUE_JS) or combo.evaluate(SHOWN_VALUE_JS)
        return f"select: the option {name!r} was clicked but the dropdown shows {shown!r}"
    return DropdownUse(
        opened=(opened,), typed=field is not None, option_role=role.lower(), text_field=text_field
    )


def _find_and_click(
    combo: ElementHandle, name: str, before: JSHandle, clock: Clock, *, typed: bool
) -> ElementHandle | str:
    """Find the option ``name`` and click it: the option clicked, else what went wrong. A
    list drawn again (a filter catching up with the typing, results arriving in parts) removes
    the option found: it is looked up again, by the same name, while the step has time. A
    press that reached another element (a list re-rendered under the pointer) is tried at most
    three times."""
    missed = 0
    while missed < 3:
        found = _find(combo, name, before, clock, typed=typed)
        status = found.get_property("status").json_value()
        if status != "found":
            error = str(found.get_property("error").json_value())
            return f"select: {error}"
        option = _element(found.get_property("option"))
        if option is None:
            return "select: the option left the page"
        try:
            if _click_option(option, combo, clock):
                return option
            missed += 1
        except PlaywrightError as exc:
            # the list was drawn again: find it again, unless the step's time is spent
            if "not attached" not in str(exc) or clock.over:
                raise
    # each press reached another element and was stopped before the page handled it
    return (
        f"select: the option {name!r} kept moving from under the pointer (the page redrew "
        "its list between the check and the press); each press was stopped before the page "
        "handled it"
    )


# Is ``el`` still what the pointer at its centre points at? (``elementFromPoint`` of its own
# document or shadow root: the centre of its box, as Playwright clicks.)
_UNDER_POINTER_JS = """(el) => {
  if (!el.isConnected) return false;
  const r = el.getBoundingClientRect();
  const root = el.getRootNode();
  const at = (root.elementFromPoint ? root : el.ownerDocument)
    .elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!at && (at === el || el.contains(at));
}"""


# The press held to the option, as the pointer guard holds the engine's clicks
# (``engine/pointer_guard.py``): until the release, the window stops in its capture phase
# every trusted pointer event of the click when the first of them, the press, reached
# another element than the option (a list redrawn between the check and the press: a
# select2 list re-rendered as its results arrive put another option under the pointer).
# ``_PRESS_MISSED`` removes it and says whether it stopped them.
_PRESS_GUARD = """(el) => {
  const win = el.ownerDocument.defaultView;
  const key = Symbol.for('pytest-pacts.option-press');
  if (win[key]) win[key]();
  const kinds = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'];
  let missed;
  const listener = (ev) => {
    if (!ev.isTrusted) return;
    if (missed === undefined) {
      const path = ev.composedPath();
      missed = true;
      for (let i = 0; i < path.length; i++) if (path[i] === el) missed = false;
    }
    if (missed) { ev.preventDefault(); ev.stopPropagation(); ev.stopImmediatePropagation(); }
  };
  const stop = () => {
    for (const k of kinds) removeEventListener(k, listener, true);
    clearTimeout(timer);
    if (win[key] === stop) delete win[key];
    return missed === true;
  };
  for (const k of kinds) addEventListener(k, listener, true);
  const timer = setTimeout(stop, 10000);
  win[key] = stop;
}"""
_PRESS_MISSED = """(el) => {
  const stop = el.ownerDocument.defaultView[Symbol.for('pytest-pacts.option-press')];
  return stop ? stop() : false;
}"""


def _click_option(option: ElementHandle, combo: ElementHandle, clock: Clock) -> bool:
    """Click ``option`` as Playwright's ``click`` does (its checks first: visible, stable,
    enabled, the option under the pointer), pressing and releasing the mouse at the option's
    centre, but never releasing it over an element the step did not check. A dropdown that takes its
    option on the press (a ``mousedown`` handler) hides its list before the release: the
    release then lands on whatever the page draws under the list (Fava 1.30's chart), which
    gets a ``mouseup``, and the ``click`` goes to the nearest common ancestor of the pressed
    and released elements (UI Events, "click"), the whole report. So the release is made
    where the option still is, else on the dropdown the step checked (``combo``): the click
    then stays inside the dropdown. Where neither is under the pointer, the release is made in
    place, as Playwright's own click would. The press is held to the option
    (:data:`_PRESS_GUARD`): ``False`` when it reached another element and was stopped
    before the page handled it (nothing was chosen), ``True`` when clicked."""
    frame = option.owner_frame()
    page = frame.page if frame is not None else None
    # (not ``click(trial=True)``: its hit-target check delivers a trusted pointerdown and
    # click to the page, observed with Playwright 1.65)
    for state in ("visible", "stable", "enabled"):
        option.wait_for_element_state(state, timeout=clock.left())
    option.scroll_into_view_if_needed(timeout=clock.left())
    box = option.bounding_box()
    if page is None or box is None or not option.evaluate(_UNDER_POINTER_JS):
        option.click(timeout=clock.left())  # Playwright's own click: it waits and retries
        return True
    option.evaluate(_PRESS_GUARD)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    try:
        with contextlib.suppress(PlaywrightError):
            if not option.evaluate(_UNDER_POINTER_JS):
                own = combo.bounding_box()
                if own is not None and combo.evaluate(_UNDER_POINTER_JS):
                    page.mouse.move(own["x"] + own["width"] / 2, own["y"] + own["height"] / 2)
    finally:
        page.mouse.up()
    try:
        return not option.evaluate(_PRESS_MISSED)
    except PlaywrightError:
        return True  # the option's document is gone: the click on it navigated away


def _find(
    combo: ElementHandle, name: str, before: JSHandle, clock: Clock, *, typed: bool
) -> JSHandle:
    """The answer of ``FIND_JS``, waiting (within the step's time) while it is pending, or, after
    typing, while the list does not hold the option yet (filtering, loading)."""
    waiting = {"pending"} | ({"missing"} if typed else set())
    frame = combo.owner_frame()
    found = combo.evaluate_handle(FIND_JS, [name, before])
    if found.get_property("status").json_value() in waiting and frame is not None:
        wait = f"([c, a]) => !{sorted(waiting)!r}.includes(({FIND_JS})(c, a).status)"
        with contextlib.suppress(PlaywrightError):  # the answer below says what is listed
            left = clock.left(200) - 150
            frame.wait_for_function(wait, arg=[combo, [name, before]], timeout=left)
        found = combo.evaluate_handle(FIND_JS, [name, before])
    return found


_FOCUS_IN = """(c) => {
  const a = c.ownerDocument.activeElement;
  return !!a && (c === a || c.contains(a) || !!a.closest('[role=listbox], [role=dialog]'));
}"""


def _close(combo: ElementHandle) -> None:
    """Close a list left open (a multi-select keeps it open), as a person does: Escape, where
    the keyboard's focus is in the dropdown."""
    with contextlib.suppress(PlaywrightError):
        if combo.evaluate(IS_OPEN_JS) and combo.evaluate(_FOCUS_IN):
            combo.press("Escape", timeout=1_000)
