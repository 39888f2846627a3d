// Resolving a recorded locator in the page, as Playwright would (``relocate_element``'s one
// page call: runtime/healing.py, ``find_check_and_rank``), or answering that it cannot here.
//
// A query names the elements matching ``css``, or whose attribute ``attr`` is exactly
// ``value``, or that discovery's strategy ``named`` finds for ``spec`` (a role and accessible
// name, a label, a placeholder); inside a ``within`` container (itself a query, narrowed to
// those holding ``has`` and to those whose text holds ``has_text``); then the ``nth``.
// It cannot answer for a document with an open shadow root (Playwright's CSS and test-id
// engines pierce them, ``querySelectorAll`` does not), nor for a selector the browser's own
// CSS does not parse: then it returns UNSUPPORTED and the caller asks Playwright.

// Imports (see runtime/scripts.py: one module per file).
const { makeDom } = modules.dom;
const { resetPrepared, makeStrategies } = modules.scan;

const UNSUPPORTED = '__pacts_not_resolvable_here__';

// Playwright's text of an element (its ``elementText``), which its lax ``has_text`` matches
function text(n) {
  if (n.nodeType === 3) return n.nodeValue || '';
  if (n.nodeType !== 1 || ['SCRIPT', 'NOSCRIPT', 'STYLE'].includes(n.nodeName)
    || (document.head && document.head.contains(n))) return '';
  if (n instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(n.type)) return n.value;
  let s = '';
  for (let c = n.firstChild; c; c = c.nextSibling) s += text(c);
  return s;
}
const laxText = (t) => t.replace(/[\u200b\u00ad]/g, '').trim().replace(/\s+/g, ' ').toLowerCase();

function find(q) {
  const all = document.querySelectorAll('*');
  for (const e of all) if (e.shadowRoot) return UNSUPPORTED;
  let dom = null;
  const where = (ok) => Array.prototype.filter.call(all, ok);
  const one = (p) => {
    if (p.attr) return where((e) => e.getAttribute(p.attr) === p.value);
    if (!p.named) return Array.from(document.querySelectorAll(p.css));
    dom = dom || makeDom(document);
    resetPrepared();
    const named = makeStrategies(dom)[p.named];
    return where((e) => named.same(e, p.spec));
  };
  const inside = (els, cs) => els.filter((e) => cs.some((c) => c !== e && c.contains(e)));
  let els;
  try {
    els = one(q);
    const w = q.within;
    if (w) {
      let cs = one(w);
      if (w.has) { const hs = one(w.has); cs = cs.filter((c) => inside(hs, [c]).length); }
      if (w.has_text !== undefined) cs = cs.filter((c) => laxText(text(c)).includes(laxText(w.has_text)));
      els = inside(els, cs);
      els.within = cs;
    }
  } catch (e) {
    return UNSUPPORTED;
  }
  return q.nth === null ? els : q.nth < els.length ? [els[q.nth]] : [];
}

return { find };
