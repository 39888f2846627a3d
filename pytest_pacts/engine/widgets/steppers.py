"""Sliders and spin buttons, set as a person sets them (the rules: ``widgets/__init__.py``).

``set_by_steps`` moves the field with the keyboard (Home/End to an edge, then the arrow keys,
as many presses as the value is steps away), or, for a spin button keys do not move, by its
``+``/``-`` buttons; a bounded number of steps, then a failure saying what the field holds.
"""

from __future__ import annotations

import math
import re
from typing import Any

from playwright.sync_api import ElementHandle
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.engine.widgets.clock import Clock

MAX_STEPS = 500  # key presses or button clicks to set one slider or spin button

_RANGE_STATE = """(el) => {
  const num = (v) => (v === null || v === undefined || v === '' || isNaN(Number(v)))
    ? null : Number(v);
  const aria = (a) => el.getAttribute(a);
  const input = el.tagName === 'INPUT';
  const role = (el.getAttribute('role') || '').toLowerCase();
  return {
    kind: input ? (el.type === 'range' ? 'range' : 'number') : role,
    now: input ? num(el.value) : num(el.getAttribute('aria-valuenow')),
    text: input ? el.value : (aria('aria-valuetext') || aria('aria-valuenow') || ''),
    min: input ? num(el.min === '' && el.type === 'range' ? 0 : el.min)
      : num(aria('aria-valuemin')),
    max: input ? num(el.max === '' && el.type === 'range' ? 100 : el.max)
      : num(aria('aria-valuemax')),
    vertical: (el.getAttribute('aria-orientation') || '').toLowerCase() === 'vertical',
  };
}"""

# the +/- buttons next to a spin field: within the closest container that holds buttons
# named +/- (or increase/decrease, increment/decrement, plus/minus) and no other spin field
_STEP_BUTTON = r"""(el, up) => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
  const name = (b) => norm(b.getAttribute('aria-label') || b.getAttribute('title')
    || b.innerText || b.value);
  const UP = /^(\+|＋|plus|increase|increment|step up)$|^(increase|increment)\b/;
  const DOWN = /^(-|−|–|minus|decrease|decrement|step down)$|^(decrease|decrement)\b/;
  const pattern = up ? UP : DOWN;
  const FIELDS = 'input[type=number], [role=spinbutton], [role=slider], input[type=range]';
  for (let a = el.parentElement, i = 0; a && i < 3; a = a.parentElement, i++) {
    if ([...a.querySelectorAll(FIELDS)].some((f) => f !== el && !f.contains(el))) return null;
    const hits = [...a.querySelectorAll('button, [role=button], input[type=button]')]
      .filter((b) => pattern.test(name(b)) && !b.disabled);
    if (hits.length === 1) return hits[0];
    if (hits.length > 1) return null;
  }
  return null;
}"""


# What a fill needs to know of its field, in one read (one round trip where it took two):
# how it is set when it is set by steps (``range``/``slider``/``spinbutton``/``number``, else
# null), and an ``<input>``'s type as written (a date or time type takes HTML's value format,
# ``dates.py``; else null).
_FIELD_KIND = """([el]) => !el ? [null, null] : [
  (el.tagName === 'INPUT' && el.type === 'range') ? 'range'
  : (el.tagName === 'INPUT' && el.type === 'number' && el.readOnly) ? 'number'
  : el.tagName === 'INPUT' || el.isContentEditable ? null
  : ['slider', 'spinbutton'].includes((el.getAttribute('role') || '').toLowerCase())
    ? el.getAttribute('role').toLowerCase() : null,
  el.tagName !== 'INPUT' ? null : (el.getAttribute('type') || '').toLowerCase()]"""


def field_kind(read: Any) -> tuple[str | None, str | None]:
    """``(settable, input type)``: ``range``/``slider``/``spinbutton``/``number`` for a field
    set by steps, else ``None``; the type attribute of an ``<input>`` (lower case), else
    ``None``. ``read``: the action's element read (``actions.perform``)."""
    kind = read(_FIELD_KIND)
    settable, typed = kind if isinstance(kind, list) and len(kind) == 2 else (None, None)
    return (str(settable) if settable else None), (None if typed is None else str(typed))


def _number(text: str) -> float | None:
    try:
        n = float(text.strip())
    except ValueError:
        return None
    return n if math.isfinite(n) else None


class _Stepper:
    """One field being set: what it holds now, and the steps taken so far."""

    def __init__(self, el: PWLocator, value: str, timeout_ms: float) -> None:
        self.clock = Clock(timeout_ms)
        self.handle: ElementHandle = el.element_handle(timeout=self.clock.left())
        self.value = value
        self.target = _number(value)
        self.state: dict[str, Any] = self.read()
        self.kind = str(self.state["kind"])
        vertical = bool(self.state["vertical"])
        self.up_key, self.down_key = (
            ("ArrowUp", "ArrowDown") if self.kind in {"spinbutton", "number"} or vertical
            else ("ArrowRight", "ArrowLeft")
        )  # fmt: skip
        self.buttons = self.kind == "number"  # a read-only number field moves only by buttons
        self.used = 0

    def read(self) -> dict[str, Any]:
        state: dict[str, Any] = self.handle.evaluate(_RANGE_STATE)
        return state

    def holds(self, s: dict[str, Any] | None = None) -> bool:
        s = self.state if s is None else s
        if self.target is not None and s["now"] is not None:
            return bool(abs(float(s["now"]) - self.target) < 1e-9)
        return re.sub(r"\s+", " ", str(s["text"])).strip().lower() == self.value.strip().lower()

    def press(self, key: str) -> None:
        self.handle.press(key, timeout=self.clock.left())

    def step(self, up: bool, times: int = 1) -> bool:
        """``times`` steps up or down; ``False`` when out of steps, time or buttons."""
        for _ in range(times):
            if self.used >= MAX_STEPS or self.clock.over:
                return False
            self.used += 1
            if self.buttons:
                b = self.handle.evaluate_handle(_STEP_BUTTON, up).as_element()
                if b is None:
                    return False
                b.click(timeout=self.clock.left())
            else:
                self.press(self.up_key if up else self.down_key)
        return True

    def to_number(self, target: float) -> str | None:
        """Step to ``target``: an edge by Home/End, else one step to learn the step's size,
        then as many as the value is away; ``None`` when done or out of steps (the caller
        says what the field holds), else why the field cannot take it."""
        for edge, key in ((self.state["min"], "Home"), (self.state["max"], "End")):
            if not self.buttons and edge is not None and abs(float(edge) - target) < 1e-9:
                self.press(key)
                self.state = self.read()
        size: float | None = None
        while not self.holds():
            now = self.state["now"]
            if now is None:
                return f"fill: the {self.kind} shows no value to step from"
            up = target > float(now)
            if size is None:
                if not self.step(up):
                    return None
                after = self.read()
                moved = after["now"] is not None and after["now"] != now
                if not moved and not self.buttons and self.kind == "spinbutton":
                    self.buttons = True  # the keys do nothing: its +/- buttons do it
                    continue
                if not moved:
                    how = "its +/- buttons" if self.buttons else "arrow keys"
                    return (
                        f"fill: the {self.kind} did not move when stepped ({how}); "
                        f"it holds {self.state['text']!r}"
                    )
                size = abs(float(after["now"]) - float(now))
                self.state = after
                continue
            if not self.step(up, max(1, round(abs(target - float(now)) / size))):
                return None
            self.state = self.read()
            if self.state["now"] == now:
                return None
            if (target > float(self.state["now"])) != up and not self.holds():
                # it stepped past the value: its steps do not land on it
                return (
                    f"fill: the {self.kind} cannot take {self.value!r}: it moves in steps of "
                    f"{size:g} and holds {self.state['text']!r}"
                )
        return None

    def to_named(self) -> None:
        """Step to a named value (``aria-valuetext``): from the minimum up, one at a time."""
        if not self.buttons:
            self.press("Home")
        self.state = self.read()
        while not self.holds():
            before = self.state["text"]
            if not self.step(True):
                return
            self.state = self.read()
            if self.state["text"] == before:
                return


def set_by_steps(el: PWLocator, value: str, timeout_ms: float) -> str | None:
    """Set a slider or spin button to ``value`` by steps; ``None`` when it holds it, else
    what went wrong."""
    field = _Stepper(el, value, timeout_ms)
    if field.holds():
        return None
    field.handle.focus()
    if field.target is not None:
        problem = field.to_number(field.target)
        if problem is not None:
            return problem
    else:
        field.to_named()
    if field.holds():
        return None
    return (
        f"fill: could not set the {field.kind} to {value!r} ({field.used} steps); "
        f"it holds {field.state['text']!r}"
    )
