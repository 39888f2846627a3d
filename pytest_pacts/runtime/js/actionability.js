// The five-point actionability gate, evaluated in the page.
//
// checkActionable() is the one implementation: discovery snapshots it for every element it
// resolves, and the executor's gate calls it before every action (Python:
// pytest_pacts.discovery.check_actionable), so both agree on what "actionable" means.
// Every point is measured, none is assumed (a gate point hard-coded to pass would let a wrong element through).

// Imports (see runtime/scripts.py: one module per file).
const { installWatch } = modules.watch;
const {
  TEST_ID_ATTRS, norm, withoutGlyphs, cut, tokens, sameBesideCounts, withoutMoments, parentOf, closestUp, elMatches, containsComposed, drawnInside, hitTarget, pointOf, inShadow,
  isEditableType, isSettable, isCheckable, isSelectable, isTextField, isClickable, canTakeFocus, describeElement, namesOf
} = modules.dom;

const GATE_POINTS = ['unique', 'visible', 'enabled', 'stable', 'scoped'];

function gatePass(name, reason) { return { name, ok: true, code: 'ok', reason }; }
function gateFail(name, code, reason) { return { name, ok: false, code, reason }; }
// Does a failed point stop the action, as the executor's gate decides (engine/gate.py,
// ``blocking_point``)? A step that only observes (wait, extract) is stopped only by the
// points a wait sees (``seenByWait``); ``noEnabled``: the action does not need "enabled".
function blocks(p, observes, seenByWait, noEnabled) {
  return !p.ok && p.code !== 'skipped' && !(observes && !seenByWait.includes(p.code))
    && !(p.code === 'disabled' && noEnabled);
}

function viewRect(el) {
  const r = el.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}
function sameRect(a, b) {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}
function fmtRect(r) {
  return `(${Math.round(r.x)}, ${Math.round(r.y)}, ${Math.round(r.width)}×${Math.round(r.height)})`;
}

// Playwright's "stable" is the same box on two consecutive animation frames (Chromium's
// stableRafCount is 1; see twoBoxes). A hidden document never runs rAF: a timer stands in.
// A shown one gets a long safety timer only (a loaded machine's frame can take well over
// 100 ms; two boxes with no frame between always agree). Without callbacks at all (scripts
// disabled) it answers false at once: the caller measures stability another way. Else
// 'frame', or 'timer' (on a shown document: no frame for two seconds, a starved renderer;
// nothing was observed, so no evidence the page is quiet: ``check`` in api.js).
function nextFrame() {
  if (!callbacksRun()) return Promise.resolve(false);
  const wait = document.visibilityState === 'hidden' ? 100 : 2000;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('timer'), wait);
    requestAnimationFrame(() => { clearTimeout(timer); resolve('frame'); });
  });
}
// Was a nextFrame() answer a frame of the page's rendering? (A hidden document's timer
// counts as its frame: it never gets any.)
function realFrame(f) {
  return f === 'frame' || (f === 'timer' && document.visibilityState === 'hidden');
}
// Synchronous probe: does this world run the listeners it registers?
function callbacksRun() {
  let ran = false;
  const probe = document.createElement('i');
  __pactsHost.listen(probe, 'pacts-probe', () => { ran = true; });  // see realm.js
  // the document's own factory: libraries replace ``window.Event`` (MooTools, with a wrapper
  // that is no DOM event)
  const event = document.createEvent('Event');
  event.initEvent('pacts-probe', false, false);
  probe.dispatchEvent(event);
  return ran;
}
// A running CSS animation or transition (Web Animations API) moving or sizing the box of the
// element or an ancestor, which two boxes read one period apart miss; not a pseudo-element's
// (an ``::after`` spinner), a fade, or another element's.
const BOX_PROPS = /^(transform|translate|rotate|scale|offset[A-Z]\w*|left|top|right|bottom|inset\w*|margin\w*|padding\w*|(min|max)?(width|height|Width|Height)|border\w*Width)$/;
function animatedBy(el) {
  const anims = el.getAnimations ? el.ownerDocument.getAnimations() : [];  // the page's array: indexed
  for (let i = 0; i < anims.length; i++) {
    const a = anims[i], fx = a.effect, target = a.playState === 'running' && a.playbackRate !== 0 && fx && !fx.pseudoElement && fx.target;
    const frames = target && containsComposed(target, el) ? fx.getKeyframes() : [];
    for (let f = 0; f < frames.length; f++) for (const k in frames[f]) if (BOX_PROPS.test(k)) return target;
  }
  return null;
}

// The layer a person sees covering the element: the outermost fixed or sticky layer (a
// cookie banner, a toolbar) or dialog the hit element belongs to, else null.
const isDialog = (a) => a.tagName === 'DIALOG' || ['dialog', 'alertdialog'].includes(a.getAttribute('role'))
  || a.getAttribute('aria-modal') === 'true';
function layerOf(hit, el) {
  let layer = null;
  for (let a = hit; a && a.tagName !== 'BODY' && a.tagName !== 'HTML' && !containsComposed(a, el); a = parentOf(a)) {
    if (['fixed', 'sticky'].includes(getComputedStyle(a).position) || isDialog(a)) layer = a;
  }
  return layer;
}

// Does a pointer event at the hit element reach ``el``? As in Playwright's hit-target check,
// the element is first retargeted to the button or link it sits in (a click on a button's
// icon is a click on the button), and the hit must be that element or inside it. A hit
// inside a <label> of the element counts too (nothing interactive in between): the browser
// forwards the click to the label's control, which is how a custom checkbox works (a styled
// span or pseudo-element drawn over a transparent input).
const pointerTarget = (el) => (elMatches(el, 'input, textarea, select') || el.isContentEditable ? el
  : el.closest('button, [role=button], a, [role=link]') || el);
// The box a form field is drawn in, when the hit test passes the field by (CSS pointer-events:
// none) to it (``hit``, around it) and it holds no other control and shows no words: what a
// person clicks to use the field (a component library's drop-down box around a read-only input).
const boxAround = (el, hit) => (elMatches(el, 'input, textarea, select') && drawnInside(hit, el)
  && getComputedStyle(el).pointerEvents === 'none' && !norm(hit.innerText)
  && [...hit.querySelectorAll('a[href], button, input, select, textarea, [tabindex], [role]')].every((e) => e === el) ? hit : null);
function receivesEvents(el, hit) {
  if (!hit) return false;
  if (drawnInside(pointerTarget(el), hit)) return true;
  const by = closestUp(hit, (a) => a.tagName === 'LABEL' || elMatches(a, 'a[href], button, input, select, textarea'));
  return !!by && by.tagName === 'LABEL' && by.control === el;
}

// The actions that use the pointer, and so need Playwright's "receives events" (the hit
// test): click, hover, check, uncheck. fill, type, select, press and focus do not: Playwright
// checks visible, enabled and editable for fill, visible and enabled for selectOption, nothing
// for press, type and focus. A code editor that draws its lines over its real textarea
// (CodeMirror) covers the textarea from the pointer, and a fill still reaches it.
const POINTER_ACTIONS = new Set(['click', 'hover', 'check', 'uncheck']);

// Why ``el`` is not shown as Playwright means it (a non-empty box, no ``display: none`` on
// the way up, ``visibility: visible``), or null when it is.
function unshown(el) {
  const none = closestUp(el, (a) => getComputedStyle(a).display === 'none');
  if (none) return none === el ? 'display: none' : `display: none on its ancestor ${describeElement(none)}`;
  const visibility = getComputedStyle(el).visibility;
  if (visibility !== 'visible') return `visibility: ${visibility}`;
  const r = viewRect(el);
  return r.width === 0 || r.height === 0 ? `empty bounding box (${r.width}×${r.height})` : null;
}
const shownLikePlaywright = (el) => !unshown(el);

// A hidden native <select> that a custom widget stands in for (select2, chosen, selectize,
// choices, a combobox): the visible element right next to it (its sibling, its parent, or the
// parent's sibling) whose class or role marks a select/combobox widget, or a visible element
// labelled by the select's own label. A person picks the option in the widget; the widget
// mirrors the native select. ``null`` when there is none (then the select is not visible).
const WIDGET_CLASS = /(^|[-_\s])(select2|chosen|selectize|choices|combobox|multiselect|select|dropdown)([-_\s]|$)/i;
function isWidget(e) {
  if (!e || e.nodeType !== 1 || !shownLikePlaywright(e)) return false;
  const cls = typeof e.className === 'string' ? e.className : '';
  if (WIDGET_CLASS.test(cls) || WIDGET_CLASS.test(e.id || '')) return true;
  const role = e.getAttribute('role');
  return role === 'combobox' || role === 'listbox' || e.getAttribute('aria-haspopup') === 'listbox'
    || !!e.querySelector('[role=combobox], [aria-haspopup=listbox]');
}
function selectProxy(el) {
  if (el.tagName !== 'SELECT') return null;
  const parent = el.parentElement;
  const near = [el.previousElementSibling, el.nextElementSibling, parent,
    parent && parent.previousElementSibling, parent && parent.nextElementSibling];
  for (const e of near) if (e && e !== el && isWidget(e)) return e;
  return [...(el.labels || [])].flatMap(labelledBy).find((e) => e !== el && shownLikePlaywright(e)) || null;
}
// The elements that name ``label`` in their ``aria-labelledby`` (none when it has no id).
const labelledBy = (label) => (label.id ? [...label.ownerDocument.querySelectorAll('[aria-labelledby]')]
  .filter((e) => e.getAttribute('aria-labelledby').split(/\s+/).includes(label.id)) : []);

// Visible as Playwright means it: a non-empty box and ``visibility: visible`` (so
// ``display: none`` on the way up fails, ``opacity: 0`` does not: a custom checkbox is a
// transparent input under a styled label, and Playwright clicks it). For a pointer action,
// what a person cannot reach is caught by the hit test below.
function checkVisible(el, action, dom) {
  if (!el.isConnected) return gateFail('visible', 'detached', 'the element is no longer in the document');
  const proxy = action === 'select' ? selectProxy(el) : null;
  if (proxy && !shownLikePlaywright(el)) {
    return { ...gatePass('visible', `a hidden native select; its widget ${describeElement(proxy)} is visible and stands in for it`), reach: 'widget' };
  }
  const why = unshown(el);
  const drawn = why ? drawingLabel(el, action) : null;
  if (drawn) {
    return { ...gatePass('visible', `hidden (${why}) and drawn by its own ${describeElement(drawn.label)}, `
      + `which is visible and receives events${drawn.scroll ? ' once scrolled to the centre' : ''}: `
      + 'acted on through its label'), reach: 'label' };
  }
  if (why) return gateFail('visible', 'not_visible', why);
  if (!POINTER_ACTIONS.has(action)) {
    const pass = gatePass('visible', `visible (${action || 'this action'} does not use the pointer, so no hit test)`);
    return action === 'select' ? { ...pass, reach: 'in_place' } : pass;
  }
  const { point, hit, scroll } = pointAt(el, (h) => receivesEvents(el, h));
  const reach = scroll ? 'scrolled' : 'in_place';
  const via = !hit || drawnInside(el, hit) ? el : pointerTarget(el) !== el ? pointerTarget(el) : boxAround(el, hit);
  if (hit && via === el && receivesEvents(el, hit)) return { ...gatePass('visible', `visible and receives events${scroll ? ' once scrolled to the centre' : ''}`), reach };
  // The hit test passes the element by (CSS pointer-events: none) to the button or link around
  // it, or to the box a form field is drawn in: acted on, and told, as that (Playwright's
  // "receives events" is its), when the control's name says the element's words (the box holds
  // nothing else) and its own centre is its own; else refused.
  if (via && via !== el && drawnInside(via, hit)) {
    const [box, words, at] = [pointerTarget(el) === el, tokens(dom.textOf(el) || dom.words(el)), pointOf(via) && hitTarget(el.ownerDocument, ...pointOf(via))];
    const said = `the pointer passes it by${getComputedStyle(el).pointerEvents === 'none' ? ' (pointer-events: none)' : ''} to ${describeElement(via, dom)}`;
    if (!box && !(words.length && words.every((w) => tokens(dom.words(via)).includes(w)))) return gateFail('visible', 'obscured', `${said}, named otherwise`);
    if (!at || !drawnInside(via, at) || (!box && pointerTarget(at) !== via)) return gateFail('visible', 'obscured', `${said}, whose centre is ${at ? describeElement(at, dom) : 'out of view'}`);
    return { ...gatePass('visible', `${said}, ${box ? 'which holds nothing else' : 'whose name holds its words'}: acted on as that`), reach, via };
  }
  if (!point) return gateFail('visible', 'not_visible', 'outside the viewport and cannot be scrolled into view');
  // shown but out of the pointer's reach (clipped to a pixel, the "visually hidden" pattern, or
  // drawn over by its own widget): through its own label, by the same rule as a hidden one
  const over = drawingLabel(el, action);
  if (over) {
    return { ...gatePass('visible', `out of the pointer's reach at its centre and drawn by its own ${describeElement(over.label)}, `
      + 'which is visible and receives events: acted on through its label'), reach: 'label' };
  }
  const by = hit ? describeElement(layerOf(hit, el) || hit) : 'nothing';
  return gateFail('visible', 'obscured', `covered by ${by} at (${Math.round(point[0])}, ${Math.round(point[1])})`);
}

// "Receives events": the action point (``pointOf`` ``box``, the element or the label it is
// acted on through: where Playwright's click lands) must hit what ``accept`` takes. Like
// Playwright's own retries, a covered element is scrolled to the viewport's centre once
// before it is called obscured (a sticky banner covers the page's bottom, not its middle).
// ``point``: null when it is outside the viewport even once scrolled.
function pointAt(box, accept) {
  let point = null;
  let hit = null;
  for (const scroll of [false, true]) {
    if (scroll) box.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    point = pointOf(box);
    if (!point) continue;
    hit = hitTarget(box.ownerDocument, ...point);
    if (accept(hit)) return { point, hit, scroll };
  }
  return { point, hit, scroll: true };
}

// A checkbox or radio that is not shown but drawn by its own <label> (a CSS switch: the input
// hidden at a 0×0 box, clipped or ``display: none``, the switch drawn by the label's
// pseudo-elements): a click on the label runs the control's activation behaviour (HTML, the
// label element), and Playwright's check() on a label reads its control's state and clicks
// the label. The label a person would click: one whose control is ``el``, holding no other
// control, naming no other element (aria-labelledby), shown, and receiving the hit test
// itself; else null (the control stays refused). The action finds it again by the same
// rule (engine/actions.py, ``_LABEL``).
const LABEL_ACTIONS = new Set(['click', 'check', 'uncheck']);
function drawingLabel(el, action) {
  if (!LABEL_ACTIONS.has(action) || !elMatches(el, 'input[type=checkbox], input[type=radio]')) return null;
  for (const label of el.labels || []) {
    if (label.control !== el || unshown(label)) continue;
    if ([...label.querySelectorAll('a[href], button, input, select, textarea')].some((e) => e !== el)) continue;
    if (labelledBy(label).some((e) => e !== el)) continue;
    const into = (h) => !!h && receivesEvents(el, h) && drawnInside(label, h);
    const { hit, scroll } = pointAt(label, into);
    if (into(hit)) return { label, scroll };
  }
  return null;
}

function checkEnabled(el, action, roleOf) {
  if (typeof el.disabled === 'boolean' && elMatches(el, ':disabled')) {
    if (el.hasAttribute('disabled')) return gateFail('enabled', 'disabled', 'the disabled attribute is set');
    const fieldset = el.closest('fieldset[disabled]');
    return gateFail('enabled', 'disabled',
      `inside a disabled fieldset${fieldset ? ` (${describeElement(fieldset)})` : ''}`);
  }
  const off = closestUp(el, (a) => a.getAttribute('aria-disabled') === 'true');
  if (off) {
    return gateFail('enabled', 'disabled', off === el ? 'aria-disabled="true"'
      : `aria-disabled="true" on its ancestor ${describeElement(off)}`);
  }
  if (action === 'fill' && isSettable(el, roleOf)) {
    if ((el.readOnly && el.type !== 'number') || el.getAttribute('aria-readonly') === 'true') {
      return gateFail('enabled', 'not_editable', 'read-only, so it cannot be set');
    }
    return gatePass('enabled', 'enabled; set by steps (a slider or spin button)');
  }
  if (action === 'fill' || action === 'type') {
    if (!isEditableType(el, roleOf)) {
      return gateFail('enabled', 'not_editable',
        `${action} needs an input, textarea or contenteditable element; this is ${describeElement(el)}`);
    }
    if (el.readOnly || el.getAttribute('aria-readonly') === 'true') {
      return gateFail('enabled', 'not_editable', 'read-only, so it cannot be filled');
    }
    return gatePass('enabled', 'enabled and editable');
  }
  if ((action === 'check' || action === 'uncheck') && !isCheckable(el, roleOf)) {
    return gateFail('enabled', 'incompatible', `${action} needs a checkbox, radio or switch; this is ${describeElement(el)}`);
  }
  if (action === 'press' && !canTakeFocus(el)) {
    return gateFail('enabled', 'incompatible', `a key goes to the focused element, and this cannot take focus: ${describeElement(el)}`);
  }
  if (action === 'select' && !isSelectable(el, roleOf) && !isTextField(el, roleOf)) {
    return gateFail('enabled', 'incompatible', `select needs a <select>, listbox, combobox or a text field that opens one; this is ${describeElement(el)}`);
  }
  return gatePass('enabled', 'enabled');
}

function checkScoped(el, opts) {
  const regions = opts.regions || [];
  if (regions.length && !regions.some((r) => containsComposed(r, el))) {
    return gateFail('scoped', 'not_scoped', `not inside the expected region ${describeElement(regions[0])}`);
  }
  if (opts.in_shadow === true && !inShadow(el)) {
    return gateFail('scoped', 'not_scoped', 'expected inside a shadow root, found in the light DOM');
  }
  if (opts.in_shadow === false && inShadow(el)) {
    return gateFail('scoped', 'not_scoped', 'expected in the light DOM, found inside a shadow root');
  }
  const where = [regions.length ? 'inside its region' : '', inShadow(el) ? 'inside a shadow root' : ''].filter(Boolean).join(', ');
  return gatePass('scoped', where ? `in the expected scope (${where})` : 'in the expected frame');
}

// The actions that need a still element: Playwright checks "stable" for the pointer actions
// only; a field is filled, an option selected, a key pressed while the element moves (a form
// sliding in): asking more would refuse what a plain script does, and cost each step a frame.
const STILL_FOR = new Set(['click', 'check', 'uncheck', 'hover']);

// Two boxes of each element one animation frame apart, for "stable". Playwright's way: a box
// on the next frame and one on the frame after (run whole: a page's own frame callback may
// move the element after ours). On a page whose DOM has not changed for two frames (the
// change watch), only the frame clock moves an element (a CSS animation or transition, a
// smooth scroll): the first box is then measured at once (getBoundingClientRect lays out
// what changed), the second once the next frame has run whole; unless the DOM changed in
// that frame or the frame clock did not move on by CLOCK_MOVED_MS (the check began inside a
// frame under way: both boxes on one frame; under load the clock was seen to move by 0.03
// ms). A script moving an element changes the DOM: measured Playwright's way.
// Or no frame (``seenStill``): each box as a check measured it after the caller last acted
// (``since``, epoch ms), a whole frame before, with no DOM change, scroll or resize since, no
// animation running and the same box now: nothing that moves an element ran in between.
// Returns {first, second, framed (the first wait's nextFrame answer), frames (all waits were
// real frames), waited (frames waited: 0, 1, or 2 plus the quick way's 1 when it failed)}.
const CLOCK_MOVED_MS = 8;
function seenStill(els, since, changes) {
  const same = (e, el) => !!e && e.then.framed && e.then.at === changes.at && e.then.moved === changes.moved
    && e.then.when >= since && sameRect(e.box, viewRect(el));
  if (typeof since !== 'number' || changes.frames < 2 || !changes.boxes || !document.getAnimations
    || !els.every((el) => !!el && same(changes.boxes.get(el), el))) return false;
  const anims = document.getAnimations();  // the page's array: its methods may be replaced
  for (let i = 0; i < anims.length; i++) if (anims[i].playState === 'running') return false;
  return true;
}
async function twoBoxes(els, since) {
  const boxes = () => els.map((el) => (el && el.isConnected ? viewRect(el) : null));
  // the next frame, run whole: a page's own frame callback (one that moves the element) may
  // come after this one
  const wholeFrame = async () => {
    const f = await nextFrame();
    if (f === 'frame') await new Promise((after) => setTimeout(after, 0));
    return f;
  };
  const changes = installWatch();
  changes.flush();
  if (seenStill(els, since, changes)) return { first: [], second: [], framed: 'frame', frames: true, waited: 0, seen: true };
  let waited = 0;
  if (changes.frames >= 2 && document.timeline) {
    const at = changes.at;
    const began = document.timeline.currentTime;
    const first = boxes();
    const framed = await wholeFrame();
    if (framed === 'frame') {
      waited = 1;
      changes.flush();
      if (document.timeline.currentTime - began >= CLOCK_MOVED_MS && changes.at === at) {
        return { first, second: boxes(), framed, frames: true, waited };
      }
    }
  }
  const framed = await nextFrame();
  const first = boxes();
  const again = await wholeFrame();
  return { first, second: boxes(), framed, frames: realFrame(framed) && realFrame(again),
    waited: waited + 2 };
}

// items: [gateItem(els, g, still)]: ``els`` checked for ``g.action`` inside ``g.regions``
// (Elements), ``g.in_shadow`` (bool|null), ``still`` (false: below).
const gateItem = (els, g, still = g.still) => ({ els, action: g.action, regions: g.regions || [], in_shadow: g.in_shadow, still });
// All items share one measurement's frames (twoBoxes): a scan costs one or two frames, none
// when no item needs a still element. ``still: false`` leaves "stable" to the step's gate
// right before the action (a heal candidate, gated again before it is acted on). ``watch``
// (optional): gives ``since`` (twoBoxes), gets ``waited`` (frames waited) and ``frames``
// (whether they were real animation frames; a hidden document's timer counts as its frame).
async function checkActionable(items, dom, watch) {
  const single = items.map((it) => (it.els.length === 1 ? it.els[0] : null));
  const still = items.map((it, i) => !!single[i] && STILL_FOR.has(it.action) && it.still !== false);
  let framed = null;
  let seen = false;
  let first = [];
  let second = [];
  if (still.some(Boolean)) {
    const measured = await twoBoxes(single, watch && watch.since);
    ({ first, second, framed, seen } = measured);
    if (watch) {
      watch.frames = measured.frames;
      watch.waited = measured.waited;
    }
  }
  const win = window;
  const scroll = [win.scrollX, win.scrollY];
  const results = items.map((it, i) => {
    const points = [];
    const n = it.els.length;
    if (n !== 1) {
      points.push(n === 0 ? gateFail('unique', 'none', 'no element matches')
        : gateFail('unique', 'not_unique', `${n} elements match: ${it.els.slice(0, 5).map((e) => describeElement(e)).join('; ')}`));
      for (const name of GATE_POINTS.slice(1)) points.push(gateFail(name, 'skipped', 'not checked: the locator is not unique'));
      return { points, count: n, box: null };
    }
    const el = single[i];
    points.push(gatePass('unique', 'exactly one element'));
    const { reach, via, ...visible } = checkVisible(el, it.action, dom);
    points.push(visible);
    points.push(checkEnabled(el, it.action, dom.roleOf));
    if (!still[i]) {
      const why = STILL_FOR.has(it.action) ? 'left to the step\'s gate, right before the action'
        : `not needed for ${it.action}: Playwright checks a still element for pointer actions only`;
      points.push(el.isConnected ? gatePass('stable', why) : gateFail('stable', 'detached', 'detached while checking'));
    } else if (seen) points.push(gatePass('stable', 'same box as measured a frame or more before, nothing moving it since'));
    else if (!first[i] || !second[i]) points.push(gateFail('stable', 'detached', 'detached while measuring'));
    else if (!sameRect(first[i], second[i])) points.push(gateFail('stable', 'unstable', `moving: ${fmtRect(first[i])} then ${fmtRect(second[i])} on consecutive frames`));
    else if (animatedBy(el)) points.push(gateFail('stable', 'unstable', `a CSS animation or transition of its box is running on ${describeElement(animatedBy(el))}`));
    else points.push(gatePass('stable', framed ? 'same box on consecutive frames' : 'scripts are disabled, so no animation frames: no CSS animation or transition of its box is running'));
    points.push(checkScoped(el, it));
    // (not sent: the element the action goes to, kept by the executor's check, api.js)
    return Object.defineProperty({ points, count: 1, box: null, reach: reach || null }, 'via', { value: via });
  });
  win.scrollTo(scroll[0], scroll[1]);
  const changes = installWatch();
  changes.flush();  // what a later check's "stable" compares with (``seenStill``)
  const then = { at: changes.at, moved: changes.moved, when: performance.timeOrigin + performance.now() };
  __pactsHost.frame(() => { then.framed = true; });
  results.forEach((res, i) => {
    const el = single[i];
    if (!el || !el.isConnected) return;
    const r = viewRect(el);
    const w = el.ownerDocument.defaultView;
    res.box = { x: r.x + w.scrollX, y: r.y + w.scrollY, width: r.width, height: r.height };
    if (changes.boxes) changes.boxes.set(el, { box: r, then });  // (an older version's watch has none)
  });
  return results;
}

// Is the element a cached locator resolves to still the one recorded? Checked with the gate
// (same round trip) against ``id``: {fp, words}, the recorded fingerprint and the step's
// words. Null when it is: its kind, its name and its context agree; else why not. Drift
// passes: case, spacing, punctuation, another count ("Inbox (3)" ~ "Inbox (4)", dom.js's
// sameBesideCounts), a longer name keeping the old words on an element of the same tag
// ("Save" ~ "Save changes", where a div "Tags" header's place taken by an "Edit tags"
// button is another element). The step's words naming it (a name, id, name, test id) keep
// it; a name lost agrees with nothing. With no name recorded (a checkbox with no label, an
// icon button) it is known by its role (its tag, with none) and the words around it
// (``neighbourTexts``): each recorded word (but one cut at 80 characters) still around it
// or in it. Either way the landmark around it (ARIA's header, footer, nav, main, aside) as
// recorded: the header's "Settings" is not the footer's. To click, an element with no activation behaviour
// now holding the control it is named by is not it (the APG accordion's heading; resolve.js, ``owners``).
const KIND_OF_ROLE = { textbox: 'text', searchbox: 'text', combobox: 'text', spinbutton: 'text', checkbox: 'check', radio: 'check',
  switch: 'check', menuitemcheckbox: 'check', menuitemradio: 'check', button: 'press', link: 'press', menuitem: 'press', tab: 'press' };
function identityChange(el, id, dom, action) {
  const fp = id.fp || {};
  const [was, now] = [KIND_OF_ROLE[fp.role], KIND_OF_ROLE[dom.roleOf(el)]];
  const shown = describeElement(el, dom);
  if (was && now && was !== now) return `it is now ${shown} (a ${dom.roleOf(el)}; the recorded element was a ${fp.role})`;
  const named = ['click', 'hover'].includes(action) && !isClickable(el, dom.roleOf, true) && norm(dom.accName(el));
  const owner = named && [...el.querySelectorAll('*')].find((c) => isClickable(c, dom.roleOf, true) && !dom.isHidden(c) && norm(dom.accName(c)) === named);
  if (owner) return `it is now ${shown}, named by the control it holds, ${describeElement(owner, dom)}`;
  const recorded = [fp.accessible_name, fp.text, fp.label, fp.placeholder, fp.alt, fp.title].map(withoutGlyphs).filter((v) => v && v.length <= 200);
  const names = [...namesOf(el, dom), cut(dom.textOf(el), 200), el.getAttribute('alt')].map(norm).filter(Boolean);
  const sameTag = !fp.tag || fp.tag.toLowerCase() === el.tagName.toLowerCase();
  const agree = (a, b) => {
    const A = tokens(a); const B = tokens(b);
    if (!A.length || !B.length) return false;
    if (A.join('') === B.join('') || sameBesideCounts(a, b)) return true;
    const [small, big] = A.length <= B.length ? [A, B] : [B, A];
    return sameTag && small.every((w) => big.includes(w));
  };
  const words = norm(id.words);
  const idents = [el.id, el.getAttribute('name'), ...TEST_ID_ATTRS.map((a) => el.getAttribute(a))].filter(Boolean);
  if (!names.some((n) => recorded.some((r) => agree(n, r)))
    && !(words && [...names, ...idents].some((n) => agree(words, n)))) {
    if (recorded.length) return `it is now ${shown}, recorded as "${recorded[0]}"`;
    if ((fp.role || '') !== (dom.roleOf(el) || '') || (!fp.role && !sameTag)) return `it is now ${shown}, recorded as a ${fp.role || fp.tag} with no name`;
    const near = new Set([...names, ...neighbourTexts(el, dom, 400)].flatMap(tokens));
    // the step's own words beside it name it, as discovery's adjacent-text rule does
    const beside = tokens(words).length > 0 && tokens(words).every((w) => near.has(w));
    // the words recorded around it, without the moments the page prints (withoutMoments)
    const kept = (t) => tokens(withoutMoments(t.length < 80 ? t : t.replace(/\s\S*$/, '')));
    const gone = beside ? undefined : (fp.neighbour_text || []).find((t) => !kept(t).every((w) => near.has(w)));
    if (gone !== undefined) return `it is now ${shown}, recorded with no name beside "${gone}"`;
  }
  const landmark = (tags) => tags.slice(0, 6).find((t) => ['header', 'footer', 'nav', 'main', 'aside'].includes(t));
  const up = [];
  for (let a = parentOf(el); a && up.length < 6 && a.tagName !== 'BODY'; a = parentOf(a)) up.push(a.tagName.toLowerCase());
  const [before, after] = [landmark((fp.ancestor_path || []).map((a) => a.split(/[#.\[:]/)[0])), landmark(up)];
  return before && after && before !== after ? `it is now ${shown} in <${after}>, recorded in <${before}>` : null;
}
// The words around an element (fingerprint, identity check): its siblings', its parent's or
// else its next two ancestors' first that shows text (a lone checkbox's row), 80 chars each.
function neighbourTexts(el, dom, max = 80) {
  let up = parentOf(el);
  for (let i = 1; up && i < 3 && up.tagName !== 'BODY' && !dom.textOf(up); i++) up = parentOf(up);
  return [el.previousElementSibling, el.nextElementSibling, up].map((n) => (n ? cut(withoutGlyphs(dom.textOf(n)), max) : '')).filter(Boolean);
}

// Exports: what the later files use.
return {
  viewRect, sameRect, nextFrame, realFrame, callbacksRun, receivesEvents, layerOf, isDialog, selectProxy,
  gateItem, checkActionable, blocks, identityChange, neighbourTexts
};
