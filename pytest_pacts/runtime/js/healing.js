// The in-page half of similarity relocation (rung 5, docs/healing.md).
//
// Loaded after discovery's dom.js, actionability.js, scan.js and resolve.js, so roles,
// accessible names, text, action compatibility, locator strategies and fingerprints are
// computed exactly as discovery computes them (one way to do each thing: the two never disagree).
//
// Only VISIBLE elements are candidates (a hidden element would be a false pass, as Healenium's are)
// and only the attributes of the published stability study are read: an attribute outside
// the fingerprint (a benchmark's marker, say) can never influence a score.

// Imports (see runtime/scripts.py: one module per file).
const {
  TEST_ID_ATTRS, norm, low, dice, tokens, parentOf, closestUp, containsComposed, inShadow, allElements, tag,
  makeDom, compatibility, describeElement, toJson, sameBesideCounts, isRendered, visibleBox, remember, hitTarget, pointOf
} = modules.dom;
const { viewRect, sameRect, nextFrame, callbacksRun, receivesEvents, layerOf, isDialog, gateItem, checkActionable, blocks } = modules.actionability;
const { resetPrepared, readPage, cssVariants, structuralPath, address, addressCount } = modules.scan;
const { pageChanged } = modules.watch;
const { fingerprintOf } = modules.resolve;

const healRegistry = new Map();  // heal id -> ranked elements, for identity checks
// The element ``arg.index`` of ranking ``arg.heal_id``, or null.
const registered = (arg) => (healRegistry.get(arg.heal_id) || [])[arg.index] || null;

// Common UI wordings that mean the same action (the "wording/synonym" drift). Generic
// English interface vocabulary, no site's own words.
const SYNONYMS = [
  ['log in', 'login', 'sign in', 'signin'], ['log out', 'logout', 'sign out', 'signout'],
  ['sign up', 'signup', 'register', 'create account'], ['submit', 'send'],
  ['delete', 'remove'], ['next', 'continue', 'proceed'], ['close', 'dismiss'],
  ['search', 'find'], ['buy', 'purchase'], ['basket', 'cart', 'bag'], ['ok', 'okay'],
  ['cancel', 'abort'], ['finish', 'complete', 'done'], ['back', 'return'],
  ['email', 'e mail'], ['save', 'store'], ['edit', 'modify'], ['help', 'support'],
];
const SYN = new Map();
SYNONYMS.forEach((group, i) => group.forEach((w) => SYN.set(w.replace(/\s+/g, ''), `§${i}`)));

function canonWords(s) {
  const words = tokens(s);
  const out = [];
  for (let i = 0; i < words.length; i++) {
    // two-word phrases first ("sign in" -> the log-in group)
    const pair = i + 1 < words.length ? SYN.get(words[i] + words[i + 1]) : undefined;
    if (pair) { out.push(pair); i++; continue; }
    out.push(SYN.get(words[i]) || words[i]);
  }
  return out;
}

// bigrams without case or spacing
const squashedDice = (a, b) => dice(low(a).replace(/\s+/g, ''), low(b).replace(/\s+/g, ''));
function setDice(a, b) {
  if (!a.length || !b.length) return 0;
  const B = [...b];
  let inter = 0;
  for (const w of a) { const j = B.indexOf(w); if (j >= 0) { inter++; B.splice(j, 1); } }
  return (2 * inter) / (a.length + b.length);
}

// Token-level and fuzzy text similarity: case and spacing never matter ("Add to cart" ~
// "Add to Cart", "Log in" ~ "Login"), synonyms count as the same word, counts are data
// ("5 hidden tables" ~ "1 hidden table"), and typo-level changes keep partial credit
// through character bigrams.
function textSim(a, b) {
  if (!a || !b) return 0;
  if (low(a) === low(b)) return 1;
  const A = canonWords(a); const B = canonWords(b);
  if (A.join('') === B.join('')) return A.length && A.some((w) => w.startsWith('§')) ? 0.9 : 0.95;
  if (sameBesideCounts(a, b)) return 0.9;
  return Math.max(setDice(A, B), 0.8 * squashedDice(a, b));
}
// Identifier-like values: "login-button" ~ "loginButton" ~ "login_btn" share tokens.
function tokenSim(a, b) {
  if (!a || !b) return 0;
  if (a === b) return 1;
  return Math.max(setDice(tokens(a), tokens(b)), 0.8 * squashedDice(a, b));
}
function classSim(a, b) {
  const A = [...new Set(a.flatMap((c) => tokens(c)))];
  const B = [...new Set(b.flatMap((c) => tokens(c)))];
  return setDice(A, B);
}
// Longest common subsequence of the ancestor chains: a wrapper added keeps most of it.
function lcsSim(a, b) {
  if (!a.length || !b.length) return 0;
  const m = a.length; const n = b.length;
  const d = Array.from({ length: m + 1 }, () => new Array(n + 1).fill(0));
  for (let i = 1; i <= m; i++) for (let j = 1; j <= n; j++)
    d[i][j] = a[i - 1] === b[j - 1] ? d[i - 1][j - 1] + 1 : Math.max(d[i - 1][j], d[i][j - 1]);
  return d[m][n] / Math.max(m, n);
}

const BUTTONISH = new Set(['button', 'input:submit', 'input:button', 'input:reset', 'input:image', 'a']);
function kindOf(tagName, type) {
  return tagName === 'input' ? `input:${(type || 'text').toLowerCase()}` : tagName;
}

// Score one element against the stored fingerprint: weighted attributes, normalised by
// the weights of the attributes the stored fingerprint has (an attribute it never had
// cannot count for or against a candidate). Returns {score, parts}.
const DESCRIBED = 0.9;  // a tooltip's words, against the words an element shows
function similarity(fp, c, w) {
  const parts = {};
  let sum = 0; let total = 0;
  const add = (name, weight, present, sim) => {
    if (!present) return;
    parts[name] = Math.round(sim * 1000) / 1000;
    sum += weight * sim; total += weight;
  };
  const k1 = kindOf(fp.tag, fp.type); const k2 = kindOf(c.tag, c.type);
  add('type', w.type, true, k1 === k2 ? 1 : (fp.tag === c.tag || (BUTTONISH.has(k1) && BUTTONISH.has(k2) && fp.role === c.role) ? 0.5 : 0));
  add('name', w.name, !!fp.name, tokenSim(fp.name, c.name));
  // A control's tooltip is words it carries for a person pointing at it, weaker than words
  // it shows: an icon link named by its image and described by its ``title`` (HTML-AAM's
  // accessible description) once showed them as its text (Radicale 3.9.0's "➕").
  add('text', w.text, !!fp.text, Math.max(textSim(fp.text, c.text), DESCRIBED * textSim(fp.text, c.title)));
  add('label', w.text, !!fp.label, textSim(fp.label, c.label || c.accessible_name));
  add('placeholder', w.text, !!fp.placeholder, textSim(fp.placeholder, c.placeholder || c.accessible_name));
  add('id', w.id, !!fp.id, tokenSim(fp.id, c.id));
  const ids = Object.entries(fp.test_ids || {});
  add('test_id', w.test_id, ids.length > 0, ids.length ? Math.max(...ids.map(([a, v]) => (c.test_ids[a] === v ? 1 : Math.max(0, ...Object.values(c.test_ids).map((x) => tokenSim(v, x) * 0.9))))) : 0);
  add('role', w.role, !!fp.role, fp.role === c.role ? 1 : 0);
  const own = [fp.text, fp.label, fp.placeholder].filter(Boolean).map(low);
  add('aria_label', w.aria_label, !!fp.accessible_name && !own.includes(low(fp.accessible_name)), textSim(fp.accessible_name, c.accessible_name));
  add('alt_title', w.aria_label, !!(fp.alt || fp.title), Math.max(textSim(fp.alt, c.alt), textSim(fp.title, c.title)));
  add('class', w.class, fp.classes.length > 0, classSim(fp.classes, c.classes));
  // A link's recorded destination (``address``: same origin, no token) still on exactly one
  // link counts for that link; another address counts neither way (routes move between
  // versions), and a button has none (another element family).
  add('href', w.href, ['a', 'area'].includes(c.tag) && !!fp.href && c.href === fp.href
    && address(fp.href, document) !== null && addressCount(fp.href, document) === 1, 1);
  add('ancestors', w.ancestors, fp.ancestor_path.length > 0, lcsSim(fp.ancestor_path, c.ancestor_path));
  add('neighbours', w.neighbours, fp.neighbour_text.length > 0, setDice(fp.neighbour_text.flatMap(tokens), c.neighbour_text.flatMap(tokens)));
  if (fp.bounding_box && c.bounding_box) {
    const a = fp.bounding_box; const b = c.bounding_box;
    const dist = Math.hypot(a.x + a.width / 2 - b.x - b.width / 2, a.y + a.height / 2 - b.y - b.height / 2);
    const size = Math.min(a.width * a.height, b.width * b.height) / Math.max(a.width * a.height, b.width * b.height, 1);
    add('position', w.position, true, 0.7 * Math.exp(-dist / 250) + 0.3 * size);
  }
  // The strongest attribute of the element's own (not of its surroundings): a neighbour
  // that merely sits where the element was shares none (Healenium's wrong-neighbour heal).
  // A radio's or checkbox's ``name`` names its group, not the element: not an anchor.
  const grouped = ['input:radio', 'input:checkbox'].includes(k1);
  const anchor = Math.max(0, ...IDENTITY.filter((n) => n in parts && !(grouped && n === 'name')).map((n) => parts[n]));
  return { score: total ? sum / total : 0, parts, anchor };
}
const IDENTITY = ['name', 'text', 'label', 'placeholder', 'id', 'test_id', 'aria_label', 'alt_title', 'href'];

// Regions scope a step: "Delete@Draft B" is never healed to Draft A's button.
// With the region's containers resolved (``regions``), a candidate must sit inside one;
// when they cannot be resolved any more, the nearest ancestor that mentions the region's
// text must hold no other element with the candidate's role and name.
function inRegion(el, args, dom) {
  if (args.regions && args.regions.length) return args.regions.some((r) => containsComposed(r, el));
  if (!args.region_text) return true;
  const needle = low(args.region_text);
  const role = dom.roleOf(el); const name = dom.accName(el);
  const a = closestUp(parentOf(el), (c) => c.tagName === 'HTML' || low(dom.textOf(c)).includes(needle));
  if (!a || a.tagName === 'HTML') return false;
  const twins = allElements(a).filter((e) => e !== el && dom.roleOf(e) === role && dom.accName(e) === name && !dom.isHidden(e));
  return twins.length === 0;
}

// args: {heal_id, fp, action, weights, limit, regions?, region_text?}. Every visible element
// whose type fits the action (and inside the step's region) is scored; the best ``limit``
// come back and are kept for identity checks.
function rank(args) {
  resetPrepared();
  const dom = makeDom(document);
  const fp = args.fp;
  const scored = [];
  let considered = 0;
  for (const el of allElements(document)) {
    if (el.tagName === 'HTML' || el.tagName === 'BODY') continue;
    const fits = compatibility(el, args.action, dom.roleOf, true) === 2;
    if (!fits && !(['click', 'hover', 'focus'].includes(args.action) && tag(el) === fp.tag)) continue;
    if (dom.isHidden(el) || !visibleBox(el)) continue;
    if (!inRegion(el, args, dom)) continue;
    considered++;
    const c = fingerprintOf(el, dom);
    const { score, parts, anchor } = similarity(fp, c, args.weights);
    scored.push({ el, score, parts, anchor });
  }
  scored.sort((a, b) => b.score - a.score);
  const top = scored.slice(0, args.limit);
  remember(healRegistry, args.heal_id, top.map((s) => s.el), 8);
  return {
    considered,
    candidates: top.map((s, index) => ({
      index, score: Math.round(s.score * 10000) / 10000, parts: s.parts, anchor: s.anchor,
      description: describeElement(s.el, dom),
      fits: compatibility(s.el, args.action, dom.roleOf, false) === 2,
    })),
  };
}

// Every way to render a ranked element that is unique on this page, most semantic first
// (a relocation yields a structured locator; css only when nothing semantic is unique,
// the last resort the CSS path discovery falls back to, ``structuralPath``), plus the
// element's fresh fingerprint.
function locate(args) {
  const el = registered(args);
  if (!el || !el.isConnected) return { specs: [], fingerprint: null };
  const { dom, elements, strategies } = readPage();
  const specs = [];
  for (const s of args.order) {
    const st = strategies[s];
    if (!st) continue;
    for (const key of st.keys(el)) {
      const spec = st.spec(key, el);
      if (st.same(el, spec) && firstTwo(elements, st, spec).length === 1) specs.push({ strategy: s, ...spec, in_shadow: inShadow(el) });
    }
  }
  if (!inShadow(el)) {
    for (const css of [...cssVariants(el), structuralPath(el)]) {
      if (css && document.querySelectorAll(css).length === 1) { specs.push({ strategy: 'css', css, in_shadow: false }); break; }
    }
  }
  return { specs, fingerprint: fingerprintOf(el, dom) };
}

// The first two elements strategy ``st`` says are ``spec`` (two: it is not unique).
function firstTwo(elements, st, spec) {
  const out = [];
  for (const e of elements) if (st.same(e, spec) && out.push(e) > 1) break;
  return out;
}

// Is what a rendered Playwright locator resolves to exactly the ranked element?
function isSame(els, arg) {
  return { count: els.length, same: els.length === 1 && els[0] === registered(arg) };
}

// The similarity of whatever a locator resolves to, and where it sits in a ranking.
function scoreOf(els, arg) {
  if (els.length !== 1) return { count: els.length, score: 0, fingerprint: null };
  resetPrepared();
  const dom = makeDom(document);
  const fingerprint = fingerprintOf(els[0], dom);
  const sim = arg.fp ? similarity(arg.fp, fingerprint, arg.weights) : null;
  return { count: 1, score: sim ? sim.score : null, anchor: sim ? sim.anchor : null, fingerprint,
    description: describeElement(els[0], dom), parts: sim ? sim.parts : {} };
}

// Several structured locators resolved in one round trip, as discovery estimates
// uniqueness (``locate`` above): an element matches a spec when the strategy's ``same``
// says so, over every element of the document (open shadow roots included). Playwright
// resolves the one a rung goes on to use (``probe`` with ``expect``), so the estimate only
// chooses. arg: {heal_id, specs: [{strategy, ...fields}], fp, weights}; per spec: {count,
// index} (``index``: the element's place in the registry under ``heal_id``, when exactly
// one), or {supported: false} for a strategy without an in-page rendering. ``elements``:
// ``scoreOf``'s answer for each registered element.
function resolveAll(arg) {
  const { dom, elements, strategies } = readPage();
  const found = [];
  const results = arg.specs.map((spec) => {
    const st = strategies[spec.strategy];
    if (!st || spec.exact === false) return { supported: false };
    const matches = firstTwo(elements, st, spec);
    if (matches.length !== 1) return { supported: true, count: matches.length };
    let index = found.indexOf(matches[0]);
    if (index < 0) index = found.push(matches[0]) - 1;
    return { supported: true, count: 1, index };
  });
  remember(healRegistry, arg.heal_id, found, 8);
  return { results, elements: found.map((el) => scoreOf([el], arg)) };
}

// The point of the gate that stops an action, as the executor's ``blocking_point`` decides
// (``gate``: {observes, seen_by_wait, no_enabled}); null when none does.
function blockingPoint(snapshot, gate) {
  return snapshot.points.find((p) => blocks(p, gate.observes, gate.seen_by_wait, gate.no_enabled)) || null;
}

// One candidate locator checked in one round trip (its matches are ``els``): what it
// resolves to and its similarity (``scoreOf``); for exactly one element, the five-point
// gate, and when only its box is moving, the wait for a stable box and the gate again (as
// ``gate_evidence`` does); then, when it passes and ``arg.rank`` is given, where the
// recorded fingerprint's ranking of the page (or of the step's region) puts it.
// arg: {fp, weights, gate: {action, regions, in_shadow, observes, seen_by_wait, no_enabled,
// timeout_ms} | null (gated already), rank: {heal_id, action, limit, regions, region_text} | null,
// expect?: {heal_id, index}: the element ``resolveAll`` chose; another one is answered ``other``,
// min_score?: a similarity below it is answered ``below``, without the gate}.
async function probe(els, arg) {
  const out = scoreOf(els, arg);
  if (els.length !== 1) return out;
  if (arg.expect && els[0] !== registered(arg.expect)) {
    out.other = true;  // not the element the in-page estimate chose (``resolveAll``)
    return out;
  }
  // a candidate the rung would refuse for its similarity anyway is not gated
  if (arg.min_score != null && out.score !== null && out.score < arg.min_score) {
    out.below = true;
    return out;
  }
  const dom = makeDom(document);
  const g = arg.gate;
  if (g === null) return ranked(els, arg, out);  // gated by the caller (discovery, just now)
  // "stable" is left to the step's gate (the healed locator is gated again right before the
  // action), so a candidate that passes costs no animation frame; one that fails is measured
  // in full, and when only its box is moving (a menu sliding in), waited for: judged
  // mid-animation it could lose to a worse candidate checked once the animation is over.
  let gate;
  const gated = async (still) => { [gate] = await checkActionable([gateItem(els, g, still)], dom); return blockingPoint(gate, g); };
  let blocked = await gated(false);
  if (blocked) blocked = await gated(true);
  if (blocked && blocked.code === 'unstable') {
    await stable(els, { timeout_ms: g.timeout_ms });
    // replaced while it moved: the caller resolves the locator again
    if (!els[0].isConnected) { out.stale = true; return out; }
    blocked = await gated(true);
  }
  out.gate = gate;
  return blocked ? out : ranked(els, arg, out);
}
function ranked(els, arg, out) {
  if (!arg.rank || !arg.fp || out.score === null) return out;
  const r = rank({ ...arg.rank, fp: arg.fp, weights: arg.weights });
  const top = healRegistry.get(arg.rank.heal_id) || [];
  out.ranking = {
    inside: inside(els, arg.rank),
    same: top.length > 0 && top[0] === els[0],
    candidates: r.candidates,
  };
  return out;
}

// A rendering of a ranked element checked in one round trip: does it resolve to exactly
// that element (``isSame``), and if so, the five-point gate on it (``arg.gate`` as above).
async function sameGate(els, arg) {
  const out = isSame(els, arg);
  if (!out.same) return out;
  const g = arg.gate;
  const dom = makeDom(document);
  [out.gate] = await checkActionable([gateItem(els, g, false)], dom);
  return out;
}

// Rung 5 runs only after the page settled (a half-rendered page scores wrongly): loaded, and
// no DOM change for two animation frames, as observed. From the moment this module is built
// (the API's first call: js/realm.js, ``lazy``), an observer notes every change and counts
// the animation frames after the last one, until two have passed (frames are counted only
// then: a still page costs nothing). Before that, the document's change watch, there from
// its first moment (watch.js), has counted them: two real frames without a change there
// count too. So a page that has been still since the earlier rungs is settled at once, and
// one that keeps changing is waited for frame by frame.
const quiet = { frames: 0, counting: false };
function countQuietFrames() {
  if (quiet.counting) return;
  quiet.counting = true;
  // a timer standing in for a frame on a shown document (a starved renderer) saw nothing:
  // it is not a quiet frame (as the gate's check counts them, actionability.js)
  const step = () => nextFrame().then((f) => {
    if (f !== 'timer' || document.visibilityState === 'hidden') quiet.frames += 1;
    if (quiet.frames < 2) { step(); return; }
    quiet.counting = false;
  });
  step();
}
new MutationObserver((records) => { if (pageChanged(records)) { quiet.frames = 0; countQuietFrames(); } })
  .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
countQuietFrames();
// the document's change watch (watch.js), when it has seen two frames without a change
const watched = (w = globalThis.__pacts_changes) => !!w && (w.flush(), w.frames >= 2);
// Resolves true once the document is complete and two frames have passed without a DOM
// change, false at ``timeout_ms``. One animation frame is always let through first, so the
// work a page has queued for its next frame (a render after a click) is seen happening.
// Without callbacks (scripts disabled) nothing can change the DOM and no frame is counted:
// loaded is settled.
async function settled(arg) {
  if (!callbacksRun()) return document.readyState === 'complete';
  const start = performance.now();
  if (arg.timeout_ms > 0) await nextFrame();
  for (;;) {
    if (document.readyState === 'complete' && (quiet.frames >= 2 || watched())) return true;
    if (performance.now() - start >= arg.timeout_ms) return false;
    await new Promise((resolve) => { setTimeout(resolve, 8); });
  }
}

// Playwright's "stable", waited for: the same box on two consecutive animation frames.
async function stable(els, arg) {
  const el = els[0];
  if (!el) return false;
  const start = performance.now();
  let prev = null;
  while (performance.now() - start < arg.timeout_ms) {
    await nextFrame();
    if (!el.isConnected) return false;
    const r = viewRect(el);
    if (prev && sameRect(prev, r)) return true;
    prev = r;
  }
  return false;
}

// What covers an element at its action point, and whether it is an overlay a person would
// dismiss: a fixed/sticky layer or a dialog that names itself as cookie/consent/privacy or
// is a (modal) dialog. Generic words only (no site-specific hacks).
const OVERLAY_WORDS = new Set(['cookie', 'cookies', 'consent', 'gdpr', 'privacy', 'banner',
  'dialog', 'modal', 'popup', 'overlay', 'notice', 'interstitial']);
const ACCEPT_WORDS = [['accept'], ['agree'], ['allow'], ['got', 'it'], ['ok'], ['okay'],
  ['i', 'understand'], ['continue']];
const CLOSE_WORDS = [['close'], ['dismiss'], ['no', 'thanks'], ['×'], ['x'], ['✕']];

function overlayKind(layer, dom) {
  const words = [layer.id, layer.className && String(layer.className), layer.getAttribute('aria-label'),
    dom.accName(layer), ...TEST_ID_ATTRS.map((a) => layer.getAttribute(a))].filter(Boolean).flatMap(tokens);
  const text = tokens(dom.textOf(layer).slice(0, 300));
  if (words.some((w) => OVERLAY_WORDS.has(w)) || text.includes('cookie') || text.includes('cookies')) return 'consent';
  return isDialog(layer) ? 'dialog' : null;
}
// Is the covering layer the app's own content rather than a banner to get rid of? A layer
// that holds form fields a person fills (an edit dialog: Flask-Admin's "Edit Record #2" modal
// with its Name and Email), or that shows the step's own words, is what the app is asking the
// person to deal with; closing it as if it were a cookie banner throws the app's state away.
// Returns why, or null.
function appContent(layer, words, dom) {
  const fields = [...layer.querySelectorAll('input, select, textarea, [contenteditable=""], [contenteditable=true]')]
    .filter((f) => !(f.tagName === 'INPUT' && ['hidden', 'submit', 'button', 'reset', 'image'].includes(f.type))
      && !dom.isHidden(f) && visibleBox(f));
  if (fields.length) return `it holds ${fields.length} form field(s), e.g. ${describeElement(fields[0], dom)}`;
  const want = tokens(words || '');
  if (want.length) {
    const text = tokens(dom.textOf(layer).slice(0, 2000));
    if (text.some((_, i) => want.every((w, j) => text[i + j] === w))) return `it shows the step's words "${words}"`;
  }
  return null;
}
function hasPhrase(name, phrases) {
  const t = tokens(name);
  const raw = norm(name);
  return phrases.some((p) => (p.length === 1 && p[0].length === 1 ? raw === p[0]
    : t.some((_, i) => p.every((w, j) => t[i + j] === w))));
}

// A button inside an alert or status message nested in the layer (WAI-ARIA ``alert``,
// ``status``, ``log``: a dismissible notice shown in a dialog) closes that message, not the
// layer: its "Close" is another component's, never the layer's dismiss control.
const LIVE_ROLES = new Set(['alert', 'status', 'log']);
function inLiveRegion(b, layer) {
  for (let n = parentOf(b); n && n !== layer; n = parentOf(n)) {
    if (n.getAttribute && LIVE_ROLES.has(n.getAttribute('role'))) return true;
  }
  return false;
}

function overlayAt(els, arg) {
  const el = els[0];
  if (!el || els.length !== 1) return { covered: false };
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  // not shown at all (display none, visibility hidden), as the gate's "visible" point means it;
  // ``opacity: 0`` is visible (a custom checkbox's transparent input); the gate's point
  const point = isRendered(el) && pointOf(el);
  if (!point) return { covered: false };
  const hit = hitTarget(el.ownerDocument, ...point);
  if (!hit || receivesEvents(el, hit)) return { covered: false };
  const dom = makeDom(document);
  const layer = layerOf(hit, el);
  if (!layer) return { covered: true, overlay: null, cover: describeElement(hit, dom) };
  const cover = describeElement(layer, dom);
  const own = appContent(layer, arg.words || '', dom);
  if (own) return { covered: true, overlay: null, cover, own };
  const kind = overlayKind(layer, dom);
  if (!kind) return { covered: true, overlay: null, cover };
  const buttons = [...layer.querySelectorAll('button, [role=button], input[type=button], input[type=submit], a[href]')]
    .filter((b) => !dom.isHidden(b) && visibleBox(b) && !inLiveRegion(b, layer));
  const named = (phrases) => buttons.find((b) => hasPhrase(dom.accName(b) || dom.textOf(b), phrases));
  // consent: accepting is what makes it go away for good; a dialog: close it
  const button = kind === 'consent' ? named(ACCEPT_WORDS) || named(CLOSE_WORDS) : named(CLOSE_WORDS) || named(ACCEPT_WORDS);
  healRegistry.set(arg.heal_id, button ? [button, layer] : [layer]);
  return { covered: true, overlay: kind, cover, button: button ? describeElement(button, dom) : null };
}
function inside(els, arg) {
  return els.length === 1 && (arg.regions || []).some((r) => containsComposed(r, els[0]));
}

return {
  rank, locate, isSame, scoreOf, resolveAll, settled, stable, overlayAt, registered, inside, probe, sameGate,
  toJson,  // answers sent as one JSON string (runtime/js/dom.js)
  // pure functions, for the unit tests
  pure: { textSim, tokenSim, classSim, similarity },
};
