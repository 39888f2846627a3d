// The document's last DOM change, watched without a gap, and how many animation frames the
// page has drawn since (counted up to two, then the watch sleeps until the next change).
//
// The engine puts it in every document from the document's first moment (an init script of
// the page, engine/env.py); the installed API starts one itself on a page without it (then
// installing counts as a change: nothing was watched before it). It lives under
// ``globalThis.__pacts_changes``: ``{at, frames, flush()}``. ``at``: performance.now() of the
// last change; ``frames``: animation frames drawn since, at most 2; ``flush()`` counts the
// changes whose observer callback has not run yet.
//
// "No DOM change for two animation frames" is then a reading, not a wait: a settled page
// answers at once (a gate check of an element that is gone, a new page's readiness), and a
// page still changing is watched over two more frames by the caller. Costs nothing on a
// quiet page: at most two frame callbacks per burst of changes.

// The frame a fresh realm comes from (js/realm.js names it so), attached and removed in one go
// by the in-page code itself: not a change of the page.
const REALM_FRAME = '__pacts_realm';
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
  const watch = { at: now(), frames: 0 };
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
    watch.frames = 0;
    if (!pending) { pending = true; raf(tick); }
  };
  const obs = new MutationObserver((records) => { if (pageChanged(records)) changed(); });
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  watch.flush = () => { if (pageChanged(obs.takeRecords())) changed(); };
  changed();
  Object.defineProperty(globalThis, '__pacts_changes', { value: watch });
  return watch;
}

// Exports: what the later files use.
return { installWatch, pageChanged };
