// Shared DOM helpers for the discovery scan and the actionability check.
//
// Roles and accessible names follow Playwright's roleUtils closely enough for discovery;
// every locator the scan proposes is re-checked through Playwright itself before it is
// accepted, so a disagreement costs an alternate, never a
// wrong element.

const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK',
  'TITLE', 'BASE']);
const TEST_ID_ATTRS = ['data-testid', 'data-test', 'data-test-id', 'data-qa', 'data-cy'];
const BLOCK_TAGS = new Set(['DIV', 'P', 'LI', 'UL', 'OL', 'BR', 'H1', 'H2', 'H3', 'H4', 'H5',
  'H6', 'TD', 'TH', 'TR', 'SECTION', 'ARTICLE', 'HEADER', 'FOOTER', 'FORM', 'FIELDSET',
  'TABLE', 'NAV', 'MAIN', 'ASIDE', 'LABEL', 'DT', 'DD', 'OPTION']);
const NAME_FROM_CONTENT = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell',
  'heading', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row',
  'rowheader', 'switch', 'tab', 'tooltip', 'treeitem']);
const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image',
  'file', 'hidden', 'range', 'color']);
const CLICKABLE_ROLES = new Set(['button', 'link', 'tab', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'checkbox', 'radio', 'switch', 'treeitem', 'combobox']);

// ``f`` answered once per key: the scan's caches (a page state is read once).
function memo(f) {
  const cache = new Map();
  return (k) => {
    if (!cache.has(k)) cache.set(k, f(k));
    return cache.get(k);
  };
}

function norm(s) { return (s == null ? '' : String(s)).replace(/\s+/g, ' ').trim(); }
function low(s) { return norm(s).toLowerCase(); }
// ``s`` cut to ``n`` UTF-16 units, never between the two halves of a character outside the
// BMP (an emoji): a lone half is no Unicode text, and no store or report can write it
function cut(s, n) { const t = s.slice(0, n); return /[\ud800-\udbff]$/.test(t) ? t.slice(0, -1) : t; }
// Icon fonts draw their glyphs from the Unicode Private Use Areas (usually through CSS
// ::before content, which is part of the accessible name): a person never reads them, and
// the next icon set draws others (Unicode 23.5, models/glyphs.py): names leave them out, and
// the words an icon font draws as one picture, which accName marks (``iconWord``).
const ICON_WORD = '\u{10FFFD}';
const ICON_GLYPHS = /\u{10FFFD}[^\u{10FFFD}]*\u{10FFFD}|[\u{E000}-\u{F8FF}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]/gu;
function withoutGlyphs(s) { return norm(String(s == null ? '' : s).replace(ICON_GLYPHS, ' ')); }
// "Username:" and "Email *" are labelled "Username" and "Email" for a person, and a button
// named "\ue900 Login" or "Next ›" by an icon glyph or a detached symbol is "Login", "Next".
function bare(s) {
  return withoutGlyphs(s).toLowerCase().replace(/^(?:[\p{P}\p{S}]+\s+)+(?=\S)/u, '').replace(/(?:\s+[\p{P}\p{S}]+)+$/u, '')
    .replace(/[\s:*]+$/, '');
}

// Character-bigram Dice of two strings as given ("Shoping Cart" ~ "Shopping Cart").
function dice(a, b) {
  const grams = (s) => {
    const m = new Map();
    for (let i = 0; i + 1 < s.length; i++) m.set(s.slice(i, i + 2), (m.get(s.slice(i, i + 2)) || 0) + 1);
    return m;
  };
  const A = grams(a); const B = grams(b);
  let inter = 0; let total = 0;
  for (const [g, n] of A) { inter += Math.min(n, B.get(g) || 0); total += n; }
  for (const n of B.values()) total += n;
  return total ? (2 * inter) / total : 0;
}

// camelCase, snake_case and kebab-case all become the same words (region names:
// LoginForm ~ login_form ~ login-form ~ loginForm).
function tokens(s) {
  return String(s || '')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

// A count is data, not a name: a number that starts the words ("5 hidden tables", "1 item
// left") and a number alone in brackets after words ("Inbox (3)", "Cart [2]"). A number
// after a word without brackets names something ("Page 2", "Order 1001", "Step 3 of 5") and
// is kept. Answers the words with each count as '#', or null when there is no count.
const COUNT_FIRST = /^\s*\d[\d,.]*(?=\s+\p{L})/u;
const COUNT_BADGE = /[([]\s*\d[\d,.]*\s*[)\]]/gu;
function counted(s) {
  const masked = String(s).replace(COUNT_FIRST, '#').replace(COUNT_BADGE, ' # ');
  return masked === String(s) ? null : low(masked).split(/[^\p{L}\p{N}#]+/u).filter(Boolean);
}
// One word and its plural ("table" ~ "tables", "box" ~ "boxes", "entry" ~ "entries").
function sameNoun(a, b) {
  if (a === b) return true;
  const [s, l] = a.length < b.length ? [a, b] : [b, a];
  return l === `${s}s` || l === `${s}es` || (s.endsWith('y') && l === `${s.slice(0, -1)}ies`);
}
// The same words around different counts ("5 hidden tables" ~ "1 hidden table"): both
// show a count, and every other word is the same (a noun may change its number with it).
function sameBesideCounts(a, b) {
  const A = counted(a); const B = counted(b);
  if (!A || !B || A.length !== B.length || !A.some((w) => w !== '#')) return false;
  return A.every((w, i) => (w === '#') === (B[i] === '#') && sameNoun(w, B[i]));
}
// A moment is data, not a name: a time of day ("02:43 PM", "14:05:09"), a date written
// with digits ("11/29", "2026-11-29", "29.11.2026") and a time ago ("5 minutes ago", "an
// hour ago": ECMA-402's Intl.RelativeTimeFormat units) change with every start of an app
// and every edit of a row, while the words of the row stay. The words without them; other
// numbers ("Order 1001", a price) are kept: they tell items apart.
const MOMENT = new RegExp([
  String.raw`\b\d{4}-\d{1,2}-\d{1,2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?`,
  String.raw`\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b`, String.raw`\b\d{1,2}/\d{1,2}\b`,
  String.raw`\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\b\.?)?`,
  String.raw`\b(?:\d+|an?)\s+(?:second|minute|hour|day|week|month|quarter|year)s?(?:\s+ago)?\b`,
].join('|'), 'giu');
const withoutMoments = (s) => String(s || '').replace(MOMENT, ' ');

function parentOf(el) {
  if (el.parentElement) return el.parentElement;
  const root = el.parentNode;
  return root && root.host ? root.host : null;
}
// The first of ``el`` and its ancestors (across shadow roots) that ``test`` takes, of the
// ``most`` nearest; else null.
function closestUp(el, test, most = Infinity) {
  for (let a = el, i = 0; a && i < most; a = parentOf(a), i++) if (test(a)) return a;
  return null;
}
// Element.prototype.matches, whatever the element itself defines: a custom element may
// have its own ``matches`` property (Datasette's <navigation-search> keeps its search
// results there), which would shadow the method.
const matchesSelector = Element.prototype.matches;
function elMatches(el, selector) { return matchesSelector.call(el, selector); }
// ``el`` is ``ancestor`` or inside it, across shadow roots. ``contains`` answers for the
// light tree natively; only an element in another tree (a shadow root) is walked up.
function containsComposed(ancestor, el) {
  if (ancestor.contains(el)) return true;
  if (el.getRootNode() === ancestor.getRootNode()) return false;
  return closestUp(el, (e) => e === ancestor) !== null;
}
// ``e`` is ``a`` or drawn inside it: a descendant across shadow roots, or slotted into it
// (a web component's shadow <button> shows its host's light-DOM label through a <slot>, and
// events on the label pass through the button: DOM's composed path). ARIA: a button's
// children are presentational, so its label is the button, not another element.
function drawnInside(a, e) {
  for (let n = e; n; n = n.assignedSlot || parentOf(n)) if (n === a) return true;
  return false;
}
function inShadow(el) { return el.getRootNode() instanceof ShadowRoot; }
// Rendered at all (no display:none / visibility:hidden on the way up); checkVisibility is
// missing from older WebKit and Firefox builds, so fall back to the same test by hand.
function isRendered(el) {
  if (el.checkVisibility) return el.checkVisibility({ visibilityProperty: true });
  return el.getClientRects().length > 0 && getComputedStyle(el).visibility === 'visible';
}
// A box with an area (what Playwright's "visible" asks of an element's box).
function visibleBox(el) {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

// ``map.set(key, value)``, keeping only the ``keep`` latest keys (a document's registries).
function remember(map, key, value, keep) {
  map.set(key, value);
  for (const old of [...map.keys()].slice(0, -keep)) map.delete(old);
}

function allElements(doc) {
  const out = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (SKIP_TAGS.has(el.tagName)) continue;
      out.push(el);
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(doc);
  return out;
}

function tag(el) { return el.tagName.toLowerCase(); }
// The first token of an explicit ``role`` attribute ('' when none).
function roleAttr(el) { return (el.getAttribute('role') || '').trim().split(/\s+/)[0]; }
// The elements an id-reference attribute (``aria-labelledby``) names, in ``el``'s tree.
function idRefs(el, attr) {
  const root = el.getRootNode();
  return (el.getAttribute(attr) || '').split(/\s+/).filter(Boolean)
    .map((id) => (root.getElementById ? root : document).getElementById(id)).filter(Boolean);
}
function inputType(el) { return (el.getAttribute('type') || 'text').toLowerCase(); }

function implicitRole(el) {
  const t = el.tagName;
  const named = el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby');
  switch (t) {
    case 'A': case 'AREA': return el.hasAttribute('href') ? 'link' : null;
    case 'ARTICLE': return 'article';
    case 'ASIDE': return 'complementary';
    case 'BUTTON': return 'button';
    case 'DIALOG': return 'dialog';
    case 'DETAILS': case 'FIELDSET': case 'OPTGROUP': return 'group';
    case 'FIGURE': return 'figure';
    case 'FORM': return named ? 'form' : null;
    case 'SECTION': return named ? 'region' : null;
    case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6': return 'heading';
    case 'HR': return 'separator';
    case 'IMG': return el.getAttribute('alt') === '' && !el.getAttribute('title') ? 'presentation' : 'img';
    case 'LI': return 'listitem';
    case 'MAIN': return 'main';
    case 'NAV': return 'navigation';
    case 'OL': case 'UL': case 'MENU': return 'list';
    case 'OPTION': return 'option';
    case 'OUTPUT': return 'status';
    case 'P': return 'paragraph';
    case 'PROGRESS': return 'progressbar';
    case 'SELECT': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'TABLE': return 'table';
    case 'TR': return 'row';
    case 'TD': return 'cell';
    case 'TH': return thRole(el);
    case 'TEXTAREA': return 'textbox';
    case 'HEADER': case 'FOOTER':
      if (closestUp(parentOf(el), (a) => ['ARTICLE', 'ASIDE', 'MAIN', 'NAV', 'SECTION'].includes(a.tagName))) return null;
      return t === 'HEADER' ? 'banner' : 'contentinfo';
    case 'INPUT': {
      const type = inputType(el);
      if (type === 'hidden') return null;
      if (type === 'search') return 'searchbox';
      return ({ button: 'button', image: 'button', reset: 'button', submit: 'button',
        file: 'button', checkbox: 'checkbox', radio: 'radio', range: 'slider',
        number: 'spinbutton' })[type] || 'textbox';
    }
    default: return null;
  }
}

// A header cell's role as Playwright's role locators compute it: ``scope`` first, else a
// row header when a data cell stands beside it (a table's first column of <th> in rows of
// <td>, as admin index pages have), else a column header; a lone <th> in a one-row table
// has no role.
function thRole(el) {
  const scope = (el.getAttribute('scope') || '').toLowerCase();
  if (scope === 'col' || scope === 'colgroup') return 'columnheader';
  if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
  const next = el.nextElementSibling;
  const prev = el.previousElementSibling;
  const row = el.parentElement && el.parentElement.tagName === 'TR' ? el.parentElement : null;
  if (!next && !prev) {
    const table = row ? row.closest('table') : null;
    if (table && table.rows.length <= 1) return null;
    return 'columnheader';
  }
  const isTag = (e, tag) => !!e && e.tagName === tag;
  if (isTag(next, 'TH') && isTag(prev, 'TH')) return 'columnheader';
  if (isTag(next, 'TD') || isTag(prev, 'TD')) return 'rowheader';
  return 'columnheader';
}

// Shadow-aware hit test: elementFromPoint stops at shadow hosts, so descend into them.
function hitTarget(doc, x, y) {
  let hit = doc.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}
// Where Playwright's click puts the pointer: the middle of the element's first own box with an
// area (CSSOM getClientRects: a link broken across lines has one per line, and the centre of
// their union may fall between them); null when none, or outside the viewport.
function pointOf(el) {
  const r = [...el.getClientRects()].find((q) => q.width * q.height > 0.99);
  const [x, y, w] = r ? [r.left + r.width / 2, r.top + r.height / 2, el.ownerDocument.defaultView] : [];
  return r && x >= 0 && y >= 0 && x < w.innerWidth && y < w.innerHeight ? [x, y] : null;
}
// Drawn on top at its pointer point: the pointer's hit there is it or inside it.
function onTop(el) {
  const point = pointOf(el);
  return !!point && drawnInside(el, hitTarget(el.ownerDocument, ...point));
}

function makeDom(doc) {
  // One cache per scan: a page state is read once.
  const nameCache = new Map();

  const roleOf = memo((el) => {
    const explicit = roleAttr(el);
    return explicit ? (explicit === 'none' ? 'presentation' : explicit) : implicitRole(el);
  });

  // Out of the accessibility tree: unrendered, or inside ``aria-hidden="true"``; what
  // Playwright's role locators never match (``getByRole`` without ``includeHidden``).
  const ariaHiddenUp = memo((el) => closestUp(el, (a) => a.getAttribute('aria-hidden') === 'true') !== null);
  const unexposed = memo((el) => !isRendered(el) || ariaHiddenUp(el));
  // Hidden from a person: unrendered, or inside ``aria-hidden="true"`` and not drawn on top
  // where it is. WAI-ARIA 1.2: ``aria-hidden`` removes an element from the accessibility
  // tree, not from view (authors may hide rendered content from assistive technologies
  // only); Playwright's visibility ignores it. A modal's library marks the page behind the
  // dialog ``aria-hidden`` and covers it with a backdrop, or makes it ``inert`` (which hit
  // testing passes through): the pointer's hit at the element's centre is then not it, and
  // it stays hidden, as does one outside the viewport (nothing is guessed). pgAdmin 4 7.8
  // draws its menu bar and its dialogs inside such containers, left over from other modals.
  const isHidden = memo((el) => !isRendered(el) || (ariaHiddenUp(el) && !onTop(el)));

  // Text as Playwright's text engine sees it (``rawText``): text nodes of the composed tree,
  // no scripts, input buttons by their value. The text a person can see (``visibleRaw``): no
  // display:none or unrendered subtrees, no text nodes of a visibility:hidden element (a
  // visible child of it still counts), and a closed drop-down shows only its selected
  // option. Regions are named by what the page shows: a filter <select> whose hidden options
  // list "price" does not mention "price".
  // Raw text is concatenated once per element (cheap string ropes); whitespace is
  // normalised only for the elements whose text is actually read.
  const styleOf = memo((el) => getComputedStyle(el));
  const unrendered = memo((el) => {
    const style = styleOf(el);
    const out = style.display === 'none';
    // closed <details>, content-visibility, no box (display:contents has none of its own)
    return !out && style.display !== 'contents' && el.checkVisibility ? !el.checkVisibility() : out;
  });
  const textWalk = (visible) => {
    const walk = memo((el) => {
      const seen = !visible || styleOf(el).visibility === 'visible';
      if (visible && el.tagName === 'SELECT' && !(el.multiple || el.size > 1)) {
        const shown = el.selectedOptions[0] || el.options[0];
        return shown && seen ? shown.textContent : '';
      }
      if (el.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(inputType(el))) return seen ? el.value || '' : '';
      let text = '';
      for (const node of el.shadowRoot ? el.shadowRoot.childNodes : el.childNodes) {
        if (node.nodeType === Node.TEXT_NODE) { if (seen) text += node.data; }
        else if (node.nodeType === Node.ELEMENT_NODE && !SKIP_TAGS.has(node.tagName) && !(visible && unrendered(node))) {
          const inner = walk(node);
          text += BLOCK_TAGS.has(node.tagName) ? ` ${inner} ` : inner;
        }
      }
      return text;
    });
    return walk;
  };
  const rawText = textWalk(false);
  const visibleRaw = textWalk(true);
  const textOf = memo((el) => norm(rawText(el)));
  const visibleText = memo((el) => {
    let hidden = unrendered(el);
    if (!hidden && styleOf(el).display === 'contents') {
      for (let a = parentOf(el); a && !hidden; a = parentOf(a)) hidden = unrendered(a);
    }
    return hidden ? '' : norm(visibleRaw(el));
  });

  // CSS generated content, as accname and Playwright read it: ::before/::after strings and
  // attr() values, or the alternative text after "/" ("\e900" / "Log in"); a pseudo element
  // that is not inline is a separate word. Icon fonts name buttons this way.
  const pseudoOf = (pseudo) => memo((el) => {
    const style = getComputedStyle(el, pseudo);
    const value = style && style.content;
    if (!value || value === 'none' || value === 'normal' || style.display === 'none' || style.visibility === 'hidden') return '';
    const out = parseContent(el, value);
    return out && (style.display || 'inline') !== 'inline' ? ` ${out} ` : out;
  });
  const [before, after] = [pseudoOf('::before'), pseudoOf('::after')];
  function parseContent(el, value) {
    const parts = [];
    const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([\w-]+)\s*\)|(\/))/gy;
    let m;
    let at = 0;
    while (at < value.length && (m = re.exec(value))) {
      at = re.lastIndex;
      if (m[4]) { parts.length = 0; continue; }  // "icon" / "alt text": the alt text counts
      if (m[3] !== undefined) parts.push(el.getAttribute(m[3]) || '');
      else parts.push(unescapeCss(m[1] !== undefined ? m[1] : m[2]));
    }
    return value.slice(at).trim() ? '' : parts.join('');
  }
  function unescapeCss(s) {
    return s.replace(/\\([0-9a-fA-F]{1,6})\s?|\\(.)/g, (_, hex, ch) => (hex ? String.fromCodePoint(parseInt(hex, 16)) : ch));
  }

  const isInline = memo((el) => (getComputedStyle(el).display || 'inline') === 'inline' && el.tagName !== 'BR');
  function ariaHidden(el) {
    if (el.getAttribute('aria-hidden') === 'true') return true;
    return !isRendered(el) && (el.tagName !== 'OPTION' || !el.closest('select'));
  }
  // Roles whose descendants give their text to an ancestor's name from content (accname).
  const DESCENDANT_CONTENT = new Set(['', 'caption', 'code', 'contentinfo', 'definition',
    'deletion', 'emphasis', 'generic', 'insertion', 'mark', 'paragraph', 'presentation', 'none',
    'strong', 'subscript', 'suggestion', 'superscript', 'term', 'time']);

  // The text alternative of a descendant inside a name computed from content (accname 2B-2I):
  // its labelled-by and aria-label, an embedded control's value, an image's alt, else its
  // own content with ::before/::after, else its title. ``target`` is never its own content.
  const altCache = new Map();
  const visiting = new Set();
  function descendantAlt(node, target) {
    if (node === target) return '';
    const shared = !node.contains(target);  // holding the target changes the answer
    if (shared && altCache.has(node)) return altCache.get(node);
    if (visiting.has(node)) return '';  // cycles through aria-labelledby
    visiting.add(node);
    let out = '';
    if (!ariaHidden(node)) {
      const refs = idRefs(node, 'aria-labelledby');
      out = norm(refs.map((r) => innerText(r, target)).join(' '))
        || (norm(node.getAttribute('aria-label')) ? node.getAttribute('aria-label') : '');
      const t = node.tagName;
      const role = roleOf(node) || '';
      if (!out && (role === 'textbox' || role === 'searchbox')) {
        out = t === 'INPUT' || t === 'TEXTAREA' ? node.value : node.textContent;
      } else if (!out && t === 'SELECT') {
        const chosen = [...node.selectedOptions];
        if (!chosen.length && node.options.length) chosen.push(node.options[0]);
        out = chosen.map((o) => descendantAlt(o, target)).join(' ');
      } else if (!out && t === 'INPUT' && ['button', 'submit', 'reset'].includes(inputType(node))) {
        out = node.value || ({ submit: 'Submit', reset: 'Reset' })[inputType(node)] || node.getAttribute('title') || '';
      } else if (!out && t === 'IMG') {
        out = norm(node.getAttribute('alt')) ? node.getAttribute('alt') : node.getAttribute('title') || '';
      } else if (!out && (NAME_FROM_CONTENT.has(role) || DESCENDANT_CONTENT.has(role))) {
        out = innerText(node, target);
      }
      if (!norm(out)) out = node.getAttribute('title') || '';
    }
    visiting.delete(node);
    if (shared) altCache.set(node, out);
    return out;
  }
  // ::before, the children (light DOM, then an open shadow root), ::after.
  function innerText(el, target) {
    let out = before(el);
    const visit = (kids) => {
      for (const node of kids) {
        if (node.nodeType === Node.TEXT_NODE) { out += iconWord(node) ? ICON_WORD + node.data + ICON_WORD : node.data; continue; }
        if (node.nodeType !== Node.ELEMENT_NODE || SKIP_TAGS.has(node.tagName)) continue;
        const piece = descendantAlt(node, target);
        out += isInline(node) ? piece : ` ${piece} `;
      }
    };
    if (el.tagName === 'SLOT' && el.assignedNodes().length) visit(el.assignedNodes());
    else {
      visit(el.childNodes);
      if (el.shadowRoot) visit(el.shadowRoot.childNodes);
    }
    return out + after(el);
  }
  // A word an icon font draws as one picture, its ligature (CSS Fonts 4, font-variant-ligatures:
  // Material Icons' "add", "expand_more"): drawn far narrower than its letters one by one (the
  // canvas measures each in the same font), it is an icon a person sees, and no word they read.
  let pen = null;
  const iconWord = memo((node) => {
    if (!node.parentElement || !/^\s*[a-z][a-z0-9_]+\s*$/.test(node.data)) return false;
    const s = styleOf(node.parentElement), range = doc.createRange();
    range.selectNodeContents(node);
    pen = pen || doc.createElement('canvas').getContext('2d');
    pen.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const drawn = range.getBoundingClientRect().width;
    return drawn > 0 && drawn < 0.7 * [...node.data.trim()].reduce((w, c) => w + pen.measureText(c).width, 0);
  });

  // Text of a <label>, without the controls it wraps (their values are not the label).
  const ownText = (n) => [...n.childNodes].map((c) => (c.nodeType === Node.TEXT_NODE ? c.data : c.nodeType === Node.ELEMENT_NODE
    && !['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(c.tagName) && !SKIP_TAGS.has(c.tagName) ? ownText(c) : '')).join('');
  const labelText = (label) => norm(ownText(label));
  const labelTexts = memo((el) => [...idRefs(el, 'aria-labelledby').map((ref) => norm(textOf(ref))),
    ...[...el.labels || []].map(labelText)].filter(Boolean));
  // A label's words on its first line as drawn (HTML innerText: a <br> or a block box ends a
  // line, what is not drawn is not read); each label's, by its text, when the text starts with them.
  const firstLine = memo((l) => norm((l.innerText || '').split('\n').find(norm)));
  const firstLines = memo((el) => new Map([...el.labels || []].map((l) => [labelText(l), firstLine(l)])
    .filter(([v, line]) => line && bare(v).startsWith(bare(line)))));

  // The accessible name as Playwright computes it, and its words (glyphs and icon words left out).
  const accName = memo((el) => markedName(el).replaceAll(ICON_WORD, ''));
  const words = memo((el) => withoutGlyphs(markedName(el)));
  function markedName(el) {
    if (nameCache.has(el)) return nameCache.get(el);
    nameCache.set(el, '');  // cycles through aria-labelledby
    let name = idRefs(el, 'aria-labelledby').map((r) => innerText(r, el)).join(' ');
    name = norm(name) || norm(el.getAttribute('aria-label'));
    const t = el.tagName;
    if (!name && el.labels && el.labels.length) {
      name = norm([...el.labels].map((l) => norm(l.getAttribute('aria-label')) || norm(innerText(l, el)))
        .filter(Boolean).join(' '));
    }
    if (!name && t === 'INPUT' && ['button', 'submit', 'reset'].includes(inputType(el)))
      name = norm(el.value) || ({ submit: 'Submit', reset: 'Reset' })[inputType(el)] || '';
    if (!name && (t === 'IMG' || (t === 'INPUT' && inputType(el) === 'image'))) name = norm(el.getAttribute('alt'));
    if (!name && t === 'FIELDSET') { const lg = el.querySelector(':scope > legend'); if (lg) name = norm(innerText(lg, el)); }
    if (!name && t === 'TABLE' && el.caption) name = norm(innerText(el.caption, el));
    if (!name && NAME_FROM_CONTENT.has(roleOf(el))) name = norm(innerText(el, el));  // from content, hidden parts skipped
    if (!name) name = norm(el.getAttribute('title'));
    if (!name && (t === 'INPUT' || t === 'TEXTAREA')) name = norm(el.getAttribute('placeholder'));
    nameCache.set(el, name);
    return name;
  }

  return { roleOf, accName, words, textOf, rawText, visibleText, labelTexts, firstLine, firstLines, isHidden, unexposed };
}

// Which elements an action can use (brief: "never pick an incompatible one").
function isEditableType(el, roleOf) {
  if (el.tagName === 'INPUT') return !NON_TEXT_INPUTS.has(inputType(el));
  if (el.tagName === 'TEXTAREA') return true;
  return el.isContentEditable;
}
function isCheckable(el, roleOf) {
  if (el.tagName === 'INPUT') return ['checkbox', 'radio'].includes(inputType(el));
  return ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(roleOf(el));
}
// A native <select>, or an ARIA dropdown (WAI-ARIA APG combobox and listbox patterns): a
// listbox, a combobox (an editable <input role=combobox> included: it filters as you type),
// or a button that pops up a listbox (aria-haspopup=listbox, as MUI's and Headless UI's do).
function isSelectable(el, roleOf) {
  return el.tagName === 'SELECT' || ['listbox', 'combobox'].includes(roleOf(el))
    || (el.getAttribute('aria-haspopup') || '').toLowerCase() === 'listbox';
}
// A one-line text field: the <input> types HTML-AAM maps to a combobox when a list is tied to
// them (text, search, tel, url, email). A drop-down whose markup says nothing is one (Gradio
// 3.50's), so a select step takes one only when no select, listbox or combobox has the words;
// never the field inside a combobox (Vuetify's autocomplete): that combobox is the drop-down.
function isTextField(el, roleOf) {
  return el.tagName === 'INPUT' && ['text', 'search', 'tel', 'url', 'email'].includes(inputType(el))
    && !closestUp(parentOf(el), (a) => isSelectable(a, roleOf));
}
// A field set by steps rather than typed (fill): an <input type=range>, a read-only number
// field (moved by its -/+ buttons), an ARIA slider or a spinbutton that is not a text field
// (WAI-ARIA APG slider and spinbutton patterns).
function isSettable(el, roleOf) {
  if (el.tagName === 'INPUT') return inputType(el) === 'range' || (inputType(el) === 'number' && el.readOnly);
  return ['slider', 'spinbutton'].includes(roleOf(el)) && !el.isContentEditable;
}
function isClickable(el, roleOf, cheap = false) {
  const t = el.tagName;
  if (t === 'BUTTON' || t === 'SUMMARY' || t === 'SELECT' || (t === 'A' && el.hasAttribute('href'))) return true;
  if (t === 'INPUT') return inputType(el) !== 'hidden';
  if (CLICKABLE_ROLES.has(roleOf(el)) || el.hasAttribute('onclick')) return true;
  if (el.tabIndex >= 0 && el.hasAttribute('tabindex')) return true;
  return !cheap && getComputedStyle(el).cursor === 'pointer';
}

// A key goes to the focused element (HTML, "Focus": key events target the focused area of
// the document), and Playwright's locator.press focuses its element first: focusing an
// element that is not a focusable area does nothing, so the key goes to <body>. HTML's
// focusable areas: an element with a tabindex attribute, an editing host, a link or area
// with href, a button, a non-hidden input, a select, a textarea, a summary, an iframe, a
// host that delegates focus to its shadow tree, and the document's viewport (<body>).
const FOCUSABLE_TAGS = new Set(['BUTTON', 'SELECT', 'TEXTAREA', 'IFRAME', 'SUMMARY', 'BODY', 'HTML']);
function canTakeFocus(el) {
  if (el.hasAttribute('tabindex') || el.isContentEditable) return true;
  if (el.shadowRoot && el.shadowRoot.delegatesFocus) return true;
  const t = el.tagName.toUpperCase();
  if (t === 'A' || t === 'AREA') return el.hasAttribute('href');
  if (t === 'INPUT') return inputType(el) !== 'hidden';
  return FOCUSABLE_TAGS.has(t);
}

// 2 = the element type the action wants, 1 = usable when nothing better exists, 0 = never.
// ``cheap`` skips the computed-style cursor test, for scans over every element.
function compatibility(el, action, roleOf, cheap = false) {
  switch (action) {
    case 'fill': return isEditableType(el, roleOf) || isSettable(el, roleOf) ? 2 : 0;
    case 'type': return isEditableType(el, roleOf) ? 2 : 0;
    case 'check': case 'uncheck': return isCheckable(el, roleOf) ? 2 : 0;
    case 'select': return isSelectable(el, roleOf) ? 2 : isTextField(el, roleOf) ? 1 : 0;
    case 'click': case 'hover': {
      if (isClickable(el, roleOf, cheap)) return 2;
      return !cheap && closestUp(parentOf(el), (a) => isClickable(a, roleOf) && a.tagName !== 'SELECT', 3) ? 2 : 1;
    }
    case 'press': return canTakeFocus(el) ? 2 : 0;
    default: return (el.tabIndex >= 0 || isClickable(el, roleOf, cheap)) ? 2 : 1;
  }
}

function describeElement(el, dom) {
  let d = tag(el);
  if (el.id) d += `#${el.id}`;
  else if (el.classList.length) d += `.${[...el.classList].slice(0, 2).join('.')}`;
  const name = dom ? dom.accName(el) : norm(el.getAttribute('aria-label'));
  const shown = name || cut(norm(el.textContent || ''), 40);
  if (shown) d += ` "${shown.length > 40 ? cut(shown, 39) + '…' : shown}"`;
  return d;
}

// An API call's answer goes back to Python as one JSON string (``runtime/scripts.py``,
// ``decoded``): Playwright's client checks and converts every node of a structured answer on
// its way, which for a ranking of a few dozen candidates cost more than the work in the page
// (about 11 ms against 2 for thirty candidates). Written here rather than JSON.stringify, so
// a page's own ``toJSON`` methods (Prototype.js gives arrays one) cannot change the answer.
// As Playwright's serialisation: undefined, functions and symbols are null (an object's key
// is kept), non-finite numbers are NaN / Infinity (Python's json reads them), strings keep
// every code unit (surrogates escaped).
const JSON_ESCAPED = /[\u0000-\u001f"\\\u2028\u2029\ud800-\udfff]/g;
const JSON_SHORT = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
function jsonChar(c) {
  return JSON_SHORT[c] || '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
}
function toJson(value, depth = 0) {
  if (depth > 256) throw new Error('pytest-pacts: an in-page answer nested too deep to send');
  switch (typeof value) {
    case 'string': return '"' + value.replace(JSON_ESCAPED, jsonChar) + '"';
    case 'number':
      if (Number.isFinite(value)) return String(value);
      return value !== value ? 'NaN' : (value > 0 ? 'Infinity' : '-Infinity');
    case 'boolean': return value ? 'true' : 'false';
    case 'bigint': return String(value);
    case 'object': break;
    default: return 'null';  // undefined, functions, symbols
  }
  if (value === null) return 'null';
  let out = '';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + toJson(value[i], depth + 1);
    return '[' + out + ']';
  }
  for (const key of Object.keys(value)) {
    out += (out ? ',' : '') + toJson(key) + ':' + toJson(value[key], depth + 1);
  }
  return '{' + out + '}';
}

// An element's title, where Bootstrap's tooltip plugin keeps it once started (3, 4: data-original-title;
// 5: data-bs-original-title) and title is left empty or removed (docs/discovery.md).
const titleOf = (el) => el.getAttribute('title') || el.getAttribute('data-original-title') || el.getAttribute('data-bs-original-title');
// The words an element is called by where a person reads them: its accessible name, its
// labels, placeholder, aria-label and title (discovery's lexical evidence, what a search
// field says it searches, the gate's identity check).
const namesOf = (el, dom) => [dom.words(el), ...dom.labelTexts(el), el.getAttribute('placeholder'),
  el.getAttribute('aria-label'), titleOf(el)];

// Exports: what the later files use.
return {
  toJson, memo, cut,
  SKIP_TAGS, TEST_ID_ATTRS, NAME_FROM_CONTENT, norm, withoutGlyphs, low, bare, dice, tokens, sameBesideCounts, withoutMoments,
  parentOf, closestUp, elMatches, roleAttr, idRefs, isRendered, visibleBox, remember,
  containsComposed, drawnInside, hitTarget, pointOf, inShadow, allElements, tag, inputType, makeDom, isEditableType, isSettable, isCheckable,
  isSelectable, isTextField, isClickable, CLICKABLE_ROLES, canTakeFocus, compatibility, describeElement, titleOf, namesOf
};
