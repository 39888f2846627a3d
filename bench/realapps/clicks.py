"""Every pointer click in the page, checked against the element the engine said it acts on.

The engine's observer (``Runtime.observer``) is told each step's element after the gate
passed, before the step's own action. Clicks the engine makes for itself are not announced:
the repair rung's dismissal of a covering consent banner or dialog
(``engine/healing/repair.py``, ``_reveal``) clicks the layer's accept/close button through a
handle of its own. A corpus check that only reads the observer would miss a dismissal that
clicked the wrong thing (the app's own "Delete" in a dialog it took for a banner).

So the corpus watches the page itself: an init script in every frame of the flow's context
listens, in the capture phase, to every trusted pointer click (``isTrusted`` and
``detail > 0``: a mouse press and release, as Playwright's ``click``, ``check`` and
``dblclick`` make; a click the browser simulates for a key press or an implicit form
submission has ``detail == 0``) and compares its target with the element last announced in
that document. A click on that element, inside it, or on a ``<label>`` whose control it is
(Playwright's own hit-target rule) is the step's action; so, for a ``select`` step, is a
click on the dropdown that stands for the element and in the list of options it names
(aria-controls/aria-owns, the APG combobox pattern). A click whose target is none of these
is still the step's when the element pressed and the element released both were: the
browser sends a click to their nearest common ancestor (UI Events, "click"), as when a
dropdown takes its option on the press and hides its list. A click on the announced element
that no longer shows every word it showed when announced is not the step's: a list patched
in place gives the announced node another entry's words (doccano 1.6.2's sidebar, "Members"
announced, the node showing "Labels" when clicked), and a hover may only add words. Any
other click is a *stray click*: it counts as a wrong-element action unless the truth file
lists its target as a layer's button a tool may dismiss (``_dismiss``, plain CSS per
version; README.md), or the announcement of the step in progress could not be made (its
element did not answer within 10 s): such a click is reported as unchecked, not counted.

Nothing here changes the page: the announcement is a property of the document's window
(no attribute, no DOM node), so the engine's change watch and readiness see no difference.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import BrowserContext
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator

BINDING = "__pactsCorpusClick"
ANNOUNCED = "__pactsCorpusActed"

_SCRIPT = """
(() => {
  if (window.__pactsCorpusWatch) return;
  window.__pactsCorpusWatch = true;
  const allowed = %(allowed)s;
  const up = (n) => n.parentNode || n.host || null;  // through shadow roots
  const within = (t, el) => {
    for (let n = t; n; n = up(n)) if (n === el) return true;
    return false;
  };
  const labelled = (t, el) => {
    for (let n = t; n; n = up(n)) if (n.tagName === 'LABEL' && n.control === el) return true;
    return false;
  };
  // A select step on a custom dropdown clicks the dropdown a person sees, then an option in
  // the list it opened (WAI-ARIA APG combobox pattern): the widget standing in for a hidden
  // native select (a sibling, the parent or its sibling, holding the combobox), the
  // combobox, and the lists it, or a field inside it, names in aria-controls/aria-owns.
  const dropdown = (t, el) => {
    const roots = [el];
    if (el.tagName === 'SELECT') {
      const p = el.parentElement;
      for (const e of [el.previousElementSibling, el.nextElementSibling, p,
        p && p.previousElementSibling, p && p.nextElementSibling]) {
        if (e && e !== el && e.querySelector && e.querySelector('[role=combobox]')) roots.push(e);
      }
    }
    const doc = el.ownerDocument;
    const parts = [...roots];
    for (const r of roots) {
      for (const e of [r, ...r.querySelectorAll('[aria-controls], [aria-owns]')]) {
        for (const attr of ['aria-controls', 'aria-owns']) {
          for (const id of (e.getAttribute(attr) || '').split(/\\s+/)) {
            const list = id && doc.getElementById(id);
            if (list) parts.push(list);
          }
        }
      }
    }
    return parts.some((part) => within(t, part));
  };
  const matches = (t) => allowed.some((sel) => {
    try { return !!(t.closest && t.closest(sel)); } catch (e) { return false; }
  });
  // A click goes to the nearest common ancestor of the element pressed and the element
  // released (UI Events, "click"): a dropdown that takes its option on the press and hides
  // its list has the click land on a container of both. It is the step's when both the
  // press and the release were.
  // A select step on a dropdown that names no list that exists (no aria-controls or
  // aria-owns, or IDREFs naming no element, which WAI-ARIA says give no relation) chooses in
  // the one list of options shown (docs/engine.md, "Drop-downs"): a press in it, when it is
  // the only one shown at the press, is the step's (Gradio's drop-downs).
  const lone = (t, el) => {
    const doc = el.ownerDocument;
    const named = [el, ...el.querySelectorAll('[aria-controls], [aria-owns]')].some((e) =>
      ['aria-controls', 'aria-owns'].some((a) => (e.getAttribute(a) || '').split(/\\s+/)
        .some((id) => id && doc.getElementById(id))));
    const lists = [...doc.querySelectorAll('[role=listbox]:not(input)')]
      .filter((l) => l.getClientRects().length > 0);
    return !named && lists.length === 1 && within(t, lists[0]);
  };
  const pressed = { down: null, up: null, lone: false };
  for (const type of ['mousedown', 'mouseup']) {
    window.addEventListener(type, (event) => {
      const t = event.composedPath()[0] || event.target;
      if (!event.isTrusted) return;
      pressed[type === 'mousedown' ? 'down' : 'up'] = t;
      const acted = window.%(announced)s;
      if (type === 'mousedown') {
        pressed.lone = !!acted && acted.action === 'select' && lone(t, acted.el);
      }
    }, true);
  }
  const steps = (t, acted) => !!t && (within(t, acted.el) || labelled(t, acted.el)
    || (acted.action === 'select' && dropdown(t, acted.el)));
  // the announced element's words now, when it lost one it showed when announced
  const redrawn = (acted) => {
    const now = (acted.el.innerText || acted.el.textContent || '').trim().replace(/\\s+/g, ' ');
    const has = new Set(now.toLowerCase().split(' '));
    return (acted.words || []).every((w) => has.has(w)) ? '' : now.slice(0, 60);
  };
  window.addEventListener('click', (event) => {
    if (!event.isTrusted || event.detail === 0) return;
    const target = event.composedPath()[0] || event.target;
    if (!(target instanceof Element)) return;
    const acted = window.%(announced)s;
    const send = window.%(binding)s;
    if (typeof send !== 'function') return;
    // the engine's click guard (engine/pointer_guard.py) stops, in the same capture phase
    // but after this listener, the events of a click that reached another element
    const guard = window[Symbol.for('pytest-pacts.pointer-guard')];
    const changed = acted ? redrawn(acted) : '';
    const own = acted && !changed && (steps(target, acted)
      || ((pressed.lone || steps(pressed.down, acted)) && steps(pressed.up, acted)));
    // a click the guard stopped is the engine's own for the announced step, wherever it
    // landed: that announcement was not acted on
    if (acted && guard && guard.stopped) send({stoppedOwn: acted.n});
    if (own) return;
    send({
      step: acted ? acted.step : null,
      html: target.outerHTML.slice(0, 200),
      allowed: matches(target),
      url: location.href,
      stopped: !!(guard && guard.stopped),
      redrawn: changed && `now "${changed}", announced as "${acted.words.join(' ')}"`,
    });
  }, true);
})();
"""


# the words an announced element shows (a form field's value is not its words), lower case
_WORDS = (
    "const words = el.matches('input, textarea, select') ? [] : (el.innerText || el.textContent"
    " || '').toLowerCase().split(/\\s+/).filter(Boolean).slice(0, 40);"
)


@dataclass
class StrayClick:
    """A pointer click on something other than the announced element."""

    after_step: int | None  # the last step announced in that document (None: none yet)
    html: str
    allowed: bool  # its target is a ``_dismiss`` button of the truth file
    url: str
    # an announcement failed (the element could not be read in time): the click cannot be
    # told apart from that step's own action, so it is reported, not counted as wrong
    unchecked: str = ""
    # the engine's click guard stopped it in the window's capture phase, before the page's
    # own listeners (a listener the page added to the window's capture phase before the
    # guard's, as this watch's is, would still see it): reported, not counted as wrong
    stopped: bool = False
    # the click reached the announced element, which no longer showed the words it showed
    # when announced (a list patched in place): what it showed then and when announced
    redrawn: str = ""

    def describe(self) -> str:
        where = (
            f"after step {self.after_step}"
            if self.after_step
            else "in a document no step announced in"
        )
        if self.allowed:
            kind = "a listed dismiss button"
        elif self.stopped:
            kind = "stopped by the engine's click guard before the page's listeners"
        elif self.unchecked:
            kind = f"unchecked: {self.unchecked}"
        elif self.redrawn:
            kind = f"the announced element with other words: {self.redrawn}"
        else:
            kind = "not the announced element"
        return f"stray click {where} on {self.html!r} at {self.url} ({kind})"


@dataclass
class ClickWatch:
    """Install on a flow's context before its page opens; :meth:`announce` from the
    observer; read :attr:`stray` after the context closed."""

    allowed: Sequence[str] = ()
    stray: list[StrayClick] = field(default_factory=list)
    # the last step announced, and why its announcement failed ("" when it did not)
    last: int | None = None
    failed: str = ""
    # announcements made (numbered from 1), and those whose own click the engine's guard
    # stopped before the page handled it (the element was not acted on: engine/pointer_guard.py)
    announced: int = 0
    stopped_own: set[int] = field(default_factory=set)

    def install(self, context: BrowserContext) -> None:
        context.expose_binding(BINDING, self._on_click)
        script = _SCRIPT % {
            "allowed": json.dumps(list(self.allowed)),
            "announced": ANNOUNCED,
            "binding": BINDING,
        }
        context.add_init_script(script)

    def announce(self, element: PWLocator, step: int, action: str = "") -> None:
        """The engine is about to ``action`` ``element`` for ``step`` (1-based)."""
        self.last, self.failed = step, ""
        self.announced += 1
        n = self.announced
        try:
            element.evaluate(f"(el, [step, action, n]) => {{ {_WORDS} window.{ANNOUNCED} = "
                "{el, step, action, words, n}; }", [step, action, n], timeout=10_000)  # fmt: skip
        except PlaywrightError as exc:  # the observer's own check reports the element
            self.failed = f"step {step}'s announcement failed: {str(exc).splitlines()[0][:120]}"

    def _on_click(self, source: Any, info: dict[str, Any]) -> None:
        if "stoppedOwn" in info:  # the guard stopped the announced element's own click
            self.stopped_own.add(int(info["stoppedOwn"]))
            return
        step = info.get("step")
        self.stray.append(
            StrayClick(
                after_step=int(step) if isinstance(step, int | float) else None,
                html=str(info.get("html", "")),
                allowed=bool(info.get("allowed")),
                url=str(info.get("url", "")),
                unchecked=self.failed,
                stopped=bool(info.get("stopped")),
                redrawn=str(info.get("redrawn") or ""),
            )
        )

    @property
    def wrong(self) -> list[StrayClick]:
        return [c for c in self.stray if not c.allowed and not c.unchecked and not c.stopped]
