// The document's last DOM change, watched without a gap, and how many animation frames the
// page has drawn since (counted up to two, then the watch sleeps until the next change).
//
// The engine puts it in every document from its first moment (an init script, engine/env.py);
// the installed API starts one itself on a page without it (installing then counts as a
// change). ``globalThis.__pacts_changes`` is ``{at, url, frames, moved, boxes, flush(),
// requests(ms)}``: ``at``, performance.now() of the last change; ``url``, the document's URL
// then (a router may move it, engine/routes.py); ``frames``, animation frames drawn since, at
// most 2; ``moved``, scrolls and resizes seen; ``boxes``, elements' last boxes measured
// (actionability.js, ``seenStill``); ``flush()`` counts the changes whose observer callback
// has not run yet; ``requests(ms)``, the requests the page's scripts opened less than ``ms``
// ago and still have open (``watchRequests``, below).
//
// "No DOM change for two animation frames" is then a reading, not a wait: a settled page
// answers at once, a page still changing is watched over two more frames by the caller.
// Costs nothing on a quiet page: at most two frame callbacks per burst of changes.

// The frame a fresh realm comes from (js/realm.js names it so), attached and removed in one go
// by the in-page code itself: not a change of the page.
const REALM_FRAME = '__pacts_realm';
const DRAWN = 'a[href], button, input, select, textarea, [contenteditable], [tabindex], iframe, object, embed, canvas, img, svg';
function pageChanged(records) {
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (r.type !== 'childList') return true;
    const lists = [r.addedNodes, r.removedNodes];
    for (let l = 0; l < 2; l++) {
      for (let j = 0; j < lists[l].length; j++) {
        const n = lists[l][j];
        if (n.nodeName !== 'IFRAME' || n.name !== REALM_FRAME) return true;
      }
    }
  }
  return false;
}

function installWatch() {
  const existing = globalThis.__pacts_changes;
  if (existing) return existing;
  // the page's own scripts may replace these later; the watch keeps the originals
  const raf = __pactsHost.frame;  // (js/realm.js)
  const now = performance.now.bind(performance);
  const watch = { at: now(), frames: 0, moved: 0, boxes: new WeakMap() };
  let pending = false;
  // ``ts``: when the frame began. A frame whose callbacks made the change (a render in an
  // animation frame callback that ran before this one) is the frame that draws it: not a
  // frame since the change.
  const tick = (ts) => {
    pending = false;
    if (watch.at >= ts) { pending = true; raf(tick); return; }
    watch.frames += 1;
    if (watch.frames < 2) { pending = true; raf(tick); }
  };
  const changed = () => {
    watch.at = now();
    watch.url = location.href;
    watch.frames = 0;
    if (!pending) { pending = true; raf(tick); }
  };
  const obs = new MutationObserver((records) => { if (pageChanged(records)) changed(); });
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  watch.flush = () => { if (pageChanged(obs.takeRecords())) changed(); };
  const moved = () => { watch.moved += 1; };  // a scroll (any element's: captured), a resize
  __pactsHost.listen(window, 'scroll', moved, true);
  __pactsHost.listen(window, 'resize', moved);
  changed();
  watch.requests = watchRequests();
  // A body drawing no text, control or picture yet, at most a video (a boot screen, an empty
  // root), is not settled (docs/engine.md, "Readiness"); a custom element may draw in its shadow.
  watch.blank = () => {
    const walk = document.body && document.createTreeWalker(document.body, 5);  // elements, texts
    for (let n = walk && walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.nodeType === 3 ? n.parentElement : n;
      if ((el === n ? n.localName.includes('-') || n.matches(DRAWN) : /\S/.test(n.data)) && el.getClientRects().length) return false;
    }
    return !!walk;
  };
  Object.defineProperty(globalThis, '__pacts_changes', { value: watch });
  return watch;
}

// The requests the page's own scripts have open (``fetch`` until its answer's headers come or
// it fails, an XMLHttpRequest until ``loadend``), counted in the page as they start. The
// engine also hears of them from Playwright's ``request`` events (engine/env.py,
// ``EnvMonitor``), but those can come late: with a route on the context (or HTTP
// credentials), Playwright emits ``request`` only once the browser's network stack has paused
// the request (CDP ``Fetch.requestPaused``), which can reach Python after the answer of a
// later call into the page. A check right after a click that started a fetch then saw a page
// with no request open, and an element the fetch was about to bring judged gone (docs/engine.md,
// "Readiness"). Both views count: the page is settled when neither has a request open.
// ``requests(ms)``: how many opened less than ``ms`` ago are still open (an older one is a
// long-poll, as ``EnvMonitor.busy`` takes it). Wrapped with proxies, so the page's functions
// keep their name, length and native source text; the bookkeeping never stands in the way
// of the call. Wrapped only from the page's own realm: a copy of the in-page code compiled in
// a fresh realm (js/realm.js) would run it in a removed frame's realm, where callbacks do
// not run; that copy counts nothing (a page whose first call came after it replaced a
// built-in, when the init script was not there).
function watchRequests() {
  const open = Object.create(null);  // request number -> performance.now() when it started
  let last = 0;
  const now = performance.now.bind(performance);
  const count = (ms) => {
    const t = now();
    let n = 0;
    for (const id in open) if (t - open[id] < ms) n += 1;
    return n;
  };
  if (Object !== window.Object) return count;
  const begin = () => {
    last += 1;
    const id = last;
    open[id] = now();
    return () => { delete open[id]; };
  };
  const apply = Reflect.apply;
  const then = Promise.prototype.then;
  const listen = EventTarget.prototype.addEventListener;
  const wrap = (owner, name, around) => {
    try {
      const f = owner[name];
      if (typeof f === 'function') owner[name] = new Proxy(f, { apply: around });
    } catch (e) { /* left as it is */ }
  };
  wrap(window, 'fetch', (target, self, args) => {
    const end = begin();
    let answer;
    try {
      answer = apply(target, self, args);
    } catch (e) {
      end();
      throw e;
    }
    try { apply(then, answer, [end, end]); } catch (e) { end(); }
    return answer;
  });
  if (typeof XMLHttpRequest === 'function') {
    wrap(XMLHttpRequest.prototype, 'send', (target, self, args) => {
      const end = begin();
      try { apply(listen, self, ['loadend', end]); } catch (e) { end(); }
      try {
        return apply(target, self, args);
      } catch (e) {
        end();  // not sent: no ``loadend`` comes
        throw e;
      }
    });
  }
  return count;
}

// The elements Playwright matched for a locator, handed over from its isolated world
// (runtime/bridge.py, "the bridge"). Python chains a selector engine that runs there after the
// locator, and a second one after the whole query (``or``), and asks Playwright to count the
// matches: the first dispatches an event on each element it is given, the second on the
// document once the query is done, both numbered by the call (a UIEvent's ``detail``, read
// alike in every world). The call in this world, sent first, waits for that end (``wait``):
// one round trip for both; then it takes the elements heard for its number (``take``),
// dropping what an earlier call left. Under ``globalThis.__pacts_bridge``: both copies of the
// API (js/realm.js) share it.
// It also holds the element the last gate check passed (``hold``, ``held``: one per document,
// under the executor's token, a number) and hands it, and only it, to the ``pacts_kept``
// selector engine in the isolated world (runtime/bridge.py, ``kept_selector``): that engine
// dispatches KEPT_ASK with the token on the document, the listener here KEPT_HERE on the held
// element, where the engine hears it (``composedPath()[0]``: inside an open shadow root too).
// A document holding nothing under the token (another document, the element re-rendered)
// answers on the document itself and the engine throws: Playwright's action fails at once
// instead of acting on what its locator matches in the new document.
// ``wait`` first checks that the listeners still hear (a probe event): when not, the call's
// events may be lost, so it answers false at once (the caller then uses ``evaluate_all``) and
// listens again (``document.open()`` removes the window's listeners; a context with scripts
// disabled runs none; at most a few times per document).
const BRIDGE_EVENT = '__pacts_bridge';
const BRIDGE_DONE = '__pacts_bridge_done';
const KEPT_ASK = '__pacts_kept';
const KEPT_HERE = '__pacts_kept_here';
function installBridge() {
  const existing = globalThis.__pacts_bridge;
  if (existing) return existing;
  const heard = [];  // [call number, element], in the order Playwright matched them
  const finished = [];  // call numbers whose query is done
  const waiting = [];  // [call number, resolve]
  let alive = false;  // set by the listener: does it still hear?
  const hear = (e) => {
    alive = true;
    const path = e.composedPath();
    heard[heard.length] = [e.detail, path.length ? path[0] : e.target];
  };
  const end = (e) => {
    alive = true;
    finished[finished.length] = e.detail;
    for (let i = 0; i < waiting.length; i++) if (waiting[i][0] === e.detail) waiting[i][1](true);
  };
  // registered by the page's realm (js/realm.js): a listener the fresh realm registered would
  // never run. ``composedPath()[0]``: the element itself, inside an open shadow root too.
  let held = null;  // the element the last gate check passed, and its token
  let heldToken = -1;
  const heldNow = (token) => (token === heldToken && held && held.isConnected ? held : null);
  // answered on the held element, or on the document when it holds none under the token
  const ask = (e) => {
    const el = heldNow(e.detail) || document;
    el.dispatchEvent(new UIEvent(KEPT_HERE, { detail: e.detail, bubbles: true, composed: true }));
  };
  const listen = () => {
    __pactsHost.listen(window, BRIDGE_EVENT, hear);
    __pactsHost.listen(window, BRIDGE_DONE, end);
    __pactsHost.listen(window, KEPT_ASK, ask);
  };
  listen();
  let relistened = 0;
  const probe = new UIEvent(BRIDGE_DONE, { detail: 0 });
  // indexed loops only: this runs on pages whose array methods may be replaced
  const bridge = {
    hold(token, el) { held = el; heldToken = token; },
    // the element held under ``token``, while it is in the document; else null
    held: heldNow,
    // resolves true once the query of call ``call`` is done, false after ``ms`` without, or
    // at once when the listeners do not hear
    wait(call, ms) {
      alive = false;
      window.dispatchEvent(probe);
      if (!alive) {
        if (relistened < 3) {
          relistened += 1;
          listen();
        }
        return Promise.resolve(false);
      }
      for (let i = 0; i < finished.length; i++) if (finished[i] === call) return Promise.resolve(true);
      return new Promise((resolve) => {
        const entry = [call, resolve];
        waiting[waiting.length] = entry;
        setTimeout(() => resolve(false), ms);
      });
    },
    // the elements of call ``call``; forgets what was heard for it, and for calls long
    // past (sent ahead, then not waited for); other calls in flight keep theirs
    take(call) {
      const els = [];
      const past = (n) => n === call || n < call - 1000;
      let kept = 0;
      for (let i = 0; i < heard.length; i++) {
        const entry = heard[i];
        if (entry[0] === call) {
          let seen = false;
          for (let j = 0; j < els.length; j++) if (els[j] === entry[1]) seen = true;
          if (!seen) els[els.length] = entry[1];
        }
        if (!past(entry[0])) heard[kept++] = entry;
      }
      heard.length = kept;
      kept = 0;
      for (let i = 0; i < finished.length; i++) if (!past(finished[i])) finished[kept++] = finished[i];
      finished.length = kept;
      kept = 0;
      for (let i = 0; i < waiting.length; i++) if (!past(waiting[i][0])) waiting[kept++] = waiting[i];
      waiting.length = kept;
      return els;
    },
  };
  Object.defineProperty(globalThis, '__pacts_bridge', { value: bridge });
  return bridge;
}

// Exports: what the later files use.
return { installWatch, installBridge, pageChanged };
