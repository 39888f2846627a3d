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

from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.runtime import bounded

__all__ = ["PageMessage", "explain", "messages", "watch"]

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
    st = { invalid: [] };
    Object.defineProperty(window, KEY, { value: st, enumerable: false });
    document.addEventListener('invalid', (e) => { st.invalid.push(e.target); }, true);
  }
  if (reset) {
    st.invalid = [];
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
  for (const el of document.querySelectorAll('body *')) {
    if (out.length >= 20) break;
    const role = el.getAttribute('role') || '';
    const marks = [typeof el.className === 'string' ? el.className : '', el.id,
      el.getAttribute('data-test') || '', el.getAttribute('data-testid') || ''].join(' ');
    const announced = el.matches(live);
    if (!announced && !MARKS.test(marks)) continue;
    if (!shown(el)) continue;
    const t = text(el);
    if (!t || t.length > 300) continue;  // a whole region, not a message
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


def messages(page: Page, before: frozenset[str]) -> list[PageMessage]:
    """The messages the page shows now that it did not show before the action, refusals
    first, at most :data:`MAX_MESSAGES`."""
    new = [m for m in _read(page, reset=False) if m.text not in before]
    new.sort(key=lambda m: not m.refused)
    return new[:MAX_MESSAGES]


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
