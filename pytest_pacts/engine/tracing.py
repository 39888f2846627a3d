"""Each step's trace, recorded as the run goes: cheap enough to run on every passing step.

What a :class:`~pytest_pacts.models.trace.StepTrace` holds and where each part comes from:

- the target's visible **text** and **box**, and a **DOM hash**: from the gate's own check
  before the action (``GateSnapshot.text``, ``.box``, ``.dom_hash``: no extra round trip). A
  step without a target (``goto``, a ``wait`` for a text, ``press``) asks the page for the
  hash once, after the step;
- the **URL**: Playwright's own record of the page's URL (no round trip);
- the **requests**: the page's ``response`` and ``requestfailed`` events between this step's
  end and the previous one's (no round trip);
- a **screenshot**: Chromium pushes a small JPEG (at most 640×400, quality 40) of every
  repaint over a screencast started once per run; the step keeps the latest one when it acts
  (after its gate), so taking it costs no round trip either. A step whose page did not
  repaint since the previous step shares that step's file. The pictures of one run are
  bounded in bytes (``EngineOptions.trace_max_bytes``); later steps then keep none. Without
  Chromium (no screencast) steps keep no picture.

Secrets: every secret value the plan can type is masked (``***``) in texts and URLs; query
values are dropped from URLs (names kept); after a secret is typed into a field that shows
it (anything but a password input), the steps on that page keep no picture until the page
navigates.
"""

from __future__ import annotations

import base64
import contextlib
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import CDPSession, Page, Request, Response
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery import bounded
from pytest_pacts.models import Plan
from pytest_pacts.models.locator import BoundingBox, GateSnapshot
from pytest_pacts.models.trace import StepTrace, TracedRequest
from pytest_pacts.planner.templating import MASK, Resolver, Secret, TemplateError

MAX_REQUESTS_PER_STEP = 40
SHOT_MAX_WIDTH = 640
SHOT_MAX_HEIGHT = 400
SHOT_QUALITY = 40
MIN_SECRET_LENGTH = 4  # shorter values are not masked (they would mangle every text)
_ABORTED = re.compile(r"ERR_ABORTED|NS_BINDING_ABORTED|cancelled", re.I)

# The same hash the gate computes (discovery/js/api.js ``domHash``), for steps without one.
DOM_HASH_JS = """() => {
  const s = document.documentElement ? document.documentElement.outerHTML : '';
  const n = Math.min(s.length, 2000000);
  let h = 0x811c9dc5;
  for (let i = 0; i < n; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return (h >>> 0).toString(16).padStart(8, '0') + '-' + s.length.toString(16);
}"""


def plan_secrets(plan: Plan, resolver: Resolver) -> list[str]:
    """The secret values ``plan`` can type (its values that resolve to a ``Secret``)."""
    found: set[str] = set()
    for text in [plan.requirement.url, *(s.value for s in plan.steps if s.value)]:
        try:
            value = resolver.resolve(text)
        except TemplateError:
            continue
        if isinstance(value, Secret) and len(value.reveal()) >= MIN_SECRET_LENGTH:
            found.add(value.reveal())
    return sorted(found, key=len, reverse=True)


class Tracer:
    """Records the trace of each step of one run on ``page`` (see the module doc).

    ``folder`` is where the step pictures go (``None``: no pictures); ``max_bytes`` bounds
    them. Nothing here raises into the run: a page that cannot answer leaves a part empty.
    """

    def __init__(
        self,
        page: Page,
        folder: str | None,
        *,
        secrets: list[str] | None = None,
        max_bytes: int = 1_000_000,
    ) -> None:
        self.page = page
        self.folder = Path(folder) / "trace" if folder else None
        self.secrets = sorted(set(secrets or ()), key=len, reverse=True)
        self.max_bytes = max_bytes
        self.bytes = 0
        self._requests: list[TracedRequest] = []
        self._dropped = 0
        self._cdp: CDPSession | None = None
        self._frame: str | None = None  # base64 JPEG of the latest repaint
        self._frame_seq = 0
        self._shots: dict[int, tuple[int, str | None]] = {}  # step -> (frame seq, frame)
        self._written: dict[int, str] = {}  # frame seq -> file
        self._withheld_at: int | None = None  # the document a secret was typed on
        self._budget_spent = False
        self._attached = False

    # -- the run's lifetime ------------------------------------------------------------
    def start(self) -> None:
        self.page.on("response", self._on_response)
        self.page.on("requestfailed", self._on_failed)
        self._attached = True
        if self.folder is None:
            return
        try:
            session = bounded.call(
                self.page,
                "starting the step pictures",
                lambda: self.page.context.new_cdp_session(self.page),
                timeout_ms=2_000,
            )
            session.on("Page.screencastFrame", self._on_frame)
            bounded.call(
                self.page,
                "starting the step pictures",
                lambda: session.send(
                    "Page.startScreencast",
                    {
                        "format": "jpeg",
                        "quality": SHOT_QUALITY,
                        "maxWidth": SHOT_MAX_WIDTH,
                        "maxHeight": SHOT_MAX_HEIGHT,
                    },
                ),
                timeout_ms=2_000,
            )
            self._cdp = session
        except PlaywrightError:  # not Chromium, or the page is gone: steps keep no picture
            self._cdp = None

    def stop(self) -> None:
        if self._attached:
            for event, handler in (
                ("response", self._on_response),
                ("requestfailed", self._on_failed),
            ):
                with contextlib.suppress(PlaywrightError, ValueError, KeyError):
                    self.page.remove_listener(event, handler)
            self._attached = False
        session, self._cdp = self._cdp, None
        if session is not None:
            with contextlib.suppress(PlaywrightError):
                bounded.call(
                    self.page, "stopping the step pictures", session.detach, timeout_ms=2_000
                )

    # -- events (synchronous listeners: no round trip) ---------------------------------
    def _on_response(self, response: Response) -> None:
        try:
            request = response.request
            self._add(
                TracedRequest(
                    method=request.method,
                    url=self.clean_url(response.url),
                    status=response.status,
                    kind=request.resource_type,
                )
            )
        except PlaywrightError:
            return

    def _on_failed(self, request: Request) -> None:
        try:
            reason = request.failure or "failed"
            if _ABORTED.search(reason):  # a navigation away cancels what was loading
                return
            self._add(
                TracedRequest(
                    method=request.method,
                    url=self.clean_url(request.url),
                    status=0,
                    kind=request.resource_type,
                    error=reason[:120],
                )
            )
        except PlaywrightError:
            return

    def _add(self, request: TracedRequest) -> None:
        if len(self._requests) >= MAX_REQUESTS_PER_STEP:
            self._dropped += 1
        else:
            self._requests.append(request)

    def _on_frame(self, event: dict[str, Any]) -> None:
        self._frame = str(event.get("data") or "") or None
        self._frame_seq += 1
        session = self._cdp
        if session is None:
            return
        # acknowledged without waiting for the answer (the next frame needs it, nothing else)
        impl = getattr(session, "_impl_obj", None)
        loop = getattr(self.page, "_loop", None)
        if impl is not None and loop is not None and not loop.is_closed():
            ack = impl.send("Page.screencastFrameAck", {"sessionId": event.get("sessionId")}, None)
            loop.create_task(_quietly(ack))

    # -- per step ------------------------------------------------------------------------
    def acting(self, index: int) -> None:
        """The step ``index`` passed its gate and is about to act: keep the page's picture."""
        self._shots[index] = (self._frame_seq, self._frame)

    def add_secret(self, value: str) -> None:
        """A secret the run learnt while it ran (an ``extract`` step's secret value): masked
        from now on like the plan's own."""
        if len(value) >= MIN_SECRET_LENGTH and value not in self.secrets:
            self.secrets = sorted({*self.secrets, value}, key=len, reverse=True)

    def secret_typed(self, document: int) -> None:
        """A secret was typed into a field that shows it, on the page's ``document``."""
        self._withheld_at = document

    def step_done(self, index: int, gate: GateSnapshot | None, document: int) -> StepTrace:
        """The trace of step ``index``, which just finished on ``document`` (the monitor's
        count of main-frame navigations). Clears the requests for the next step."""
        requests, dropped = tuple(self._requests), self._dropped
        self._requests, self._dropped = [], 0
        text = self.mask(gate.text) if gate is not None and gate.text is not None else None
        box = gate.box if gate is not None and gate.count == 1 else None
        dom_hash = gate.dom_hash if gate is not None else None
        if dom_hash is None:
            dom_hash = self._dom_hash()
        shot, note = self._picture(index, document)
        return StepTrace(
            url=self.clean_url(self._url()),
            text=text,
            box=_rounded(box),
            dom_hash=dom_hash,
            requests=requests,
            requests_dropped=dropped,
            screenshot=shot,
            note=note,
        )

    def _picture(self, index: int, document: int) -> tuple[str | None, str | None]:
        if self.folder is None:
            return None, None
        if self._cdp is None:
            return None, "no step picture: the browser offers no screencast (Chromium only)"
        if self._withheld_at is not None:
            if self._withheld_at == document:
                return None, "picture withheld: a secret was typed on this page"
            self._withheld_at = None
        seq, frame = self._shots.pop(index, (self._frame_seq, self._frame))
        if frame is None:
            return None, "no picture yet: the page had not painted"
        if seq in self._written:
            return self._written[seq], None  # nothing repainted since: the same picture
        if self._budget_spent:
            return None, "picture left out: the run's pictures reached their byte budget"
        try:
            data = base64.b64decode(frame)
        except ValueError:
            return None, None
        if self.bytes + len(data) > self.max_bytes:
            self._budget_spent = True
            return None, "picture left out: the run's pictures reached their byte budget"
        path = self.folder / f"step{index + 1:02d}.jpg"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except OSError as exc:
            return None, f"picture not written: {exc.strerror or exc}"
        self.bytes += len(data)
        self._written[seq] = str(path)
        return str(path), None

    def _dom_hash(self) -> str | None:
        try:
            value = bounded.call(
                self.page, "hashing the document", lambda: self.page.evaluate(DOM_HASH_JS)
            )
        except PlaywrightError:
            return None
        return str(value) if value else None

    def _url(self) -> str:
        try:
            return self.page.url
        except PlaywrightError:
            return ""

    # -- masking -------------------------------------------------------------------------
    def mask(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, MASK)
        return text

    def clean_url(self, url: str) -> str:
        """``url`` without query values or fragment (``/cart?id&token``), secrets masked."""
        try:
            parts = urlsplit(url)
        except ValueError:
            return self.mask(url.split("?", 1)[0])
        if parts.scheme in ("data", "blob", "javascript"):
            return f"{parts.scheme}:…"
        names = [p.split("=", 1)[0] for p in parts.query.split("&") if p]
        query = ("?" + "&".join(names)) if names else ""
        base = f"{parts.scheme}://{parts.netloc}{parts.path}" if parts.netloc else parts.path
        return self.mask(base + query)


def _rounded(box: BoundingBox | None) -> BoundingBox | None:
    if box is None:
        return None
    return BoundingBox(
        x=round(box.x, 1), y=round(box.y, 1), width=round(box.width, 1), height=round(box.height, 1)
    )


async def _quietly(awaitable: Any) -> None:
    with contextlib.suppress(Exception):
        await awaitable
