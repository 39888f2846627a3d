// The recorder's listener (pytest_pacts/recording/recorder.py), installed in every document
// of every page the recording opens (iframes included: Playwright runs a page's init script
// and exposes its binding in every frame), before the page's own scripts. It reports
// what the person does through the binding `__pactsRecord` and keeps the element acted on
// in `targets[id]` for Python to name. A click or a key that may change the page (Enter,
// Tab, Escape), and a choice in a <select> (a page may navigate on its change), is held:
// the page does not see it until Python has named the element on the page as it was, then
// Python lets it through (`replay`). Typing is reported when the field's value is final
// (`change`), before a held key, and files likewise.
// Alt+click on a text, or a click in assertion mode, asks for `text_visible:` of that text.
(config) => {
  if (window.__pactsRecorder) return;
  const CONTROL = 'button, a[href], input, select, textarea, summary, label, option, '
    + '[role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], '
    + '[role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option], '
    + '[role=treeitem], [onclick], [contenteditable=""], [contenteditable=true]';
  const TEXT_TYPES = new Set(['', 'text', 'email', 'password', 'search', 'tel', 'url', 'number',
    'date', 'datetime-local', 'month', 'time', 'week', 'color', 'range']);
  const KEYS = new Set(['Enter', 'Tab', 'Escape']);
  let next = 0;
  const state = {
    replaying: false, asserting: false, targets: {}, held: {}, reported: new WeakMap(), count: 0,
    host: null,
  };
  Object.defineProperty(window, '__pactsRecorder', { value: state });
  // Python takes the reports in order (recorder.py queues them); `pending` counts the
  // ones it has not received yet
  state.pending = 0;
  const send = (payload, el) => {
    const id = String(++next);
    state.targets[id] = el;
    payload.id = id;
    state.pending++;
    window.__pactsRecord(payload).catch(() => null).finally(() => { state.pending--; });
    return id;
  };
  const ours = (e) => !!state.host && e.composedPath().includes(state.host);
  const isField = (el) => !!el && ((el.tagName === 'INPUT' && TEXT_TYPES.has((el.type || '').toLowerCase()))
    || el.tagName === 'TEXTAREA' || el.isContentEditable);
  const valueOf = (el) => (el.isContentEditable ? el.innerText : el.value);
  const reportFill = (el) => {
    if (!isField(el)) return null;
    const value = valueOf(el);
    const before = state.reported.has(el) ? state.reported.get(el) : (el.defaultValue || '');
    if (value === before) return null;
    state.reported.set(el, value);
    const type = (el.type || '').toLowerCase();
    return send({ kind: 'fill', value, secret: type === 'password' }, el);
  };
  // the element a person means by a click on `target`: the control around it
  const controlOf = (target) => {
    let el = target instanceof Element ? target : target && target.parentElement;
    if (!el) return null;
    const found = el.closest(CONTROL);
    if (found && found.tagName === 'LABEL') return found.control || found;
    if (found) return found;
    // a shape inside an SVG is the picture to a person: the outermost <svg>
    for (let svg = el.closest('svg'); svg; svg = svg.parentElement && svg.parentElement.closest('svg')) el = svg;
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).cursor === 'pointer') return a;
    }
    return null;
  };
  const textAt = (target) => {
    const el = target instanceof Element ? target : target && target.parentElement;
    return el ? (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim() : '';
  };

  // A select's choice is held like a click: its value has changed (a change event cannot be
  // cancelled, HTML), but the page's own `input` and `change` handlers (one that navigates
  // to the chosen page) run only when Python lets them through, once the select is named.
  const heldInput = new WeakSet();
  window.addEventListener('input', (e) => {
    if (state.replaying || ours(e) || e.target.tagName !== 'SELECT') return;
    e.stopImmediatePropagation();
    heldInput.add(e.target);
  }, true);
  window.addEventListener('change', (e) => {
    if (state.replaying || ours(e)) return;
    const el = e.target;
    if (el.tagName === 'SELECT') {
      e.stopImmediatePropagation();
      const option = el.selectedOptions[0];
      const id = send({ kind: 'select', value: option ? option.label || option.text : el.value,
        option: el.value, hold: true }, el);
      state.held[id] = { select: el, input: heldInput.has(el) };
      heldInput.delete(el);
    } else {
      reportFill(el);
    }
  }, true);

  window.addEventListener('keydown', (e) => {
    if (state.replaying || ours(e) || !e.isTrusted || !KEYS.has(e.key)) return;
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const el = document.activeElement;
    reportFill(el);
    e.preventDefault();
    e.stopImmediatePropagation();
    send({ kind: 'press', value: e.key, hold: true }, el && el !== document.body ? el : null);
  }, true);

  const assertText = (e) => {
    e.preventDefault();
    e.stopImmediatePropagation();
    const text = textAt(e.target);
    state.asserting = false;
    draw();
    // never between the two halves of an emoji: a lone half is no Unicode text
    if (text) send({ kind: 'assert', value: text.slice(0, 120).replace(/[\ud800-\udbff]$/, '') }, null);
  };
  for (const type of ['mousedown', 'mouseup', 'pointerdown', 'pointerup']) {
    window.addEventListener(type, (e) => {
      if (!state.replaying && !ours(e) && (e.altKey || state.asserting)) {
        e.preventDefault();
        e.stopImmediatePropagation();
      }
    }, true);
  }
  window.addEventListener('click', (e) => {
    if (state.replaying || ours(e) || !e.isTrusted) return;
    if (e.altKey || state.asserting) { assertText(e); return; }
    const el = controlOf(e.target);
    if (!el || el.tagName === 'SELECT' || el.tagName === 'OPTION' || isField(el)) return;
    if (el.tagName === 'INPUT' && el.type === 'file') return;
    const box = el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio');
    const checkable = box || ['checkbox', 'switch', 'menuitemcheckbox'].includes(el.getAttribute('role'));
    const checked = box ? el.checked : el.getAttribute('aria-checked') === 'true';
    // a native box has already toggled when its click is dispatched (HTML's legacy
    // pre-activation behaviour); an ARIA one toggles in the page's own handler, later
    let kind = 'click';
    if (checkable) kind = (box ? checked : !checked) ? 'check' : 'uncheck';
    if (box && el.type === 'radio') kind = 'check';
    const field = document.activeElement;
    if (field && field !== el) reportFill(field);
    e.preventDefault();
    e.stopImmediatePropagation();
    const id = send({ kind, hold: true }, el);
    // kept to let it through later as it was: on the element clicked, with its position
    // and keys (a menu placed where the pointer was, a handler that reads the target)
    state.held[id] = { target: e.target, init: {
      bubbles: true, cancelable: true, composed: true, view: window, detail: e.detail,
      screenX: e.screenX, screenY: e.screenY, clientX: e.clientX, clientY: e.clientY,
      ctrlKey: e.ctrlKey, shiftKey: e.shiftKey, altKey: e.altKey, metaKey: e.metaKey,
      button: e.button, buttons: e.buttons } };
  }, true);

  if (config.hover) {
    let timer = null;
    window.addEventListener('mouseover', (e) => {
      if (ours(e)) return;
      clearTimeout(timer);
      const el = controlOf(e.target);
      if (el) timer = setTimeout(() => send({ kind: 'hover' }, el), config.hover_ms || 800);
    }, true);
    window.addEventListener('mouseout', () => clearTimeout(timer), true);
  }

  // The overlay: what is being recorded, and the assertion mode's button. In a closed
  // shadow root, so that neither discovery nor the page's own scripts see its contents.
  let shadow = null;
  const draw = () => {
    if (!shadow) return;
    shadow.querySelector('.count').textContent = `Recording: ${state.count} step(s)`;
    shadow.querySelector('.last').textContent = state.last ? `last: ${state.last}` : '';
    const button = shadow.querySelector('button');
    button.textContent = state.asserting ? 'Click a text to expect it' : 'Expect a text';
    button.classList.toggle('on', state.asserting);
  };
  // the value typed into the focused field, when the recording stops before it was final
  state.flush = () => { reportFill(document.activeElement); };
  state.setCount = (n, last) => { state.count = n; state.last = last || ''; draw(); };
  // A held click let through: the same click event again, on the same element (a click
  // event dispatched by a script runs the element's activation behaviour too: a link
  // navigates, a checkbox toggles, a submit button submits), else a plain click.
  // A held select's events go through as they came: `input`, then `change`.
  state.replay = (id, el) => {
    const held = state.held[id];
    delete state.held[id];
    state.replaying = true;
    try {
      if (held && held.select) {
        if (held.input) held.select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
        held.select.dispatchEvent(new Event('change', { bubbles: true }));
      } else if (held && held.target.isConnected) {
        held.target.dispatchEvent(new MouseEvent('click', held.init));
      } else el.click();
    } finally { state.replaying = false; }
  };
  const mount = () => {
    if (!config.overlay || state.host || !document.body || window !== window.top) return;
    const host = document.createElement('pacts-recorder');
    host.style.cssText = 'position:fixed;right:12px;bottom:12px;z-index:2147483647;';
    shadow = host.attachShadow({ mode: 'closed' });
    shadow.innerHTML = '<style>div{font:13px/1.4 sans-serif;background:#212529;color:#fff;'
      + 'padding:6px 10px;border-radius:6px;display:flex;gap:10px;align-items:center;'
      + 'box-shadow:0 2px 8px rgba(0,0,0,.3)}.dot{color:#ff4d4f}button{font:inherit;'
      + 'border:1px solid #adb5bd;background:#343a40;color:#fff;border-radius:4px;'
      + 'padding:2px 8px;cursor:pointer}button.on{background:#f59f00;color:#000}</style>'
      + '<div><span class="dot">\u25cf</span><span class="count"></span>'
      + '<span class="last" style="color:#ced4da;max-width:420px;overflow:hidden;'
      + 'white-space:nowrap;text-overflow:ellipsis"></span>'
      + '<button type="button"></button></div>';
    shadow.querySelector('button').addEventListener('click', (e) => {
      e.stopPropagation();
      state.asserting = !state.asserting;
      draw();
    });
    state.host = host;
    document.documentElement.append(host);
    draw();
  };
  if (document.body) mount(); else document.addEventListener('DOMContentLoaded', mount);
}
