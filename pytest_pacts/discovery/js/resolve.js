// Resolving one step against the scanned page: levels, regions, ambiguity, locator options.
//
// Levels, best first (SPEC.md §4 order within each tier): every named strategy with an
// exact match, then every named strategy with a whole-word substring match, then
// relational. Exact beats substring because the person wrote the element's name; relational
// comes last because it does not use the name at all. The first level that yields elements
// in scope decides: one element is resolved, several are REPORTED as ambiguous (never "first
// match", SPEC.md §4 "Verification").

const NAME_ACTIONS_LAX = new Set(['click', 'hover', 'focus', 'press']);
const SECTION_TAGS = new Set(['SECTION', 'ARTICLE', 'ASIDE', 'NAV', 'MAIN', 'FORM', 'FIELDSET',
  'DIALOG', 'LI', 'TR', 'TABLE']);
const SECTION_ROLES = new Set(['region', 'article', 'complementary', 'navigation', 'main', 'form',
  'group', 'dialog', 'alertdialog', 'listitem', 'row', 'tabpanel']);
function isSection(el) {
  const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
  return role ? SECTION_ROLES.has(role) : SECTION_TAGS.has(el.tagName);
}
const RELATIONAL_ACTIONS = new Set(['click', 'fill', 'type', 'check', 'uncheck', 'select']);

function makeResolver(dom, elements, strategies, regions, args) {
  const order = args.strategies.filter((s) => strategies[s]);
  const relationalOn = args.strategies.includes('relational');
  const score = (s, tier) => Math.round(args.confidence[s] * (tier === 1 ? args.loose : 1) * 1000) / 1000;
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
  const lowText = new Map();
  const lowTextOf = (el) => { if (!lowText.has(el)) lowText.set(el, dom.textOf(el).toLowerCase()); return lowText.get(el); };

  const kids = (e) => [...e.children, ...(e.shadowRoot ? e.shadowRoot.children : [])];
  function deepest(els) {
    return els.filter((e) => !els.some((o) => o !== e && containsComposed(e, o)));
  }
  // The deepest elements whose text mentions ``text``.
  function mentions(text) {
    const needle = low(text);
    return elements.filter((e) => lowTextOf(e).includes(needle)
      && !kids(e).some((c) => lowTextOf(c).includes(needle)));
  }
  function anchorsOf(scope) {
    if (!scope.anchors) {
      const hs = regions.headingsNamed(scope.region);
      scope.anchors = hs.length
        ? hs.map((h) => ({ el: h, how: { how: 'heading', heading: dom.accName(h) } }))
        : mentions(scope.region).map((m) => ({ el: m, how: 'text' }));
    }
    return scope.anchors;
  }

  // From each anchor (a heading or a mention of the region's text) up to the smallest
  // container that holds any of ``els``: SPEC.md §3 "the product card that mentions the
  // backpack". A container holding exactly one of them scopes it; more is crowded.
  function nearestGroups(els, anchors) {
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
      // form next to the Payment section.
      for (let a = anchor.el; a && a.tagName !== 'HTML'; a = parentOf(a)) {
        const inside = els.filter((e) => chains.get(e).has(a));
        if (inside.length) { groups.push({ container: a, how: anchor.how, els: inside }); break; }
        if (isSection(a)) break;
      }
    }
    return groups;
  }

  // Keep the elements the region allows (SPEC.md §3 regions; §4 "ambiguity is resolved by
  // the region").
  function applyScope(els, scope) {
    if (!scope) return { els, where: new Map() };
    const where = new Map();
    if (scope.structured.size) {
      for (const e of els) {
        for (let a = parentOf(e); a; a = parentOf(a)) {
          if (scope.structured.has(a)) { where.set(e, { container: a, how: scope.structured.get(a) }); break; }
        }
      }
      return { els: els.filter((e) => where.has(e)), where };
    }
    const groups = nearestGroups(els, anchorsOf(scope));
    const single = groups.filter((g) => g.els.length === 1);
    for (const g of single) if (!where.has(g.els[0])) where.set(g.els[0], { container: g.container, how: g.how });
    if (single.length || !groups.length) return { els: [...where.keys()], where };
    const min = Math.min(...groups.map((g) => g.els.length));
    return { els: [...new Set(groups.filter((g) => g.els.length === min).flatMap((g) => g.els))], where, crowded: true };
  }

  // The only action-compatible element near ``context`` (SPEC.md §4 relational: "the only
  // checkbox in the row that mentions 'Buy milk'"). It must not carry a name of its own
  // that contradicts the step ("Delete" never resolves to the row's only "Edit" button).
  function relational(step, scope) {
    if (!relationalOn || !RELATIONAL_ACTIONS.has(step.action)) return [];
    const context = step.region || step.element;
    if (!norm(context)) return [];
    const q = makeQuery(step.element);
    const fits = elements.filter((e) => compatibility(e, step.action, dom.roleOf, true) === 2 && !dom.isHidden(e));
    const conflicts = (e) => {
      const name = dom.accName(e);
      if (!name || tokens(name).some((t) => q.tokens.includes(t))) return false;
      return !low(context).includes(low(name));
    };
    const local = scope || { region: context, structured: new Map() };
    const { els, where } = applyScope(fits, local);
    return els.filter((e) => where.has(e) && !conflicts(e)).map((e) => ({ el: e, where: { ...where.get(e), description: context } }));
  }

  function countMatching(strategy, spec, region) {
    let n = 0;
    const same = strategy === 'relational'
      ? (el) => (spec.role ? dom.roleOf(el) === spec.role && !dom.isHidden(el) : el.matches(spec.css))
      : (el) => strategies[strategy].same(el, spec);
    for (const el of elements) {
      if (same(el) && (!region || regions.within(el, region)) && ++n > 1) return n;
    }
    return n;
  }

  // Every way to render the chosen element that singles it out on this page, primary first.
  function options(el, primary, q, where, regionText) {
    const raw = [primary];
    for (const row of rows()) {
      if (row.el !== el) continue;
      const tier = strategies[row.s].compare(row.p, q);
      const derived = ['test_id', 'role_name', 'css'].includes(row.s);
      if (tier || derived) raw.push({ strategy: row.s, tier, spec: strategies[row.s].spec(row.key, el) });
    }
    const rank = (o) => (o === primary ? -1 : (2 - o.tier) * 100 + order.indexOf(o.strategy));
    raw.sort((a, b) => rank(a) - rank(b));
    const out = [];
    const seen = new Set();
    for (const o of raw) {
      const id = JSON.stringify([o.strategy, o.spec]);
      if (seen.has(id)) continue;
      seen.add(id);
      const variants = where ? regions.specs(where.container, where.how, where.description || regionText) : [null];
      const region = variants.find((r) => countMatching(o.strategy, o.spec, r) === 1);
      if (region === undefined) continue;
      const description = where ? (where.description || regionText) : null;
      out.push({
        strategy: o.strategy,
        confidence: o.tier ? score(o.strategy, o.tier) : args.confidence[o.strategy],
        ...o.spec,
        in_shadow: inShadow(el),
        region: region ? { description, matched_by: typeof where.how === 'string' ? where.how : where.how.how, ...region } : null,
      });
    }
    return out;
  }

  function candidatesOf(els, strategy, tier) {
    // Say where each candidate is, so a person can pick the region that separates them.
    const context = (e) => {
      for (let a = parentOf(e); a && a.tagName !== 'BODY'; a = parentOf(a)) {
        const t = dom.textOf(a);
        if (t === dom.textOf(e)) continue;
        return ` in ${cssVariants(a)[0]} "${t.length > 50 ? `${t.slice(0, 49)}…` : t}"`;
      }
      return '';
    };
    return els.slice(0, 8).map((e) => ({
      description: describeElement(e, dom) + context(e), score: score(strategy, tier || 2), strategy,
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
  const controlCache = new Map();
  function controlInside(el) {
    if (controlCache.has(el)) return controlCache.get(el);
    let found = null;
    if (!isClickable(el, dom.roleOf, true) && el.childElementCount) {
      const inside = elements.filter((e) => e !== el && containsComposed(el, e)
        && isClickable(e, dom.roleOf, true) && !dom.isHidden(e));
      const outer = inside.filter((e) => !inside.some((o) => o !== e && containsComposed(o, e)));
      if (outer.length === 1) found = outer[0];
    }
    controlCache.set(el, found);
    return found;
  }
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
      const attr = { aria_label: 'aria-label', title: 'title', alt: 'alt' }[k.field];
      specs = [{ css: `${tag(c)}[${attr}=${cssString(k.value)}]` }];
    }
    return { container: c, how: { how, specs } };
  }

  function resolve(step) {
    const q = makeQuery(step.element);
    if (!q.bare && !norm(step.region)) {
      return { status: 'none', rank: null, message: 'the step names no element' };
    }
    const compat = new Map();
    const compatOf = (el) => {
      if (!compat.has(el)) compat.set(el, compatibility(el, step.action, dom.roleOf));
      return compat.get(el);
    };
    const scope = step.region
      ? { region: step.region, structured: regions.structured(step.region) } : null;
    const found = (rank, strategy, tier, el, spec, where) => ({
      status: 'found', rank, strategy, el, where,
      options: options(el, { strategy, tier, spec }, q, where, step.region),
      rivals: rivalsOf(el),
    });
    // The other elements the step's words also match ("Confirm password" for "Password"),
    // by name: they were on the page as *different* elements when this one was verified, so
    // healing must never take one of them for it once it is gone (a wrong heal otherwise).
    const rivalsOf = (el) => {
      const own = low(dom.accName(el));
      const out = new Set();
      for (const h of hits) {
        const o = h.el;
        if (o === el || containsComposed(o, el) || containsComposed(el, o) || compatOf(o) < 1) continue;
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
    for (const row of rows()) {
      const tier = strategies[row.s].compare(row.p, q);
      if (!tier) continue;
      let control = pointer && NAMED_BY_ITSELF.has(row.s) ? controlInside(row.el) : null;
      // a container whose name is its control's own name (a table's row header <th> named
      // by the link it holds) is not named by itself: the control matches on its own
      if (control && low(dom.accName(control)) === low(dom.accName(row.el))) control = null;
      if (control) hits.push({ ...row, tier, el: control, via: containerOf(row) });
      else hits.push({ ...row, tier });
    }
    const passes = NAME_ACTIONS_LAX.has(step.action) ? [2, 1] : [2];
    let rank = 0;
    let crowdedAt = null;
    for (const pass of passes) {
      for (const tier of [2, 1]) {
        for (const s of order) {
          rank += 1;
          let rows = hits.filter((h) => h.s === s && h.tier === tier);
          if (!rows.length) continue;
          if (strategies[s].deepest) {
            const keep = new Set(deepest(rows.map((r) => r.el)));
            rows = rows.filter((r) => keep.has(r.el));
          }
          rows = rows.filter((r) => (pass === 2 ? compatOf(r.el) === 2 : compatOf(r.el) >= 1));
          let els = [...new Set(rows.map((r) => r.el))];
          const shown = els.filter((e) => !dom.isHidden(e));
          if (shown.length) els = shown;
          const scoped = applyScope(els, scope);
          if (!scoped.els.length) continue;
          if (scoped.els.length > 1) {
            if (scoped.crowded && !crowdedAt) crowdedAt = { rank, els: scoped.els, s, tier };
            if (scoped.crowded) continue;
            return ambiguous(rank, s, tier, scoped.els);
          }
          const el = scoped.els[0];
          const row = rows.find((r) => r.el === el);
          if (row.via) {
            const spec = dom.roleOf(el) ? { role: dom.roleOf(el) } : { css: cssVariants(el).slice(-2)[0] };
            return found(rank, 'relational', 2, el, spec, { ...row.via, description: step.element });
          }
          return found(rank, s, tier, el, strategies[s].spec(row.key, el), scoped.where.get(el));
        }
      }
    }
    rank += 1;
    const rel = relational(step, scope);
    if (rel.length === 1) {
      const { el, where } = rel[0];
      const spec = dom.roleOf(el) ? { role: dom.roleOf(el) } : { css: cssVariants(el).slice(-2)[0] };
      return found(rank, 'relational', 2, el, spec, where);
    }
    if (rel.length > 1) return ambiguous(rank, 'relational', 2, rel.map((r) => r.el));
    if (crowdedAt) return ambiguous(crowdedAt.rank, crowdedAt.s, crowdedAt.tier, crowdedAt.els);
    let regionNote = '';
    let regionMissing = false;
    if (scope) {
      const located = scope.structured.size || elements.some((e) => lowTextOf(e).includes(low(step.region)));
      regionMissing = !located;
      regionNote = located ? ` inside "${step.region}"`
        : ` (the region "${step.region}" matches no container and no text on this page)`;
    }
    const message = `no element matches "${step.element}" for ${step.action}${regionNote}`;
    return { status: 'none', rank: null, message, region_missing: regionMissing };
  }

  // Is ``el`` (an iframe) inside ``region``? Then the region holds the whole frame:
  // ``Card number@Payment`` with the field in the iframe of the Payment section.
  function holds(region, el) {
    return applyScope([el], { region, structured: regions.structured(region) }).els.length === 1;
  }

  return { resolve, holds };
}

function fingerprintOf(el, dom) {
  const r = el.getBoundingClientRect();
  const w = el.ownerDocument.defaultView;
  const ancestors = [];
  for (let a = parentOf(el); a && a.tagName !== 'BODY' && ancestors.length < 6; a = parentOf(a)) {
    ancestors.push(cssVariants(a)[0]);
  }
  const neighbours = [el.previousElementSibling, el.nextElementSibling, parentOf(el)]
    .map((n) => (n ? dom.textOf(n).slice(0, 80) : ''))
    .filter(Boolean);
  const testIds = {};
  for (const a of TEST_ID_ATTRS) if (el.getAttribute(a)) testIds[a] = el.getAttribute(a);
  const attr = (n) => el.getAttribute(n);
  return {
    tag: tag(el), id: el.id || null, name: attr('name'), type: attr('type'), role: dom.roleOf(el),
    accessible_name: dom.accName(el), label: dom.labelTexts(el)[0] || null,
    placeholder: attr('placeholder'), text: dom.textOf(el).slice(0, 200), test_ids: testIds,
    classes: [...el.classList], href: attr('href'), alt: attr('alt'), title: attr('title'),
    ancestor_path: ancestors, neighbour_text: neighbours,
    bounding_box: { x: r.x + w.scrollX, y: r.y + w.scrollY, width: r.width, height: r.height },
    in_shadow: inShadow(el),
  };
}

// Names a person can see on elements the action can use, closest to ``element`` first:
// character-bigram Dice of the names without case, spacing or punctuation ("Shoping Cart"
// ~ "Shopping Cart"), or every word of the step in the name. Each name once.
function suggestNames(dom, elements, element, action, limit) {
  const squash = (s) => tokens(s).join('');
  const want = squash(element);
  if (!want) return [];
  const grams = (s) => { const m = new Map(); for (let i = 0; i + 1 < s.length; i++) m.set(s.slice(i, i + 2), (m.get(s.slice(i, i + 2)) || 0) + 1); return m; };
  const W = grams(want);
  const dice = (s) => {
    const G = grams(s);
    let inter = 0; let total = 0;
    for (const [g, n] of W) { inter += Math.min(n, G.get(g) || 0); total += n; }
    for (const n of G.values()) total += n;
    return total ? (2 * inter) / total : 0;
  };
  const words = tokens(element);
  const best = new Map();
  for (const el of elements) {
    if (compatibility(el, action, dom.roleOf, true) < 2 || dom.isHidden(el)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const names = [dom.accName(el), ...dom.labelTexts(el), norm(el.getAttribute('placeholder'))];
    if (isClickable(el, dom.roleOf, true)) names.push(dom.textOf(el));
    for (const name of names) {
      if (!name || name.length > 80) continue;
      const s = squash(name);
      if (!s) continue;
      const t = tokens(name);
      const score = Math.max(dice(s), words.length && words.every((w) => t.includes(w)) ? 0.7 : 0);
      const key = low(name);
      if (score >= 0.6 && (!best.has(key) || best.get(key).score < score)) best.set(key, { name, score });
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit).map((b) => b.name);
}
