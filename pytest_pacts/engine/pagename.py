"""What a person reads as the page's name, for ``navigates_to:X`` (docs/reference.md).

Real apps often keep the app's name in ``<title>`` and show the page's name in a styled
``span``/``div`` (``<span class="title">Products</span>``, ``<div class="page-header">``, a
breadcrumb's last item, ``data-test="title"``), not in a heading. :data:`PAGE_NAMES_JS`
returns the texts that name the page, each with why it counts:

1. ``heading``: ``h1``–``h6``, ``role=heading`` and ``[aria-level]`` without another role,
   rendered, outside navigation (a menu's group label is not the page's name);
2. ``breadcrumb``: the current item of a breadcrumb trail (a container whose class, id,
   ``aria-label`` or test id says breadcrumb): its ``aria-current`` item, else its item
   marked ``active``/``current``, else its last item;
3. ``title-like`` / ``prominent``: a short text (at most 80 characters and 10 words) near
   the top of the page (its top edge above the top of the main content, ``main`` or
   ``role=main`` else ``body``, plus half the viewport height) that has a class, id or test
   id token ``title``, ``heading``, ``header``, ``headline`` (or ``pagetitle``,
   ``pageheader``, ``pagename``), or whose font is prominent against the body text (size at
   least 1.25x the body text's, or weight 600+ and size at least 1.1x). "Body text" is the
   font size that carries the most characters on the page.

Never counted as a page name (rule 3): text inside or containing a link, button, form
control or label; text inside navigation, menus, tabs, lists of options, tables, ``aside``
or ``footer``; and a look repeated down the page (three or more elements with the same tag,
class and font size are item titles of a list or grid, not the page's name). So a word
that appears only in body text or in a nav link never names the page.

The same function is embedded in generated tests (``expect_navigated_to``), so a generated
test and the engine agree on what ``navigates_to`` means.
"""

from __future__ import annotations

PAGE_NAMES_JS = r"""() => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const out = [];
  const shown = (el, opacity) => !el.checkVisibility
    || el.checkVisibility({visibilityProperty: true, opacityProperty: opacity});
  const NAV = 'nav,[role=navigation],[role=menu],[role=menubar],[role=tablist],[role=tree]';
  for (const h of document.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading],[aria-level]')) {
    const role = h.getAttribute('role');
    if (role && role !== 'heading') continue;
    if (!shown(h, false) || h.closest(NAV)) continue;
    const t = norm(h.textContent);
    if (t) out.push([t, 'heading']);
  }
  const words = (el) => {
    const raw = [el.id, typeof el.className === 'string' ? el.className : '',
      el.getAttribute('data-test'), el.getAttribute('data-testid'), el.getAttribute('data-qa'),
      el.getAttribute('data-cy'), el.getAttribute('data-test-id')].filter(Boolean).join(' ');
    return raw.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/)
      .filter(Boolean);
  };
  // 2. breadcrumbs: the outermost trail containers, then their current item
  const CRUMBS = '[class*=breadcrumb i],[id*=breadcrumb i],[aria-label*=breadcrumb i],'
    + '[data-test*=breadcrumb i],[data-testid*=breadcrumb i]';
  for (const trail of document.querySelectorAll(CRUMBS)) {
    if (trail.parentElement && trail.parentElement.closest(CRUMBS)) continue;
    if (!shown(trail, true)) continue;
    const items = [...trail.querySelectorAll('*')]
      .filter((e) => shown(e, true) && norm(e.textContent));
    let current = items.find((e) => ['page', 'location', 'step', 'true'].includes(
      e.getAttribute('aria-current')));
    if (!current) {
      current = items.find((e) => words(e).some((w) => w === 'active' || w === 'current'));
    }
    if (!current) {
      const lis = items.filter((e) => e.tagName === 'LI');
      const kids = [...trail.children].filter((e) => shown(e, true) && norm(e.textContent));
      current = lis.length ? lis[lis.length - 1]
        : kids.length > 1 ? kids[kids.length - 1] : null;
      if (!current && kids.length === 1 && kids[0].children.length) {
        const inner = [...kids[0].children].filter((e) => shown(e, true) && norm(e.textContent));
        current = inner.length ? inner[inner.length - 1] : null;
      }
    }
    if (current) out.push([norm(current.textContent), 'breadcrumb']);
  }
  // 3. title-like and prominent text near the top of the page
  const TITLE = new Set(['title', 'heading', 'header', 'headline', 'pagetitle', 'pageheader',
    'pagename']);
  const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'SVG', 'TITLE', 'HEAD']);
  const AWAY = 'a,button,[role=button],[role=link],[role=menuitem],[role=tab],[role=option],'
    + 'label,select,option,textarea,input,' + NAV + ',[role=listbox],aside,[role=complementary],'
    + 'footer,[role=contentinfo],table,[role=grid],[role=table],[role=row],h1,h2,h3,h4,h5,h6';
  const CONTROLS = 'a[href],button,input,select,textarea,[role=button],[role=link]';
  const body = document.body;
  if (!body) return out;
  const records = [];
  const bySize = new Map();
  const looks = new Map();
  let n = 0;
  for (const el of body.querySelectorAll('*')) {
    if (++n > 6000) break;
    if (SKIP.has(el.tagName.toUpperCase())) continue;
    let direct = '';
    for (const c of el.childNodes) if (c.nodeType === 3) direct += c.data;
    direct = norm(direct);
    const titled = words(el).some((w) => TITLE.has(w));
    if (!direct && !titled) continue;
    const style = getComputedStyle(el);
    const size = parseFloat(style.fontSize) || 16;
    if (direct) bySize.set(size, (bySize.get(size) || 0) + direct.length);
    const look = `${el.tagName}.${typeof el.className === 'string' ? el.className : ''}|${size}`;
    looks.set(look, (looks.get(look) || 0) + 1);
    records.push({el, direct, titled, size, weight: parseInt(style.fontWeight, 10) || 400, look});
  }
  let bodySize = 16, most = -1;
  for (const [size, chars] of bySize) if (chars > most) { most = chars; bodySize = size; }
  const main = [...document.querySelectorAll('main,[role=main]')].find(
    (m) => m.getBoundingClientRect().height > 0);
  const mainTop = (main || body).getBoundingClientRect().top + scrollY;
  const zoneEnd = mainTop + innerHeight / 2;
  for (const r of records) {
    const prominent = r.direct && (r.size >= 1.25 * bodySize
      || (r.weight >= 600 && r.size >= 1.1 * bodySize));
    if (!prominent && !r.titled) continue;
    if (looks.get(r.look) >= 3) continue;
    const el = r.el;
    if (el.closest(AWAY) || el.querySelector(CONTROLS)) continue;
    const text = norm(el.textContent);
    if (!text || text.length > 80 || text.split(' ').length > 10) continue;
    if (!shown(el, true)) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || box.top + scrollY > zoneEnd) continue;
    out.push([text, r.titled ? 'title-like' : 'prominent']);
  }
  return out;
}"""

NAVIGATED_JS = (
    r"""([text, before]) => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
  const want = norm(text);
  if (location.href === before || location.href.startsWith('chrome-error://')) return false;
  const path = norm(decodeURIComponent(location.pathname).replace(/[\/_\-.]+/g, ' '));
  if (path.includes(want) || norm(document.title).includes(want)) return true;
  return ("""
    + PAGE_NAMES_JS
    + r""")().some(([name]) => norm(name).includes(want));
}"""
)
