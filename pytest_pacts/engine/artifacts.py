"""Screenshots for the reports: on failure, and of a heal with the healed element
highlighted. Taking a screenshot never fails a run: a crashed page simply has
no picture, and the path is left out.

A heal round that only reads the page (a locator that matches nothing or several elements)
is shown by one picture, and that picture decides nothing: it is asked of Chromium when the
round starts (:meth:`Shots.early`, over the DevTools protocol, in the background), taken
while the ladder works, and kept once the round is over (:meth:`Shots.keep`): with the
healed element highlighted when the round healed (drawn into the PNG afterwards,
``engine/pngmark.py``, on a thread of its own), plain when it did not. The element's box is
the one the heal's gate measured on it during the round (document coordinates of the top
frame, placed in the picture by the scroll offset read with the capture): no page call of
its own. Only an element in an iframe, or a heal with no such measurement, has its box
asked of Playwright, in the background. The retried action waits for the picture (and that
box) before it touches the page (:func:`await_heal_pictures`, called by
``actions.perform``), so the picture always shows the page the heal read, before the healed
action. The highlight is drawn and the file written once the healed step's retry is over
(:meth:`Shots.release`), on the drawing thread: not beside the retry's own calls. Nothing is
added to the page's DOM for it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import re
import weakref
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page
from pydantic import ValidationError

from pytest_pacts.engine import pngmark
from pytest_pacts.engine.tracing import (
    SHOT_WAIT_S,
    await_pictures,
    picture_in_flight,
    pictures_in_flight,
    wait_for_pictures,
)
from pytest_pacts.models.locator import BoundingBox
from pytest_pacts.runtime import bounded, playwright_private

# A picture taken at once shows the healed element by Playwright's screenshot mask: a
# translucent box drawn over it for the picture only, in the same call. One taken in the
# background gets the same box drawn into it afterwards (engine/pngmark.py).
HIGHLIGHT = "rgba(232, 89, 12, 0.45)"
BOX_TIMEOUT_MS = 1000.0  # finding the highlighted element for a background picture

# The heal pictures still being taken (and the boxes to highlight in them), by page: the next
# action on the page waits for them.
_before_acting: weakref.WeakKeyDictionary[object, list[asyncio.Task[Any]]] = (
    weakref.WeakKeyDictionary()
)


def await_heal_pictures(page: Page) -> None:
    """Before an action on ``page``: wait for its heal pictures still being taken (at most
    :data:`~pytest_pacts.engine.tracing.SHOT_WAIT_S`), so each shows the page before the
    action; one still out by then is given up (its file is never written)."""
    tasks = _before_acting.pop(playwright_private.identity(page), None)
    pending = [task for task in tasks or () if not task.done()]
    wait_for_pictures(page, pending)
    for task in pending:
        task.cancel()  # a no-op for those done


def measured_box(frame_path: tuple[str, ...], evidence: Mapping[str, object]) -> BoundingBox | None:
    """The box a heal's gate measured on the element it accepted, when it can be placed in a
    picture of the page (an element of the top frame; ``bounding_box`` of the rung's
    evidence, document coordinates); ``None`` otherwise."""
    raw = evidence.get("bounding_box")
    if frame_path or not isinstance(raw, dict):
        return None
    try:
        return BoundingBox.model_validate(raw)
    except ValidationError:
        return None


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:120]


# Fields that can show a typed value (a password input shows dots): covered, opaque, in a
# picture of a page a secret was typed on (docs/reports.md, "What the secret guarantee covers")
SHOWING_FIELDS = (
    "input:not([type=password]):not([type=hidden]), textarea, "
    "[contenteditable='']:not([contenteditable=false]), [contenteditable=true]"
)
SECRET_MASK = "#1f1f1f"


class Capture(NamedTuple):
    """A background picture: the viewport as a PNG, its image pixels per CSS pixel, and the
    viewport's scroll offset in the document (CSS pixels) when it was taken."""

    png: bytes
    scale: float
    left: float = 0.0
    top: float = 0.0


Box = tuple[float, float, float, float]


class Shots:
    def __init__(
        self,
        page: Page,
        folder: str | None,
        req_id: str,
        documents: Callable[[], int] | None = None,
    ) -> None:
        self.page = page
        self.folder = Path(folder) if folder else None
        self.req_id = _safe(req_id)
        # the page's main-frame document now (a count of navigations), and the documents a
        # secret was typed into a showing field on (their fields are covered in pictures) or
        # shown as text on (no picture is taken of them)
        self._documents = documents or (lambda: 0)
        self._typed_on: set[int] = set()
        self._shown_on: set[int] = set()
        self.taken: dict[str, str] = {}
        self._session: Any = None  # the CDP session of background pictures (Playwright's)
        self._soon: list[asyncio.Task[Any]] = []  # pictures being taken or written
        self._kept: set[str] = set()  # the files promised by keep()
        # kept pictures not drawn or written yet: each waits for its release (:meth:`release`)
        self._held: list[asyncio.Future[None]] = []

    def take(self, label: str, outline: PWLocator | None = None) -> str | None:
        """Save ``<req_id>-<label>.png``; ``outline``'s element is highlighted for the shot."""
        if self.folder is None:
            return None
        document = self._documents()
        if document in self._shown_on:
            return None  # the page shows a secret the run read: no picture of it
        path = self.folder / f"{self.req_id}-{_safe(label)}.png"
        mask = [outline] if outline is not None else []
        color = HIGHLIGHT
        if document in self._typed_on:
            # the highlight turns opaque too: one mask colour a picture
            mask.append(self.page.locator(SHOWING_FIELDS))
            color = SECRET_MASK
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            await_pictures(self.page)  # never during a step picture (engine/tracing.py)
            bounded.call(
                self.page,
                "a screenshot",
                lambda: self.page.screenshot(
                    path=str(path), timeout=5000, mask=mask or None, mask_color=color
                ),
            )
        except (PlaywrightError, OSError):
            return None
        self.taken[f"screenshot_{_safe(label)}"] = str(path)
        return str(path)

    def secret_typed(self) -> None:
        """A secret was typed into a field that shows its value, on the page's current
        document: pictures of that document cover its fields."""
        self._typed_on.add(self._documents())

    def secret_shown(self) -> None:
        """The page's current document shows a secret the run read (a secret ``extract``):
        no picture of it is taken."""
        self._shown_on.add(self._documents())

    def _secret_on_page(self) -> bool:
        document = self._documents()
        return document in self._typed_on or document in self._shown_on

    def save(self, label: str, png: bytes) -> str | None:
        """Save ``png`` (made elsewhere, e.g. an annotated screenshot) as
        ``<req_id>-<label>.png``; ``None`` without a folder or when it cannot be written."""
        if self.folder is None:
            return None
        path = self.folder / f"{self.req_id}-{_safe(label)}.png"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(png)
        except OSError:
            return None
        self.taken[f"screenshot_{_safe(label)}"] = str(path)
        return str(path)

    def early(self) -> asyncio.Task[Capture | None] | None:
        """Ask for a picture of the page as it is now, to keep later (:meth:`keep`): it is
        taken in the background while the run goes on. ``None`` without a folder, without
        Chromium or without Playwright's event loop (:meth:`keep` then takes the picture
        itself)."""
        if self.folder is None or self._secret_on_page():
            return None  # (:meth:`keep` takes it through :meth:`take`, which covers them)
        loop = playwright_private.event_loop(self.page)
        page = playwright_private.impl(self.page)
        browser = self.page.context.browser
        chromium = browser is None or browser.browser_type.name == "chromium"
        if loop is None or page is None or not chromium:
            return None
        task: asyncio.Task[Capture | None] = loop.create_task(self._capture(page))
        picture_in_flight(self.page, task)
        _before_acting.setdefault(page, []).append(task)
        self._soon.append(task)
        return task

    def keep(
        self,
        early: asyncio.Task[Capture | None] | None,
        label: str,
        outline: PWLocator | None = None,
        box: BoundingBox | None = None,
    ) -> str | None:
        """Keep the picture :meth:`early` asked for as ``<req_id>-<label>.png``, with
        ``outline``'s element highlighted. ``box``: that element's box as the round measured
        it, in document coordinates of the top frame (the heal's gate): placed by the
        picture's own scroll offset, with no page call. Without it the box is measured now
        by Playwright, in the background, before the next action. Returns the file it will
        be written to; without an early picture, the picture is taken now (:meth:`take`)."""
        if self.folder is None:
            return None
        if early is None:
            return self.take(label, outline)
        path = self.folder / f"{self.req_id}-{_safe(label)}.png"
        key = f"screenshot_{_safe(label)}"
        loop = early.get_loop()
        where: asyncio.Task[Box | None] | Box | None = None
        if box is not None:
            where = (box.x, box.y, box.width, box.height)
        elif outline is not None:
            where = loop.create_task(_box(playwright_private.impl(outline)))
            _before_acting.setdefault(playwright_private.identity(self.page), []).append(where)
        held: asyncio.Future[None] = loop.create_future()
        self._held.append(held)
        self._soon.append(loop.create_task(self._write(early, where, path, key, held)))
        return str(path)

    def release(self) -> None:
        """Let the pictures kept so far be drawn and written: after the healed step's retry,
        so the highlight's drawing (a thread that holds the interpreter for part of it) and
        the file's write do not share the step's path; the picture itself was taken before
        the action, as always (:func:`await_heal_pictures`)."""
        held, self._held = self._held, []
        for future in held:
            if not future.done():
                future.set_result(None)

    def finish(self) -> set[str]:
        """The end of the run: wait (bounded) for the pictures still being taken or written;
        the files of those that never were."""
        self.release()
        wait_for_pictures(self.page, [task for task in self._soon if not task.done()])
        for task in self._soon:
            task.cancel()  # a no-op for those done
        self._soon.clear()
        lost, self._kept = self._kept - set(self.taken.values()), set()
        return lost

    async def _capture(self, page: Any) -> Capture | None:
        """The viewport as a PNG and its scale (:func:`_viewport_png`), or ``None``; never
        raises."""
        current = asyncio.current_task()
        earlier = [t for t in pictures_in_flight(self.page) if t is not current]
        if earlier:  # never two pictures of a page at once (engine/tracing.py)
            await asyncio.wait(earlier, timeout=SHOT_WAIT_S)
        try:
            if self._session is None:
                self._session = await playwright_private.new_cdp_session(page)
            return await asyncio.wait_for(_viewport_png(self._session), SHOT_WAIT_S)
        except Exception:  # the page navigated, closed or crashed: no picture
            return None

    async def _write(
        self,
        early: asyncio.Task[Capture | None],
        box: asyncio.Task[Box | None] | Box | None,
        path: Path,
        key: str,
        held: asyncio.Future[None],
    ) -> None:
        """Write the picture, its element highlighted: ``box`` in the viewport (Playwright's,
        a task) or in the document (the round's own measurement, a tuple); drawn and written
        on a thread once ``held`` is released (:meth:`release`)."""
        self._kept.add(str(path))
        try:
            shot = await early
            where = await box if isinstance(box, asyncio.Task) else box
            await held
        except asyncio.CancelledError:  # given up before the action: no picture
            return
        if shot is None:
            return
        if where is not None and not isinstance(box, asyncio.Task):
            where = (where[0] - shot.left, where[1] - shot.top, where[2], where[3])
        scaled: Box | None = None
        if where is not None:
            x, y, w, h = (v * shot.scale for v in where)
            scaled = (x, y, w, h)
        if await asyncio.wrap_future(_DRAWING.submit(_draw_and_write, shot.png, scaled, path)):
            self.taken[key] = str(path)


def _draw_and_write(png: bytes, box: Box | None, path: Path) -> bool:
    """``png`` written to ``path`` with ``box`` (image pixels) highlighted, on the drawing
    thread; whether it was written."""
    if box is not None:
        with contextlib.suppress(pngmark.PngError):  # kept without the highlight
            png = pngmark.highlight(png, box)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
    except OSError:
        return False
    return True


# The highlight is drawn on a thread: zlib lets go of the interpreter while it works.
_DRAWING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pacts-highlight")


async def _box(target: Any) -> Box | None:
    """``target``'s box in the viewport (Playwright's, frames included), or ``None``."""
    if target is None:
        return None
    try:
        box = await playwright_private.bounding_box(target, BOX_TIMEOUT_MS)
    except Exception:  # gone, or not one element: the picture is kept without a highlight
        return None
    if not box or box["width"] <= 0 or box["height"] <= 0:
        return None
    return (box["x"], box["y"], box["width"], box["height"])


async def _viewport_png(session: Any) -> Capture | None:
    """The viewport as a PNG, its image pixels per CSS pixel (the boxes' unit) and its
    scroll offset in the document. Encoded for speed (every row filtered "Up", which
    :mod:`pngmark` undoes a row at a time), at the resolution Chromium gives the view (no
    clip to scale it). A picture that came back at another scale than the view's (Chromium
    gave one taken beside a scaled step picture at that picture's scale) is taken once more;
    its scale is then read from the picture itself, so a highlight lands on its element."""
    capture = None
    for _attempt in range(2):
        metrics = await playwright_private.cdp_send(session, "Page.getLayoutMetrics")
        css, device = metrics.get("cssVisualViewport"), metrics.get("visualViewport")
        scale, width = 1.0, float(css.get("clientWidth") or 0) if css else 0.0
        if width and device:
            scale = float(device["clientWidth"]) / width or 1.0
        left, top = (float(css.get("pageX", 0)), float(css.get("pageY", 0))) if css else (0, 0)
        params = {"format": "png", "optimizeForSpeed": True}
        shot = await playwright_private.cdp_send(session, "Page.captureScreenshot", params)
        data = shot.get("data") if isinstance(shot, dict) else None
        if not data:
            return None
        png = base64.b64decode(data)
        if not width or len(png) < 24:
            return Capture(png, scale, left, top)
        drawn = int.from_bytes(png[16:20], "big") / width  # the IHDR's width, per CSS pixel
        capture = Capture(png, drawn, left, top)
        if abs(drawn - scale) <= 0.05 * scale:
            break
    return capture
