// The installed API (one object per document, see pytest_pacts/runtime/scripts.py).

// Imports (see runtime/scripts.py: one module per file).
const {
  SKIP_TAGS, TEST_ID_ATTRS, norm, cut, tokens, parentOf, containsComposed, inShadow, tag, elMatches, roleAttr, remember,
  inputType, makeDom, isEditableType, isSettable, isCheckable, isSelectable, isClickable, describeElement, toJson, titleOf
} = modules.dom;
const { callbacksRun, nextFrame, realFrame, gateItem, checkActionable, blocks, identityChange } = modules.actionability;
const { installWatch, installBridge } = modules.watch;
const { readPage, cssString, looksGenerated, structuralPath, makeRegions } = modules.scan;
const { makeResolver, fingerprintOf, suggestNames, textsBeside, ROLE_WORDS } = modules.resolve;
const { find } = modules.find;

const registry = new Map();  // scan id -> {chosen elements (identity checks), gate promise}

// The document's DOM changes and the animation frames drawn since the last one (watch.js):
// from the document's first moment when the engine's init script put the watch there, else
// from now. ``check`` reports how long ago the last change was (``quiet_ms``): the elements a
// check is given were resolved just before it ran, so a change between that and the check
// would go unseen (a list still rendering, resolved as empty a moment before its last
// frame, then a quiet page). Python compares ``quiet_ms`` with the round trip
// (engine/gate.py).
const changeWatch = installWatch();
const bridge = installBridge();
function quietFor() {
  changeWatch.flush();
  return performance.now() - changeWatch.at;
}

async function scan(args) {
  const { dom, elements, strategies } = readPage();
  const regions = makeRegions(dom, elements);
  const resolver = makeResolver(dom, elements, strategies, regions, args);
  const results = args.steps.map((step) => ({ key: step.key, ...resolver.resolve(step) }));
  const chosen = [];
  const items = [];
  for (const r of results) {
    if (!r.el) continue;
    r.element_index = chosen.length;
    chosen.push(r.el);
    r.fingerprint = { ...fingerprintOf(r.el, dom), rivals: r.rivals || [] };
    r.structural = structuralPath(r.el);
    delete r.rivals;
    const action = args.steps.find((s) => s.key === r.key).action;
    items.push(gateItem([r.el], { action, regions: r.where ? [r.where.container] : [], in_shadow: inShadow(r.el) }, args.still));
  }
  // The gate needs one or two animation frames (stability, for a pointer step, unless
  // ``args.still`` is false); they run while Python verifies the locators, and gates()
  // collects the snapshots afterwards. With ``args.still`` false they are answered here.
  // The controls that open a hidden match (a closed menu, a tab): checked by Python like a
  // chosen element, then clicked before the step (engine/openers.py).
  for (const r of results) {
    for (const link of (r.opener && r.opener.chain) || []) {
      link.element_index = chosen.length;
      chosen.push(link.el);
      link.options = resolver.locate(link.el);
      link.structural = structuralPath(link.el);
      delete link.el;
    }
  }
  const gates = checkActionable(items, dom);
  remember(registry, args.scan_id, { chosen, gates }, 8);
  for (const r of results) {
    delete r.el;
    delete r.where;
  }
  // Without "stable" nothing waits for a frame: the snapshots are taken already, and go
  // back with the results (no gates() round trip).
  if (args.still === false) return { results, gates: await gates };
  return results;
}

async function gates(arg) {
  const entry = registry.get(arg.scan_id);
  return entry ? await entry.gates : null;
}

// Does a rendered Playwright locator resolve to exactly the element the scan chose?
function verify(els, arg) {
  const entry = registry.get(arg.scan_id);
  const target = entry ? entry.chosen[arg.index] : undefined;
  const dom = makeDom(document);
  return { count: els.length, same: els.length === 1 && els[0] === target,
    found: els.slice(0, 5).map((e) => describeElement(e, dom)) };
}

// FNV-1a over the document's markup (its first 2 million characters) and its length: the
// step trace's DOM snapshot hash (pytest_pacts/engine/tracing.py computes the same).
function domHash() {
  const s = document.documentElement ? document.documentElement.outerHTML : '';
  const n = Math.min(s.length, 2000000);
  let h = 0x811c9dc5;
  for (let i = 0; i < n; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return (h >>> 0).toString(16).padStart(8, '0') + '-' + s.length.toString(16);
}

// The element a gate check passed, kept under the executor's token (``keep``, a number) in
// the document's bridge (watch.js, ``hold``): the action resolves exactly it and nothing else
// (runtime/bridge.py, ``kept_selector``), and the step's expectation about its own state
// reads it, even when the action changed what the locator matches (a row's class changes
// when its box is ticked). The latest only, one per document: a new document has none.
function keptElement(token) {
  return bridge.held(Number(token));
}

// What keeps a check from passing, as the executor's gate sees it: [a state that may pass
// by itself, a structural failure]. The rule is the gate's own (engine/gate.py,
// ``blocking_point``), passed in ``rule``: {transient, seen_by_wait, no_enabled}. Without a
// rule every failing point counts as one that may pass by itself (the check then watches two
// frames, as it always did before).
function failingPoints(result, action, rule) {
  if (!rule) {
    const failing = result.count !== 1 || !!result.changed || result.points.some((p) => !p.ok && p.code !== 'skipped');
    return [failing, false];
  }
  const observes = action === 'wait' || action === 'extract';
  const blocking = result.points.filter((p) => blocks(p, observes, rule.seen_by_wait, rule.no_enabled.includes(action)));
  const transient = blocking.some((p) => rule.transient.includes(p.code));
  const structural = result.count !== 1 || !!result.changed || blocking.some((p) => !rule.transient.includes(p.code));
  return [transient, structural];
}

async function check(els, opts) {
  const dom = makeDom(document);
  // Was the page settled (loaded, no DOM change for two animation frames) before the check?
  // The executor's "settled" for a locator that matches nothing. Read from the watch when it
  // saw two frames go by without a change (no wait: a settled page is healed at once), else
  // watched over the check's own two frames.
  changeWatch.flush();
  // only a quiet spell that began after the caller last acted counts: the page's answer to
  // an action (a render on the next frame) may not have begun yet
  const quietBefore = typeof opts.since === 'number' && changeWatch.frames >= 2
    && performance.timeOrigin + changeWatch.at >= opts.since;
  // A request the page's scripts opened less than the caller's ``requests_ms`` ago (the
  // gate's rule) is still open: its answer may bring the element, the page is not settled
  // (watch.js, ``watchRequests``; the engine's own view of requests can lag behind it).
  const requestsMs = opts.rule && typeof opts.rule.requests_ms === 'number' ? opts.rule.requests_ms : 0;
  const fetching = () => requestsMs > 0 && !!changeWatch.requests && changeWatch.requests(requestsMs) > 0;
  let changed = false;
  const observer = new MutationObserver(() => { changed = true; });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const framed = callbacksRun();
  const watch = { frames: false, waited: 0, since: opts.since };
  const item = gateItem(els, opts);
  const run = async (w) => {
    const [res] = await checkActionable([item], dom, w);
    if (opts.identity && els.length === 1 && els[0].isConnected) res.changed = identityChange(els[0], opts.identity, dom, opts.action);
    return res;
  };
  let result;
  try {
    result = await run(watch);
    const [transient, structural] = failingPoints(result, opts.action, opts.rule);
    const quiet = quietBefore && (changeWatch.flush(), changeWatch.frames >= 2) && !fetching();
    if ((transient || (structural && !quiet)) && !watch.waited && framed) {
      // A state that may pass by itself (hidden, disabled, moving), or a page still
      // changing: watch two frames (the gate re-checks, so this paces its loop at the
      // page's frame rate), then check again what the frames may have changed.
      watch.frames = realFrame(await nextFrame()) && realFrame(await nextFrame());
      watch.waited = 2;
      result = await run(null);
    } else if (structural && !quiet && watch.waited === 1 && framed) {
      // Measuring "stable" watched one frame; "settled" needs two without a change. Check
      // again over one more frame (which also sees what that frame changed).
      const more = { frames: false, waited: 0 };
      result = await run(more);
      watch.frames = watch.frames && more.frames;
      watch.waited += more.waited;
    }
    if (opts.settle && framed && !quietBefore && watch.waited < 2) {
      // The executor's readiness before the first action on a new page (``settle``): the
      // page must be seen unchanged for two animation frames. They are watched here, after
      // whatever frames "stable" watched, rather than in a call of their own before the
      // check. A DOM change in them makes the answer "not settled" (the executor then waits
      // for the page and checks again); without one, what the check saw still holds.
      let real = watch.waited === 0 || watch.frames;
      for (let i = watch.waited; i < 2; i++) real = realFrame(await nextFrame()) && real;
      watch.frames = real;
      watch.waited = 2;
    }
  } finally {
    changed = changed || observer.takeRecords().length > 0;
    observer.disconnect();
  }
  // without animation frames (scripts disabled in this world) nothing was watched: unknown.
  // Quiet counts only over real frames: a page that got no frame for a while (a loaded
  // machine starving the renderer) may be in the middle of rendering frame by frame.
  const complete = document.readyState === 'complete' && !fetching() && !changeWatch.blank();
  if (!framed) result.settled = null;
  else if (watch.waited) result.settled = !changed && watch.frames && complete && (watch.waited >= 2 || quietBefore);
  else result.settled = !changed && quietBefore && complete;
  result.quiet_ms = quietFor();
  const el = result.via || els[0];  // (the control the pointer reaches for it: checkVisible)
  if (opts.keep && els.length === 1) bridge.hold(Number(opts.keep), el);
  // The element's visible text (a form field's value is never read): for the step's trace,
  // and for the kept element, the words the click's guard holds it to at the press
  // (engine/pointer_guard.py: a list patched in place gives the node another entry's words)
  if ((opts.trace || opts.keep) && els.length === 1 && !elMatches(el, 'input, textarea, select')) {
    result.text = cut(norm(el.innerText || el.textContent || ''), 200);
  }
  if (opts.trace) result.dom_hash = domHash();  // and a hash of the document, for the trace
  // an opener's check: is the hidden element it is to show (a CSS path) on show by now?
  if (opts.shows) result.shown = [document.querySelector(opts.shows)].some((e) => !!e && !dom.isHidden(e) && e.checkVisibility({ opacityProperty: true }));
  return result;
}

// How a parent document names one of its iframes (a stable id, name, title, test id; its place
// when it is the only one; only then its `src`, an address that carries records' ids: docs/
// discovery.md, "Frames"), whether we may look inside it, which of arg.regions hold it.
function frameInfo(el, arg) {
  let sameOrigin = false;
  try { sameOrigin = !!el.contentDocument; } catch (e) { sameOrigin = false; }
  const root = el.getRootNode();
  const count = (sel) => root.querySelectorAll(sel).length;
  const options = el.id && !looksGenerated(el.id) ? [`iframe#${CSS.escape(el.id)}`] : [];
  for (const a of ['name', 'title', ...TEST_ID_ATTRS, 'src']) {
    if (el.getAttribute(a) && (a !== 'src' || count('iframe') > 1)) options.push(`iframe[${a}=${cssString(el.getAttribute(a))}]`);
  }
  const selector = options.find((s) => count(s) === 1)
    || (count('iframe') === 1 ? 'iframe' : `iframe >> nth=${[...root.querySelectorAll('iframe')].indexOf(el)}`);
  let inRegions = [];
  if (arg && arg.regions && arg.regions.length) {
    const { dom, elements, strategies } = readPage();
    const resolver = makeResolver(dom, elements, strategies, makeRegions(dom, elements),
      { strategies: [], confidence: {}, loose: 1 });
    inRegions = arg.regions.map((r) => resolver.holds(r, el));
  }
  return { same_origin: sameOrigin, selector, in_regions: inRegions };
}

// The visible names closest to a step's element that matched nothing ("did you mean"):
// a first run with a misspelt Element cell. arg: {element, action, limit}.
function suggest(arg) {
  const { dom, elements } = readPage();
  return suggestNames(dom, elements, arg.element, arg.action, arg.limit || 3);
}

// Role and accessible name as the scan computes them (tests compare them with Playwright's).
function names(els) {
  const dom = makeDom(document);
  return els.map((e) => ({ role: dom.roleOf(e), name: dom.accName(e) }));
}

// The elements a person can name on this page (``pacts elements``): every visible control of
// the document and its open shadow roots, in document order, with the action that suits it,
// the names it shows (best first), the texts of the containers around it (nearest first, the
// candidate regions), the landmark it stands in and its box in page coordinates. The list is
// kept by id so Python can check that a discovered locator resolves to the listed element
// itself (``listed``). arg: {list_id, limit}.
const lists = new Map();
const GROUP_TAGS = new Set(['HEADER', 'NAV', 'MAIN', 'ASIDE', 'FOOTER', 'FORM', 'DIALOG',
  'SECTION', 'ARTICLE', 'FIELDSET']);
const GROUP_ROLES = new Set(['banner', 'navigation', 'main', 'complementary', 'contentinfo',
  'form', 'dialog', 'alertdialog', 'region', 'search']);
const INNER_TAGS = new Set(['FORM', 'SECTION', 'ARTICLE', 'FIELDSET']);
const INNER_ROLES = new Set(['form', 'region']);
function inventory(arg) {
  const { dom, elements } = readPage();
  const human = (v) => tokens(v || '').join(' ');
  // a name with no letter or digit is an icon's glyph (an icon font's "✏", a "×"): no name
  // a person would write, and one that depends on the icon's CSS; the title, a label or the
  // kind in its row names it instead
  const usable = (v) => !!v && v.length <= 80 && !/[@|]/.test(v) && /[\p{L}\p{N}]/u.test(v);
  const kindOf = (el) => {
    if (el.tagName === 'INPUT' && inputType(el) === 'hidden') return null;
    if (isCheckable(el, dom.roleOf)) return 'check';
    if (isSelectable(el, dom.roleOf)) return 'select';
    if (isEditableType(el, dom.roleOf) || isSettable(el, dom.roleOf)) return 'fill';
    if (isClickable(el, dom.roleOf, true)) return 'click';
    return null;
  };
  const headingIn = (a) => {
    for (const h of a.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"], legend, caption')) {
      if (!dom.isHidden(h)) return dom.accName(h) || dom.textOf(h);
    }
    return '';
  };
  // Short texts shown in ``a`` outside ``el``, title-like ones first (a card's or a row's
  // name: an element named like one, a link, strong text), then the first one shown.
  const TITLE_CLASS = /(^|[-_\s])(name|title|heading|header|label|caption)([-_\s]|$)/i;
  const titleLike = (e, a) => {
    for (let x = e; x && x !== a; x = parentOf(x)) {
      if (TITLE_CLASS.test(x.className && typeof x.className === 'string' ? x.className : '')
        || ['A', 'STRONG', 'B', 'TH', 'DT', 'LABEL'].includes(x.tagName)) return true;
    }
    return false;
  };
  // ``words``: the first text with a word in it (a row's name when its first cell is a
  // number that other rows' texts also contain).
  const textsIn = (a, el) => {
    let first = '';
    let title = '';
    let words = '';
    for (const e of a.querySelectorAll('*')) {
      if (e === el || containsComposed(el, e) || containsComposed(e, el) || SKIP_TAGS.has(e.tagName)) continue;
      if (e.childElementCount || dom.isHidden(e)) continue;
      const t = dom.textOf(e);
      if (!t || t.length > 60) continue;
      if (!first) first = t;
      if (!title && titleLike(e, a)) title = t;
      if (!words && /\p{L}{3}/u.test(t)) words = t;
      if (first && title && words) break;
    }
    return { first, title, words };
  };
  // The group a person sees the element in: the nearest heading around it, else the
  // landmark it stands in (header, navigation, footer...). A form or section without a
  // label of its own is named by the heading around it (a card's title), else by its id.
  const groupOf = (el) => {
    let fallback = '';
    for (let a = parentOf(el); a && a !== document.body; a = parentOf(a)) {
      const heading = headingIn(a);
      if (heading) return heading;
      const role = roleAttr(a);
      if (!(role ? GROUP_ROLES.has(role) : GROUP_TAGS.has(a.tagName))) continue;
      const label = norm(a.getAttribute('aria-label'));
      if (label) return label;
      const named = (a.id && !looksGenerated(a.id) ? human(a.id) : '') || tag(a);
      if (!(role ? INNER_ROLES.has(role) : INNER_TAGS.has(a.tagName))) return fallback || named;
      fallback = fallback || named;
    }
    return fallback;
  };
  const chosen = [];
  const out = [];
  for (const el of elements) {
    if (chosen.length >= (arg.limit || 200)) break;
    const action = kindOf(el);
    if (!action || dom.isHidden(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    // the icon inside a listed button is that button to a person
    if (chosen.some((c) => containsComposed(c, el))) continue;
    const names = [];
    const name = (v) => { v = norm(v); if (usable(v) && !names.includes(v)) names.push(v); };
    // a label's first line as drawn first: what a person reads as its name
    for (const l of dom.labelTexts(el)) name(dom.firstLines(el).get(l));
    name(dom.words(el));
    for (const l of dom.labelTexts(el)) name(l);
    name(el.getAttribute('placeholder'));
    if (action === 'click') name(dom.textOf(el));
    name(titleOf(el));
    // A control without a name of its own is named by its identifiers, and a checkbox or
    // radio first by the text next to it: discovery finds "the checkbox in the row that
    // mentions 'Buy milk'".
    const nextTo = () => {
      if (dom.accName(el)) return;
      let up = 0;
      for (let a = parentOf(el); a && a !== document.body && up < 3; a = parentOf(a), up++) {
        name(textsIn(a, el).first);
      }
    };
    // A control with no name of its own: the text right beside it, then its kind (its role
    // as a word: "checkbox@Buy milk" is the row's only checkbox)
    if (!dom.accName(el) && action !== 'click') for (const t of textsBeside(el, dom)) name(t);
    const role = dom.roleOf(el);
    if (!dom.accName(el) && role && (ROLE_WORDS[role] || []).includes(role)) name(role);
    if (action === 'check') nextTo();
    for (const a of TEST_ID_ATTRS) name(human(el.getAttribute(a)));
    if (el.id && !looksGenerated(el.id)) name(human(el.id));
    name(human(el.getAttribute('name')));
    nextTo();
    // Candidate regions, by kind then nearness: headings, names and title-like texts, ids,
    // then any first text (texts without letters, like a price, last).
    const tiers = [[], [], [], [], []];
    const region = (k, v) => { v = norm(v); if (usable(v)) tiers[k].push(v); };
    let depth = 0;
    for (let a = parentOf(el); a && a !== document.body && depth < 12; a = parentOf(a), depth++) {
      region(0, headingIn(a));
      region(1, a.getAttribute('aria-label'));
      const { first, title, words } = textsIn(a, el);
      region(1, title);
      if (a.id && !looksGenerated(a.id)) region(2, human(a.id));
      region(/\p{L}/u.test(first) ? 3 : 4, first);
      region(3, words);
    }
    const regions = [...new Set(tiers.flat())].slice(0, 8);
    chosen.push(el);
    out.push({
      index: chosen.length - 1, action, role: dom.roleOf(el) || null, names, regions,
      group: groupOf(el), description: describeElement(el, dom),
      box: { x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height },
      view: { x: r.x, y: r.y },
    });
  }
  remember(lists, arg.list_id, chosen, 4);
  return out;
}

// Does a rendered locator resolve to exactly the listed element ``arg.index``?
function listed(els, arg) {
  const list = lists.get(arg.list_id);
  return els.length === 1 && !!list && els[0] === list[arg.index];
}

// The index in list ``arg.list_id`` of ``el`` itself, else of the listed control that holds
// it (the button around a clicked icon), else -1 (``pacts record`` names what was used).
function locate(el, arg) {
  const list = lists.get(arg.list_id) || [];
  const exact = list.indexOf(el);
  if (exact >= 0) return exact;
  return list.findIndex((c) => containsComposed(c, el));
}

return {
  scan, gates, verify, check, keptElement, frameInfo, suggest, names, inventory, listed, locate, find, toJson
};
