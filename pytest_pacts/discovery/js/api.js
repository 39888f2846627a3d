// The installed API (one object per document, see pytest_pacts/discovery/_js.py).

const registry = new Map();  // scan id -> {chosen elements (identity checks), gate promise}

async function scan(args) {
  prepared.clear();
  const dom = makeDom(document);
  const elements = allElements(document);
  const strategies = makeStrategies(dom);
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
    delete r.rivals;
    items.push({ els: [r.el], action: args.steps.find((s) => s.key === r.key).action,
      regions: r.where ? [r.where.container] : [], in_shadow: inShadow(r.el) });
  }
  // The gate needs two animation frames (stability); they run while Python verifies the
  // locators, and gates() collects the snapshots afterwards.
  const gates = checkActionable(items, dom.roleOf);
  registry.set(args.scan_id, { chosen, gates });
  for (const old of [...registry.keys()].slice(0, -8)) registry.delete(old);
  for (const r of results) {
    delete r.el;
    delete r.where;
  }
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

async function check(els, opts) {
  const dom = makeDom(document);
  const [result] = await checkActionable([{ els, action: opts.action, regions: opts.regions || [],
    in_shadow: opts.in_shadow }], dom.roleOf);
  if (opts.identity && els.length === 1 && els[0].isConnected) result.changed = identityChange(els[0], opts.identity, dom);
  return result;
}

// How a parent document names one of its iframes, whether we may look inside it, and
// which of the steps' regions hold it (arg.regions, optional).
function frameInfo(el, arg) {
  let sameOrigin = false;
  try { sameOrigin = !!el.contentDocument; } catch (e) { sameOrigin = false; }
  const root = el.getRootNode();
  const count = (sel) => root.querySelectorAll(sel).length;
  const options = [];
  if (el.id) options.push(`iframe#${CSS.escape(el.id)}`);
  for (const a of ['name', 'title', ...TEST_ID_ATTRS, 'src']) {
    if (el.getAttribute(a)) options.push(`iframe[${a}=${cssString(el.getAttribute(a))}]`);
  }
  let selector = options.find((s) => count(s) === 1);
  if (!selector) selector = `iframe >> nth=${[...root.querySelectorAll('iframe')].indexOf(el)}`;
  let inRegions = [];
  if (arg && arg.regions && arg.regions.length) {
    const dom = makeDom(document);
    const elements = allElements(document);
    const resolver = makeResolver(dom, elements, makeStrategies(dom), makeRegions(dom, elements),
      { strategies: [], confidence: {}, loose: 1 });
    inRegions = arg.regions.map((r) => resolver.holds(r, el));
  }
  return { same_origin: sameOrigin, selector, in_regions: inRegions };
}

// The visible names closest to a step's element that matched nothing ("did you mean"):
// a first run with a misspelt Element cell. arg: {element, action, limit}.
function suggest(arg) {
  prepared.clear();
  const dom = makeDom(document);
  return suggestNames(dom, allElements(document), arg.element, arg.action, arg.limit || 3);
}

// Role and accessible name as the scan computes them (tests compare them with Playwright's).
function names(els) {
  const dom = makeDom(document);
  return els.map((e) => ({ role: dom.roleOf(e), name: dom.accName(e) }));
}

return { scan, gates, verify, check, frameInfo, suggest, names };
