"""The in-page JavaScript of custom dropdowns (``dropdowns.py``): finding the combobox a
person operates, its list and the option named by the step, and reading what it shows.

Each constant is one function evaluated on an element (``COMMON`` is the helpers they
share, pasted into each). The rules and their standards are in ``widgets/__init__.py``.
"""

from __future__ import annotations

COMMON = r"""
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
  // an <input> is a void element (HTML): given role=listbox, it holds no options, so it is
  // the field that opens the list, never the list
  const POPUP = '[role=listbox]:not(input), [role=tree], [role=grid]';
  const ids = (e, attr) => norm(e.getAttribute(attr)).split(' ').filter(Boolean);
  const outermost = (list) => list.filter((p) => !list.some((q) => q !== p && q.contains(p)));
  // the lists of options shown on the page; a grid no combobox names is a table of data
  // (WAI-ARIA: rows of gridcells), no list of options, unless it holds options
  const onShow = (doc) => outermost([...doc.querySelectorAll(POPUP)].filter((p) => shown(p)
    && (role(p) !== 'grid' || !!p.querySelector('[role=option]'))));
  // the lists the combobox names (aria-controls, aria-owns, its active descendant's list),
  // its own, and those its focused search field names
  const popupsOf = (c) => {
    if (role(c) === 'listbox' && c.tagName !== 'INPUT') return [c];
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
TARGET_JS = (
    "(el) => {"
    + COMMON
    + """
  return comboOf(el);
}"""
)

IS_OPEN_JS = (
    "(c) => {"
    + COMMON
    + """
  return low(c.getAttribute('aria-expanded')) === 'true' || popupsOf(c).length > 0;
}"""
)

# the text field a person types the option's name into: the combobox when it is one, the
# editable field inside it, or the search field that took the focus when its list opened
FIELD_JS = (
    "(c) => {"
    + COMMON
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

# The lists of options on show before a text field that is no drop-down by its markup (an
# ``<input>`` with no combobox or listbox role) is clicked, or null for a dropdown.
ON_SHOW_JS = (
    "(c) => {"
    + COMMON
    + """
  return c.tagName === 'INPUT' && !isCombo(c) ? onShow(c.ownerDocument) : null;
}"""
)

# Find the option named ``name`` in the combobox's list. ``status``: ``found`` (``option``),
# ``pending`` (no such option yet, or no list yet: filtering or loading may still bring it),
# ``final`` (an error that waiting cannot mend). ``before`` (``ON_SHOW_JS``), for a text field:
# the list the page shows must be one it opened, not one on show before it was clicked.
FIND_JS = (
    "(c, [name, before]) => {"
    + COMMON
    + """
  let lists = popupsOf(c), how = 'named by the combobox';
  const field = before ? `${describe(c)} is a text field (no combobox or listbox role), and ` : '';
  if (!lists.length) {
    lists = onShow(c.ownerDocument);
    how = before ? 'the only list of options shown, opened by the field'
      : 'the only list of options shown on the page';
    if (lists.length > 1) {
      return {status: 'final', option: null, error: `${lists.length} lists of options are shown `
        + `(${lists.map(describe).join(', ')}) and ${describe(c)} names none of them in `
        + 'aria-controls or aria-owns: which one is its list is not evident'};
    }
    if (before && lists.some((p) => before.includes(p))) {
      return {status: 'pending', option: null, error: `${field}it showed no list of options when `
        + `clicked (the one shown, ${describe(lists[0])}, was shown before)`};
    }
  }
  if (!lists.length) {
    return {status: 'pending', option: null, error: before
      ? `${field}it showed no list of options when clicked`
      : `no list of options opened for ${describe(c)} `
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
  // a list of disabled options only (a "Searching…" placeholder: WAI-ARIA, a disabled
  // option cannot be chosen) offers nothing yet: wait for its options as for an empty one
  const usable = opts.filter((o) => low(o.getAttribute('aria-disabled')) !== 'true');
  return {status: usable.length ? 'missing' : 'pending', option: null,
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
    + COMMON
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
TOOK_JS = (
    "([c, o, name, el]) => {"
    + COMMON
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
    + COMMON
    + """
  return !!el && el.tagName === 'SELECT' && !seen(el) && !!proxyOf(el);
}"""
)

# Where the widget standing in for a hidden native select is, from the select, as an XPath
# a generated test can follow (``proxyOf``'s places: a sibling, the parent, a parent's
# sibling), and the role of the combobox inside it when that is what is operated; null when
# the widget is found otherwise (by the label's aria-labelledby) or there is none.
PROXY_PATH_JS = (
    "([el]) => {"
    + COMMON
    + """
  if (!el || el.tagName !== 'SELECT' || seen(el)) return null;
  const w = proxyOf(el);
  const p = el.parentElement;
  const near = [[el.previousElementSibling, 'preceding-sibling::*[1]'],
    [el.nextElementSibling, 'following-sibling::*[1]'], [p, '..'],
    [p && p.previousElementSibling, '../preceding-sibling::*[1]'],
    [p && p.nextElementSibling, '../following-sibling::*[1]']];
  const hit = near.find(([e]) => !!w && e === w);
  if (!hit) return null;
  const c = comboOf(el);
  return {path: hit[1], role: c !== w && role(c) ? role(c) : null};
}"""
)
