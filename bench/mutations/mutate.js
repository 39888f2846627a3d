// In-page helpers of the healing benchmark (bench/bench_healing.py). Not shipped.
//
// mark(): give every visible interactive element a hidden identity marker
// (data-bench-id), which the mutations preserve and the healer never reads: fingerprints
// and the similarity scorer only read the published attributes (docs/healing.md).
// brittle(id): selectors a brittle cached locator would use, computed BEFORE the mutation.
// mutate(id, kind, words, region): apply one drift to the marked element; false if not
// applicable (region: the css of the step's container, for region_renamed).
// regionNames(id): names a person could give the element's containers through their id or
// class tokens (login_form -> "Login form"), ids first, nearest first.
(() => {
  const SEL = 'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=checkbox], [role=link]';
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const all = (root, out = []) => {
    for (const el of root.querySelectorAll('*')) { out.push(el); if (el.shadowRoot) all(el.shadowRoot, out); }
    return out;
  };
  const byId = (id) => all(document).find((e) => e.getAttribute('data-bench-id') === id);
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && el.checkVisibility({ visibilityProperty: true }); };
  const labelOf = (el) => (el.labels && el.labels[0] ? norm(el.labels[0].textContent) : '');
  const nameOf = (el) => norm(el.getAttribute('aria-label')) || labelOf(el) || (['submit', 'button'].includes(el.type) && el.tagName === 'INPUT' ? el.value : '')
    || norm(el.textContent) || norm(el.getAttribute('placeholder')) || norm(el.getAttribute('title'));
  const actionOf = (el) => {
    if (el.tagName === 'SELECT') return 'select';
    if (el.tagName === 'TEXTAREA') return 'fill';
    if (el.tagName === 'INPUT') {
      const t = (el.getAttribute('type') || 'text').toLowerCase();
      if (t === 'checkbox' || t === 'radio') return 'check';
      if (['submit', 'button', 'reset', 'image'].includes(t)) return 'click';
      return 'fill';
    }
    return el.getAttribute('role') === 'checkbox' ? 'check' : 'click';
  };
  // the region a person would name: the nearest card/row/section heading
  const regionOf = (el) => {
    for (let a = el.parentElement; a && a.tagName !== 'BODY'; a = a.parentElement) {
      const h = a.querySelector('h1, h2, h3, h4, legend');
      if (h && ['ARTICLE', 'LI', 'TR', 'SECTION', 'FIELDSET'].includes(a.tagName) || (h && /card|item|row/.test(a.className))) return norm(h.textContent);
      // a card named by a title element that is not a heading (the demo's product cards)
      const t = /card|item|row/.test(a.className) && a.querySelector('[class*=name], [class*=title]');
      if (t && t !== el) return norm(t.textContent);
    }
    return null;
  };
  function mark() {
    const out = [];
    let n = 0;
    for (const el of all(document)) {
      if (!el.matches(SEL) || !visible(el) || el.closest('[aria-hidden=true]')) continue;
      const id = `b${n++}`;
      el.setAttribute('data-bench-id', id);
      const name = nameOf(el);
      if (!name || name.length > 60) continue;
      out.push({ id, name, action: actionOf(el), region: regionOf(el), shadow: el.getRootNode() instanceof ShadowRoot });
    }
    return out;
  }
  const esc = (s) => CSS.escape(s);
  // the words of an identifier, as discovery splits them (camelCase, snake_case, kebab-case)
  const tokensOf = (s) => s.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  function regionNames(id) {
    const el = byId(id);
    const ids = [];
    const classes = [];
    for (let a = el.parentElement; a && a.tagName !== 'BODY'; a = a.parentElement) {
      if (a.id) ids.push(a.id);
      classes.push(...a.classList);
    }
    const out = [];
    for (const token of [...ids, ...classes]) {
      const w = tokensOf(token);
      // "p0", "r2": ids no person would name a region by
      if (!w.every((x) => /^\p{L}+$/u.test(x)) || !w.some((x) => x.length > 2)) continue;
      const name = w.join(' ').replace(/^./, (c) => c.toUpperCase());
      if (!out.includes(name)) out.push(name);
    }
    return out;
  }
  // A release renames the container: its id and classes, in the markup (every element that
  // carries the class) and in the stylesheets, so the page looks the same.
  function renameRegion(el, css) {
    const box = el.parentElement && el.parentElement.closest(css);
    if (!box || box.tagName === 'BODY' || box.tagName === 'HTML') return false;
    const renames = [];
    if (box.id) { renames.push([`#${esc(box.id)}`, `#zr${box.id.length}w`]); box.id = `zr${box.id.length}w`; }
    [...box.classList].forEach((c, i) => {
      const fresh = `v${i}${c.length}y`;
      renames.push([`.${esc(c)}`, `.${fresh}`]);
      for (const e of [...document.getElementsByClassName(c)]) if (e !== el) e.classList.replace(c, fresh);
    });
    const escRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const rewrite = (rules) => {
      for (const r of rules) {
        if (r.cssRules) rewrite(r.cssRules);
        if (!r.selectorText) continue;
        r.selectorText = renames.reduce((sel, [from, to]) => sel.replace(new RegExp(`${escRe(from)}(?![\\w-])`, 'g'), to), r.selectorText);
      }
    };
    for (const sheet of document.styleSheets) rewrite(sheet.cssRules);
    return true;
  }
  function pathCss(el) {
    const parts = [];
    for (let e = el; e && e.tagName !== 'HTML' && e.tagName !== 'BODY'; e = e.parentElement) {
      if (e !== el && e.id) { parts.unshift(`#${esc(e.id)}`); break; }
      const same = e.parentElement ? [...e.parentElement.children].filter((s) => s.tagName === e.tagName) : [e];
      parts.unshift(`${e.tagName.toLowerCase()}:nth-of-type(${same.indexOf(e) + 1})`);
    }
    return parts.join(' > ');
  }
  function brittle(id) {
    const el = byId(id);
    const t = el.tagName.toLowerCase();
    const attr = ['name', 'placeholder', 'aria-label', 'title', 'href'].find((a) => el.getAttribute(a));
    const testAttr = ['data-testid', 'data-test', 'data-qa'].find((a) => el.getAttribute(a));
    return {
      id: el.id ? `#${esc(el.id)}` : null,
      class: el.classList.length ? t + [...el.classList].map((c) => `.${esc(c)}`).join('') : null,
      path: el.getRootNode() === document ? pathCss(el) : null,
      attr: attr ? { name: attr, css: `${t}[${attr}="${el.getAttribute(attr).replace(/"/g, '\\"')}"]` } : null,
      test_id: testAttr ? { attribute: testAttr, value: el.getAttribute(testAttr) } : null,
    };
  }
  const swapCase = (s) => (s === s.toUpperCase() ? s.toLowerCase() : (s === s.toLowerCase() ? s.toUpperCase()
    : s.replace(/\b(\p{L})(\p{L}*)/gu, (m, a, b) => (a === a.toUpperCase() ? a.toLowerCase() + b : a.toUpperCase() + b.toLowerCase()))));
  // change the visible wording of an element: its own text nodes, else its label/placeholder
  function retext(el, fn) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) if (norm(walker.currentNode.data)) nodes.push(walker.currentNode);
    if (el.tagName === 'INPUT' && ['submit', 'button'].includes(el.type) && el.value) { el.value = fn(el.value); return true; }
    if (nodes.length && !['SELECT', 'TEXTAREA'].includes(el.tagName)) {
      const whole = norm(nodes.map((n) => n.data).join(' '));
      nodes.forEach((n, i) => { n.data = i === 0 ? fn(whole) : ''; });
      return true;
    }
    const label = el.labels && el.labels[0];
    if (label) {
      const w = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
      while (w.nextNode()) if (norm(w.currentNode.data)) { w.currentNode.data = fn(norm(w.currentNode.data)); return true; }
    }
    if (el.getAttribute('placeholder')) { el.setAttribute('placeholder', fn(el.getAttribute('placeholder'))); return true; }
    if (el.getAttribute('aria-label')) { el.setAttribute('aria-label', fn(el.getAttribute('aria-label'))); return true; }
    return false;
  }
  function mutate(id, kind, words, region) {
    const el = byId(id);
    if (!el) return false;
    switch (kind) {
      case 'region_renamed': return region ? renameRegion(el, region) : false;
      case 'id_renamed':
        if (!el.id) return false;
        el.id = `x${el.id.length}q-${el.id.split('').reverse().join('')}`; return true;
      case 'class_renamed':
        if (!el.classList.length) return false;
        el.className = [...el.classList].map((c, i) => `k${i}${c.length}z`).join(' '); return true;
      case 'text_case': return retext(el, swapCase);
      case 'text_wording': return retext(el, (s) => {
        const key = s.toLowerCase();
        return words[key] || (s.split(' ').length > 1 ? s.split(' ').slice(0, -1).join(' ') + ' now' : `${s} now`);
      });
      case 'wrapper_added': {
        const w = document.createElement('div');
        w.className = 'bench-wrap__inner';
        el.replaceWith(w); w.appendChild(el); return true;
      }
      case 'moved': {
        // reorder: the element's item (card, row, list item) to the end of its list,
        // else the element to the front of its parent
        let item = el;
        while (item.parentElement && item.parentElement.children.length < 2) item = item.parentElement;
        const parent = item.parentElement;
        if (!parent || parent.tagName === 'BODY' && item === el) return false;
        if (item.nextElementSibling) parent.appendChild(item); else parent.insertBefore(item, parent.firstElementChild);
        return true;
      }
      case 'attribute_removed': {
        const a = ['name', 'placeholder', 'aria-label', 'title', 'href'].find((x) => el.getAttribute(x));
        if (!a) return false;
        el.removeAttribute(a); return true;
      }
      case 'test_id_removed': {
        const a = ['data-testid', 'data-test', 'data-qa'].find((x) => el.getAttribute(x));
        if (!a) return false;
        el.removeAttribute(a); return true;
      }
      case 'removed': {
        // the element is gone (a feature removed): the only right answer is no heal
        el.remove(); return true;
      }
      case 'decoy': {
        // a sibling look-alike: same tag, classes and text, no id, no test id, no marker
        const d = el.cloneNode(true);
        for (const a of ['id', 'data-bench-id', 'data-testid', 'data-test', 'data-qa', 'for']) d.removeAttribute(a);
        d.querySelectorAll('[id]').forEach((x) => x.removeAttribute('id'));
        d.addEventListener('click', () => { window.__decoyClicks = (window.__decoyClicks || 0) + 1; });
        el.after(d); return true;
      }
      default: throw new Error(`unknown mutation ${kind}`);
    }
  }
  return { mark, brittle, mutate, regionNames };
})()
