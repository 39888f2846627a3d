"""Widgets a person sets without thinking: custom dropdowns, sliders, spin buttons, dates.

**Dropdowns** (``select`` on anything but a native ``<select>`` that holds the option, see
``actions.py``) follow the WAI-ARIA APG combobox and listbox patterns
(https://www.w3.org/WAI/ARIA/apg/patterns/combobox/, .../patterns/listbox/), which the
component libraries' dropdowns implement (select2, react-select, MUI, baseweb, Headless UI):
the combobox is clicked open unless its list is shown; an editable one (an ``<input>``, or a
search field that takes the focus when the list opens) gets the option's name typed, as a
person filters; the list is the element the combobox names in ``aria-controls`` or
``aria-owns`` (often rendered in a portal at the end of ``<body>``), or, when it names none,
the one list of options shown on the page; the option is the one whose accessible name is the
value (exactly, then ignoring case). An option name that matches several options, a value that
matches none, or no list evident (none shown, or several and none named by the combobox) fails
before an option is clicked, saying what was found. Several values in one cell are separated by
:data:`SEPARATOR`, each chosen in turn (multi-select comboboxes and listboxes).

**Sliders and spin buttons** (``fill`` on an ``<input type=range>``, an ARIA ``slider`` or a
``spinbutton`` that is not a text field) are set as a person does with the keyboard (APG slider
and spinbutton patterns: Home/End for the minimum/maximum, the arrow keys by one step), or, for
a spin button that keys do not move, by its ``+``/``-`` buttons next to it; a bounded number of
steps, then a failure saying what the field holds.

Every call here runs inside the action's bounded call (``actions.perform``) and has its own
time limit from the step's deadline.
"""

from __future__ import annotations

import contextlib
import math
import re
import time
from typing import Any

from playwright.sync_api import ElementHandle, JSHandle
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import TimeoutError as PlaywrightTimeout

SEPARATOR = ";"
"""Several options in one ``select`` cell: ``Apple; Banana`` (docs/reference.md)."""

MAX_STEPS = 500  # key presses or button clicks to set one slider or spin button

_COMMON = r"""
  const norm = (s) => (s == null ? '' : String(s)).replace(/\s+/g, ' ').trim();
  const low = (s) => norm(s).toLowerCase();
  const shown = (e) => {
    if (!e || !e.isConnected) return false;
    if (e.checkVisibility && !e.checkVisibility({visibilityProperty: true})) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  // shown to a person: a native select that a widget hides keeps a 1px clipped box
  // (select2's ``select2-hidden-accessible``) or is aria-hidden, which Playwright calls visible
  const seen = (e) => shown(e) && e.getAttribute('aria-hidden') !== 'true'
    && e.getBoundingClientRect().width > 1 && e.getBoundingClientRect().height > 1;
  const role = (e) => (e.getAttribute('role') || '').toLowerCase();
  const describe = (e) => {
    const cls = typeof e.className === 'string' ? e.className.trim().split(/\s+/)[0] : '';
    return e.tagName.toLowerCase() + (role(e) ? `[role=${role(e)}]` : '')
      + (e.id ? '#' + e.id : cls ? '.' + cls : '');
  };
  const isCombo = (e) => ['combobox', 'listbox'].includes(role(e))
    || low(e.getAttribute('aria-haspopup')) === 'listbox';
  // the widget standing in for a hidden native select (the gate's rule, ``selectProxy`` in
  // discovery/js/actionability.js)
  const WIDGET = new RegExp('(^|[-_\\s])(select2|chosen|selectize|choices|combobox'
    + '|multiselect|select|dropdown)([-_\\s]|$)', 'i');
  const widget = (e) => !!e && e.nodeType === 1 && e.tagName !== 'SELECT' && shown(e)
    && (WIDGET.test(typeof e.className === 'string' ? e.className : '') || WIDGET.test(e.id || '')
      || isCombo(e) || !!e.querySelector('[role=combobox], [aria-haspopup=listbox]'));
  const proxyOf = (el) => {
    const p = el.parentElement;
    const near = [el.previousElementSibling, el.nextElementSibling, p,
      p && p.previousElementSibling, p && p.nextElementSibling];
    for (const e of near) if (e !== el && widget(e)) return e;
    for (const label of el.labels || []) {
      if (!label.id) continue;
      for (const e of el.ownerDocument.querySelectorAll('[aria-labelledby]')) {
        if (e !== el && norm(e.getAttribute('aria-labelledby')).split(' ').includes(label.id)
          && shown(e)) return e;
      }
    }
    return null;
  };
  // what a person operates: the combobox itself, the one a library's wrapper holds, or the
  // widget standing in for a hidden native select
  const comboOf = (el) => {
    let c = el;
    if (el.tagName === 'SELECT') c = seen(el) ? el : (proxyOf(el) || el);
    if (isCombo(c)) return c;
    return [...c.querySelectorAll('[role=combobox], [aria-haspopup=listbox], [role=listbox]')]
      .find(shown) || c;
  };
  const POPUP = '[role=listbox], [role=tree], [role=grid]';
  const ids = (e, attr) => norm(e.getAttribute(attr)).split(' ').filter(Boolean);
  const outermost = (list) => list.filter((p) => !list.some((q) => q !== p && q.contains(p)));
  // the lists the combobox names (aria-controls, aria-owns, its active descendant's list),
  // its own, and those its focused search field names
  const popupsOf = (c) => {
    if (role(c) === 'listbox') return [c];
    const doc = c.ownerDocument, found = new Set();
    const add = (p) => {
      if (!p) return;
      if (p.matches(POPUP)) found.add(p);
      for (const q of p.querySelectorAll(POPUP)) found.add(q);
    };
    const related = [c,
      ...c.querySelectorAll('[aria-controls], [aria-owns], [aria-activedescendant]')];
    const active = doc.activeElement;
    if (active && active !== c && c.contains(active)) related.push(active);
    for (const e of related) {
      for (const attr of ['aria-controls', 'aria-owns']) {
        for (const id of ids(e, attr)) add(doc.getElementById(id));
      }
      const d = doc.getElementById(e.getAttribute('aria-activedescendant') || '');
      if (d) add(d.closest(POPUP));
    }
    return outermost([...found].filter(shown));
  };
  const nameOf = (o) => {
    const label = norm(o.getAttribute('aria-label'));
    if (label) return label;
    const by = ids(o, 'aria-labelledby').map((id) => o.ownerDocument.getElementById(id))
      .filter(Boolean).map((e) => e.innerText || e.textContent).join(' ');
    return norm(by) || norm(o.innerText || o.textContent);
  };
  const optionsOf = (popups) => {
    const out = [];
    for (const p of popups) {
      out.push(...p.querySelectorAll('[role=option], [role=treeitem]'));
      for (const id of ids(p, 'aria-owns')) {
        const e = p.ownerDocument.getElementById(id);
        if (e && ['option', 'treeitem'].includes(role(e))) out.push(e);
      }
    }
    return [...new Set(out)].filter(shown);
  };
  const listed = (opts) => opts.slice(0, 12).map((o) => `'${nameOf(o)}'`).join(', ')
    + (opts.length > 12 ? `, … (${opts.length} in all)` : '');
"""

# the combobox to operate, and whether its list is shown now
_TARGET = (
    "(el) => {"
    + _COMMON
    + """
  return comboOf(el);
}"""
)

_IS_OPEN = (
    "(c) => {"
    + _COMMON
    + """
  return low(c.getAttribute('aria-expanded')) === 'true' || popupsOf(c).length > 0;
}"""
)

# the text field a person types the option's name into: the combobox when it is one, the
# editable field inside it, or the search field that took the focus when its list opened
_FIELD = (
    "(c) => {"
    + _COMMON
    + """
  const editable = (e) => !!e && ((e.tagName === 'INPUT'
    && ['text', 'search', ''].includes(low(e.getAttribute('type')))) || e.tagName === 'TEXTAREA')
    && !e.readOnly && !e.disabled && shown(e);
  if (editable(c)) return c;
  const inner = [...c.querySelectorAll('input, textarea')].find(editable);
  if (inner) return inner;
  const a = c.ownerDocument.activeElement;
  if (!editable(a)) return null;
  const lists = popupsOf(c);
  const named = [...ids(a, 'aria-controls'), ...ids(a, 'aria-owns')]
    .some((id) => lists.some((p) => p.id === id));
  return lists.some((p) => p.contains(a)) || named
    || (lists.length === 0 && a.closest('[class*=dropdown], [class*=popup], [class*=menu]'))
    ? a : null;
}"""
)

# Find the option named ``name`` in the combobox's list. ``status``: ``found`` (``option``),
# ``pending`` (no such option yet, or no list yet: filtering or loading may still bring it),
# ``final`` (an error that waiting cannot mend).
_FIND = (
    "(c, name) => {"
    + _COMMON
    + """
  let lists = popupsOf(c), how = 'named by the combobox';
  if (!lists.length) {
    lists = outermost([...c.ownerDocument.querySelectorAll(POPUP)].filter(shown));
    how = 'the only list of options shown on the page';
    if (lists.length > 1) {
      return {status: 'final', option: null, error: `${lists.length} lists of options are shown `
        + `(${lists.map(describe).join(', ')}) and ${describe(c)} names none of them in `
        + 'aria-controls or aria-owns: which one is its list is not evident'};
    }
  }
  if (!lists.length) {
    return {status: 'pending', option: null, error: `no list of options opened for ${describe(c)} `
      + '(none named by its aria-controls or aria-owns, and none shown on the page)'};
  }
  const opts = optionsOf(lists);
  const want = norm(name);
  let hits = opts.filter((o) => nameOf(o) === want);
  if (!hits.length) hits = opts.filter((o) => low(nameOf(o)) === low(want));
  const where = `${describe(lists[0])} (${how})`;
  if (hits.length > 1) {
    return {status: 'final', option: null, error: `${hits.length} options are named '${want}' in `
      + `${where}: ${hits.slice(0, 5).map(describe).join(', ')}; the value must name one option`};
  }
  if (hits.length === 1) {
    const o = hits[0];
    if (low(o.getAttribute('aria-disabled')) === 'true') {
      return {status: 'final', option: null, error: `the option '${want}' in ${where} is disabled`};
    }
    return {status: 'found', option: o, error: null};
  }
  return {status: opts.length ? 'missing' : 'pending', option: null,
    error: `no option named '${want}' in ${where}; `
      + (opts.length ? `it lists ${listed(opts)}` : 'it lists no options')};
}"""
)

# What the widget shows as its value, as a person reads it (also ``value:``, expectations.py):
# readings, any of which may match. A native select: its value and its chosen options' labels;
# a slider or spin button: aria-valuetext, aria-valuenow; a combobox: its text or value, or,
# for an input that shows the choice beside itself (a library's single value or chips), the
# text of the closest container that shows one; a hidden native select: its widget's text.
SHOWN_VALUE_JS = (
    "(el) => {"
    + _COMMON
    + """
  const out = [];
  const lines = (e) => (e.innerText || '').split('\\n').map(norm)
    .filter((t) => /[\\p{L}\\p{N}]/u.test(t));
  const text = (e) => lines(e).join('; ');
  if ('value' in el && typeof el.value === 'string') out.push(el.value);
  if (el.tagName === 'SELECT') {
    out.push([...el.selectedOptions].map((o) => norm(o.label || o.textContent)).join('; '));
    const w = seen(el) ? null : proxyOf(el);
    if (w) out.push(text(w));
    return out;
  }
  const r = role(el);
  if (['slider', 'spinbutton'].includes(r)
    || (el.tagName === 'INPUT' && low(el.type) === 'range')) {
    for (const a of ['aria-valuetext', 'aria-valuenow']) {
      if (el.hasAttribute(a)) out.push(el.getAttribute(a));
    }
    return out;
  }
  if (!isCombo(el) && !el.querySelector('[role=combobox], [aria-haspopup=listbox]')) return out;
  if (el.tagName !== 'INPUT') { out.push(text(el)); return out; }
  if (norm(el.value)) return out;
  for (let a = el.parentElement, i = 0; a && i < 4; a = a.parentElement, i++) {
    const t = text(a);
    if (t) { out.push(t); break; }
  }
  return out;
}"""
)

# Did the combobox take the option? The option says so (aria-selected), or the widget shows it.
_TOOK = (
    "([c, o, name, el]) => {"
    + _COMMON
    + """
  if (o && o.isConnected && low(o.getAttribute('aria-selected')) === 'true') return true;
  const want = low(name);
  const texts = [c, el].filter(Boolean).map((e) => low(('value' in e && typeof e.value === 'string'
    ? e.value + ' ' : '') + (e.innerText || '') + ' '
    + (e.tagName === 'SELECT' ? [...e.selectedOptions].map((x) => x.textContent).join(' ') : '')));
  for (let a = c.parentElement, i = 0; a && i < 3; a = a.parentElement, i++) {
    texts.push(low(a.innerText));
  }
  return texts.some((s) => s.includes(want));
}"""
)


# a native select a person does not see, with a widget standing in for it
HAS_PROXY_JS = (
    "([el]) => {"
    + _COMMON
    + """
  return !!el && el.tagName === 'SELECT' && !seen(el) && !!proxyOf(el);
}"""
)


def split_choices(value: str) -> list[str]:
    """The options one ``select`` cell names: the parts between :data:`SEPARATOR` (one part
    when there is none)."""
    parts = [p.strip() for p in value.split(SEPARATOR)]
    return [p for p in parts if p] or [value.strip()]


class _Clock:
    def __init__(self, timeout_ms: float) -> None:
        self.end = time.monotonic() + timeout_ms / 1000

    def left(self, floor: float = 100.0) -> float:
        return max(floor, (self.end - time.monotonic()) * 1000)

    @property
    def over(self) -> bool:
        return time.monotonic() >= self.end


def _element(handle: JSHandle) -> ElementHandle | None:
    return handle.as_element()


def choose(el: PWLocator, value: str, timeout_ms: float) -> str | None:
    """Choose the options ``value`` names in the custom dropdown ``el``; ``None`` when done,
    else what went wrong (before any option was clicked when no option or list is evident)."""
    clock = _Clock(timeout_ms)
    own = el.element_handle(timeout=clock.left())
    combo = _element(own.evaluate_handle(_TARGET))
    if combo is None:
        return "select: the dropdown is no longer in the page"
    names = split_choices(value)
    for name in names:
        problem = _choose_one(combo, own, name, clock)
        if problem is not None:
            _close(combo)
            return problem
    if len(names) > 1:
        _close(combo)
    return None


def _choose_one(combo: ElementHandle, own: ElementHandle, name: str, clock: _Clock) -> str | None:
    if not combo.evaluate(_IS_OPEN):
        combo.click(timeout=clock.left())
    field = _element(combo.evaluate_handle(_FIELD))
    if field is not None:
        field.fill("", timeout=clock.left())
        field.type(name, timeout=clock.left())  # key by key: a filter that listens to keys
    for attempt in range(3):
        found = _find(combo, name, clock, typed=field is not None)
        status = found.get_property("status").json_value()
        if status != "found":
            error = str(found.get_property("error").json_value())
            return f"select: {error}"
        option = _element(found.get_property("option"))
        if option is None:
            return "select: the option left the page"
        try:
            option.click(timeout=clock.left())
            break
        except PlaywrightError as exc:
            # a list drawn again as the filter catches up with the typing: find it again
            if "not attached" not in str(exc) or attempt == 2:
                raise
    frame = combo.owner_frame()
    if frame is None:
        return "select: the dropdown's frame is gone"
    try:
        frame.wait_for_function(_TOOK, arg=[combo, option, name, own], timeout=clock.left())
    except PlaywrightTimeout:
        shown = own.evaluate(SHOWN_VALUE_JS) or combo.evaluate(SHOWN_VALUE_JS)
        return f"select: the option {name!r} was clicked but the dropdown shows {shown!r}"
    return None


def _find(combo: ElementHandle, name: str, clock: _Clock, *, typed: bool) -> JSHandle:
    """The answer of ``_FIND``, waiting (within the step's time) while it is pending, or, after
    typing, while the list does not hold the option yet (filtering, loading)."""
    waiting = {"pending"} | ({"missing"} if typed else set())
    frame = combo.owner_frame()
    found = combo.evaluate_handle(_FIND, name)
    if found.get_property("status").json_value() in waiting and frame is not None:
        wait = f"([c, name]) => !{sorted(waiting)!r}.includes(({_FIND})(c, name).status)"
        with contextlib.suppress(PlaywrightError):  # the answer below says what is listed
            frame.wait_for_function(wait, arg=[combo, name], timeout=clock.left(200) - 150)
        found = combo.evaluate_handle(_FIND, name)
    return found


_FOCUS_IN = """(c) => {
  const a = c.ownerDocument.activeElement;
  return !!a && (c === a || c.contains(a) || !!a.closest('[role=listbox], [role=dialog]'));
}"""


def _close(combo: ElementHandle) -> None:
    """Close a list left open (a multi-select keeps it open), as a person does: Escape, where
    the keyboard's focus is in the dropdown."""
    with contextlib.suppress(PlaywrightError):
        if combo.evaluate(_IS_OPEN) and combo.evaluate(_FOCUS_IN):
            combo.press("Escape", timeout=1_000)


# --- sliders and spin buttons -------------------------------------------------------------

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


def settable_kind(read: Any) -> str | None:
    """``range``/``slider``/``spinbutton``/``number`` for a field set by steps, else ``None``.
    ``read``: the action's element read (``actions.perform``)."""
    kind = read(
        """([el]) => !el ? null : (el.tagName === 'INPUT' && el.type === 'range') ? 'range'
        : (el.tagName === 'INPUT' && el.type === 'number' && el.readOnly) ? 'number'
        : el.tagName === 'INPUT' || el.isContentEditable ? null
        : ['slider', 'spinbutton'].includes((el.getAttribute('role') || '').toLowerCase())
          ? el.getAttribute('role').toLowerCase() : null"""
    )
    return str(kind) if kind else None


def _number(text: str) -> float | None:
    try:
        n = float(text.strip())
    except ValueError:
        return None
    return n if math.isfinite(n) else None


def set_by_steps(el: PWLocator, value: str, timeout_ms: float) -> str | None:
    """Set a slider or spin button to ``value`` by steps; ``None`` when it holds it, else
    what went wrong."""
    clock = _Clock(timeout_ms)
    handle = el.element_handle(timeout=clock.left())
    state = handle.evaluate(_RANGE_STATE)
    target = _number(value)
    kind = str(state["kind"])
    vertical = bool(state["vertical"])
    up_key, down_key = (
        ("ArrowUp", "ArrowDown") if kind in {"spinbutton", "number"} or vertical
        else ("ArrowRight", "ArrowLeft")
    )  # fmt: skip
    buttons = kind == "number"  # a read-only number field moves only by its buttons
    used = 0

    def holds(s: dict[str, Any]) -> bool:
        if target is not None and s["now"] is not None:
            return bool(abs(float(s["now"]) - target) < 1e-9)
        return re.sub(r"\s+", " ", str(s["text"])).strip().lower() == value.strip().lower()

    def step(up: bool, times: int = 1) -> bool:
        nonlocal used, buttons
        for _ in range(times):
            if used >= MAX_STEPS or clock.over:
                return False
            used += 1
            if buttons:
                b = handle.evaluate_handle(_STEP_BUTTON, up).as_element()
                if b is None:
                    return False
                b.click(timeout=clock.left())
            else:
                handle.press(up_key if up else down_key, timeout=clock.left())
        return True

    if holds(state):
        return None
    handle.focus()
    if target is not None:
        for edge, key in ((state["min"], "Home"), (state["max"], "End")):
            if not buttons and edge is not None and abs(float(edge) - target) < 1e-9:
                handle.press(key, timeout=clock.left())
                state = handle.evaluate(_RANGE_STATE)
        size: float | None = None
        while not holds(state):
            now = state["now"]
            if now is None:
                return f"fill: the {kind} shows no value to step from"
            up = target > float(now)
            if size is None:
                if not step(up):
                    break
                after = handle.evaluate(_RANGE_STATE)
                moved = after["now"] is not None and after["now"] != now
                if not moved and not buttons and kind in {"spinbutton"}:
                    buttons = True  # the keys do nothing: its +/- buttons do it
                    continue
                if not moved:
                    how = "its +/- buttons" if buttons else "arrow keys"
                    return (
                        f"fill: the {kind} did not move when stepped ({how}); "
                        f"it holds {state['text']!r}"
                    )
                size = abs(float(after["now"]) - float(now))
                state = after
                continue
            times = max(1, round(abs(target - float(now)) / size))
            before = now
            if not step(up, times):
                break
            state = handle.evaluate(_RANGE_STATE)
            if state["now"] == before:
                break
            if (target > float(state["now"])) != up and not holds(state):
                # it stepped past the value: its steps do not land on it
                return (
                    f"fill: the {kind} cannot take {value!r}: it moves in steps of {size:g} "
                    f"and holds {state['text']!r}"
                )
    else:  # a named value (aria-valuetext): from the minimum up, one step at a time
        if not buttons:
            handle.press("Home", timeout=clock.left())
        state = handle.evaluate(_RANGE_STATE)
        while not holds(state):
            before = state["text"]
            if not step(True):
                break
            state = handle.evaluate(_RANGE_STATE)
            if state["text"] == before:
                break
    if holds(state):
        return None
    return f"fill: could not set the {kind} to {value!r} ({used} steps); it holds {state['text']!r}"


# --- date and time inputs --------------------------------------------------------------------

# The value format of HTML's date and time inputs (the HTML standard, "input type=date" and
# the others; Playwright's fill takes exactly these).
DATE_FORMATS = {
    "date": (r"\d{4}-\d{2}-\d{2}", "YYYY-MM-DD"),
    "time": (r"\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?", "HH:MM or HH:MM:SS"),
    "datetime-local": (r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?", "YYYY-MM-DDTHH:MM"),
    "month": (r"\d{4}-\d{2}", "YYYY-MM"),
    "week": (r"\d{4}-W\d{2}", "YYYY-Www"),
}


def date_value(kind: str, value: str) -> tuple[str | None, str | None]:
    """The value to fill into a date/time input of type ``kind`` and ``None``, or ``None`` and
    why the value does not fit (a day-first or month-first date is never guessed)."""
    pattern, shape = DATE_FORMATS[kind]
    text = value.strip()
    if kind == "datetime-local" and re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?", text):
        text = text.replace(" ", "T")  # the same moment; only the separator differs
    if re.fullmatch(pattern, text):
        return text, None
    return None, (
        f"fill: a {kind} field takes its value as {shape} (HTML's format for "
        f"<input type={kind}>), not {value!r}"
    )
