"""What the page said after an action: the messages a failed expectation quotes.

A person who sees "expected navigates_to:Products, but the URL did not change" looks at the
page and reads "Username and password do not match". The engine does the same: before an
action whose step has an expected outcome it notes the messages the page already shows,
and when the outcome fails it quotes the ones that are **new since the action**:

- announced messages: ARIA live regions (``role=alert``, ``alertdialog``, ``status``,
  ``aria-live``) and ``<output>``;
- error, flash and notice messages by their conventional marks (a class, id or test id
  with ``error``, ``alert``, ``flash``, ``notice``, ``message``, ``toast``, ``invalid``);
- the browser's own validation messages (HTML constraint validation,
  ``validationMessage``) of the fields whose ``invalid`` event fired since the action (a
  submit the browser refused), and of fields marked ``aria-invalid="true"`` since.

A control (HTML interactive content, a WAI-ARIA widget role) is never a message, whatever its
classes, and an id made of the words the element shows (``id="model-Error"``) names data,
not a message.

The page **refused the input** when one of them says so by the standards' marks: an
``invalid`` event or ``aria-invalid`` (HTML, WAI-ARIA), ``role=alert``/``alertdialog``,
or an error mark (``error``, ``danger``, ``invalid``). The failure then has the cause
``input_refused`` and the root cause ``data_issue`` (docs/engine.md, "Verdict and RCA").
Every read is bounded (``runtime/bounded.py``) and a page that does not answer is quoted
as saying nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.models.requirement import Action, ExpectationKind, Step
from pytest_pacts.runtime import bounded

__all__ = ["PageMessage", "explain", "messages", "watch", "watch_sent", "watched"]

MAX_MESSAGES = 3
MAX_CHARS = 200
_READ_MS = 1_500

# One function for both reads: ``reset`` (before the action) starts listening for
# ``invalid`` events (they do not bubble: a capturing listener on the document sees them)
# and forgets the fields flagged so far; both return the messages shown now, as JSON.
_JS = r"""
(reset) => {
  const KEY = '__pactsPageSays';
  let st = window[KEY];
  if (!st) {
    st = { invalid: [], acts: [] };
    Object.defineProperty(window, KEY, { value: st, enumerable: false });
    document.addEventListener('invalid', (e) => { st.invalid.push(e.target); }, true);
    // what the action set off in the page: trusted clicks and form submissions (set_off)
    const act = (e) => { if (e.isTrusted && st.acts.length < 20) st.acts.push(e); };
    window.addEventListener('click', act, true);
    window.addEventListener('submit', act, true);
  }
  if (reset) {
    st.invalid = [];
    st.acts = [];
    st.ariaBefore = new Set(document.querySelectorAll('[aria-invalid="true"]'));
  }
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 && r.height <= 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && s.opacity !== '0';
  };
  const text = (el) => (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim();
  const ERR = /(^|[^a-z])(error|errors|danger|invalid|failed|failure)([^a-z]|$)/i;
  const MARKS = new RegExp('(^|[^a-z])(error|errors|alert|flash|notice|message|messages|toast'
    + '|invalid|danger|feedback)([^a-z]|$)', 'i');
  const out = [];
  const add = (t, kind, refused) => {
    if (!t) return;
    const same = out.find((m) => m[0] === t);
    if (same) { same[2] = same[2] || refused; return; }
    out.push([t.length > 200 ? t.slice(0, 199) + '…' : t, kind, refused]);
  };
  const live = '[role=alert],[role=alertdialog],[role=status],[aria-live=assertive],'
    + '[aria-live=polite],output';
  // a control is what a person operates, not what the page says (HTML interactive content,
  // WAI-ARIA widget roles): a "Drop" tab styled ``text-danger`` is no error message
  const CONTROL = 'button, a[href], input, select, textarea, summary, [role=button], [role=link],'
    + '[role=tab], [role=menuitem], [role=option], [role=checkbox], [role=radio], [role=switch]';
  for (const el of document.querySelectorAll('body *')) {
    if (out.length >= 20) break;
    const role = el.getAttribute('role') || '';
    const ids = [el.id, el.getAttribute('data-test') || '', el.getAttribute('data-testid') || '']
      .join(' ');
    const cls = typeof el.className === 'string' ? el.className : '';
    const marks = cls + ' ' + ids;
    const announced = el.matches(live);
    if (!announced && (!MARKS.test(marks) || el.matches(CONTROL))) continue;
    if (!shown(el)) continue;
    const t = text(el);
    if (!t || t.length > 300) continue;  // a whole region, not a message
    // an identifier made of the words it shows (``id="model-Error"`` for a schema named
    // "Error") names the data, it does not mark a message
    if (!announced && !MARKS.test(cls)
      && ids.toLowerCase().replace(/[^a-z0-9]+/g, ' ').includes(t.toLowerCase())) continue;
    const alert = role === 'alert' || role === 'alertdialog';
    add(t, announced ? (role || 'live region') : 'message', alert || ERR.test(marks));
  }
  const label = (f) => {
    const l = (f.labels && f.labels[0] && text(f.labels[0])) || f.getAttribute('aria-label')
      || f.getAttribute('placeholder') || f.name || '';
    return l ? l.replace(/[:*\s]+$/, '') + ': ' : '';
  };
  for (const f of st.invalid) {
    if (f.isConnected && f.validationMessage) {
      add(label(f) + f.validationMessage, 'validation', true);
    }
  }
  const before = st.ariaBefore || new Set();
  for (const f of document.querySelectorAll('[aria-invalid="true"]')) {
    if (before.has(f) || !shown(f)) continue;
    const ids = (f.getAttribute('aria-errormessage') || f.getAttribute('aria-describedby') || '')
      .split(/\s+/).filter(Boolean);
    const said = ids.map((id) => document.getElementById(id)).filter(Boolean).map(text).join(' ');
    add(label(f) + (said || 'marked invalid'), 'validation', true);
  }
  return JSON.stringify(out);
}
"""


# The trusted clicks and form submissions since the action, each with the element it reached
# and whether the page cancelled it (``preventDefault``, read after the event was handled).
_SET_OFF_JS = r"""
() => {
  const st = window.__pactsPageSays;
  if (!st) return null;
  const name = (el) => {
    if (!el || !el.tagName) return 'the document';
    // a form's or a field's own words are what was typed into it: never read
    const typed = ['FORM', 'INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)
      || el.isContentEditable;
    const words = (el.getAttribute('aria-label') || (typed ? '' : el.innerText) || '')
      .replace(/\s+/g, ' ').trim().slice(0, 40);
    const id = (el.id ? '#' + el.id : '')
      + (el.tagName === 'INPUT' ? '[type=' + el.type + ']' : '');
    return el.tagName.toLowerCase() + id + (words ? ' "' + words + '"' : '');
  };
  return st.acts.slice(-6).map((e) => [e.type,
    name(e.type === 'click' && e.target.closest ? e.target.closest('button, a, input, [role]')
      || e.target : e.target), e.defaultPrevented]);
}
"""


@dataclass(frozen=True)
class PageMessage:
    """One message the page shows: its text, what showed it, whether it refuses input."""

    text: str
    kind: str  # "alert", "status", "message", "validation", ...
    refused: bool

    def quoted(self) -> str:
        return json.dumps(self.text, ensure_ascii=False)


def _read(page: Page, reset: bool) -> list[PageMessage]:
    try:
        raw = bounded.call(
            page, "reading the page's messages", page.evaluate, _JS, reset, timeout_ms=_READ_MS
        )
    except PlaywrightError:
        return []  # navigating, closed or not answering: it said nothing we could read
    return _parsed(raw)


def _parsed(raw: object) -> list[PageMessage]:
    try:
        rows = json.loads(raw) if isinstance(raw, str) else []
    except ValueError:
        return []
    out: list[PageMessage] = []
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, list) and len(row) == 3 and isinstance(row[0], str):
            out.append(PageMessage(row[0][:MAX_CHARS], str(row[1]), bool(row[2])))
    return out


def watch(page: Page) -> frozenset[str]:
    """Before an action: start noting refused fields; the texts the page shows already."""
    return frozenset(m.text for m in _read(page, reset=True))


def watch_sent(page: Page) -> bounded.Sent[frozenset[str]]:
    """:func:`watch` sent ahead (``runtime.bounded.send``): the page runs it before the calls
    sent after it (the step's gate check), whose round trip its own overlaps; its answer,
    read with :func:`watched` before the action, is the same."""
    return bounded.send(
        page.main_frame,
        "reading the page's messages",
        _JS,
        True,
        then=lambda raw: frozenset(m.text for m in _parsed(raw)),
    )


def watched(sent: bounded.Sent[frozenset[str]]) -> frozenset[str]:
    """What :func:`watch_sent` found; nothing when the page did not answer."""
    try:
        return sent.result()
    except PlaywrightError:
        return frozenset()  # navigating, closed or not answering: it said nothing we could read


def messages(page: Page, before: frozenset[str]) -> list[PageMessage]:
    """The messages the page shows now that it did not show before the action, refusals
    first, at most :data:`MAX_MESSAGES`."""
    new = [m for m in _read(page, reset=False) if m.text not in before]
    new.sort(key=lambda m: not m.refused)
    return new[:MAX_MESSAGES]


def set_off(
    page: Page, navigations: int, failed: Sequence[str], *, events: bool = True
) -> tuple[str, ...]:
    """What an action set off, when the new page it was to open did not come: the clicks
    and form submissions the page received since (and whether it cancelled them), and the
    navigations requested since (``navigations``, ``failed``: the monitor's count and
    failures since the action). Evidence for "the URL did not change": a click that reached
    another element, a submit the page cancelled, a navigation the browser dropped.
    ``events=False``: the page's events are not read (the element is inside an iframe, whose
    events the top document's listeners never see)."""
    acts = None
    try:
        if events:
            acts = bounded.call(
                page, "reading what the action set off", page.evaluate, _SET_OFF_JS,
                timeout_ms=_READ_MS,
            )  # fmt: skip
    except PlaywrightError:
        acts = None
    out: list[str] = []
    for row in acts if isinstance(acts, list) else []:
        if not (isinstance(row, list) and len(row) == 3):
            continue
        kind, what, cancelled = str(row[0]), str(row[1]), bool(row[2])
        said = f"the click reached {what}" if kind == "click" else f"the form {what} was submitted"
        out.append(said + (" and the page cancelled it (preventDefault)" if cancelled else ""))
    if isinstance(acts, list) and not acts:
        out.append("the page received no click or form submission since the action")
    if failed:
        out.extend(f"a navigation was requested and did not load: {f}" for f in failed)
    elif navigations:
        out.append(f"{navigations} navigation(s) requested since the action, no new page came")
    else:
        out.append("no navigation was requested since the action")
    return tuple(out)


def explain(failure: Failure, said: Sequence[PageMessage]) -> Failure:
    """``failure`` (an expected outcome that did not come) quoting what the page said; the
    cause ``input_refused`` when the page refused the input."""
    if failure.type is not FailureType.EXPECTATION_FAILED or failure.cause is not None:
        return failure
    if not said:
        return failure
    quotes = "; ".join(m.quoted() for m in said)
    refused = any(m.refused for m in said)
    lead = "the page refused the input, saying" if refused else "the page says"
    evidence = tuple(f"the page says ({m.kind}): {m.quoted()}" for m in said)
    return failure.model_copy(
        update={
            "message": f"{failure.message}; {lead} {quotes}",
            "evidence": (*failure.evidence, *evidence),
            "cause": "input_refused" if refused else None,
        }
    )


# Outcomes about what the page does after an input (a submit, a click): when one fails, the
# page's own new messages say why. A field's own state (its value, checked, enabled) and a
# response are checked on the element or the network instead.
PAGE_OUTCOMES = frozenset(
    {
        ExpectationKind.NAVIGATES_TO,
        ExpectationKind.URL_CONTAINS,
        ExpectationKind.TITLE_CONTAINS,
        ExpectationKind.TEXT_VISIBLE,
        ExpectationKind.TEXT_HIDDEN,
        ExpectationKind.ELEMENT_VISIBLE,
        ExpectationKind.ELEMENT_HIDDEN,
        ExpectationKind.COUNT,
    }
)

# Outcomes that a new page brings: when one fails on the same document, what the action set
# off is evidence (:func:`with_what_it_set_off`).
NEW_PAGE_OUTCOMES = frozenset({ExpectationKind.NAVIGATES_TO, ExpectationKind.URL_CONTAINS})

NavigationMark = tuple[int, int, int]


def quotes_page(step: Step) -> bool:
    """A failed outcome of this step quotes what the page said since its action."""
    return (
        step.expected is not None
        and step.expected.kind in PAGE_OUTCOMES
        and step.action not in (Action.GOTO, Action.WAIT)
        and step.capture is None
    )


def navigation_mark(monitor: EnvMonitor) -> NavigationMark:
    """Where the monitor's documents and navigations stand before an action."""
    return monitor.documents, monitor.navigations, len(monitor.navigations_failed)


def with_what_it_set_off(
    page: Page, monitor: EnvMonitor, failure: Failure, before: NavigationMark, *, events: bool
) -> Failure:
    """A new page that did not come (``navigates_to``, ``url_contains``) while the page
    stayed the same document: the failure's evidence says what the action set off
    (:func:`set_off`), so "the URL did not change" tells a click that reached another
    element, a submit the page cancelled and a navigation the browser dropped apart."""
    documents, navigations, failed = before
    if failure.type is not FailureType.EXPECTATION_FAILED or monitor.documents != documents:
        return failure
    said = set_off(
        page, monitor.navigations - navigations, monitor.navigations_failed[failed:], events=events
    )
    return failure.model_copy(update={"evidence": (*failure.evidence, *said)})
