"""Record what a person does on a page as sheet rows (``pacts record``; docs/user-guide.md,
"Record a sheet").

:class:`Recorder` installs the in-page listener (``listener.js``) in every document of the
page and receives its reports through a binding. A click, and Enter, Tab or Escape, is held
by the listener until the element is named on the page as it was; then it is let through,
the page settles, and what changed is suggested as the row's expected outcome. Naming is
:func:`~pytest_pacts.discovery.inventory.name_of`, the search ``pacts elements`` makes:
the element's name, then with a region, then an ordinal, each kept only when discovery
(under the run's evidence rule) resolves it back to exactly the element used. A row that
no text does is written with the best text and a note saying why.

Drive it from a test the way a person would: ``recorder.start(page)``, then click and type
on ``page`` with Playwright, then ``recorder.stop()``. Every page call is bounded.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from importlib import resources
from typing import Any, cast
from urllib.parse import urlsplit

from playwright.sync_api import ElementHandle, Page
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery.inventory import name_of
from pytest_pacts.engine.pagename import PAGE_NAMES_JS
from pytest_pacts.models import Action
from pytest_pacts.models.evidence import EvidenceRule
from pytest_pacts.recording.model import RecordedStep, Recording, env_name, is_secret
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.scripts import realm_function
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS

BINDING = "__pactsRecord"
SETTLE_MS = 5_000.0  # the longest an action's effects are waited for
LOOK_MS = 300.0  # the least: a click's navigation or request may start a moment later
QUIET_MS = 200.0  # how long no request may be in flight for the page to count as settled
STEP_MS = 50.0


@functools.cache
def listener_source() -> str:
    return (
        resources.files("pytest_pacts.recording")
        .joinpath("listener.js")
        .read_text(encoding="utf-8")
    )


# Visible short texts of the page, each with a rank (0: a heading, an alert, a status or a
# live region; 1: any other text), to suggest `text_visible:` for what an action showed.
_TEXTS = r"""() => {
  const out = [];
  const seen = new Set();
  const important = 'h1, h2, h3, h4, h5, h6, [role=heading], [role=alert], [role=status], '
    + '[aria-live], output, dialog, [role=dialog]';
  const all = document.body ? document.body.querySelectorAll('*') : [];
  for (let i = 0; i < all.length && out.length < 3000; i++) {
    const el = all[i];
    if (['SCRIPT', 'STYLE', 'PACTS-RECORDER'].includes(el.tagName)) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || getComputedStyle(el).visibility === 'hidden') continue;
    const text = (el.innerText || '').replace(/\s+/g, ' ').trim();
    if (text.length < 2 || text.length > 60 || seen.has(text)) continue;
    seen.add(text);
    out.push([text, el.closest(important) ? 0 : 1]);
  }
  return out;
}"""


def _page_name(page: Page) -> str | None:
    """The name the page shows (its main heading, else its title), for ``navigates_to:``."""
    with suppress(PlaywrightError):
        names = cast(
            list[list[str]],
            bounded.call(
                page, "reading the page's name", page.evaluate, realm_function(PAGE_NAMES_JS)
            ),
        )
        for text, _why in names:
            if text and len(text) <= 60 and "|" not in text:
                return text
        title = bounded.call(page, "reading the title", page.title).strip()
        if title and "|" not in title:
            return title[:60]
    return None


def _same_page(a: str, b: str) -> bool:
    return a.split("#", 1)[0] == b.split("#", 1)[0]


class Recorder:
    """Turns a person's actions on one page into a :class:`Recording` (see the module)."""

    def __init__(
        self,
        *,
        req_id: str = "REQ-RECORDED-001",
        title: str | None = None,
        auth: str | None = None,
        hover: bool = False,
        overlay: bool = True,
        evidence: EvidenceRule | None = None,
        timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self._options = {"hover": hover, "overlay": overlay}
        self._evidence = evidence
        self._timeout_ms = timeout_ms
        self._say = say or (lambda _text: None)
        self._page: Page | None = None
        self._acting = False
        self._navigating = False
        self._moved: str | None = None
        self._queue: deque[tuple[dict[str, Any], ElementHandle | None]] = deque()
        self._busy = False
        self._in_flight: set[int] = set()
        self._url = ""
        self.recording = Recording(url="", req_id=req_id, title=title, auth=auth)

    # -- the recording's life ------------------------------------------------------------

    def watch(self, page: Page) -> None:
        """Follow ``page``'s navigations and requests (what :meth:`act` waits for), without
        listening to the person: the importer's way in."""
        self._page = page
        self._url = page.url
        if not self.recording.url and not page.url.startswith("about:"):
            self.recording.url = page.url
        page.on("framenavigated", self._on_navigated)
        page.on("request", self._request)
        page.on("requestfinished", self._request_done)
        page.on("requestfailed", self._request_done)
        page.on("dialog", self._dialog)

    def _dialog(self, dialog: Any) -> None:
        """Accept a dialog (a "Delete?" confirm), as a run does by default (docs/engine.md):
        the recording goes on as the run will."""
        with suppress(PlaywrightError):
            dialog.accept(dialog.default_value if dialog.type == "prompt" else None)
        self._say(f'the page showed a {dialog.type} dialog "{dialog.message}": accepted')

    def start(self, page: Page) -> None:
        """Listen on ``page`` from now on (its current document and every later one)."""
        script = f"({listener_source()})({_json(self._options)})"
        self.watch(page)
        page.expose_binding(BINDING, self._on_report)
        page.add_init_script(script=script)
        with suppress(PlaywrightError):
            bounded.call(page, "installing the recorder", page.evaluate, script)

    def idle(self, timeout_ms: float = 3 * SETTLE_MS) -> bool:
        """Wait until every report so far is recorded (at most ``timeout_ms``); answers
        whether it is. A test calls it before looking at :attr:`steps`."""
        page = self._page
        waited = 0.0
        while page is not None and not page.is_closed() and waited < timeout_ms:
            if not (self._busy or self._queue or self._unsent(page)):
                return True
            with suppress(PlaywrightError):
                page.wait_for_timeout(STEP_MS)
            waited += STEP_MS
        return not (self._busy or self._queue)

    def _unsent(self, page: Page) -> bool:
        """Whether the page has reports Python has not received yet."""
        with suppress(PlaywrightError):
            return bool(
                bounded.call(
                    page,
                    "asking for reports",
                    page.evaluate,
                    "() => (window.__pactsRecorder || {pending: 0}).pending > 0",
                )
            )
        return False

    def stop(self) -> Recording:
        """Stop listening, once what was done is recorded; answers the recording (the page
        is left as it is)."""
        page = self._page
        if page is not None and not page.is_closed():
            with suppress(PlaywrightError):
                bounded.call(
                    page,
                    "taking the last typing",
                    page.evaluate,
                    "() => window.__pactsRecorder && window.__pactsRecorder.flush()",
                )
        self.idle()
        self._went()
        page, self._page = self._page, None
        if page is not None and not page.is_closed():
            with suppress(PlaywrightError):
                page.remove_listener("framenavigated", self._on_navigated)
                page.remove_listener("request", self._request)
                page.remove_listener("requestfinished", self._request_done)
                page.remove_listener("requestfailed", self._request_done)
                page.remove_listener("dialog", self._dialog)
        return self.recording

    @property
    def steps(self) -> list[RecordedStep]:
        return self.recording.steps

    # -- reports from the page -----------------------------------------------------------

    def _on_navigated(self, frame: Any) -> None:
        page = self._page
        if page is None or frame != page.main_frame:
            return
        if self._acting:
            self._navigating = True
            return
        url = str(frame.url)
        if url.startswith("about:"):
            return
        if not self.recording.url:
            self.recording.url = self._url = url
            return
        # typed in the address bar, or a page that moved on its own: a ``goto`` row, written
        # when the next report comes (an action's own navigation may be reported late)
        self._moved = url

    def _went(self) -> None:
        url, self._moved = self._moved, None
        if url is not None and not _same_page(url, self._url):
            self._url = url
            self._add(RecordedStep("goto", None, url))

    def _on_report(self, source: dict[str, Any], payload: dict[str, Any]) -> None:
        """One report: its element is taken from the page now, then the report waits its
        turn. Playwright runs each binding call on its own, so a report that comes while an
        earlier one is still settling is queued, and handled in order by the first."""
        page = self._page
        if page is None:
            return
        try:
            target = self._target(page, str(payload["id"]))
        except PlaywrightError:
            target = None
        self._queue.append((payload, target))
        if self._busy:
            return
        self._busy = True
        try:
            while self._queue and self._page is not None:
                payload, target = self._queue.popleft()
                try:
                    self._went()
                    with bounded.budget(self._timeout_ms):
                        self._handle(page, payload, target)
                except PlaywrightError as exc:  # the page went away while we looked
                    self._say(
                        f"a {payload.get('kind')} was not recorded: {str(exc).splitlines()[0]}"
                    )
                except bounded.PageUnresponsive as exc:
                    self._say(f"a {payload.get('kind')} was not recorded: {exc}")
        finally:
            self._busy = False

    def _handle(self, page: Page, payload: dict[str, Any], target: ElementHandle | None) -> None:
        kind = str(payload["kind"])
        if kind == "assert":
            self.expect_text(str(payload["value"]))
            return
        if payload.get("hold"):
            self._acting = True
            try:
                self._held(page, kind, target, payload)
            finally:
                self._acting = False
                self._url = page.url
            return
        if target is None:
            return
        value = payload.get("value")
        step = self._named(page, target, Action(kind))
        if kind == "fill":
            step.value = self._secret(
                page, target, step, str(value or ""), bool(payload.get("secret"))
            )
        elif kind == "select":
            step.value = str(value or "")
        self._add(step)

    def _held(
        self, page: Page, kind: str, target: ElementHandle | None, payload: dict[str, Any]
    ) -> None:
        key = str(payload.get("value") or "")

        def let_through() -> None:  # the held action, as the person did it
            if kind == "press":
                bounded.call(
                    page,
                    "letting the key through",
                    page.evaluate,
                    "() => { window.__pactsRecorder.replaying = true; }",
                )
                try:
                    bounded.call(page, "pressing the key", page.keyboard.press, key)
                finally:
                    with suppress(PlaywrightError):
                        bounded.call(
                            page,
                            "after the key",
                            page.evaluate,
                            "() => { window.__pactsRecorder.replaying = false; }",
                        )
            elif target is not None:
                bounded.call(
                    page,
                    "letting the click through",
                    target.evaluate,
                    "(el, id) => window.__pactsRecorder.replay(id, el)",
                    str(payload["id"]),
                )

        def held() -> None:
            with suppress(PlaywrightError):
                let_through()

        self.act(page, Action(kind), target, key if kind == "press" else None, held)

    def act(
        self,
        page: Page,
        action: Action,
        target: ElementHandle | None,
        value: str | None,
        perform: Callable[[], None],
    ) -> RecordedStep:
        """Name ``target`` for ``action`` on the page as it is, ``perform`` the action, wait
        for the page to settle and suggest what changed as the row's expected outcome; the
        row is added and answered. (The importer replays a recording's steps through it.)"""
        before_url = page.url
        before = self._texts(page)
        step = (
            self._named(page, target, action) if target is not None else RecordedStep(action.value)
        )
        step.value = value
        if action is Action.FILL and target is not None:
            step.value = self._secret(page, target, step, value or "", False)
        self._acting = True
        try:
            perform()
            self._add(step)
            self._settle(page)
        finally:
            self._acting = False
            self._url = page.url
        if action is not Action.GOTO:
            step.expected = self._outcome(page, before_url, before, step)
        self._count()
        return step

    def _secret(
        self, page: Page, target: ElementHandle, step: RecordedStep, text: str, password: bool
    ) -> str:
        """``{{env.NAME}}`` for a value typed into a secret field (kept in memory only)."""
        hints = cast(list[str | None], [step.element, *target_hints(page, target)])
        if not is_secret(password or _is_password(page, target), *hints):
            return text
        name = env_name(step.element, self.recording.secrets, text)
        self.recording.secrets[name] = text
        self.recording.env[name] = f'typed into "{step.element or "a field"}"'
        return f"{{{{env.{name}}}}}"

    # -- what the page shows ----------------------------------------------------------------

    def _target(self, page: Page, report_id: str) -> ElementHandle | None:
        handle = bounded.call(
            page,
            "taking the element used",
            page.evaluate_handle,
            "(id) => { const r = window.__pactsRecorder; const el = r.targets[id]; "
            "delete r.targets[id]; return el || null; }",
            report_id,
        )
        return handle.as_element()

    def _named(self, page: Page, target: ElementHandle, action: Action) -> RecordedStep:
        found = name_of(page, target, action, evidence=self._evidence, timeout_ms=self._timeout_ms)
        if found is None:
            return RecordedStep(
                action.value,
                describe(page, target),
                note="it is not a control discovery lists (hidden, or not a button, link "
                "or field): name it by hand",
            )
        if found.text is not None:
            return RecordedStep(action.value, found.text)
        best = found.tried[0] if found.tried else found.description
        return RecordedStep(
            action.value,
            best,
            note=f"{found.why or 'no text names it'} (the element used: {found.description})",
        )

    def _texts(self, page: Page) -> dict[str, int]:
        with suppress(PlaywrightError):
            pairs = cast(
                list[list[Any]], bounded.call(page, "reading the texts", page.evaluate, _TEXTS)
            )
            return {str(t): int(r) for t, r in pairs}
        return {}

    def _settle(self, page: Page) -> None:
        """Wait until what the action started is over: a navigation loaded, and no request
        in flight for a moment (at least ``LOOK_MS``, at most ``SETTLE_MS``)."""
        waited = 0.0
        quiet = 0.0
        while waited < SETTLE_MS:
            with suppress(PlaywrightError):
                page.wait_for_timeout(STEP_MS)
            waited += STEP_MS
            if self._navigating:
                self._navigating = False
                with suppress(PlaywrightError):
                    page.wait_for_load_state("load", timeout=SETTLE_MS)
                quiet = 0.0
                continue
            quiet = quiet + STEP_MS if not self._in_flight else 0.0
            if waited >= LOOK_MS and quiet >= QUIET_MS:
                return

    def _request(self, request: Any) -> None:
        self._in_flight.add(id(request))

    def _request_done(self, request: Any) -> None:
        self._in_flight.discard(id(request))

    def _outcome(
        self, page: Page, before_url: str, before: dict[str, int], step: RecordedStep
    ) -> str | None:
        if urlsplit(page.url).path != urlsplit(before_url).path:
            # a new page; the same path with another query (a form saved back to itself, a
            # sort link) is the same page to a person: what it shows new says more
            name = _page_name(page)
            return f"navigates_to:{name}" if name else f"url_contains:{urlsplit(page.url).path}"
        typed = {s.value for s in self.recording.steps if s.value}
        new = [
            (rank, n, text)
            for n, (text, rank) in enumerate(self._texts(page).items())
            if text not in before and text not in typed and "|" not in text
        ]
        if not new:
            return None
        return f"text_visible:{min(new)[2]}"

    def expect_text(self, text: str) -> None:
        """Expect ``text`` after the last row (its outcome when it has none, else a ``wait``)."""
        text = text.replace("|", " ").strip()
        last = self.recording.steps[-1] if self.recording.steps else None
        if last is not None and last.expected is None:
            last.expected = f"text_visible:{text}"
        else:
            self._add(RecordedStep("wait", None, None, f"text_visible:{text}"))
        self._count()

    def _add(self, step: RecordedStep) -> None:
        steps = self.recording.steps
        last = steps[-1] if steps else None
        if (
            step.action in ("fill", "type", "select")
            and last is not None
            and (last.action, last.element, last.expected) == ("click", step.element, None)
        ):
            steps.pop()  # the click that put the cursor in the field (recorders write one)
        steps.append(step)
        shown = step.text
        self._say(f"recorded: {shown}" + (f"  (not verified: {step.note})" if step.note else ""))
        self._count()

    def _count(self) -> None:
        page = self._page
        if page is None:
            return
        with suppress(PlaywrightError):
            last = self.recording.steps[-1] if self.recording.steps else None
            bounded.call(
                page,
                "showing the count",
                page.evaluate,
                "([n, last]) => window.__pactsRecorder && window.__pactsRecorder.setCount(n, last)",
                [len(self.recording.steps), last.text if last else ""],
            )


def target_hints(page: Page, target: ElementHandle) -> list[str]:
    """A field's name, id, autocomplete hint, label and placeholder (secret detection)."""
    with suppress(PlaywrightError):
        return cast(
            list[str],
            bounded.call(
                page,
                "reading the field's hints",
                target.evaluate,
                "(el) => [el.name, el.id, el.getAttribute('autocomplete'), "
                "el.getAttribute('aria-label'), el.placeholder, "
                "...[...(el.labels || [])].map((l) => l.textContent)].filter(Boolean)",
            ),
        )
    return []


def _is_password(page: Page, target: ElementHandle) -> bool:
    with suppress(PlaywrightError):
        return bool(
            bounded.call(
                page,
                "reading the field's type",
                target.evaluate,
                "(el) => (el.type || '').toLowerCase() === 'password'",
            )
        )
    return False


def describe(page: Page, target: ElementHandle) -> str:
    """A short human text for an element no name finds: its visible text, else its tag."""
    with suppress(PlaywrightError):
        text = cast(
            str,
            bounded.call(
                page,
                "describing the element",
                target.evaluate,
                "(el) => ((el.innerText || el.value || el.getAttribute('aria-label') || '')"
                ".replace(/\\s+/g, ' ').trim().slice(0, 40)) || el.tagName.toLowerCase()",
            ),
        )
        return text.replace("|", " ").replace("@", " ")
    return "element"


def _json(value: object) -> str:
    import json

    return json.dumps(value)
