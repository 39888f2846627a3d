// Resolving one step against the scanned page: levels, regions, ambiguity, locator options.
//
// Levels, best first (strategy order within each tier, docs/discovery.md): every named strategy with an
// exact match, then every named strategy with a whole-word substring match, then
// relational. Exact beats substring because the person wrote the element's name; relational
// comes last because it does not use the name at all. The first level that yields elements
// in scope decides: one element is resolved, several are REPORTED as ambiguous (never "first
// match": the first of several may be the wrong one).

// Imports (see runtime/scripts.py: one module per file).
const {
  TEST_ID_ATTRS, norm, withoutGlyphs, cut, low, bare, dice, tokens, parentOf, closestUp, elMatches, containsComposed, drawnInside, inShadow, tag,
  inputType, isEditableType, isClickable, CLICKABLE_ROLES, compatibility, describeElement, roleAttr, idRefs, memo, titleOf, namesOf, visibleBox
} = modules.dom;
const { selectProxy, neighbourTexts } = modules.actionability;
const { makeQuery, prep, cssString, cssVariants, stableClasses, tokenTier, textTier, linkAddress, structuralPath } = modules.scan;

// (not ``press``: a key goes only to an element that can take focus, dom.js canTakeFocus)
const NAME_ACTIONS_LAX = new Set(['click', 'hover', 'focus']);
// the strategies that read the words a person reads (or accname reads): not an id, a form
// ``name``, a class or a test id
const READ_NAMES = new Set(['label', 'placeholder', 'role_name', 'aria', 'text']);
const SECTION_TAGS = new Set(['SECTION', 'ARTICLE', 'ASIDE', 'NAV', 'MAIN', 'FORM', 'FIELDSET',
  'DIALOG', 'LI', 'TR', 'TABLE']);
const SECTION_ROLES = new Set(['region', 'article', 'complementary', 'navigation', 'main', 'form',
  'group', 'dialog', 'alertdialog', 'listitem', 'row', 'tabpanel']);
const CELLS = new Set(['TD', 'TH']);
const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
function isSection(el) {
  const role = roleAttr(el);
  return role ? SECTION_ROLES.has(role) : SECTION_TAGS.has(el.tagName);
}
// the actions on form fields, which a label (or the text standing in for one) names
const LABELLED_ACTIONS = new Set(['fill', 'type', 'check', 'uncheck', 'select']);
const RELATIONAL_ACTIONS = new Set(['click', 'fill', 'type', 'check', 'uncheck', 'select']);
const ACTED_ON_BY_POINTER = new Set(['click', 'hover', 'check', 'uncheck']);
const CHECKING = new Set(['check', 'uncheck']);
const CONFINED_ACTIONS = new Set(['click', 'fill', 'type', 'check', 'uncheck', 'select', 'press', 'focus']);
const STOP_WORDS = new Set(['the', 'a', 'an', 'of', 'for', 'to', 'in', 'on', 'at', 'this', 'that',
  'with', 'its', 'my', 'your']);
// The words a person uses for a kind of control.
const ROLE_WORDS = {
  checkbox: ['checkbox', 'check', 'box', 'tick', 'tickbox'],
  radio: ['radio', 'option', 'button'],
  switch: ['switch', 'toggle'],
  button: ['button', 'btn'],
  link: ['link'],
  textbox: ['field', 'textbox', 'text', 'input', 'box', 'textfield', 'area', 'textarea'],
  searchbox: ['search', 'field', 'box', 'input', 'searchbox'],
  spinbutton: ['field', 'input', 'number', 'box', 'spinner'],
  combobox: ['dropdown', 'drop', 'down', 'select', 'combobox', 'combo', 'box', 'picker', 'list'],
  listbox: ['list', 'listbox', 'box', 'select'],
  slider: ['slider', 'range'],
  tab: ['tab'],
  menuitem: ['menu', 'item', 'entry'],
  option: ['option', 'item'],
  img: ['image', 'img', 'picture', 'icon'],
};
const ICON_WORDS = ['icon', 'image', 'img', 'symbol', 'glyph'];
// The words that name a checkable control by how it looks ("checkbox", "radio", "toggle").
const CHECK_WORDS = new Set([...ROLE_WORDS.checkbox, ...ROLE_WORDS.switch, 'radio']);
// An element that shows no text: an icon (svg, i, img, a span drawn by CSS) or a control
// holding only one.
function showsNoText(el, dom) {
  return !bare(dom.textOf(el)) && !(el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT');
}
function typeWords(el, dom) {
  const out = [...(ROLE_WORDS[dom.roleOf(el)] || [])];
  if (el.tagName === 'INPUT') out.push(...tokens(inputType(el)));
  if (el.tagName === 'SELECT') out.push(...ROLE_WORDS.combobox);
  if (el.tagName === 'TEXTAREA') out.push(...ROLE_WORDS.textbox);
  if (showsNoText(el, dom)) out.push(...ICON_WORDS);
  return out;
}
function evidenceWords(el, dom, kind) {
  const ids = ['id', 'name', ...TEST_ID_ATTRS].map((a) => el.getAttribute(a));
  return new Set([...kind, ...[...namesOf(el, dom), ...ids, ...el.classList].flatMap(tokens)]);
}

// The texts a person reads right beside ``el`` on its line: the text node or element
// immediately after it, and the one immediately before it, side by side with it
// (docs/discovery.md, "Adjacent text"). A control is not such a text; a line break is not
// either, except that a field alone on its line is read under the caption that makes up
// the line above it, its nearest preceding text in reading order (``Title:<br><input><br>
// Description:<br><input>``: Radicale 3.0.6's forms; Roundup's login box, ``<b>Login</b>
// <br><input>``). A caption that does not make up its whole line, or a line holding two
// fields, names neither.
const BESIDE_CONTROLS = 'input:not([type=hidden]), select, textarea, [role=combobox], '
  + '[role=listbox], [role=slider], [role=spinbutton]';
function textsBeside(el, dom) {
  const out = [];
  const skip = (n, dir) => {
    while (n && (n.nodeType === 8 || (n.nodeType === 3 && !n.textContent.trim()))) n = n[dir];
    return n;
  };
  const isBreak = (n) => !n || (n.nodeType === 1 && n.tagName === 'BR');
  const plain = (n) => n.nodeType === 3 || (n.nodeType === 1 && !isClickable(n, dom.roleOf, true)
    && !n.querySelector('input, select, textarea, button, a[href]'));
  for (const dir of ['nextSibling', 'previousSibling']) {
    let n = skip(el[dir], dir);
    let above = false;
    if (n && dir === 'previousSibling' && isBreak(n) && isBreak(skip(el.nextSibling, 'nextSibling'))) {
      n = skip(n[dir], dir);
      above = !!n && plain(n) && isBreak(skip(n[dir], dir));
      if (!above) continue;
    }
    if (!n) continue;
    if (n.nodeType === 3) out.push(norm(n.textContent));
    else if (n.nodeType === 1 && n.tagName !== 'BR' && plain(n) && (above || sameLine(el, n))) out.push(dom.textOf(n));
  }
  return out.filter(Boolean);
}
// Side by side: each box's vertical middle is within the other's height (an inline span, a
// flex row's text).
function sameLine(a, b) {
  const r = a.getBoundingClientRect();
  const s = b.getBoundingClientRect();
  if (!r.height || !s.height) return false;
  const mid = (x) => x.top + x.height / 2;
  return mid(r) >= s.top && mid(r) <= s.bottom && mid(s) >= r.top && mid(s) <= r.bottom;
}

function makeResolver(dom, elements, strategies, regions, args) {
  const order = args.strategies.filter((s) => strategies[s]);
  const relationalOn = args.strategies.includes('relational');
  // An id, name or class is a developer's word for an element. For an element with no
  // accessible name it is the only name there is; for one whose name (what a person reads,
  // accname) does not say the step's words, the name contradicts it: such a match scores
  // less (``args.named_identifier``; docs/discovery.md, "The evidence rule").
  const base = (s, el) => args.confidence[s]
    * (s === 'css' && el && bare(dom.accName(el)) ? args.named_identifier : 1)
    * (s === 'css' && el && classOnly(el) ? args.markup_only : 1);
  // A class is markup, not words a person reads: HTML gives class names no meaning, and a
  // class is shared by every element of its kind, where an id is its element's own. Words
  // found only in the classes of an element with no accessible name are no evidence alone:
  // the match scores ``args.markup_only`` less (under the threshold) unless the step names a
  // region whose words place it ("menu icon@price": Datasette's column menus). Node-RED's
  // header button and its sidebar's caret link are both nameless; "Menu" found the caret by
  // its class "red-ui-tab-link-button-menu" (docs/discovery.md, "The evidence rule").
  let stepNow = null;  // the step ``resolve`` is resolving: its words and region
  const classOnly = (el) => !!stepNow && !stepNow.region && !bare(dom.accName(el))
    && !['id', 'name'].some((a) => el.getAttribute(a) && tokenTier(el.getAttribute(a), stepNow.q) > 0);
  const score = (s, tier, el) => Math.round(base(s, el) * (tier === 1 ? args.loose : 1) * 1000) / 1000;
  // Every (element, strategy, key) of the page, computed once for all steps.
  let table = null;
  function rows() {
    if (table) return table;
    table = [];
    for (const el of elements) {
      for (const s of order) {
        for (const key of strategies[s].keys(el)) table.push({ el, s, key, p: prep(key.value) });
      }
    }
    return table;
  }
  const lowTextOf = memo((el) => dom.textOf(el).toLowerCase());

  const kids = (e) => [...e.children, ...(e.shadowRoot ? e.shadowRoot.children : [])];
  const deepest = (els) => els.filter((e) => !els.some((o) => o !== e && containsComposed(e, o)));
  // The deepest elements whose *visible* text mentions ``text`` from a word's start (a person
  // names a region by what the page shows: not a closed drop-down's other options, not hidden
  // text, not the end of another word: "external databases" says no "Bases"). Raw text is a
  // superset, so only elements whose raw text mentions it are looked at.
  const visibleLowOf = memo((el) => dom.visibleText(el).toLowerCase());
  function mentions(text) {
    const needle = low(text);
    const atWord = (t) => { for (let i = t.indexOf(needle); i >= 0; i = t.indexOf(needle, i + 1)) if (!/[\p{L}\p{N}]/u.test(t[i - 1] || '')) return true; return false; };
    const says = (e) => lowTextOf(e).includes(needle) && atWord(visibleLowOf(e));
    return elements.filter((e) => says(e) && !kids(e).some(says));
  }
  // Words a region is named by head what they name: a heading, a caption or an item's
  // title. Words inside a sentence only mention it (HTML: a paragraph's phrasing content is
  // its running text; a section is titled by its heading, a group by the caption that
  // leads it), so a mention inside a paragraph that does not begin with the words names
  // no region: "Start with the Onboarding checklist, then read the Release process" is no
  // container of the page called "Onboarding checklist" (docs/discovery.md, "Regions").
  const paragraphOf = (e) => closestUp(e, (a) => dom.roleOf(a) === 'paragraph', 7);
  const inProse = (m, needle) => !!paragraphOf(m) && !low(visibleLowOf(paragraphOf(m))).startsWith(needle);
  // Words in a block of preformatted text (HTML's <pre>: a code sample, an example response)
  // are quoted, not said: they head nothing, whoever's words they hold.
  const quoted = (m) => !!(m.closest && m.closest('pre'));
  // A caption: a block that says the region's words and nothing else, holds no control
  // and leads siblings ("Title matches:" over a list of links).
  function isCaption(m, region) {
    let b = m;
    while (!b.nextElementSibling && b.parentElement && dom.textOf(b.parentElement) === dom.textOf(b)) b = b.parentElement;
    return !!b.nextElementSibling && bare(dom.textOf(b)) === bare(region) && !isClickable(b, dom.roleOf, true) && !holdsControl(b);
  }
  function anchorsOf(scope) {
    if (!scope.anchors) {
      const hs = regions.headingsNamed(scope.region);
      scope.anchors = hs.length
        ? hs.map((h) => ({ el: h, how: { how: 'heading', heading: dom.accName(h) } }))
        : mentions(scope.region).filter((m) => !quoted(m) && (scope.own || !inProse(m, low(scope.region))))
          .map((m) => ({ el: m, how: 'text', caption: isCaption(m, scope.region) }));
    }
    return scope.anchors;
  }

  // From each anchor (a heading or a mention of the region's text) up to the smallest container that holds
  // any of ``els`` ("the product card that mentions the backpack"): holding exactly one scopes it; more is crowded.
  //
  // ``nearest``: the words caption a control (no region): the first container that holds
  // any form control ends the climb, of the kind the action needs or not. The control
  // nearest the words is the one they caption (HTML's label names one labelable element);
  // one of another kind means the relation fails, never a farther control of the right kind
  // (marimo 0.25.2's "Helpers" multi-select, a <button aria-haspopup=dialog>, beside which
  // a column as wide as the page held the "Vegetable" <select>). Nor does it enter a
  // container that holds another field's <label> (one that says other words): that
  // container is the form, past the words' own field.
  function nearestGroups(els, anchors, nearest = null) {
    const chains = new Map();
    for (const e of els) {
      const up = new Set();
      for (let a = parentOf(e); a; a = parentOf(a)) up.add(a);
      chains.set(e, up);
    }
    const groups = [];
    for (const anchor of anchors) {
      // Up to <body> (a page-title heading scopes the page: "Remove@Your Cart"), but never
      // out of the anchor's own section: "Card number@Payment" must not reach the gift-card
      // form next to the Payment section. A page title captions no control: an <h1> (HTML's
      // highest rank) heads the page as a whole, not its one field (TiddlyWiki's site title
      // over the search box, Datasette's table name over the filter box). And a heading
      // heads what follows it, never a field before it (Datasette's closing "Views" under
      // the SQL box, sqladmin's "Books" under the search box); a field in another tree
      // (a shadow root: DISCONNECTED, 1, with an arbitrary order bit) is kept.
      const heading = nearest === null ? null : closestUp(anchor.el, (a) => dom.roleOf(a) === 'heading');
      if (heading && headingLevel(heading) === 1) continue;
      let group = null;
      for (let a = anchor.el; a && a.tagName !== 'HTML'; a = parentOf(a)) {
        if (nearest !== null && otherLabels(nearest).some((l) => !containsComposed(l, anchor.el) && containsComposed(a, l))) break;
        const inside = els.filter((e) => chains.get(e).has(a));
        const after = heading ? inside.filter((e) => (heading.compareDocumentPosition(e) & 3) !== Node.DOCUMENT_POSITION_PRECEDING) : inside;
        if (inside.length) { if (after.length) group = { container: a, how: anchor.how, els: after }; break; }
        if (nearest !== null && fieldControls().some((c) => c !== anchor.el && containsComposed(a, c))) break;
        // the repeated item (row, card, list item) that holds the words is the region: what
        // is found only past it belongs to other items or to the list ("Toggle@Buy milk" is
        // never the list's "toggle all" box)
        if (isItem(a, anchor.el)) break;
        // a section that holds nothing but the anchor (and empty decoration) is the anchor's
        // wrapper (a list item around the name in a row built of list items), not its section
        if (isSection(a) && !wrapsOnly(a, anchor.el)) break;
      }
      // A heading also names what follows it up to the next heading of its level or higher
      // (its section), whatever wraps them: "All@By in stock" in a filter sidebar of
      // <h3>By in stock</h3><ul>…</ul><h3>By author</h3><ul>…</ul>. Used when the
      // heading's containers hold several candidates and its section fewer.
      // A caption names what follows it the same way, up to the next caption like it
      // ("Coffee machine@Title matches" in a search drop-down that lists the page under
      // "Title matches:" and again under "All matches:").
      if (((anchor.how && anchor.how.how === 'heading') || anchor.caption) && (!group || group.els.length > 1)) {
        const part = sectionGroup(anchor.el, els, chains, anchor.caption);
        if (part && (!group || part.els.length < group.els.length)) group = part;
      }
      if (group) groups.push(group);
    }
    return groups;
  }

  // HTML's labelable elements and ARIA's input widgets, shown
  const FIELD_CONTROLS = `${BESIDE_CONTROLS}, button, meter, output, progress, [role=button], `
    + '[role=checkbox], [role=radio], [role=switch], [role=textbox], [role=searchbox]';
  let fieldsShown = null;
  const fieldControls = () => fieldsShown
    || (fieldsShown = elements.filter((e) => elMatches(e, FIELD_CONTROLS) && !dom.isHidden(e)));
  // another field's caption: a <label> saying other words (an empty one captions nothing:
  // component libraries draw one, ``<label for>``, beside their own checkbox's input)
  const otherLabels = memo((words) => elements.filter((e) => e.tagName === 'LABEL' && !['', words].includes(bare(dom.textOf(e)))));

  // A click's words that only plain text shows (no control, nor a label of one, holds them)
  // and that caption a field as the relational rule reads a caption for a fill (the nearest
  // container holding a form control, ``nearestGroups``): drawn above or before its first
  // control, the container showing no other words, no control there named but by a hint.
  // They name that field (accname: a caption names its control; HTML: a label's activation is
  // its control's), never the caption itself; its controls, or null.
  function captionOf(cap) {
    if (closestUp(cap, (a) => isClickable(a, dom.roleOf, true) || elMatches(a, FIELD_CONTROLS) || !!a.control)) return null;
    const [g] = nearestGroups(fieldControls(), [{ el: cap, how: 'text' }], bare(dom.textOf(cap)));
    const [r, s] = g ? [cap, g.els[0]].map((e) => e.getBoundingClientRect()) : [];
    const said = new Set(g ? [cap, ...g.els].flatMap((e) => tokens(dom.visibleText(e))) : []);
    return g && (r.bottom <= s.top + 1 || (sameLine(cap, g.els[0]) && r.right <= s.left + 1))
      && tokens(dom.visibleText(g.container)).every((t) => said.has(t))
      && g.els.every((c) => ['', norm(c.getAttribute('placeholder')), norm(titleOf(c))].includes(dom.accName(c))) ? g : null;
  }

  function wrapsOnly(section, anchor) {
    if (section === anchor) return false;
    for (const e of section.querySelectorAll('*')) {
      if (e === anchor || e.contains(anchor) || anchor.contains(e)) continue;
      if (e.tagName === 'IFRAME' || dom.textOf(e) || isClickable(e, dom.roleOf, true)) return false;
    }
    return true;
  }
  // One of a group of repeated siblings of the same shape (list items, table rows, cards,
  // rows of divs whose classes are generated): its parent holds another child of the same
  // tag, role and stable classes, and it holds more than the words that name it (another
  // text or a control; a bare wrapper of the words is not an item). A table cell is part of
  // its row (HTML's table model, ARIA's row/cell), never an item of its own.
  function isItem(el, anchor) {
    const parent = el.parentNode;
    if (!parent || CELLS.has(el.tagName) || CELL_ROLES.has(roleAttr(el))) return false;
    const shape = shapeOf(el);
    return [...parent.children].some((s) => s !== el && shapeOf(s) === shape)
      && (el === anchor ? holdsControl(el) : !wrapsOnly(el, anchor));
  }
  const shapeOf = memo((el) => [el.tagName, roleAttr(el), ...stableClasses(el).sort()].join(' '));
  // HTML's activation behaviour: a click on an element with none of its own reaches the nearest
  // control around it (in a <label>, its control). Two parts of one control (a link's icon and
  // words; a label's words and its radio), or two links of one item (a card's cover and title)
  // to the same URL alike but for presentation and naming, are one choice to click: either does
  // the same (docs/discovery.md, "The evidence rule"). Conservative: a widget role; a real URL (not
  // javascript:, not this page or a place in it); no inline handler on the way; no other control.
  const QUIET_ATTRS = /^(?:id|class|style|title|tabindex|aria-[a-z]+)$/;
  const controlOf = memo((e) => {
    for (let n = e; n && n.nodeType === Node.ELEMENT_NODE; n = n.parentElement) {
      if ([...n.attributes].some((a) => a.name.startsWith('on'))) return null;
      const c = n.tagName === 'LABEL' ? n.control : isClickable(n, dom.roleOf, true) && n;
      if (c || n.tagName === 'LABEL') return c && ![...n.querySelectorAll('*')].some((x) => x !== c && isClickable(x, dom.roleOf, true)) ? c : null;
    }
  });
  const attrsOf = (a) => [...a.attributes].filter((x) => !QUIET_ATTRS.test(x.name) && x.name !== 'href')
    .map((x) => `${x.name}=${x.value}`).sort().join('\n');
  function sameLink(a, b) {
    const [ca, cb] = [controlOf(a), controlOf(b)];
    if (ca && ca === cb) return CLICKABLE_ROLES.has(dom.roleOf(ca));  // parts of one control
    const [la, lb] = [ca, cb].map((c) => (c && c.tagName === 'A' && c.hasAttribute('href') ? c : null));
    if (!la || !lb || la.href !== lb.href || attrsOf(la) !== attrsOf(lb)) return false;
    let url;
    try { url = new URL(la.href); } catch (e) { return false; }  // no URL: no hyperlink to follow
    const here = new URL(la.ownerDocument.URL);
    if (!['http:', 'https:', 'file:'].includes(url.protocol)) return false;
    if (url.origin === here.origin && url.pathname === here.pathname && url.search === here.search) return false;
    // in one item: the nearest repeated item around the pick's link holds the other, or
    // the smallest container of both holds no other control (a list of one card)
    for (let i = la; i; i = i.parentElement) if (isItem(i, i)) return i.contains(lb);
    let box = la.parentElement;
    while (box && !box.contains(lb)) box = box.parentElement;
    return !!box && box.tagName !== 'BODY' && ![...box.querySelectorAll('*')]
      .some((e) => !la.contains(e) && !lb.contains(e) && isClickable(e, dom.roleOf, true));
  }
  // the deepest mention of the words is itself a row when a control is in it
  const holdsControl = (el) => [...el.querySelectorAll('*')].some((e) => isClickable(e, dom.roleOf, true) || e.tagName === 'IFRAME');
  const headingLevel = (h) => Number((/^H([1-6])$/.exec(h.tagName) || [])[1])
    || Math.max(0, parseInt(h.getAttribute('aria-level'), 10)) || 2;
  // The elements following ``heading`` (or a wrapper that holds nothing but it) up to the
  // next heading of the same or a higher level, as [base, siblings].
  // A caption's section ends at the next caption of its shape or any heading.
  const sections = new Map();
  function sectionOf(heading, caption = false) {
    if (sections.has(heading)) return sections.get(heading);
    const level = caption ? 6 : headingLevel(heading);
    let base = heading;
    while (!base.nextElementSibling) {
      const p = base.parentElement;
      if (!p || p.tagName === 'BODY' || isSection(p) || dom.textOf(p) !== dom.textOf(base)) break;
      base = p;
    }
    const isStop = (e) => dom.roleOf(e) === 'heading' && headingLevel(e) <= level;
    const stops = (s) => isStop(s)
      || (caption && shapeOf(s) === shapeOf(base) && !!dom.textOf(s) && !holdsControl(s) && !isClickable(s, dom.roleOf, true))
      || [...s.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')].some(isStop);
    const sibs = [];
    for (let s = base.nextElementSibling; s && !stops(s); s = s.nextElementSibling) sibs.push(s);
    const out = { base, sibs };
    sections.set(heading, out);
    return out;
  }
  function sectionGroup(heading, els, chains, caption = false) {
    const { base, sibs } = sectionOf(heading, caption);
    const inside = els.filter((e) => sibs.some((s) => chains.get(e).has(s)));
    if (!inside.length) return null;
    const at = sibs.findIndex((s) => inside.some((e) => chains.get(e).has(s)));
    const container = sibs[at];
    return { container, how: { how: 'heading', specs: siblingSpecs(base, at + 1, container) }, els: inside };
  }
  // ``<base>:text-is("…") + * + ul``: the k-th element after the heading, as Playwright CSS
  // (text-is first, has-text for a heading whose text sits in a child). ``_els`` is the set
  // the selector matches here, for the uniqueness estimate (never sent to Python).
  function siblingSpecs(base, k, container) {
    const text = dom.textOf(base);
    const byRole = base.getAttribute('role') === 'heading';
    const bt = tag(base) + (byRole ? '[role="heading"]' : '');
    const hop = `${' + *'.repeat(k - 1)} + ${tag(container)}`;
    const sameTag = elements.filter((e) => e.tagName === base.tagName
      && (!byRole || e.getAttribute('role') === 'heading'));
    const after = (bases) => new Set(bases.map((b) => {
      let s = b;
      for (let i = 0; i < k && s; i++) s = s.nextElementSibling;
      return s && s.tagName === container.tagName ? s : null;
    }).filter(Boolean));
    const textIs = sameTag.filter((e) => strategies.text.same(e, { text }));  // as Playwright's text-is
    const hasText = sameTag.filter((e) => lowTextOf(e).includes(low(text)));
    const out = [];
    if (textIs.includes(base)) out.push({ css: `${bt}:text-is(${cssString(text)})${hop}`, _els: after(textIs) });
    out.push({ css: `${bt}:has-text(${cssString(text)})${hop}`, _els: after(hasText) });
    return out;
  }

  // Keep the elements the region allows (ambiguity is resolved by
  // the region, docs/discovery.md "Regions").
  function applyScope(els, scope) {
    if (!scope) return { els, where: new Map() };
    const where = new Map();
    // Words a person reads (a heading, a container's accessible name: a landmark's label,
    // a fieldset's legend, a dialog's title) outrank id and class tokens, which no one
    // sees: where the page shows the region's words so, a container matched only by a
    // token is not the region (HTML gives class names no meaning; a heading titles its
    // section). DokuWiki's login page titles its form "Login" while the header's "Log In"
    // link sits in <li class="login"> (docs/discovery.md, "Regions").
    if (scope.seen === undefined) {
      scope.seen = [...scope.structured.values()].includes('name')
        || regions.headingsNamed(scope.region).length > 0;
      if (scope.seen) {
        scope.structured = new Map([...scope.structured].filter(([, how]) => how === 'name'));
      }
    }
    if (scope.structured.size) {
      for (const e of els) {
        const a = closestUp(parentOf(e), (c) => scope.structured.has(c));
        if (a) where.set(e, { container: a, how: scope.structured.get(a) });
      }
      // A container named like the region by its id or class but holding none of the
      // candidates is most often the title row over the section (<div class="experiments">
      // <h2>Experiments</h2><icon/></div> above the list): the region is then found as a
      // heading or a mention names it, below.
      if (where.size || !els.length) return { els: els.filter((e) => where.has(e)), where, all: els };
    }
    const groups = nearestGroups(els, anchorsOf(scope), scope.own ? bare(scope.region) : null);
    const single = groups.filter((g) => g.els.length === 1);
    for (const g of single) if (!where.has(g.els[0])) where.set(g.els[0], { container: g.container, how: g.how });
    if (single.length || !groups.length) return { els: [...where.keys()], where };
    const min = Math.min(...groups.map((g) => g.els.length));
    const nearest = groups.filter((g) => g.els.length === min);
    const within = new Map();
    for (const g of nearest) for (const e of g.els) if (!within.has(e)) within.set(e, { container: g.container, how: g.how });
    return { els: [...new Set(nearest.flatMap((g) => g.els))], where, crowded: true, groups: nearest, within };
  }

  // The only action-compatible element near ``context`` (relational: "the only
  // checkbox in the row that mentions 'Buy milk'"). With a region, the step's words must
  // say what the control is: each word is the control's role or type word ("checkbox",
  // "button", "dropdown", "field", "icon"...) or a token of its name, title, aria-label,
  // placeholder, class, id or name attribute; "menu icon@price" never takes the only
  // <select> of a header cell. A check/uncheck step is the exception: only a checkable
  // control can be checked, so its words may name the state ("Done@Buy milk"). Either way
  // a control whose own name contradicts the step's other words is refused ("Delete" never
  // resolves to the row's only "Edit" button); a role word alone contradicts no name
  // ("checkbox@Garden Hose" is the row's checkbox titled "Select record").
  function relational(step, scope) {
    if (!relationalOn || !RELATIONAL_ACTIONS.has(step.action)) return [];
    const context = step.region || step.element;
    if (!norm(context)) return [];
    const words = tokens(step.element).filter((t) => !STOP_WORDS.has(t));
    const fits = elements.filter((e) => usable(e, step.action));
    const needsEvidence = !!step.region && words.length && !CHECKING.has(step.action);
    const refused = (e) => {
      const kind = new Set(typeWords(e, dom));
      if (needsEvidence) {
        const said = evidenceWords(e, dom, kind);
        if (!words.every((w) => said.has(w))) return true;
      }
      // A name that is only the field's placeholder contradicts nothing: HTML's placeholder
      // is a hint for data entry, not a label (ACCNAME's last resort): Lektor's ID field
      // shows the slug it suggests ("news") under its caption "ID". Nor, for a check step
      // with no region, whose words name the item the box is for, a name that is only the
      // box's title (HTML: advisory information; ACCNAME's last resort too): Jupyter's
      // "Click here to rename, delete, etc.", Flask-Admin's "Select record".
      const own = dom.accName(e);
      const hints = [e.getAttribute('placeholder'), !step.region && CHECKING.has(step.action) && e.getAttribute('title')];
      const name = hints.some((h) => h && own === norm(h)) ? '' : own;
      const described = words.filter((w) => !kind.has(w));
      if (!name || !described.length || tokens(name).some((t) => described.includes(t))) return false;
      return !low(context).includes(low(name));
    };
    // The controls the words may name are counted in the smallest container that shows them
    // (no region: the element's own words): its only one is the pick, two or more are
    // ambiguous (never the first). A refusal there ends the rule (answered in ``refused``),
    // never widening to another control further out (Lektor's "ID" field, refused, left the
    // form's Title as the only other one).
    const scoped = applyScope(fits, scope || { region: context, structured: new Map(), own: true });
    const no = scoped.els.filter(refused);
    const els = writable(scoped.els.filter((e) => !no.includes(e)), step.action);
    const where = scoped.where;
    if (!els.length) return Object.assign([], { refused: no });
    const picked = els.filter((e) => where.has(e)).map((e) => ({ el: e, where: { ...where.get(e), description: context } }));
    // A role word names the controls that look like the role: among several in one place
    // ("checkbox@run" in a grid row holding the row's selection box and two toggles drawn
    // as an eye and a pin), those drawn as icons are not what it names. Only a tie within
    // the nearest container is broken so, never reaching past it.
    const roleWordsOnly = words.length > 0 && words.every((w) => CHECK_WORDS.has(w));
    if (!roleWordsOnly && scoped.crowded) {
      return els.map((el) => ({ el, where: { ...scoped.within.get(el), description: context } }));
    }
    if (!roleWordsOnly || (picked.length <= 1 && !scoped.crowded)) return picked;
    const ties = scoped.crowded
      ? scoped.groups.map((g) => ({ els: g.els, where: { container: g.container, how: g.how } }))
      : picked.map((p) => ({ els: [p.el], where: p.where }));
    const plain = new Map();
    for (const t of ties) {
      const shown = t.els.filter((e) => !drawnAsIcon(e) && !refused(e)
        && ['checkbox', 'radio', 'switch'].includes(dom.roleOf(e)));
      if (scoped.crowded && shown.length !== 1) return [];
      for (const e of shown) if (!plain.has(e)) plain.set(e, { ...t.where, description: context });
    }
    return [...plain].map(([el, w]) => ({ el, where: w }));
  }

  // A form field with no name of its own is named by the text a person reads right beside it
  // on the same line: a text node or an inline element immediately before or after it
  // (``<input type=checkbox> checkbox 1<br>``), as a label would name it (HTML's label
  // element; here the page wrote none). Located inside the element that holds that text.
  // A field a ``<label>`` captions without naming it (no ``for``, no control inside: HTML
  // ties it to nothing, as component libraries draw a label above their own widget) is
  // named by it too, when the label's group holds that one field: the closest ancestor
  // (three levels up at most) holding such a label and exactly one form control that can
  // take the step's action (HTML: a <select> holds no typed text, a text box no options):
  // "Stock" over an operator drop-down and a number box is the box for a fill. A label whose
  // ``for`` names no labelable element labels nothing either, and captions the element it
  // names: pretalx's ``<label for="id_name">`` over its language boxes' ``<div id="id_name">``.
  function besideLabel(e, action) {
    for (let a = parentOf(e), i = 0; a && i < 3; a = parentOf(a), i++) {
      if (!a.querySelectorAll) continue;
      const named = a.id ? a.getRootNode().querySelectorAll(`label[for=${cssString(a.id)}]`) : [];
      // shown to a person (a library may hide the caption from assistive technology only)
      const labels = [...new Set([...a.querySelectorAll('label'), ...named])].filter((l) => (!l.htmlFor || l.htmlFor === a.id)
        && !l.control && !l.contains(e) && (!l.checkVisibility || l.checkVisibility()));
      if (!labels.length) continue;
      const controls = [...a.querySelectorAll(`${BESIDE_CONTROLS}, [contenteditable], [role=textbox], [role=searchbox]`)]
        .filter((c) => c === e || (!dom.isHidden(c) && !e.contains(c) && !c.contains(e)
          && compatibility(c, action, dom.roleOf, true) === 2));
      if (labels.length !== 1 || controls.length !== 1) return null;
      return { texts: [dom.textOf(labels[0]), dom.firstLine(labels[0])], container: a };
    }
    return null;
  }
  // A control with no name of its own in a table's data cell is read under the header cells
  // HTML's table model assigns that cell ("forming a table", "assigning header cells"): those
  // its ``headers`` attribute names, else (here) the nearest column header above it in its
  // column (rows spanned from above are not counted). Flower's per-task "Rate limit" boxes.
  const colOf = (c) => [...c.parentElement.cells].slice(0, c.cellIndex).reduce((n, d) => n + d.colSpan, 0);
  function headersOf(e) {
    const cell = e.closest('td');
    if (!cell || cell.hasAttribute('headers')) return cell ? idRefs(cell, 'headers') : [];
    const rows = [...cell.closest('table').rows];
    const x = colOf(cell);
    for (let i = rows.indexOf(cell.parentElement) - 1; i >= 0; i--) {
      const h = [...rows[i].cells].find((c) => colOf(c) <= x && x < colOf(c) + c.colSpan);
      if (h && dom.roleOf(h) === 'columnheader') return [h];
    }
    return [];
  }
  function beside(step, scope, captionsOnly = false) {
    if (!relationalOn || !LABELLED_ACTIONS.has(step.action)) return [];
    const want = bare(step.element);
    if (!want) return [];
    const captions = new Map();
    const near = elements.filter((e) => {
      if (!usable(e, step.action)) return false;
      if (!captionsOnly && !dom.accName(e) && textsBeside(e, dom).some((t) => bare(t) === want)) return true;
      const caption = dom.labelTexts(e).length ? null : besideLabel(e, step.action);
      if (caption && caption.texts.some((t) => bare(t) === want)) { captions.set(e, caption.container); return true; }
      if (dom.accName(e) || !headersOf(e).some((h) => bare(dom.textOf(h)) === want)) return false;
      captions.set(e, e.closest('table'));
      return true;
    });
    if (!near.length) return [];
    const described = (e) => ({ container: captions.get(e) || parentOf(e), how: 'text', description: step.element });
    if (!scope) return near.map((el) => ({ el, where: described(el) }));
    const { els, where } = applyScope(near, scope);
    return els.filter((e) => where.has(e)).map((el) => ({ el, where: { ...where.get(el), description: step.region } }));
  }
  // What a step reads (hover, wait, extract) is named inside a region by its kind, the way
  // the page's own markup names it: a class, test id or ``itemprop`` token
  // (``Price@Backpack`` is the card's ``div.inventory_item_price``; schema.org microdata's
  // ``itemprop="price"``), only when one element in the region has it (the deepest).
  function namedByKind(step, scope) {
    if (!scope || step.action !== 'hover') return [];
    const q = makeQuery(step.element);
    if (!q.tokens.length) return [];
    // exact tokens first ("price" before "priceCurrency"), then contiguous ones
    for (const tier of [2, 1]) {
      const keyOf = (e) => {
        const prop = e.getAttribute('itemprop');
        if (prop && tokenTier(prop, q) === tier) return `${tag(e)}[itemprop=${cssString(prop)}]`;
        const cls = stableClasses(e).find((c) => tokenTier(c, q) === tier);
        return cls ? `${tag(e)}.${CSS.escape(cls)}` : null;
      };
      const keyed = new Map();
      for (const e of elements) {
        if (dom.isHidden(e) || !reachable(e)) continue;
        const css = keyOf(e);
        if (css) keyed.set(e, css);
      }
      const scoped = applyScope(deepest([...keyed.keys()]), scope);
      if (scoped.crowded) return scoped.els.map((el) => ({ el }));
      const picked = scoped.els.filter((e) => scoped.where.has(e));
      if (picked.length) {
        return picked.map((el) => ({ el, css: keyed.get(el), where: { ...scoped.where.get(el), description: step.region } }));
      }
    }
    return [];
  }

  // A search box is named by what it searches: "Search runs" is the field that searches
  // the runs the page lists even when nothing on it says "runs" (its placeholder is an
  // example query). A search field is a kind the standards name, whatever its words:
  // HTML's <input type=search> (ARIA's searchbox role, which Playwright's
  // getByRole('searchbox') finds by kind, not name) and a field of HTML's <search> element
  // (ARIA's search landmark). Asked only when no element's name matches the words, for
  // typing steps. It must be the one editable, visible search field in scope, none of whose
  // own words say it searches something else ("Search Experiments" is not "Search runs");
  // and the page must show what is searched (a word of "runs" in its visible text).
  const SEARCH_VERBS = new Set(['search', 'find', 'filter', 'lookup', 'query']);
  const FIELD_WORDS = new Set([...ROLE_WORDS.searchbox, ...ROLE_WORDS.textbox, 'bar']);
  function searchFields(step, scope) {
    if (!['fill', 'type', 'press'].includes(step.action)) return [];
    const words = tokens(step.element).filter((t) => !STOP_WORDS.has(t));
    if (!words.includes('search') || words.some((w) => SEARCH_VERBS.has(w) && w !== 'search')) return [];
    const object = words.filter((w) => w !== 'search' && !FIELD_WORDS.has(w));
    const forms = (w) => [w, `${w}s`, `${w}es`, w.replace(/e?s$/, '')];
    const body = (elements[0] ? elements[0].ownerDocument : document).body;
    const shown = new Set(tokens(body ? dom.visibleText(body) : ''));
    if (!object.every((w) => forms(w).some((f) => shown.has(f)))) return [];
    const searchKind = (e) => inputType(e) === 'search' || dom.roleOf(e) === 'searchbox'
      || !!e.closest('search, [role="search"]');
    // a description that says what the field searches, naming none of the step's words
    const elsewhere = (e) => namesOf(e, dom).some((d) => {
      const t = tokens(d).filter((w) => !STOP_WORDS.has(w));
      if (!t.some((w) => SEARCH_VERBS.has(w))) return false;
      const what = t.filter((w) => !SEARCH_VERBS.has(w) && !FIELD_WORDS.has(w));
      return what.length > 0 && !what.some((w) => object.some((o) => forms(o).includes(w)));
    });
    const fields = elements.filter((e) => isEditableType(e, dom.roleOf) && !e.readOnly && !e.disabled
      && !dom.isHidden(e) && reachable(e) && searchKind(e) && hasBox(e));  // refused where they are
    if (!scope) return fields.filter((e) => !elsewhere(e)).map((el) => ({ el, where: null }));
    const { els, where } = applyScope(fields, scope);
    return els.filter((e) => where.has(e) && !elsewhere(e)).map((el) => ({ el, where: { ...where.get(el), description: step.region } }));
  }
  const hasBox = (el) => ((r) => r.width >= 2 && r.height >= 2)(el.getBoundingClientRect()) && getComputedStyle(el).opacity !== '0';

  // A checkbox or radio whose own box shows nothing (no size, or transparent: CSS Color
  // draws opacity 0 fully transparent) and whose label draws it as a picture (an svg, an
  // image, an icon font glyph) and no text: a person sees the icon (an eye, a pin) and toggles
  // it through the label (HTML: a label's activation is its control's), not a checkbox.
  function drawnAsIcon(el) {
    if (!drawnByLabel(el) || hasBox(el)) return false;
    return [...el.labels].some((l) => !dom.isHidden(l) && !bare(dom.textOf(l))
      && [...l.querySelectorAll('svg, img, [role="img"], i')].some((p) => visibleBox(p) && !p.contains(el)));
  }

  // An open modal dialog (a <dialog> shown modally, [role=dialog][aria-modal=true], a
  // Bootstrap .modal.in/.show) takes the page: a person reaches only what is inside it.
  // Hover and wait are left alone (expectations look at what the page shows through them).
  let modal;
  function openModal() {
    if (modal !== undefined) return modal;
    const isModal = (e) => {
      if (e.tagName === 'DIALOG') {
        try { return e.open && elMatches(e, ':modal'); } catch (err) { return false; }
      }
      const role = (e.getAttribute('role') || '').trim();
      if ((role === 'dialog' || role === 'alertdialog') && e.getAttribute('aria-modal') === 'true') return true;
      return e.classList.contains('modal') && (e.classList.contains('in') || e.classList.contains('show'));
    };
    const open = elements.filter((e) => isModal(e) && !dom.isHidden(e));
    const top = open.filter((e) => !open.some((o) => o !== e && containsComposed(e, o)));
    const layered = top.filter((e) => e.tagName === 'DIALOG');  // the top layer is above all
    modal = (layered.length ? layered : top).slice(-1)[0] || null;
    return modal;
  }
  let confined = false;
  const reachable = (el) => !confined || containsComposed(openModal(), el);
  // a shown control of the kind the action needs, within reach
  const usable = (e, action) => compatibility(e, action, dom.roleOf, true) === 2 && !dom.isHidden(e) && reachable(e);
  // HTML: a read-only field's value cannot be edited (nor filled: Playwright, the gate): for fill
  // or type, one gives way to editable fields the words name as well; alone, the gate refuses it.
  const unlocked = (e) => !(e.readOnly && inputType(e) !== 'number') && e.getAttribute('aria-readonly') !== 'true';
  const writable = (els, action) => (/^(fill|type)$/.test(action) && els.some(unlocked) ? els.filter(unlocked) : els);
  // Visually hidden: in the page for screen readers only (the "sr-only" / "visually
  // hidden" pattern: a box of at most 1px, or clipped to nothing), or moved off the page
  // where no scroll reaches it. A pointer never aims at one: a person cannot see it, and
  // the pointer lands on whatever is drawn there (docs/discovery.md, "Controls before text").
  // "Where no scroll reaches": left of or above the scrollable area, counting the scroll of
  // every scroll container around it, not the window's alone. Content scrolled out of an
  // inner scroll container's scrollport is rendered and scrolls back into view (CSS
  // Overflow; Playwright scrolls it into view before a pointer action): an admin whose page
  // scrolls in its own <main> leaves its tabs above the viewport, never hidden.
  function scrolledAbove(el) {
    let x = 0, y = 0;
    const root = el.ownerDocument.scrollingElement;
    for (let a = parentOf(el); a; a = parentOf(a)) {
      if (a === root || a.nodeType !== 1) continue;
      x += a.scrollLeft; y += a.scrollTop;
    }
    const w = el.ownerDocument.defaultView;
    return [x + w.scrollX, y + w.scrollY];
  }
  const visuallyHidden = memo((el) => {
    const r = el.getBoundingClientRect();
    let out = r.width <= 1 && r.height <= 1;
    if (!out && (r.right <= 0 || r.bottom <= 0)) {
      const [sx, sy] = scrolledAbove(el);
      out = r.right + sx <= 0 || r.bottom + sy <= 0;
    }
    for (let a = el, i = 0; !out && a && i < 4; a = parentOf(a), i++) {
      const st = getComputedStyle(a);
      const clip = st.clip.replace(/\s|px/g, '');
      const path = st.clipPath.replace(/\s/g, '');
      if (st.position !== 'static' && (clip === 'rect(0,0,0,0)' || clip === 'rect(1,1,1,1)')) out = true;
      if (/^inset\((50|100)%\)$/.test(path)) out = true;
    }
    // 'clipped': no width or height, or in an overflow clip with none (a disclosure drawn 0 px
    // wide until :hover opens it), which no scroll shows (CSS Overflow); a positioned box
    // escapes the static ones up to its containing block (CSS Positioned Layout).
    for (let a = el, free = false; !out && a && a.tagName !== 'BODY'; a = parentOf(a)) {
      const st = getComputedStyle(a);
      if (a === el ? !r.width || !r.height : 'offsetWidth' in a && !(free && st.position === 'static')
        && !/^(inline|contents)$/.test(st.display) && ((st.overflowX !== 'visible' && a.clientWidth <= 1)
        || (st.overflowY !== 'visible' && a.clientHeight <= 1))) out = 'clipped';
      if (st.position === 'fixed') break;
      if (st.position !== 'static') free = st.position === 'absolute';
    }
    return out;
  });
  // Inside a transparent container (``opacity: 0`` on an ancestor): a closed menu drawn
  // faded out (Wagtail 5.2's drop-up, a CSS fade-in menu). A person sees nothing there,
  // though Playwright counts it visible. The element's own opacity is left alone: a custom
  // checkbox or file input is a transparent control under what draws it.
  const faded = memo((a) => !!a && a.tagName !== 'BODY' && a.tagName !== 'HTML'
    && (getComputedStyle(a).opacity === '0' || faded(parentOf(a))));
  const fadedOut = (el, self = false) => faded(self ? el : parentOf(el));
  const concealed = (e) => dom.isHidden(e) || fadedOut(e);
  // A checkbox or radio hidden under the label that draws it (the label takes the click).
  function drawnByLabel(el) {
    return el.tagName === 'INPUT' && ['checkbox', 'radio'].includes(inputType(el))
      && !!el.labels && [...el.labels].some((l) => !dom.isHidden(l));
  }
  // Is ``el`` a container of controls: not itself a control, holding two or more?
  const holdsControls = memo((el) => {
    // a control itself (native, role, click handler, tabindex) is what it is
    if (!el.childElementCount || el.tagName === 'LABEL' || isClickable(el, dom.roleOf, true)) return false;
    const inside = [...el.querySelectorAll('*')].filter((e) => isClickable(e, dom.roleOf, true));
    return inside.filter((e) => !inside.some((o) => o !== e && o.contains(e))).length >= 2;
  });

  function sameAs(strategy, spec) {
    return strategy === 'relational'
      ? (el) => (spec.role ? dom.roleOf(el) === spec.role && !dom.unexposed(el) : elMatches(el, spec.css))
      : (el) => strategies[strategy].same(el, spec);
  }
  // The elements a rendering matches (inside ``region``), the first ``most`` only.
  function matching(strategy, spec, region, most = Infinity) {
    const same = sameAs(strategy, spec);
    const out = [];
    for (const el of elements) if (same(el) && (!region || regions.within(el, region)) && out.push(el) >= most) break;
    return out;
  }

  // Every way to render the chosen element that singles it out on this page, primary first.
  function options(el, primary, q, where, regionText, loose = false, counted = false) {
    const raw = [primary];
    const named = loose ? null : el;  // a pick by kind is not an identifier match
    // A relational pick by role that its role does not single out in its container (a
    // grid row's checkbox beside toggles that are checkboxes too) is located by its own
    // classes or tag there; an id last (grids number theirs as they render).
    if (primary.strategy === 'relational' && primary.spec.role) {
      const v = cssVariants(el);
      const byId = el.id && v[0].startsWith(`${tag(el)}#`) ? [v[0]] : [];
      const css = [...v.filter((c) => !byId.includes(c)), ...byId];
      css.forEach((c, i) => raw.push({ strategy: 'relational', tier: 2, spec: { css: c }, alt: i }));
    }
    for (const row of rows()) {
      if (row.el !== el) continue;
      const tier = strategies[row.s].compare(row.p, q);
      const derived = ['test_id', 'role_name', 'css'].includes(row.s);
      if (tier || derived) raw.push({ strategy: row.s, tier, spec: strategies[row.s].spec(row.key, el) });
    }
    // a link by its destination (``linkAddress``), kept only where it is the page's one link there
    const to = linkAddress(el);
    if (to !== null) raw.push({ strategy: 'css', tier: 0, spec: { css: `${tag(el)}[href=${cssString(to)}]` } });
    const rank = (o) => {
      if (o === primary) return -1;
      if (o.alt !== undefined) return -1 + (o.alt + 1) / 100;
      return (2 - o.tier) * 100 + order.indexOf(o.strategy);
    };
    raw.sort((a, b) => rank(a) - rank(b));
    const out = [];
    const seen = new Set();
    for (const o of raw) {
      const id = JSON.stringify([o.strategy, o.spec]);
      if (seen.has(id)) continue;
      seen.add(id);
      const variants = where ? regions.specs(where.container, where.how, where.description || regionText) : [null];
      let region = variants.find((r) => matching(o.strategy, o.spec, r, 2).length === 1);
      // a step with an ordinal: else the element's place among what the rendering matches
      let nth = null;
      for (const r of counted && region === undefined ? variants : []) {
        const at = matching(o.strategy, o.spec, r).indexOf(el);
        if (at >= 0) { region = r; nth = at; break; }
      }
      if (region === undefined) continue;
      const description = where ? (where.description || regionText) : null;
      out.push({
        strategy: o.strategy,
        // a pick by kind rather than name (the search box "Search runs" names) is loose:
        // it is not bound ahead of its turn
        confidence: Math.round((o.tier ? score(o.strategy, o.tier, named) : base(o.strategy, named))
          * (loose ? args.loose : 1) * 1000) / 1000,
        ...o.spec,
        in_shadow: inShadow(el),
        region: region ? { description, matched_by: typeof where.how === 'string' ? where.how : where.how.how, ...withoutPrivate(region) } : null,
        nth,
      });
    }
    return out;
  }

  function candidatesOf(els, strategy, tier) {
    // Say where each candidate is, so a person can pick the region that separates them.
    const context = (e) => {
      const a = closestUp(parentOf(e), (c) => c.tagName === 'BODY' || dom.textOf(c) !== dom.textOf(e));
      if (!a || a.tagName === 'BODY') return '';
      const t = dom.textOf(a);
      return ` in ${cssVariants(a)[0]} "${t.length > 50 ? `${cut(t, 49)}…` : t}"`;
    };
    return els.slice(0, 8).map((e) => ({
      description: describeElement(e, dom) + context(e), score: score(strategy, tier || 2, e), strategy,
    }));
  }

  // A container named by its own identifiers (id, name, test id, aria-label, title, role
  // and name) is not what a person operates when it holds exactly one control: "Shopping
  // cart" is the link inside div#shopping_cart_container, not the div (a click at the div's
  // centre lands wherever its layout puts it). The control stands in for the container at
  // the container's level, located through it (relational: "the only link in #…"). A
  // container that is itself a control (native, role, click handler, tabindex) or holds
  // none, or several, stays what it is. A pointer cursor alone does not make a control of
  // the container: descendants inherit the cursor.
  const NAMED_BY_ITSELF = new Set(['test_id', 'css', 'aria', 'role_name']);
  // The elements inside ``el``: ``elements`` lists the page in document order with each
  // shadow root's elements right after their host, so they follow ``el`` without a gap.
  function within(el) {
    const start = elements.indexOf(el);
    if (start < 0) return elements.filter((e) => e !== el && containsComposed(el, e));
    let end = start + 1;
    while (end < elements.length && containsComposed(el, elements[end])) end += 1;
    return elements.slice(start + 1, end);
  }
  const controlInside = memo((el) => {
    if (isClickable(el, dom.roleOf, true) || !el.childElementCount) return null;
    const inside = within(el).filter((e) => isClickable(e, dom.roleOf, true) && !dom.isHidden(e));
    // the outermost ones: no ancestor of theirs up to ``el`` is one of them
    const controls = new Set(inside);
    const outer = inside.filter((e) => closestUp(parentOf(e), (p) => p === el || controls.has(p)) === el);
    return outer.length === 1 ? outer[0] : null;
  });
  // How the container a control stands in for is rendered as the locator's region.
  function containerOf(row) {
    const c = row.el;
    const k = row.key;
    let how = 'name';
    let specs;
    if (row.s === 'test_id') { how = 'test_id'; specs = [{ css: `[${k.attr}=${cssString(k.value)}]` }]; }
    else if (row.s === 'css') { how = k.css.startsWith('#') ? 'id_token' : 'name'; specs = [{ css: k.css }]; }
    else if (row.s === 'role_name') specs = [{ role: k.role, name: k.value }];
    else {
      specs = [{ css: `${tag(c)}[${k.attr}=${cssString(k.value)}]` }];
    }
    return { container: c, how: { how, specs } };
  }

  // ``Delete[2]@Cart``: the N-th of the elements the deciding level finds in the region,
  // counted from 1 in document order (the reading order of the page's flow); past the last
  // one the step fails, saying how many there are.
  function nthOf(picks, step) {
    const order = (e) => elements.indexOf(e);
    const sorted = [...picks].sort((a, b) => order(a.el) - order(b.el));
    if (step.ordinal <= sorted.length) return sorted[step.ordinal - 1];
    const where = step.region ? ` inside "${step.region}"` : '';
    const n = sorted.length;
    return {
      status: 'none', rank: null, region_missing: false, hidden: 0,
      message: `"${step.element}[${step.ordinal}]" asks for number ${step.ordinal}, but ${n} element${n === 1 ? '' : 's'} match "${step.element}" for ${step.action}${where}`,
    };
  }

  // Inside an open modal dialog first; page-wide only when nothing inside matches (an
  // interstitial covering the page: the gate then reports the element obscured by it, and
  // healing may dismiss it).
  function resolve(step) {
    stepNow = { q: makeQuery(step.element), region: norm(step.region) };
    try { return resolveAt(step); } finally { stepNow = null; }
  }
  function resolveAt(step) {
    if (!CONFINED_ACTIONS.has(step.action) || !openModal()) return resolveIn(step);
    confined = true;
    let inside;
    try { inside = resolveIn(step); } finally { confined = false; }
    if (inside.status !== 'none') return inside;
    const wide = resolveIn(step);
    return wide.status === 'none' ? inside : wide;
  }

  function resolveIn(step) {
    const q = makeQuery(step.element);
    if (!q.bare && !norm(step.region)) {
      return { status: 'none', rank: null, message: 'the step names no element' };
    }
    const compat = new Map();
    const compatOf = (el) => {
      // "Search | click" is the button named Search, not the text field beside it: a field
      // is clicked only when no control by that name matches.
      if (!compat.has(el)) {
        const c = compatibility(el, step.action, dom.roleOf);
        compat.set(el, step.action === 'click' && c === 2 && isEditableType(el, dom.roleOf) ? 1 : c);
      }
      return compat.get(el);
    };
    const scope = step.region
      ? { region: step.region, structured: regions.structured(step.region) } : null;
    // ``score``: the pick's own confidence; ``runner_up``: the best other element the words
    // name at the level that decided, for the evidence rule (models/evidence.py)
    const found = (rank, strategy, tier, el, spec, where, loose = false, runnerUp = null, counted = !!step.ordinal) => ({
      status: 'found', rank, strategy, el, where,
      options: options(el, { strategy, tier, spec }, q, where, step.region, loose, counted),
      rivals: rivalsOf(el),
      score: Math.round(score(strategy, tier, loose ? null : el) * (loose ? args.loose : 1) * 1000) / 1000,
      runner_up: runnerUp,
    });
    // a pick by relation, located by its role, else by its own classes or tag
    const relFound = (p, where = p.where, counted = undefined) => found(rank, 'relational', 2, p.el,
      dom.roleOf(p.el) ? { role: dom.roleOf(p.el) } : { css: cssVariants(p.el).slice(-2)[0] }, where, false, null, counted);
    // The other elements the step's words also match ("Confirm password" for "Password"),
    // by name: they were on the page as *different* elements when this one was verified, so
    // healing must never take one of them for it once it is gone (a wrong heal otherwise).
    const rivalsOf = (el) => {
      const own = low(dom.accName(el));
      const out = new Set();
      for (const h of hits) {
        const o = h.el;
        if (drawnInside(o, el) || drawnInside(el, o) || compatOf(o) < 1) continue;
        const name = low(dom.accName(o));
        if (name && name !== own) out.add(name);
        if (out.size >= 8) break;
      }
      return [...out];
    };
    const ambiguous = (rank, strategy, tier, els) => ({
      status: 'ambiguous', rank, strategy, candidates: candidatesOf(els, strategy, tier),
    });
    const hits = [];
    const pointer = step.action === 'click' || step.action === 'hover';
    let hiddenMatches = 0;
    let hiddenEls = [];  // the hidden elements the best stage matched (menus, tabs: openerOf)
    let hiddenStage = -1;
    let stageNow = 0;
    // The hidden elements' evident opener as this step's answer ("none", with the controls
    // to open): a hidden element a better level names (the menu item "Account" itself) is
    // what the words mean, not a visible control whose name only holds them (the menu's
    // toggle "Edit your account") nor a relational guess. Null when none is evident.
    let openerAnswer;
    const hiddenOpener = () => {
      if (openerAnswer === undefined) {
        openerAnswer = null;
        const o = hiddenEls.length ? openersFor(step, scope, hiddenEls) : null;
        if (o && o.chain) {
          openerAnswer = {
            status: 'none', rank: null, region_missing: false, hidden: hiddenMatches,
            message: o.hover ? unopened(step, o.popup, '')
              : `"${step.element}" is hidden (${describeElement(o.popup, dom)}) until what holds it is opened`,
            opener: { chain: o.chain.map((c) => ({ el: c.el, relation: c.relation, description: describeElement(c.el, dom) })), shows: structuralPath(o.popup) },
          };
        }
      }
      return openerAnswer;
    };
    const mereText = [];  // headings a click found and refused
    for (const row of rows()) {
      const tier = strategies[row.s].compare(row.p, q);
      if (!tier) continue;
      let control = pointer && NAMED_BY_ITSELF.has(row.s) ? controlInside(row.el) : null;
      // a container whose name is its control's own name (a table's row header <th> named
      // by the link it holds) is not named by itself: the control matches on its own (an
      // icon link with no name at all in a nameless div is no such case)
      const controlName = control ? low(dom.accName(control)) : '';
      if (controlName && controlName === low(dom.accName(row.el))) control = null;
      // nor where the container shows the words itself, beside a control named otherwise:
      // the words a person reads are what they click, and the control's own name says it is
      // something else (a tab titled and labelled "Properties" holding its "Close" button;
      // as the relational rule never takes the row's only "Edit" for "Delete")
      if (controlName && !tokens(controlName).some((t) => tokens(step.element).includes(t))
        && lowTextOf(row.el).replace(lowTextOf(control), ' ').includes(low(step.element))) control = null;
      if (control) hits.push({ ...row, tier, el: control, via: containerOf(row) });
      else hits.push({ ...row, tier });
    }
    // accname 1.2: a name from content holds the names of the element's descendants. A control
    // whose own name carries the step's words, however loosely, is what they name; an element
    // around it that has them only through it gives way to it for a pointer (a click on it
    // reaches the outer's listeners: HTML), shown or not (hidden, it is opened or refused like
    // any hidden match): a card link around its "Mark as done" icon, a link around its button
    // "Mark▾", a sortable row (role=option) around its link "TC-3: Empty the cart".
    const owners = pointer ? hits.filter((h) => textTier(dom.accName(h.el), q) && isClickable(h.el, dom.roleOf, true)) : [];
    const namedThrough = memo((e) => owners.some(({ el: o }) => o !== e && drawnInside(e, o) && hits.every((h) => h.el !== e
      || !strategies[h.s].compare(prep(h.p.bare.replace(bare(dom.accName(o)), ' ')), q))));
    // A name borrowed through ``aria-labelledby`` from a control that carries the words
    // itself is that control's name (accname 1.2, step 2B: the referenced element's own text
    // alternative): for a pointer, the element labelled gives way to the control it is named
    // by. WAI-ARIA's tabs pattern labels a ``tabpanel`` by its ``tab`` (the APG's example
    // gives the panel ``tabindex="0"``); the tab is what a person clicks, never the panel
    // (pgAdmin 9.13's rc-dock panels, marimo's Radix tabs). Only the rows read from the
    // borrowed words give way (its role and name, its label); another name it has stays.
    const lenders = memo((e) => idRefs(e, 'aria-labelledby').filter((r) => !drawnInside(e, r)
      && owners.some(({ el: o }) => o !== e && !drawnInside(e, o) && (drawnInside(r, o) || drawnInside(o, r)))));
    const borrowed = (h) => (h.s === 'role_name' || h.s === 'label') && lenders(h.el).length > 0
      && (h.s === 'role_name' || lenders(h.el).some((r) => norm(dom.textOf(r)) === (h.key.label || h.key.value)));
    const passes = NAME_ACTIONS_LAX.has(step.action) ? [2, 1] : [2];
    let rank = 0;
    let crowdedAt = null;
    // Stages, best first: [tier, pass, labels too]. Exact before substring, and controls
    // before other elements within each: "Tags | click" is the header cell that says
    // exactly "Tags", not the "Edit tags" button in its row, and "Search | click" is still
    // the button named Search, not the search box. A <label> that says exactly the words
    // names its control and is taken only after the controls whose names hold them: "Show
    // diff only" is the switch "Tags - Show diff only", not the text beside it (MLflow).
    // A select takes a text field (compatibility 1: it may open a list) only by its exact
    // name, after every select, listbox and combobox the words name (docs/discovery.md).
    const stages = passes.length > 1
      ? [[2, 2, true], [2, 1, false], [1, 2, true], [2, 1, true], [1, 1, true]]
      : [[2, 2, true], [1, 2, true], ...(step.action === 'select' ? [[2, 1, true]] : [])];
    // The elements strategy ``s`` finds in scope at a stage, or null.
    const atStage = (tier, pass, labels, s, counting) => {
      let rows = hits.filter((h) => h.s === s && h.tier === tier && !namedThrough(h.el) && !borrowed(h) && !keyOnly(h));
      if (!rows.length) return null;
      if (strategies[s].deepest) {
        const keep = new Set(deepest(rows.map((r) => r.el)));
        rows = rows.filter((r) => keep.has(r.el));
      }
      // (after ``deepest``: the label's wrapper says its words only through the label)
      if (!labels) rows = rows.filter((r) => r.el.tagName !== 'LABEL');
      rows = rows.filter((r) => (pass === 2 ? compatOf(r.el) === 2 : compatOf(r.el) >= 1));
      // A field is clicked for its whole name, never for words that are only part of
      // it: "Parameters | click" is not the "Search parameters" box (it is about the
      // parameters, not them).
      if (step.action === 'click' && tier === 1) {
        rows = rows.filter((r) => !isEditableType(r.el, dom.roleOf));
      }
      // The page's body or root holds every word of the page: words name an element in it,
      // never the page itself (a loose text match of words only a hidden element shows).
      let els = [...new Set(rows.map((r) => r.el))].filter(reachable)
        .filter((e) => e !== e.ownerDocument.body && e !== e.ownerDocument.documentElement);
      // A hidden element is not a candidate (a closed menu's item is discovered again
      // when the menu is open); a checkbox drawn by its label is operated through it.
      // A hidden native select that a visible widget stands in for (select2, chosen) is
      // selected through it (selectProxy, actionability.js).
      const shown = els.filter((e) => !concealed(e) || drawnByLabel(e)
        || (step.action === 'select' && !!selectProxy(e)));
      if (counting) {
        hiddenMatches += els.length - shown.length;
        if (!hiddenEls.length) {
          hiddenEls = els.filter((e) => !shown.includes(e));
          hiddenStage = stageNow;
        }
      }
      els = writable(shown, step.action);
      // Controls before text (docs/discovery.md): a visually hidden element is never a
      // pointer's target; a heading is never what a click operates (a control whose words
      // hold the step's comes first; with none, the heading is no answer either), and a
      // paragraph comes only after the controls whose names hold the words.
      if (step.action === 'click' && pass === 1) {
        // (a visually hidden heading too: its words are still a title, never a context)
        // (a paragraph's phrasing content, its strong/em/b..., is its running text: HTML)
        const text = els.filter((e) => compatOf(e) < 2 && (dom.roleOf(e) === 'heading'
          || (!labels && !!paragraphOf(e))));
        if (counting) for (const e of text) if (dom.roleOf(e) === 'heading' && !mereText.includes(e)) mereText.push(e);
        els = els.filter((e) => !text.includes(e));
      }
      // One clipped to nothing gives way to a shown element with the words (any for a hover,
      // a control for a click); alone it stays, and the gate refuses it before acting.
      if (ACTED_ON_BY_POINTER.has(step.action)) els = els.filter((e) => drawnByLabel(e) || !visuallyHidden(e)
        || (visuallyHidden(e) === 'clipped' && !shownTwin()));
      // A pointer never aims at an element holding several controls (its centre is whichever one the
      // layout puts there), nor at what a control the words name holds: HTML sends its click there.
      if (pointer) els = els.filter((e) => !holdsControls(e) && (isClickable(e, dom.roleOf, true)
        || !els.some((o) => o !== e && drawnInside(o, e) && isClickable(o, dom.roleOf, true))));
      // WCAG 2.5.3 (Label in Name): a person names a control by what they read. Where an
      // element shows the words, one that has them only from a label no one sees (an
      // aria-label or an image's alt, no text and no tooltip saying them) is not what they
      // name: TiddlyWiki's "More" tab, not its "more" icon buttons titled "More actions".
      if (els.length > 1 && els.some(shows)) els = els.filter((e) => !unseen(e));
      return { rows, scoped: applyScope(els, scope) };
    };
    // HTML's ``name`` is a control's key in its form's submission ("Naming form controls"), and
    // accname never reads it: a control with no accessible name that only its ``name`` ties to
    // the words is not what they name where a shown control of the step's kind shows them (the
    // same words as tokens) as its name or text; the ``name`` stays an alternate, which healing
    // may count as corroboration (docs/discovery.md, "The evidence rule").
    let readers;
    const keyOnly = (h) => !!h.key.form && !h.via && !bare(dom.accName(h.el))
      && (readers || (readers = applyScope([...new Set(hits.filter((o) => READ_NAMES.has(o.s) && o.p.joined === q.joined
        && !concealed(o.el) && !visuallyHidden(o.el) && reachable(o.el) && compatOf(o.el) === 2).map((o) => o.el))], scope).els))
        .some((o) => !drawnInside(o, h.el) && !drawnInside(h.el, o));
    // The words an element shows a person: its drawn text, an empty field's placeholder (HTML
    // draws it) and its labels where drawn (``<label>``, ``aria-labelledby``): WCAG 2.5.3's visible label.
    const drawn = (e) => [dom.visibleText(e), !e.value && isEditableType(e, dom.roleOf) ? norm(e.getAttribute('placeholder')) : '',
      ...[...idRefs(e, 'aria-labelledby'), ...e.labels || []].filter((l) => !visuallyHidden(l)).map(dom.visibleText)];
    const shows = (e) => drawn(e).some((t) => bare(t) === q.bare);
    let twin;  // a shown element the words name exactly, in scope (Playwright: visible)
    const shownTwin = () => twin !== undefined ? twin : (twin = applyScope(hits.filter((h) => h.tier === 2
      && !concealed(h.el) && !visuallyHidden(h.el) && reachable(h.el) && (step.action === 'hover' || compatOf(h.el) === 2))
      .map((h) => h.el), scope).els.length > 0);
    const unseen = (e) => !drawn(e).some((t) => low(t).includes(q.bare)) && bare(titleOf(e)) !== q.bare;
    // Playwright's exact name matching is case-sensitive (``exact=True``): of the elements
    // whose names are the step's words, one that writes them in the step's letter case is
    // better evidence than one that writes them in another ("admin", the user's link, beside
    // "Admin", the admin page's). Exact names only (tier 2), where the letters are the same;
    // not an id, class or test id, whose tokens are compared without their case (tokenTier).
    // The case a person reads counts too: HTML's ``innerText`` is the rendered text, with CSS
    // ``text-transform`` applied (a tab whose markup says "reports", drawn "REPORTS").
    const lettersOf = (v) => String(v).replace(/[^\p{L}\p{N}]+/gu, '');
    const byName = (e, rows) => rows.filter((r) => r.el === e && r.tier === 2 && strategies[r.s].compare !== tokenTier);
    const asWritten = (e, rows) => byName(e, rows).some((r) => lettersOf(r.key.value) === lettersOf(q.raw)
      || lettersOf(e.innerText || '') === lettersOf(q.raw));
    // Evidence beyond the level, a weight on a score (models/locator.py; docs/discovery.md, "The
    // evidence rule"): not in the step's letter case where another is, x``args.other_case``; for
    // a key at its turn, not the focused element the words name, x``args.unfocused``; for a
    // click, shown clickable by nothing (``compatOf`` 1; no control, label or `a` around: operable.py), x``args.inert``
    // (not a hover: CSS ``:hover`` applies to any element, reader's words open its disclosure).
    const inControl = (e) => { for (let a = e; a; a = parentOf(a)) if (a.tagName === 'LABEL' || a.tagName === 'A' || a.isContentEditable || isClickable(a, dom.roleOf, true)) return true; return false; };
    const weightOf = (tier, named, focusOn) => {
      const cased = tier === 2 && named.some(([e, rows]) => asWritten(e, rows));
      return (e, rows) => (cased && byName(e, rows).length && !asWritten(e, rows) ? args.other_case : 1)
        * (focusOn && e !== focusOn ? args.unfocused : 1) * (step.action === 'click' && compatOf(e) < 2 && !inControl(e) ? args.inert : 1);
    };
    const weighted = (r, w) => (w === 1 ? r : { ...r, score: Math.round(r.score * w * 1000) / 1000 });
    // A select step's value is evidence too: a native <select> no widget stands in for, or an
    // ARIA listbox, whose options (as they are, nothing opened) include none it names cannot
    // take the step (HTML's option list; Playwright's select_option fails on it). Such an
    // element is no rival of one that can: it leaves a tie and the runner-up, never a lone pick.
    const lacks = memo((e) => {
      const v = step.action === 'select' && typeof step.value === 'string' ? step.value : '';
      const parts = v.split(';').map((p) => p.trim()).filter(Boolean);  // (widgets.SEPARATOR)
      const has = (w) => [...e.options].some((o) => o.value === w || o.label === w || o.textContent.trim() === w);
      if (e.tagName === 'SELECT') return !!v && e.options.length > 0 && !selectProxy(e) && !has(v) && !(e.multiple && parts.every(has));
      const opts = v && dom.roleOf(e) === 'listbox' ? [...e.querySelectorAll('[role=option]')] : [];
      return opts.length > 0 && !parts.some((w) => opts.some((o) => low(dom.textOf(o)).includes(low(w))));
    });
    const takers = (xs, elOf = (x) => x) => { const t = xs.filter((x) => !lacks(elOf(x))); return t.length ? t : xs; };
    // The best other element the deciding stage finds in scope (``stage``: [strategy, its
    // elements] for the deciding strategy and the later ones; an element holding the pick, or
    // held by it, is the pick), each by its weighted score: the runner-up of the evidence
    // rule. Later stages lose by their level.
    const runnerUp = (tier, stage, el, weight) => {
      let best = null;
      for (const [s, at] of stage) {
        for (const o of at.scoped.els) {
          if (drawnInside(o, el) || drawnInside(el, o) || (shows(el) && unseen(o))
            || (step.action === 'click' && sameLink(el, o)) || (lacks(o) && !lacks(el))) continue;
          const sc = Math.round(score(s, tier, o) * weight(o, at.rows) * 1000) / 1000;
          if (!best || sc > best.score) best = { score: sc, strategy: s, description: describeElement(o, dom) };
        }
      }
      return best;
    };
    // A key goes to the element with keyboard focus (HTML, "focus": key events target the
    // focused area of the document): for a press at its turn, having the focus is evidence.
    let focus = step.at_turn && step.action === 'press' && !step.ordinal ? document.activeElement : null;
    while (focus && focus.shadowRoot && focus.shadowRoot.activeElement) focus = focus.shadowRoot.activeElement;
    // The focused element named by the words at a stage after ``si`` (a substring, a looser
    // pass): its strategy and score, or null. Unweighted: it has the focus.
    const focusAfter = (si) => {
      for (const [tier, pass, labels] of focus ? stages.slice(si + 1) : []) {
        for (const t of order) {
          const a = atStage(tier, pass, labels, t, false);
          if (a && a.scoped.els.includes(focus) && !a.rows.find((r) => r.el === focus).via) {
            return { s: t, tier, a, score: score(t, tier, focus) };
          }
        }
      }
      return null;
    };
    // ``pick`` (the deciding stage's answer) held against the focused element the words name
    // only at a later stage (``later``): the pick and its rival score as unfocused, and the
    // better scored of the pick and the focused element is the answer, the other a rival.
    const againstFocus = (pick, later) => {
      const f = args.unfocused;
      const own = weighted({ ...pick, runner_up: pick.runner_up && weighted(pick.runner_up, f) }, f);
      const { s: t, tier, a } = later;
      const mine = { score: later.score, strategy: t, description: describeElement(focus, dom) };
      if (later.score <= own.score) {
        return own.runner_up && own.runner_up.score >= mine.score ? own : { ...own, runner_up: mine };
      }
      const theirs = { score: own.score, strategy: own.strategy, description: describeElement(own.el, dom) };
      const rival = own.runner_up && own.runner_up.score > theirs.score ? own.runner_up : theirs;
      const spec = strategies[t].spec(a.rows.find((r) => r.el === focus).key, focus);
      return found(own.rank, t, tier, focus, spec, a.scoped.where.get(focus), false, rival);
    };
    let captioned = false;
    for (const [si, [tier, pass, labels]] of stages.entries()) {
      stageNow = si;
      for (const [k, s] of order.entries()) {
        if ((tier === 1 || s === 'css') && !captioned && LABELLED_ACTIONS.has(step.action)) {
          // A field its group's caption names exactly (``besideLabel``), after the exact
          // names and before a developer's id token or a name that merely holds the words:
          // "Fruit" is the field under the label "Fruit", not an input whose aria-label
          // says "Selected Apple. Fruit".
          captioned = true;
          const near = beside(step, scope, true);
          if (near.length === 1) return relFound(near[0], near[0].where, true);
        }
        rank += 1;
        const at = atStage(tier, pass, labels, s, true);
        if (!at || !at.scoped.els.length) continue;
        if (hiddenStage >= 0 && hiddenStage < si && hiddenOpener()) return hiddenOpener();
        const { rows, scoped } = at;
        const from = order.slice(k);  // the deciding strategy and the later ones of its stage
        let st = null;  // [strategy, its elements] of the stage, from ``s`` on: read once
        const stage = () => st || (st = from.map((t) => [t, t === s ? at : atStage(tier, pass, labels, t, false)])
          .filter(([, a]) => a));
        const named = () => stage().flatMap(([, a]) => a.scoped.els.map((e) => [e, a.rows]));
        const keyAt = focus && stage().find(([, a]) => a.scoped.els.includes(focus)
          && !a.rows.find((r) => r.el === focus).via);
        if (keyAt) {
          const [t, a] = keyAt;
          const weight = weightOf(tier, named(), focus);
          const spec = strategies[t].spec(a.rows.find((r) => r.el === focus).key, focus);
          const rival = runnerUp(tier, stage(), focus, weight);
          return weighted(found(rank, t, tier, focus, spec, a.scoped.where.get(focus), false, rival), weight(focus, a.rows));
        }
        if (step.ordinal) {
          const picked = nthOf(scoped.els.map((e) => ({ el: e, where: scoped.where.get(e) || (scoped.within && scoped.within.get(e)) })), step);
          if (picked.status) return picked;
          const row = rows.find((r) => r.el === picked.el);
          return found(rank, s, tier, picked.el, strategies[s].spec(row.key, picked.el), picked.where);
        }
        // several alike score alike (a lead of 0: ambiguous), unless exactly one can take the
        // step (``lacks``) or writes the words in the step's letter case (x``args.other_case``)
        const able = takers(scoped.els);
        const cased = tier === 2 ? able.filter((e) => asWritten(e, rows)) : [];
        if (scoped.els.length > 1) {
          if (scoped.crowded && !crowdedAt) crowdedAt = { rank, els: scoped.els, s, tier };
          if (scoped.crowded) continue;
          if (able.length > 1 && cased.length !== 1) return ambiguous(rank, s, tier, scoped.els);
        }
        const el = able.length > 1 ? cased[0] : able[0];
        // A class token is markup, not words a person reads (and the HTML standard gives
        // class names no meaning): a region matched by one alone is weak evidence, and
        // never decides between elements the step's words name equally. The container
        // decides by the words it shows, as every region is named first by what a person
        // reads (docs/discovery.md, "Regions"): a DokuWiki header's <li class="login">
        // shows "Log In", not "Login", and does not; Datasette's
        // <p class="suggested-facets">Suggested facets: …</p> does.
        const by = scoped.where.get(el);
        if (scoped.all && scoped.all.length > 1 && by && by.how === 'class_token'
          && !visibleLowOf(by.container).includes(low(step.region))) {
          return ambiguous(rank, s, tier, scoped.all);
        }
        const row = rows.find((r) => r.el === el && (able.length === 1 || asWritten(el, [r])));
        if (row.via) return relFound({ el }, { ...row.via, description: step.element });
        const field = step.action === 'click' && captionOf(el);
        if (field && field.els.length > 1) return ambiguous(rank, 'relational', 2, field.els);
        if (field) return relFound({ el: field.els[0] }, { container: field.container, how: 'text', description: step.element });
        const weight = weightOf(tier, named(), null);
        const rival = runnerUp(tier, stage(), el, weight);
        const pick = weighted(found(rank, s, tier, el, strategies[s].spec(row.key, el), scoped.where.get(el), false, rival), weight(el, rows));
        const later = focus && !drawnInside(focus, el) && !drawnInside(el, focus) ? focusAfter(si) : null;
        return later ? againstFocus(pick, later) : pick;
      }
    }
    if (hiddenOpener()) return hiddenOpener();
    rank += 1;
    const near = beside(step, scope);
    const nearAble = step.ordinal ? near : takers(near, (r) => r.el);
    if (nearAble.length === 1 || (near.length > 1 && step.ordinal)) {
      const picked = nearAble.length === 1 ? nearAble[0] : nthOf(near, step);
      return picked.status ? picked : relFound(picked, picked.where, true);
    }
    if (near.length > 1) return ambiguous(rank, 'relational', 2, near.map((r) => r.el));
    // words that only a heading says are its title, not a context whose one control a
    // click may take ("Add user | click" is no click on the form field under that heading)
    let rel = mereText.length && !step.region ? [] : relational(step, scope);
    const refusedNear = rel.refused || [];
    if (step.ordinal && rel.length) {
      const picked = nthOf(rel, step);
      return picked.status ? picked : relFound(picked);
    }
    const relAble = takers(rel, (r) => r.el);
    if (relAble.length === 1) return relFound(relAble[0]);
    if (rel.length > 1) return ambiguous(rank, 'relational', 2, rel.map((r) => r.el));
    if (crowdedAt) return ambiguous(crowdedAt.rank, crowdedAt.s, crowdedAt.tier, crowdedAt.els);
    rank += 1;
    const search = searchFields(step, scope);
    if (search.length === 1) {
      const { el, where } = search[0];
      const spec = where ? { role: dom.roleOf(el) } : { css: cssVariants(el).slice(-2)[0] };
      return found(rank, where ? 'relational' : 'css', 2, el, spec, where, true);
    }
    if (search.length > 1) return ambiguous(rank, 'css', 2, search.map((r) => r.el));
    rank += 1;
    const kind = namedByKind(step, scope);
    if (kind.length === 1) return found(rank, 'relational', 2, kind[0].el, { css: kind[0].css }, kind[0].where);
    if (kind.length > 1) return ambiguous(rank, 'relational', 2, kind.map((r) => r.el));
    let regionNote = '';
    let regionMissing = false;
    if (scope) {
      const located = scope.structured.size || elements.some((e) => lowTextOf(e).includes(low(step.region)));
      regionMissing = !located;
      regionNote = located ? ` inside "${step.region}"`
        : ` (the region "${step.region}" matches no container and no text on this page)`;
    }
    const hiddenNote = hiddenMatches ? ' (hidden elements match: they are looked for again once shown)' : '';
    let message = `no element matches "${step.element}" for ${step.action}${regionNote}${hiddenNote}`;
    if (refusedNear.length) message += `; where the page shows "${step.region || step.element}", ${describeElement(refusedNear[0], dom)}`
      + ' is named otherwise: name the control by its own words, or give a region that holds only it';
    // (an opener chain was answered above, ``hiddenOpener``: here there is none)
    let opener = null;
    const o = hiddenMatches && hiddenEls.length ? openersFor(step, scope, hiddenEls) : null;
    if (o && o.choices) {
      const shown = o.choices.slice(0, 8).map((c) => describeElement(c, dom));
      opener = { choices: shown };
      message = `"${step.element}" is on the page but hidden (${describeElement(o.popup, dom)})${regionNote}, `
        + `and ${o.choices.length} controls could open what holds it (${shown.join(', ')}): add a step that `
        + 'opens the one meant (its menu, tab or section) before this one, or a region that says which';
    } else if (o) {
      message = unopened(step, o.popup, regionNote);
    }
    // The words name shown elements exactly, none of a kind the action operates (a select
    // step on a field whose markup does not say it is a drop-down): the words are right, the
    // kind is the doubt (engine/verdict.py: never "check the spelling").
    const kinded = !o && !hiddenMatches && !pointer && !refusedNear.length && applyScope([...new Set(hits.filter((h) => h.tier === 2
      && compatOf(h.el) === 0 && !concealed(h.el) && reachable(h.el)).map((h) => h.el))], scope).els;
    if (kinded && kinded.length) {
      // the element that holds the words itself (a heading), not a wrapper around it
      const own = kinded.find((e) => !kinded.some((o) => o !== e && containsComposed(e, o)));
      message = `"${step.element}" names ${describeElement(own, dom)}${regionNote}, which is `
        + `no element a ${step.action} step operates`;
    }
    const inScope = mereText.filter((e) => !scope || applyScope([e], scope).els.length === 1);
    if (inScope.length && !hiddenMatches) {
      message = `"${step.element}" names only ${describeElement(inScope[0], dom)}${regionNote}, a heading: `
        + 'text that titles the page, not a control, so clicking it does nothing a person means; '
        + 'name the button or link to click by the words it shows';
    }
    return { status: 'none', rank: null, message, region_missing: regionMissing, hidden: hiddenMatches, opener };
  }

  // What opens a hidden element: the control a person uses first when the element is in a
  // collapsed menu, drop-down, accordion or tab panel (WAI-ARIA APG's menu button,
  // disclosure and tabs patterns; HTML's details/summary). By relation, nearest first:
  // a closed <details> (its summary); an element naming the hidden container, or one of its
  // ancestors up to the shown page, in ``aria-controls``/``aria-owns`` (or, in the markup
  // Bootstrap's toggles use, ``data-(bs-)target``/``href="#id"``); the control a hidden
  // panel or menu is labelled by (``aria-labelledby``: a tab, a menu button); else the
  // nearest collapsed toggle (``aria-expanded="false"``, ``aria-haspopup``, Bootstrap's
  // ``data-(bs-)toggle``; a class alone is not evidence, as in ``opensPopup``) beside the
  // hidden container, in its parent or up to two levels above, outside it. A control that is hidden itself is opened by its own opener first
  // (a submenu): the answer is the chain, outermost first, at most three. Answers
  // ``{chain: [{el, relation}]}``, ``{choices: [els]}`` when several controls could open it
  // (nothing is guessed), or null when no relation is evident.
  const TOGGLE_KINDS = new Set(['dropdown', 'collapse', 'tab', 'pill', 'popover']);
  const expanded = (e) => e.getAttribute('aria-expanded') === 'true'
    || (e.tagName === 'SUMMARY' && e.parentElement && e.parentElement.open);
  const isToggle = (e) => {
    const pop = (e.getAttribute('aria-haspopup') || '').trim();
    if (pop && pop !== 'false') return true;
    if (e.getAttribute('aria-expanded') === 'false') return true;
    const kind = e.getAttribute('data-bs-toggle') || e.getAttribute('data-toggle');
    return !!kind && TOGGLE_KINDS.has(kind);
  };
  const shownControl = (e) => !concealed(e) && !visuallyHidden(e);
  function controllersOf(a) {
    if (!a.id) return [];
    const root = a.getRootNode();
    const ref = `#${a.id}`;
    return elements.filter((e) => e !== a && e.getRootNode() === root && !containsComposed(a, e)
      && (['aria-controls', 'aria-owns'].some((x) => (e.getAttribute(x) || '').split(/\s+/).includes(a.id))
        || e.getAttribute('data-bs-target') === ref || e.getAttribute('data-target') === ref
        || (isToggle(e) && e.getAttribute('href') === ref)));
  }
  function labelledByControl(a) {
    const role = dom.roleOf(a);
    if (!['menu', 'listbox', 'tabpanel', 'dialog', 'region', 'group', 'tree', 'grid'].includes(role)) return [];
    return idRefs(a, 'aria-labelledby').filter((e) => isToggle(e) || dom.roleOf(e) === 'tab');
  }
  function openerOf(el, depth = 0) {
    if (depth > 2) return null;
    let popup = null;
    for (let a = el; a && a.tagName !== 'BODY' && a.tagName !== 'HTML'; a = parentOf(a)) {
      if (!dom.isHidden(a) && !fadedOut(a, true)) break;
      popup = a;
    }
    if (!popup) return null;
    const chained = (ctrl, relation) => {
      if (expanded(ctrl)) return null;  // already open: clicking it would close it
      if (shownControl(ctrl)) return { chain: [{ el: ctrl, relation }] };
      const up = openerOf(ctrl, depth + 1);
      return up && up.chain ? { chain: [...up.chain, { el: ctrl, relation }] } : up;
    };
    const parent = parentOf(popup);
    if (parent && parent.tagName === 'DETAILS' && !parent.open) {
      const summary = [...parent.children].find((c) => c.tagName === 'SUMMARY');
      if (summary) return chained(summary, 'details/summary');
    }
    for (let a = el; a; a = parentOf(a)) {
      let ctrls = controllersOf(a);
      let relation = 'aria-controls';
      if (!ctrls.length) { ctrls = labelledByControl(a); relation = 'aria-labelledby'; }
      if (ctrls.length) {
        if (dom.roleOf(a) === 'tabpanel') relation = 'tab';
        let usable = ctrls.filter((c) => !expanded(c));
        // several tabs for one panel (a "Next: Roles" button marked as a tab too): the one
        // in the tablist is the panel's tab (APG tabs pattern)
        const listed = usable.filter((c) => dom.roleOf(c) === 'tab'
          && dom.roleOf(parentOf(c) || c) === 'tablist');
        if (usable.length > 1 && listed.length === 1) usable = listed;
        if (usable.length > 1) return { choices: usable };
        // every control of this part says it is open (a section's own toggle inside the
        // closed tab panel): what hides the element is further up
        if (usable.length) return chained(usable[0], relation);
      }
      if (a === popup) break;
    }
    for (let level = parent, i = 0; level && i < 3 && level.tagName !== 'BODY'; level = parentOf(level), i++) {
      const toggles = [...level.querySelectorAll('*')].filter((e) => !containsComposed(popup, e)
        && isToggle(e) && !expanded(e) && !concealed(e));
      if (toggles.length > 1) return { choices: toggles };
      if (toggles.length === 1) return chained(toggles[0], 'toggle');
    }
    return null;
  }
  // The opener of the hidden elements a step matched, in its region: one chain when they
  // share it; else the controls to choose from.
  const unopened = (step, popup, regionNote) => `"${step.element}" is on the page but hidden (${describeElement(popup, dom)})${regionNote}, `
    + 'and no control evidently opens it (no aria-controls, aria-expanded or aria-haspopup toggle, '
    + 'details/summary or tab): add a step that opens its menu, tab or section before this one';
  // A match alone in its region that nothing opens, drawn only while the pointer is on an
  // element around it shown on the page (a card, a row): a style rule of the page styles
  // the part that hides it by that element's ``:hover`` (CSS Selectors: ``:hover`` matches
  // an element while the pointer is on it or on a descendant of it; ``article:hover ul {
  // visibility: visible }``). The nearest such element, up to the repeated item holding
  // the match, is pointed at (relation "hover"): a card alone in its column is one too.
  // The step acts only if its element is then shown inside it (engine/openers.py,
  // ``open_hidden``).
  function hoverItem(el) {
    for (let a = parentOf(el); a && a.tagName !== 'BODY'; a = parentOf(a)) {
      if (!shownControl(a)) continue;
      if (showsOnHover(a, el)) return a;
      if (isItem(a, el)) return null;
    }
    return null;
  }
  // The compound selector a ``:hover`` at ``at`` belongs to: ``article`` in ``article:hover
  // ul``, ``:where(.group)`` in Tailwind 4's ``.x:is(:where(.group):hover *)``.
  function hovered(sel, at) {
    let depth = 0;
    let i = at - 1;
    for (; i >= 0; i--) {
      const c = sel[i];
      if (c === ')') depth += 1;
      else if (c === '(' && depth-- === 0) break;
      else if (depth === 0 && /[\s>+~,]/.test(c)) break;
    }
    return sel.slice(i + 1, at);
  }
  function showsOnHover(item, el) {
    const root = item.getRootNode();
    const sheets = [...(root.styleSheets || []), ...(root.adoptedStyleSheets || [])];
    const parts = [];
    for (let a = el; a && a !== item; a = parentOf(a)) parts.push(a);
    let budget = 5000;  // rules read at most: a page's whole CSS is not walked without end
    const showing = (rules) => {
      for (const r of rules) {
        if (--budget < 0) return false;
        if (r.cssRules && !r.selectorText) { if (showing(r.cssRules)) return true; continue; }
        const st = r.style;
        if (!r.selectorText || !r.selectorText.includes(':hover') || !st
          || !(st.visibility || st.opacity || st.display)) continue;
        for (const sel of r.selectorText.split(',')) {
          const at = sel.indexOf(':hover');
          if (at < 0) continue;
          try {
            if (item.matches(hovered(sel, at)) && parts.some((p) => p.matches(sel.replace(/:hover/g, '')))) return true;
          } catch (e) { /* a selector this test cannot split */ }
        }
      }
      return false;
    };
    for (const sheet of sheets) {
      let rules = null;
      try { rules = sheet.cssRules; } catch (e) { continue; }  // another origin's sheet
      if (rules && showing(rules)) return true;
      if (budget < 0) return false;
    }
    return false;
  }
  function openersFor(step, scope, hidden) {
    const els = scope ? applyScope(hidden, scope).els : hidden;
    if (!els.length) return null;
    const found = els.slice(0, 12).map((e) => openerOf(e));
    if (found.some((f) => !f)) {
      const item = els.length === 1 ? hoverItem(els[0]) : null;
      return item ? { chain: [{ el: item, relation: 'hover' }], hover: true, popup: els[0] } : { popup: els[0] };
    }
    const first = found.flatMap((f) => (f.chain ? [f.chain[0].el] : f.choices));
    const distinct = [...new Set(first)];
    if (distinct.length === 1 && found.every((f) => f.chain)) {
      const key = (f) => f.chain.map((c) => elements.indexOf(c.el)).join(',');
      if (found.every((f) => key(f) === key(found[0]))) return { chain: found[0].chain, popup: els[0] };
    }
    return { choices: distinct, popup: els[0] };
  }

  // Is ``el`` (an iframe) inside ``region``? Then the region holds the whole frame:
  // ``Card number@Payment`` with the field in the iframe of the Payment section.
  const holds = (region, el) => applyScope([el], { region, structured: regions.structured(region) }).els.length === 1;

  // The locator options of an opener (a control the step clicks first): by role and
  // name when it has them, else what identifies it (test id, id, name attribute).
  function locate(el) {
    const role = dom.roleOf(el);
    const name = withoutGlyphs(dom.accName(el));
    const primary = role && name
      ? { strategy: 'role_name', tier: 2, spec: { role, name, exact: true, ...name !== dom.accName(el) && { glyphs: true } } }
      : { strategy: 'css', tier: 2, spec: { css: cssVariants(el)[0] } };
    return options(el, primary, makeQuery(name || el.id || tag(el)), null, null);
  }

  return { resolve, holds, locate };
}

// A region rendering without its scan-only fields (``_els``).
function withoutPrivate(region) {
  const out = {};
  for (const [k, v] of Object.entries(region)) if (!k.startsWith('_')) out[k] = v;
  return out;
}

// Does ``el``, or the control it is part of (a menu bar item's label), open a popup (a
// menu, listbox, dialog: ARIA's aria-haspopup, or the attribute Bootstrap's dropdown toggles
// are wired by, ``data-(bs-)toggle="dropdown"``)? A control that opens a menu and one that
// acts are different controls, whatever their names (healing/names.py, ``rival``). A class
// alone is not evidence (HTML gives class names no meaning): a ``.dropdown-toggle`` whose
// click navigates acts (tests/engine/test_heal_patience.py).
function opensPopup(el, dom) {
  const pops = (a) => (a.getAttribute('aria-haspopup') || 'false').trim() !== 'false'
    || (a.getAttribute('data-bs-toggle') || a.getAttribute('data-toggle')) === 'dropdown';
  const at = closestUp(el, (a) => pops(a) || isClickable(a, dom.roleOf, true), 4);
  return !!at && pops(at);
}

function fingerprintOf(el, dom) {
  const r = el.getBoundingClientRect();
  const w = el.ownerDocument.defaultView;
  const ancestors = [];
  for (let a = parentOf(el); a && a.tagName !== 'BODY' && ancestors.length < 6; a = parentOf(a)) {
    ancestors.push(cssVariants(a)[0]);
  }
  const testIds = {};
  for (const a of TEST_ID_ATTRS) if (el.getAttribute(a)) testIds[a] = el.getAttribute(a);
  const attr = (n) => el.getAttribute(n);
  return {
    tag: tag(el), id: el.id || null, name: attr('name'), type: attr('type'), role: dom.roleOf(el),
    accessible_name: dom.words(el), label: dom.labelTexts(el)[0] || null,
    placeholder: attr('placeholder'), text: cut(withoutGlyphs(dom.textOf(el)), 200), test_ids: testIds,
    classes: [...el.classList], href: attr('href'), alt: attr('alt'), title: titleOf(el),
    ancestor_path: ancestors, neighbour_text: neighbourTexts(el, dom),
    bounding_box: { x: r.x + w.scrollX, y: r.y + w.scrollY, width: r.width, height: r.height },
    in_shadow: inShadow(el), popup: opensPopup(el, dom),
  };
}

// Names a person can see on elements the action can use, closest to ``element`` first:
// character-bigram Dice of the names without case, spacing or punctuation ("Shoping Cart"
// ~ "Shopping Cart"), or every word of the step in the name. Each name once.
function suggestNames(dom, elements, element, action, limit) {
  const want = prep(element).joined;
  if (!want) return [];
  const words = tokens(element);
  const best = new Map();
  for (const el of elements) {
    if (compatibility(el, action, dom.roleOf, true) < 2 || dom.isHidden(el) || !visibleBox(el)) continue;
    const names = [dom.words(el), ...dom.labelTexts(el), el.getAttribute('placeholder'),
      ...isClickable(el, dom.roleOf, true) ? [dom.textOf(el)] : []].map(withoutGlyphs);
    for (const name of names) {
      if (!name || name.length > 80) continue;
      const s = prep(name).joined;
      if (!s) continue;
      const t = tokens(name);
      const score = Math.max(dice(want, s), words.length && words.every((w) => t.includes(w)) ? 0.7 : 0);
      const key = low(name);
      if (score >= 0.6 && (!best.has(key) || best.get(key).score < score)) best.set(key, { name, score });
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit).map((b) => b.name);
}

// Exports: what the later files use.
return {
  makeResolver, fingerprintOf, suggestNames, textsBeside, ROLE_WORDS
};
