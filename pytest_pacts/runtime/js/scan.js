// One in-page scan that resolves every pending step of a page state (one pass per page
// state): the document (with open shadow roots) is read once, every strategy is
// tried for every step, and each chosen element gets a fingerprint and a gate snapshot.
//
// args: {scan_id, steps: [{key, element, region, action}], strategies: [names in order],
//        confidence: {name: c}, loose: factor}

// Imports (see runtime/scripts.py: one module per file).
const {
  TEST_ID_ATTRS, NAME_FROM_CONTENT, norm, withoutGlyphs, low, bare, tokens, parentOf, closestUp, elMatches, containsComposed,
  inShadow, tag, isClickable, memo, makeDom, allElements, titleOf
} = modules.dom;

function makeQuery(text) {
  const t = tokens(text);
  const b = bare(text);
  const re = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRe(b)}($|[^\\p{L}\\p{N}])`, 'u');
  return { raw: norm(text), bare: b, tokens: t, joined: t.join(''), re };
}
function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

// Normalised forms of every string compared during a scan, computed once per string:
// the same labels, names and ids are compared against every step.
const prepared = new Map();
function resetPrepared() { prepared.clear(); places.clear(); addresses.clear(); }
function prep(value) {
  let p = prepared.get(value);
  if (!p) {
    const toks = tokens(value);
    p = { bare: bare(value), toks, joined: toks.join('') };
    prepared.set(value, p);
  }
  return p;
}

// 2 = exact (case-insensitive, whitespace-normalised), 1 = whole-word substring, 0 = no.
// ``value`` is a string or its prep() (the scan's table holds prepared keys).
function textTier(value, q) {
  const p = typeof value === 'string' ? prep(value) : value;
  const v = p.bare;
  if (!v || !q.bare) return 0;
  if (v === q.bare) return 2;
  if (v.length > 3 * q.bare.length + 20) return 0;
  // "Log in" ~ "Login", "Sign-up" ~ "Sign up": same words, other spacing or punctuation.
  if (q.joined && p.joined === q.joined) return 1;
  return q.re.test(v) ? 1 : 0;
}
// Identifier-like values: "Login" ~ "login-button" (1), "User name" ~ "user_name" (2).
// Identifiers are abbreviated by the developers who write them; a person writes the word:
// "Filter operator" is Datasette's <select name="_filter_op"> and Flask-Admin's <select
// class="filter-op">. Only these common abbreviations count, each for the words it stands
// for (never a prefix rule: "op" is not "open").
const ABBREVIATIONS = new Map(Object.entries({
  acct: ['account'], addr: ['address'], amt: ['amount'], avg: ['average'], btn: ['button'],
  cat: ['category'], cb: ['checkbox'], chk: ['checkbox'], col: ['column'], cfg: ['config', 'configuration'],
  del: ['delete'], desc: ['description'], dept: ['department'], img: ['image'], info: ['information'],
  lang: ['language'], lbl: ['label'], max: ['maximum'], min: ['minimum'], msg: ['message'],
  num: ['number'], op: ['operator', 'operation'], opt: ['option'], org: ['organization', 'organisation'],
  pw: ['password'], pwd: ['password'], passwd: ['password'], pref: ['preference'],
  prefs: ['preferences'], prev: ['previous'], qty: ['quantity'], ref: ['reference'], sel: ['select'],
  srch: ['search'], tel: ['telephone', 'phone'], txt: ['text'], val: ['value'],
}));
const sameWord = (t, w) => t === w || (ABBREVIATIONS.get(t) || []).includes(w);
function tokenTier(value, q) {
  const { toks: t, joined } = typeof value === 'string' ? prep(value) : value;
  if (!t.length || !q.tokens.length) return 0;
  if (joined === q.joined) return 2;
  for (let i = 0; i + q.tokens.length <= t.length; i++) {
    if (q.tokens.every((w, j) => sameWord(t[i + j], w))) return 1;
  }
  return 0;
}

function cssString(s) { return `"${String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ')}"`; }
// A name a build tool or a framework generated, which the next render or build gives to
// another element (generated.py: the one definition, handed over as PY.generatedName).
const GENERATED = new RegExp(PY.generatedName);
function looksGenerated(s) { return GENERATED.test(s); }
// A link's destination is its identity (HTML, "Following hyperlinks": what the link does is
// go there): its ``href`` as written, when it leads to a page of the same origin by path and
// query (no fragment, no ``javascript:``) and carries no session or CSRF token and no
// generated value (a hash, a UUID, a long random run; a record's number is no such value:
// the same record after a re-sort). Else null. Compared as written, as ``a[href="..."]`` is.
const TOKEN_KEY = /(^|[-_])(csrf|xsrf|token|session|sess|sid|nonce|sig|signature|auth|key|state|ts|timestamp)($|[-_])|^_$/i;
const GENERATED_PART = /[0-9a-f]{16,}|[0-9a-f]{8}-[0-9a-f]{4}-|(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{24,}/i;
function address(raw, doc) {
  if (!raw || raw.includes('#') || /^\s*javascript:/i.test(raw)) return null;
  let url;
  try { url = new URL(raw, doc.baseURI); } catch (e) { return null; }
  if (!/^https?:$/.test(url.protocol) || url.origin !== doc.location.origin) return null;
  if (url.pathname.split('/').some((p) => GENERATED_PART.test(p))) return null;
  for (const [k, v] of url.searchParams) if (TOKEN_KEY.test(k) || GENERATED_PART.test(v)) return null;
  return raw;
}
const linkAddress = (el) => (['A', 'AREA'].includes(el.tagName) ? address(el.getAttribute('href'), el.ownerDocument) : null);
// How many links of the document lead to ``raw`` as written (once per value and call).
const addresses = new Map();
function addressCount(raw, doc) {
  if (!addresses.has(raw)) addresses.set(raw, [...doc.querySelectorAll('a[href], area[href]')].filter((a) => a.getAttribute('href') === raw).length);
  return addresses.get(raw);
}
// styled-components writes an element's classes as its component ids (sc-...), then one
// hashed name per id (up to six letters, "a-d" split by a hyphen: hIafim, eA-Dxke), then the
// classes passed to it: letters right after the ids are hashes, whatever their case.
function hashedNames(classes) {
  let ids = 0;
  return new Set(classes.filter((c) => {
    if (/(^|-)sc-/.test(c)) ids += 1;
    else if (ids && /^[a-z]{1,6}$/i.test(c.replace(/(a)-(d)/gi, '$1$2'))) { ids -= 1; return true; }
    else ids = 0;
    return false;
  }));
}
// State classes change as the user interacts ("li.is-done" is gone once the box is
// unchecked): a locator built on one breaks between steps, so they are never used.
const STATE_CLASS = /^(is|has)[-_]|(^|[-_])(active|selected|checked|done|completed|open|opened|closed|hidden|visible|shown|disabled|enabled|focus(ed)?|hover(ed)?|current|expanded|collapsed|loading|loaded|error|valid|invalid|dirty|touched|pristine)$/i;
// The classes that name what an element is: neither generated, nor a state, nor a place.
const stableClasses = (el) => {
  const hashed = hashedNames([...el.classList]);
  return [...el.classList].filter((c) => !hashed.has(c) && !looksGenerated(c) && !STATE_CLASS.test(c) && !placed(el).has(c));
};
// A class is a place when, among three or more siblings of one tag, exactly every other one
// has it: what Selectors Level 3's :nth-of-type(odd) / (even) would select (a table's
// striping, ``tr.pure-table-odd``, ``tr.row1``/``row2``). It changes when a row above is
// added or removed, so it never names an item. Counted once per parent and call
// (resetPrepared), again when the parent's children changed in number.
const places = new Map();
function placed(el) {
  const parent = el.parentElement;
  if (!parent || parent.childElementCount < 3) return new Set();
  const key = el.tagName;
  let mine = places.get(parent);
  if (!mine || mine.n !== parent.childElementCount) places.set(parent, mine = { n: parent.childElementCount, by: new Map() });
  mine = mine.by;
  if (!mine.has(key)) {
    const sibs = [...parent.children].filter((s) => s.tagName === el.tagName);
    const out = new Set();
    if (sibs.length >= 3) {
      for (const c of new Set(sibs.flatMap((s) => [...s.classList]))) {
        const at = sibs.map((s) => s.classList.contains(c));
        if (at.every((has, i) => has === at[0] !== (i % 2 === 1))) out.add(c);
      }
    }
    mine.set(key, out);
  }
  return mine.get(key);
}
function cssVariants(el) {
  const t = tag(el);
  const out = [];
  if (el.id && !looksGenerated(el.id)) out.push(`${t}#${CSS.escape(el.id)}`);
  const classes = stableClasses(el).slice(0, 2);
  if (classes.length) out.push(t + classes.map((c) => `.${CSS.escape(c)}`).join(''));
  out.push(t);
  return out;
}

// The element's place in the document as a CSS path without generated ids or classes:
// from the nearest ancestor with a stable id unique in the document (else <body>), each step
// its tag, stable classes and, among same-tag siblings, its position. The last resort when
// no semantic locator singles the element out (docs/discovery.md, "Verification"); null
// inside a shadow root (a CSS path does not cross it).
function structuralPath(el) {
  if (inShadow(el)) return null;
  const doc = el.ownerDocument;
  // the body (or the root) holds the whole page: it has no place that names it
  if (el === doc.body || el === doc.documentElement) return null;
  const steps = [];
  for (let e = el; e && e !== doc.body && e !== doc.documentElement; e = e.parentElement) {
    if (e.id && !looksGenerated(e.id) && doc.querySelectorAll(`#${CSS.escape(e.id)}`).length === 1) {
      steps.unshift(`${tag(e)}#${CSS.escape(e.id)}`);
      return steps.join(' > ');
    }
    const v = cssVariants(e).filter((c) => !c.includes('#'));
    let step = v[0];
    const same = e.parentElement ? [...e.parentElement.children].filter((c) => c.tagName === e.tagName) : [e];
    if (same.length > 1) step += `:nth-of-type(${same.indexOf(e) + 1})`;
    steps.unshift(step);
  }
  steps.unshift('body');
  return steps.join(' > ');
}

const ICON_TAGS = new Set(['SVG', 'I', 'SPAN', 'IMG']);
// An element that shows no text and is an icon (svg, i, span, img; not a part inside an
// svg) or a control (button, link, role, handler, tabindex) with nothing but an icon in it.
function iconLike(el, dom) {
  if (el.ownerSVGElement || !el.classList.length) return false;
  if (['INPUT', 'SELECT', 'TEXTAREA', 'OPTION'].includes(el.tagName)) return false;
  if (!ICON_TAGS.has(el.tagName.toUpperCase()) && !isClickable(el, dom.roleOf, true)) return false;
  return !bare(dom.textOf(el));
}

// The page read afresh (the scan's caches emptied): its DOM reader, elements and strategies.
function readPage() {
  resetPrepared();
  const dom = makeDom(document);
  return { dom, elements: allElements(document), strategies: makeStrategies(dom) };
}
function makeStrategies(dom) {
  const read = (s) => (s.glyphs ? (el) => withoutGlyphs(dom.textOf(el)) : dom.textOf);  // as rendered
  const textSame = (el, s) => read(s)(el) === s.text
    && ![...el.children, ...(el.shadowRoot ? el.shadowRoot.children : [])].some((c) => read(s)(c) === s.text);
  return {
    test_id: {
      compare: tokenTier,
      keys: (el) => TEST_ID_ATTRS.filter((a) => el.getAttribute(a)).map((a) => ({ value: el.getAttribute(a), attr: a })),
      spec: (k) => ({ test_id: k.value, test_id_attribute: k.attr }),
      same: (el, s) => el.getAttribute(s.test_id_attribute) === s.test_id,
    },
    label: {
      compare: textTier,
      // Each label of a control labels it (HTML, ``labels``), and its leading words are the
      // name a person reads: a hint after them (a part in parentheses, a sentence after the
      // first, a line after the first) is compared apart, addressed by the whole label
      // (tests/discovery/test_label_hints.py).
      keys: (el) => dom.labelTexts(el).flatMap((v) => [...new Set([v, norm(v.split(/\s\(|\.\s/)[0]), dom.firstLines(el).get(v)])]
        .filter(Boolean).map((value) => (value === v ? { value } : { value, label: v }))),
      spec: (k) => ({ label: k.label || k.value, exact: true }),
      same: (el, s) => dom.labelTexts(el).includes(s.label) || norm(el.getAttribute('aria-label')) === s.label,
    },
    placeholder: {
      compare: textTier,
      keys: (el) => (norm(el.getAttribute('placeholder')) ? [{ value: norm(el.getAttribute('placeholder')) }] : []),
      spec: (k) => ({ placeholder: k.value, exact: true }),
      same: (el, s) => norm(el.getAttribute('placeholder')) === s.placeholder,
    },
    role_name: {
      compare: textTier,
      keys: (el) => {
        const role = dom.roleOf(el);
        if (!role || role === 'presentation' || role === 'generic' || role === 'paragraph') return [];
        // a name of icon glyphs or words alone is none; one with words is compared without them
        // and recorded without its glyphs, Playwright given a pattern allowing them (models/glyphs.py)
        const shown = withoutGlyphs(dom.accName(el));
        return dom.words(el) ? [{ value: dom.words(el), role, shown, glyphs: shown !== dom.accName(el) }] : [];
      },
      spec: (k) => ({ role: k.role, name: k.shown, exact: true, ...k.glyphs && { glyphs: true } }),
      same: (el, s) => dom.roleOf(el) === s.role && (s.glyphs ? withoutGlyphs(dom.accName(el)) : dom.accName(el)) === s.name && !dom.unexposed(el),
    },
    aria: {
      compare: textTier,
      // a title Bootstrap's tooltip moved (titleOf) is addressed by the attribute holding it
      keys: (el) => ['aria-label', 'title', 'data-original-title', 'data-bs-original-title', 'alt']
        .filter((a) => norm(el.getAttribute(a)) && (!a.startsWith('data') || titleOf(el) === el.getAttribute(a)))
        .map((a) => ({ value: norm(el.getAttribute(a)), attr: a, field: { 'aria-label': 'aria_label', alt: 'alt' }[a] || 'title' })),
      spec: (k) => ({ [k.field]: k.value, exact: true, ...k.attr.startsWith('data') && { css: `[${k.attr}=${cssString(k.value)}]` } }),
      same: (el, s) => {
        if (s.aria_label != null) return norm(el.getAttribute('aria-label')) === s.aria_label || dom.labelTexts(el).includes(s.aria_label);
        if (s.title != null) return norm(titleOf(el)) === s.title;
        return norm(el.getAttribute('alt')) === s.alt && ['IMG', 'INPUT', 'AREA'].includes(el.tagName);
      },
    },
    text: {
      compare: textTier,
      deepest: true,
      keys: (el) => {
        if (dom.rawText(el).length > 2000) return [];  // cheap pre-check: long raw, long text
        const t = withoutGlyphs(dom.textOf(el));
        return t && t.length <= 200 ? [{ value: t, glyphs: t !== dom.textOf(el) }] : [];
      },
      spec: (k) => ({ text: k.value, exact: true, ...k.glyphs && { glyphs: true } }),
      same: textSame,
    },
    // Elements inside an open shadow root, named through their host (``<pacts-newsletter>``).
    shadow: {
      compare: tokenTier,
      keys: (el) => {
        const root = el.getRootNode();
        if (!(root instanceof ShadowRoot)) return [];
        const h = root.host;
        return [tag(h), h.id, h.getAttribute('aria-label'), h.getAttribute('title')]
          .filter(Boolean).map((v) => ({ value: v, host: cssVariants(h)[0] }));
      },
      spec: (k, el) => ({ host: k.host, css: cssVariants(el).slice(-2)[0] }),
      same: (el, s) => elMatches(el, s.css) && inShadow(el) && elMatches(el.getRootNode().host, s.host),
    },
    css: {
      compare: tokenTier,
      keys: (el) => {
        const out = [];
        if (el.id && !looksGenerated(el.id)) out.push({ value: el.id, css: `#${CSS.escape(el.id)}` });
        const name = el.getAttribute('name');
        if (name) out.push({ value: name, css: `${tag(el)}[name=${cssString(name)}]`, form: true });
        // An icon, or a control showing nothing but one, is named by its classes:
        // "menu icon" ~ <svg class="dropdown-menu-icon">, "trash" ~ <i class="fa fa-trash">.
        if (iconLike(el, dom)) {
          const drawn = ICON_TAGS.has(el.tagName.toUpperCase());
          for (const c of stableClasses(el)) {
            const words = tokens(c);
            if (drawn && !words.includes('icon')) words.push('icon');
            out.push({ value: words.join(' '), css: `${tag(el)}.${CSS.escape(c)}` });
          }
        }
        return out;
      },
      spec: (k) => ({ css: k.css }),
      same: (el, s) => elMatches(el, s.css),
    },
  };
}

function makeRegions(dom, elements) {
  const headings = elements.filter((e) => dom.roleOf(e) === 'heading');
  const CONTAINER_TAGS = new Set(['FORM', 'SECTION', 'ARTICLE', 'ASIDE', 'NAV', 'MAIN', 'FIELDSET',
    'DIALOG', 'LI', 'TR', 'HEADER', 'FOOTER', 'TABLE', 'UL', 'OL']);

  // Containers matched by themselves: id/class/test-id tokens, accessible name.
  // Indexed once per scan by joined tokens and by bare name: every region step looks up.
  let index = null;
  function buildIndex() {
    index = { tokens: new Map(), names: new Map() };
    const put = (map, k, el, how) => {
      if (!k) return;
      if (!map.has(k)) map.set(k, []);
      map.get(k).push({ el, how });
    };
    for (const el of elements) {
      if (el.id) put(index.tokens, prep(el.id).joined, el, 'id_token');
      for (const c of el.classList) put(index.tokens, prep(c).joined, el, 'class_token');
      for (const a of TEST_ID_ATTRS) {
        const v = el.getAttribute(a);
        if (v) put(index.tokens, prep(v).joined, el, 'test_id');
      }
      const role = dom.roleOf(el);
      if ((CONTAINER_TAGS.has(el.tagName) || role) && el.tagName !== 'INPUT'
        && el.childElementCount > 0 && role !== 'heading' && !NAME_FROM_CONTENT.has(role)) {
        put(index.names, prep(dom.accName(el)).bare, el, 'name');
      }
    }
  }
  function structured(region) {
    if (!index) buildIndex();
    const q = makeQuery(region);
    const found = new Map();
    for (const { el, how } of index.tokens.get(q.joined) || []) if (!found.has(el)) found.set(el, how);
    for (const { el, how } of index.names.get(q.bare) || []) if (!found.has(el)) found.set(el, how);
    return found;
  }

  // Headings that name the region; their containers are found relative to the candidates.
  function headingsNamed(region) {
    const b = bare(region);
    return headings.filter((h) => prep(dom.accName(h)).bare === b && !dom.isHidden(h));
  }

  // Renderings of a container, most specific first (see Region in models/locator.py).
  function specs(container, how, region) {
    if (how && how.specs) return how.specs;  // rendered by what named it (resolve.js)
    const kind = typeof how === 'string' ? how : how.how;
    if (kind === 'id_token') return [{ css: `#${CSS.escape(container.id)}` }];
    if (kind === 'class_token') {
      const cls = [...container.classList].find((c) => tokens(c).join('') === makeQuery(region).joined);
      return [{ css: `${tag(container)}.${CSS.escape(cls)}` }];
    }
    if (kind === 'test_id') {
      const a = TEST_ID_ATTRS.find((x) => container.getAttribute(x));
      return [{ css: `[${a}=${cssString(container.getAttribute(a))}]` }];
    }
    if (kind === 'name') {
      const role = dom.roleOf(container);
      const out = role ? [{ role, name: dom.accName(container) }] : [];
      if (container.getAttribute('aria-label')) out.push({ css: `${tag(container)}[aria-label=${cssString(container.getAttribute('aria-label'))}]` });
      return out;
    }
    if (kind === 'heading') return cssVariants(container).map((css) => ({ css, heading: how.heading }));
    // A container that only generated classes tell apart (a row of a virtualised list:
    // <div class="css-qaw33x" data-testid="experiment-list-item">) is its tag, which every
    // ancestor holding the text shares; its test id, tried last, tells the rows apart.
    const t = tag(container);
    const byTestId = TEST_ID_ATTRS.filter((a) => container.getAttribute(a))
      .map((a) => `${t}[${a}=${cssString(container.getAttribute(a))}]`);
    // Last, the innermost element of the tag holding the text (rows of divs whose classes
    // are all generated: every ancestor div holds the text too).
    const innermost = cssVariants(container).map((css) => ({ css, has_text: region, innermost: true }));
    return [...[...cssVariants(container), ...byTestId].map((css) => ({ css, has_text: region })), ...innermost];
  }

  // Emulates how Playwright matches a rendered region, for the uniqueness estimate; called
  // for every ancestor of every matching element, so its lookups are cached.
  const headingsCalled = memo((name) => headings.filter((h) => dom.accName(h) === name));
  const lowText = memo((a) => dom.textOf(a).toLowerCase());
  function matches(a, r) {
    if (r._els) return r._els.has(a);
    if (r.css ? !elMatches(a, r.css) : (dom.roleOf(a) !== r.role || dom.accName(a) !== r.name)) return false;
    if (r.heading && !headingsCalled(r.heading).some((h) => h !== a && containsComposed(a, h))) return false;
    if (r.has_text && !lowText(a).includes(low(r.has_text))) return false;
    if (r.innermost) {
      const outer = { ...r, innermost: false };
      if ([...a.querySelectorAll(r.css)].some((d) => matches(d, outer))) return false;
    }
    return true;
  }
  function within(el, r) {
    return closestUp(parentOf(el), (a) => matches(a, r)) !== null;
  }
  return { structured, headingsNamed, specs, within };
}

// Exports: what the later files use, and the tiers the unit tests check.
return {
  makeQuery, resetPrepared, readPage, prep, cssString, looksGenerated, address, linkAddress, addressCount, stableClasses, cssVariants, structuralPath, makeStrategies,
  makeRegions, textTier, tokenTier
};
