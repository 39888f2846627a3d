"""Each step's trace, recorded as the run goes: cheap enough to run on every passing step.

What a :class:`~pytest_pacts.models.trace.StepTrace` holds and where each part comes from:

- the target's visible **text** and **box**, and a **DOM hash**: from the gate's own check
  before the action (``GateSnapshot.text``, ``.box``, ``.dom_hash``: no extra round trip). A
  step without a target (``goto``, a ``wait`` for a text, ``press``) asks the page for the
  hash once, after the step;
- the **URL**: Playwright's own record of the page's URL (no round trip);
- the **requests**: the page's ``response`` and ``requestfailed`` events between this step's
  end and the previous one's (no round trip);
- a **screenshot**: a small JPEG (the viewport scaled to at most 640 px wide, quality 40)
  of the page after the step. It is asked of Chromium (over a CDP session of the run) when
  the step ends and written when it comes in, in the background while the next step runs,
  so no step waits for a picture (the run waits, bounded, for the last one). A picture
  identical to the previous one is a hard link to it. The pictures of one run are bounded in
  bytes (``EngineOptions.trace_max_bytes``); later steps then keep none. Without Chromium (no
  CDP session) steps keep no picture. A picture that never came in leaves its file missing
  (the bundle drops the reference, ``traces/bundles.py``).

Secrets: every secret value the plan can type is masked (``***``) in texts and URLs; query
values are dropped from URLs (names kept); after a secret is typed into a field that shows
it (anything but a password input), the steps on that page keep no picture until the page
navigates.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import re
import weakref
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import CDPSession, Page, Request, Response
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.models import Plan
from pytest_pacts.models.locator import BoundingBox, GateSnapshot
from pytest_pacts.models.trace import StepTrace, TracedRequest
from pytest_pacts.planner.templating import (
    MIN_SECRET_LENGTH,
    Resolver,
    Secret,
    TemplateError,
    mask_secrets,
)
from pytest_pacts.runtime import bounded, playwright_private

MAX_REQUESTS_PER_STEP = 40
SHOT_MAX_WIDTH = 640  # CSS pixels: wider viewports are scaled down
SHOT_QUALITY = 40
SHOT_WAIT_S = 2.0  # the longest the run waits for its last pictures at its end

# The step pictures still being taken, by page. A step picture is taken in the background
# while the run goes on; another screenshot of the page must not overlap it: Chromium's
# full-page capture (an image target's search) taken during one came back as the viewport
# repeated down the page, and the picture was "not on the page" (about 1 run in 30 under
# load). ``await_pictures`` is called before every other screenshot.
# A heal picture (``engine/artifacts.py``) is taken the same way and is listed here too.
_in_flight: weakref.WeakKeyDictionary[object, list[asyncio.Task[Any]]] = weakref.WeakKeyDictionary()


def pictures_in_flight(page: Page) -> list[asyncio.Task[Any]]:
    """The pictures of ``page`` still being taken in the background."""
    key = playwright_private.identity(page)
    return [task for task in _in_flight.get(key, ()) if not task.done()]


def picture_in_flight(page: Page, task: asyncio.Task[Any]) -> None:
    """List ``task`` (a picture of ``page`` taken in the background) until it is done."""
    key = playwright_private.identity(page)
    # only those still being taken are kept: a long run on one page that takes no other
    # screenshot does not hold every picture it took
    _in_flight[key] = [*pictures_in_flight(page), task]


def await_pictures(page: Page) -> None:
    """Wait until the pictures still being taken on ``page`` are done (at most
    :data:`SHOT_WAIT_S`); they are written later by their tracer, as always."""
    key = playwright_private.identity(page)
    tasks = pictures_in_flight(page)
    _in_flight.pop(key, None)
    wait_for_pictures(page, tasks)


def wait_for_pictures(page: Page, tasks: list[asyncio.Task[Any]]) -> None:
    """Wait for ``tasks`` (pictures of ``page`` taken in the background), at most
    :data:`SHOT_WAIT_S`; Playwright's event loop runs meanwhile. Those still out are left to
    the caller."""
    if tasks and playwright_private.can_run(page):
        with contextlib.suppress(Exception):  # the page or the loop went away
            playwright_private.run(page, _settle(tasks, SHOT_WAIT_S))


_ABORTED = re.compile(r"ERR_ABORTED|NS_BINDING_ABORTED|cancelled", re.I)

# The same hash the gate computes (runtime/js/api.js ``domHash``), for steps without one.
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
        # the pictures asked for and not written yet, in step order: (file, capture)
        self._pending: list[tuple[Path, asyncio.Task[str | None]]] = []
        self._last: tuple[str, Path] | None = None  # the last picture written and its file
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
            self._cdp = bounded.call(
                self.page,
                "opening a session for the step pictures",
                lambda: self.page.context.new_cdp_session(self.page),
                timeout_ms=2_000,
            )
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
        self._flush(wait=True)
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

    # -- per step ------------------------------------------------------------------------
    def add_secret(self, value: str) -> None:
        """A secret the run learnt while it ran (an ``extract`` step's secret value): masked
        from now on like the plan's own."""
        if len(value) >= MIN_SECRET_LENGTH and value not in self.secrets:
            self.secrets = sorted({*self.secrets, value}, key=len, reverse=True)

    def secret_typed(self, document: int) -> None:
        """A secret was typed into a field that shows it, on the page's ``document``."""
        self._withheld_at = document

    def step_done(
        self,
        index: int,
        gate: GateSnapshot | None,
        document: int,
        *,
        secret_shown: bool = False,
    ) -> StepTrace:
        """The trace of step ``index``, which just finished on ``document`` (the monitor's
        count of main-frame navigations); ``secret_shown`` when it typed a secret into a
        field that shows it. Clears the requests for the next step."""
        requests, dropped = tuple(self._requests), self._dropped
        self._requests, self._dropped = [], 0
        text = self.mask(gate.text) if gate is not None and gate.text is not None else None
        box = gate.box if gate is not None and gate.count == 1 else None
        dom_hash = gate.dom_hash if gate is not None else None
        if dom_hash is None:
            dom_hash = self._dom_hash()
        if secret_shown:
            self._withheld_at = document
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
        """Ask for the page's picture now; returns the file it will be written to (or why
        there is none). The pictures that came in meanwhile are written."""
        self._flush(wait=False)
        if self.folder is None:
            return None, None
        if self._cdp is None:
            return None, "no step picture: the browser offers no CDP session (Chromium only)"
        if self._withheld_at is not None:
            if self._withheld_at == document:
                return None, "picture withheld: a secret was typed on this page"
            self._withheld_at = None
        if self._budget_spent:
            return None, "picture left out: the run's pictures reached their byte budget"
        loop = playwright_private.event_loop(self.page)
        impl = playwright_private.impl(self._cdp)
        if loop is None or impl is None:
            return None, None
        path = self.folder / f"step{index + 1:02d}.jpg"
        # never two pictures of a page at once: one taken beside another (a heal's, here)
        # came back at the other's scale (a 1280-pixel view as 640 x 360)
        task = loop.create_task(_capture(impl, pictures_in_flight(self.page)))
        self._pending.append((path, task))
        picture_in_flight(self.page, task)
        return str(path), None

    def _flush(self, *, wait: bool) -> None:
        """Write the pictures that came in, in order; with ``wait``, wait (bounded) for the
        rest first (the end of the run), and give up on those still out."""
        if wait and self._pending:
            wait_for_pictures(self.page, [task for _path, task in self._pending])
        while self._pending:
            path, task = self._pending[0]
            if not task.done():
                if not wait:
                    return
                task.cancel()
            self._pending.pop(0)
            frame = task.result() if task.done() and not task.cancelled() else None
            if frame is not None:
                self._write(path, frame)

    def _write(self, path: Path, frame: str) -> None:
        try:
            if self._last is not None and self._last[0] == frame:
                path.unlink(missing_ok=True)
                os.link(self._last[1], path)  # the same picture: no second copy
                return
            data = base64.b64decode(frame)
            if self.bytes + len(data) > self.max_bytes:
                self._budget_spent = True
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except (OSError, ValueError):  # the step keeps no picture
            return
        self.bytes += len(data)
        self._last = (frame, path)

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
        return mask_secrets(text, self.secrets)

    def clean_url(self, url: str) -> str:
        """``url`` without query values or fragment (``/cart?id=...&token=...``), secrets
        masked."""
        try:
            parts = urlsplit(url)
        except ValueError:
            return self.mask(url.split("?", 1)[0])
        if parts.scheme in ("data", "blob", "javascript"):
            return f"{parts.scheme}:…"
        names = [p.split("=", 1)[0] + "=..." for p in parts.query.split("&") if p]
        query = ("?" + "&".join(names)) if names else ""
        base = f"{parts.scheme}://{parts.netloc}{parts.path}" if parts.netloc else parts.path
        return self.mask(base + query)


def _rounded(box: BoundingBox | None) -> BoundingBox | None:
    if box is None:
        return None
    return BoundingBox(
        x=round(box.x, 1), y=round(box.y, 1), width=round(box.width, 1), height=round(box.height, 1)
    )


async def _capture(session: Any, earlier: list[asyncio.Task[Any]]) -> str | None:
    """The page's viewport as a small JPEG (base64), once the ``earlier`` pictures of the page
    are done (at most :data:`SHOT_WAIT_S`), or ``None``; never raises."""
    if earlier:
        await asyncio.wait(earlier, timeout=SHOT_WAIT_S)
    try:
        metrics = await playwright_private.cdp_send(session, "Page.getLayoutMetrics")
        view = metrics["cssVisualViewport"]
        width, height = float(view["clientWidth"]), float(view["clientHeight"])
        clip = {
            "x": float(view["pageX"]),
            "y": float(view["pageY"]),
            "width": width,
            "height": height,
            "scale": min(1.0, SHOT_MAX_WIDTH / width) if width > 0 else 1.0,
        }
        params = {"format": "jpeg", "quality": SHOT_QUALITY, "clip": clip}
        shot = await playwright_private.cdp_send(session, "Page.captureScreenshot", params)
        data = shot.get("data") if isinstance(shot, dict) else None
        return str(data) if data else None
    except Exception:  # the page navigated, closed or crashed: no picture
        return None


async def _settle(tasks: list[asyncio.Task[Any]], seconds: float) -> None:
    await asyncio.wait(tasks, timeout=seconds)
