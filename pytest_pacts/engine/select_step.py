"""The ``select`` action on an element the gate checked: a native ``<select>`` (one value, or
several that :data:`~pytest_pacts.engine.widgets.SEPARATOR` separates in a ``multiple``
one), a hidden native select that a custom widget stands in for, and a custom dropdown (an
ARIA combobox or listbox), chosen as a person does (``widgets.choose``). Split from
:mod:`pytest_pacts.engine.actions`, which calls :func:`select`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Locator as PWLocator

from pytest_pacts.engine import widgets
from pytest_pacts.models.outcome import DropdownUse

Read = Callable[..., Any]  # ``read(js, arg=None)``: ``js`` run on the element (see ``perform``)

_HAS_OPTION = """([el], v) => !!el && !el.options || [...el.options].some(
  (o) => o.value === v || o.label === v || o.textContent.trim() === v)"""


# A hidden native <select> that a custom widget (select2, chosen, selectize, choices, a
# combobox) stands in for: the gate's rule (``selectProxy`` in actionability.js) finds the
# visible widget right next to it, or one labelled by the select's own label. After the option
# is selected on the native select (Playwright dispatches ``input`` and ``change``, which
# jQuery handlers receive too), the widget must show the option's text; if it does not yet, a
# jQuery ``change`` (and chosen's ``chosen:updated``) is triggered once more. Returns
# ``None`` when the select is shown (no widget involved) or the widget shows the option,
# else the widget's description and what it shows.
_WIDGET_SHOWS = """([el], retry) => {
  if (!el || el.tagName !== 'SELECT') return null;
  const shown = (e) => {
    for (let a = e; a; a = a.parentElement) {
      if (getComputedStyle(a).display === 'none') return false;
    }
    const r = e.getBoundingClientRect();
    return getComputedStyle(e).visibility === 'visible' && r.width > 0 && r.height > 0;
  };
  if (shown(el)) return null;
  const cls = new RegExp('(^|[-_\\\\s])(select2|chosen|selectize|choices|combobox|multiselect'
    + '|select|dropdown)([-_\\\\s]|$)', 'i');
  const role = (e) => ['combobox', 'listbox'].includes(e.getAttribute('role'))
    || e.getAttribute('aria-haspopup') === 'listbox'
    || !!e.querySelector('[role=combobox], [aria-haspopup=listbox]');
  const widget = (e) => !!e && e !== el && shown(e)
    && (cls.test(typeof e.className === 'string' ? e.className : '') || cls.test(e.id || '')
      || role(e));
  const p = el.parentElement;
  let proxy = [el.previousElementSibling, el.nextElementSibling, p, p && p.previousElementSibling,
    p && p.nextElementSibling].find(widget) || null;
  for (const label of proxy ? [] : el.labels || []) {
    if (!label.id) continue;
    proxy = [...document.querySelectorAll('[aria-labelledby]')].find((e) => e !== el && shown(e)
      && e.getAttribute('aria-labelledby').split(/\\s+/).includes(label.id)) || proxy;
  }
  if (!proxy) return null;
  const norm = (t) => (t || '').replace(/\\s+/g, ' ').trim().toLowerCase();
  const want = [...el.selectedOptions].map((o) => norm(o.textContent));
  const has = () => want.every((w) => norm(proxy.innerText).includes(w));
  if (!has() && retry && window.jQuery) {
    window.jQuery(el).trigger('change');
    window.jQuery(el).trigger('chosen:updated');
  }
  if (has()) return null;
  const cn = typeof proxy.className === 'string' ? proxy.className.trim().split(/\\s+/)[0] : '';
  const name = proxy.tagName.toLowerCase() + (proxy.id ? '#' + proxy.id : '')
    + (cn ? '.' + cn : '');
  return [name, norm(proxy.innerText).slice(0, 80), want.join(', ')];
}"""


# The options a native select offers, as a person reads them (label, else text), for the
# failure that names none of them (at most 200 read: a long list is cut in the message).
_OPTIONS = """([el]) => !el || !el.options ? [] : [...el.options].slice(0, 200)
  .map((o) => (o.label || o.textContent || '').replace(/\\s+/g, ' ').trim()).filter(Boolean)"""
_SHOWN_OPTIONS = 12


def _no_option(read: Read, text: str) -> str:
    """The failure of a native select that holds no option ``text``: what it does offer, and
    the nearest option when one is close (a renamed option: "1 week" -> "1 Week"); never
    chosen, only said."""
    offered: list[str] = [str(o) for o in read(_OPTIONS) or []]
    if not offered:
        return f"select: no option {text!r} in the list, which is empty"
    shown = ", ".join(repr(o) for o in offered[:_SHOWN_OPTIONS])
    if len(offered) > _SHOWN_OPTIONS:
        shown += f" and {len(offered) - _SHOWN_OPTIONS} more"
    near = difflib.get_close_matches(text, offered, n=1, cutoff=0.6)
    hint = f"; the nearest is {near[0]!r}" if near else ""
    return f"select: no option {text!r} in the list; it offers {shown}{hint}"


_NATIVE = """([el]) => !el ? null : el.tagName !== 'SELECT' ? 'custom'
  : el.multiple ? 'multiple' : 'single'"""


def select(
    el: PWLocator, read: Read, text: str, timeout_ms: float, *, widget: bool
) -> bool | str | DropdownUse:
    """Select ``text``; a message when there is no such option (what the list offers) or when
    the select's widget does not show the option afterwards, how it was chosen in a custom
    dropdown, else ``True``. ``widget``: a widget may stand in for the select (False: the
    gate saw the select itself shown). A custom dropdown (an ARIA combobox or listbox, or a
    hidden native select whose widget lacks the option until it is searched, as an
    autocomplete loads it) is operated as a person does (``widgets.choose``); a native
    ``<select multiple>`` takes the values :data:`widgets.SEPARATOR` separates."""
    native = read(_NATIVE)
    if native == "custom":
        return widgets.choose(el, text, timeout_ms)
    if not read(_HAS_OPTION, text):
        parts = widgets.split_choices(text)
        if native == "multiple" and len(parts) > 1 and all(read(_HAS_OPTION, p) for p in parts):
            el.select_option(parts, force=True, timeout=timeout_ms)
            return True
        if read(widgets.HAS_PROXY_JS):  # its widget fills its list as it is searched
            path = read(widgets.PROXY_PATH_JS)
            chosen = widgets.choose(el, text, timeout_ms)
            if isinstance(chosen, str) or not path:
                return chosen if isinstance(chosen, str) else True
            # the step's element is the hidden select: a generated test opens its widget
            return chosen.model_copy(
                update={"widget_path": path["path"], "widget_role": path["role"]}
            )
        return _no_option(read, text)
    el.select_option(text, force=True, timeout=timeout_ms)
    if not widget:
        return True
    shows = read(_WIDGET_SHOWS, True)
    if shows is not None:
        shows = read(_WIDGET_SHOWS, False)
    if shows is not None:
        widget, shown, wanted = shows
        return (
            f"select: the native select holds {wanted!r}, but its widget {widget} shows {shown!r}"
        )
    return True
