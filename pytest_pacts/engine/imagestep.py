"""An image target's step: screenshot the page (capped), find the template
(``engine/vision.py``), act at the match's centre, or refuse a weak or ambiguous match.

The screenshot covers the document from its top-left corner, at most
``vision.MAX_SHOT_WIDTH`` x ``vision.MAX_SHOT_HEIGHT`` CSS px, so its time and memory are
bounded whatever the page. A picture not (yet) on the page is looked for again after each
page change until the page is settled or the step timeout passes, as an element would be.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import FloatRect, Page

from pytest_pacts.engine import vision
from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.engine.errors import classify_error
from pytest_pacts.engine.tracing import await_pictures
from pytest_pacts.engine.waiting import epoch_ms, now_ms, settled, wait_for_change
from pytest_pacts.models import Action, Step
from pytest_pacts.models.outcome import Failure, FailureType, ImageMatch
from pytest_pacts.runtime import bounded

_SIZE = """() => [Math.max(document.documentElement.scrollWidth, innerWidth),
  Math.max(document.documentElement.scrollHeight, innerHeight)]"""
_IMAGES_LOADED = "() => Array.from(document.images).every((i) => i.complete)"
# Bring the point into view; answer where it now is in the viewport and what is there.
_AIM = """([x, y]) => {
  window.scrollTo({left: x - innerWidth / 2, top: y - innerHeight / 2, behavior: 'instant'});
  const vx = x - scrollX, vy = y - scrollY;
  const el = document.elementFromPoint(vx, vy);
  let name = null;
  if (el) {
    name = el.localName + (el.id ? '#' + el.id : '');
    const text = (el.getAttribute('aria-label') || el.textContent || '').trim();
    if (text) name += ` "${text.slice(0, 40)}"`;
  }
  return [vx, vy, name];
}"""


@dataclass
class ImageOutcome:
    failure: Failure | None
    record: ImageMatch | None = None
    annotated: bytes | None = None  # the screenshot with the match's box, PNG


def template_path(step: Step, folder: str | None) -> Path:
    assert step.target is not None and step.target.image is not None
    path = Path(step.target.image)
    return path if path.is_absolute() or folder is None else Path(folder) / path


def _shot(page: Page, timeout_ms: float) -> Any:
    width, height = bounded.call(page, "measuring the page", lambda: page.evaluate(_SIZE))
    clip: FloatRect = {
        "x": 0,
        "y": 0,
        "width": min(int(width), vision.MAX_SHOT_WIDTH),
        "height": min(int(height), vision.MAX_SHOT_HEIGHT),
    }
    await_pictures(page)  # never during a step picture (engine/tracing.py)
    png = bounded.call(
        page,
        "a screenshot for an image target",
        lambda: page.screenshot(
            full_page=True, clip=clip, scale="css", animations="disabled", timeout=timeout_ms
        ),
        timeout_ms=timeout_ms,
    )
    return vision.decode(png)


# long because: an image step's screenshot, match and action in one timed loop
def run_image_step(
    page: Page,
    step: Step,
    folder: str | None,
    monitor: EnvMonitor,
    *,
    timeout_ms: float,
    settle_ms: float,
) -> ImageOutcome:
    assert step.target is not None and step.target.image is not None
    name = step.target.image
    path = template_path(step, folder)
    try:
        template = vision.load_template(path)
    except vision.VisionError as exc:
        return ImageOutcome(
            Failure(
                type=FailureType.IMAGE_NOT_MATCHED,
                message=str(exc),
                step_index=step.index,
                cause="configuration",
            )
        )
    start = now_ms()
    deadline = start + timeout_ms
    with contextlib.suppress(PlaywrightError):  # a broken image never completes
        bounded.call(
            page,
            "waiting for the page's images",
            lambda: page.wait_for_function(_IMAGES_LOADED, timeout=timeout_ms),
            timeout_ms=timeout_ms,
        )
    while True:
        try:
            screen = _shot(page, timeout_ms)
        except PlaywrightError as exc:
            return ImageOutcome(classify_error(exc, "a screenshot for an image target", step.index))
        except vision.VisionError as exc:
            failure = Failure(
                type=FailureType.IMAGE_NOT_MATCHED, message=str(exc), step_index=step.index
            )
            return ImageOutcome(failure)
        found = vision.match(screen, template)
        now = now_ms()
        if found.verdict != "weak" or now >= deadline:
            break
        if now - start >= min(settle_ms, timeout_ms) and settled(page, monitor):
            break
        wait_for_change(page)
    annotated = vision.annotate(screen, found)
    b = found.box
    record = ImageMatch(
        template=name,
        verdict=found.verdict,
        box=(b.x, b.y, b.width, b.height),
        score=found.score,
        runner_up=found.runner_up,
        threshold=vision.THRESHOLD,
        duration_ms=found.duration_ms,
    )
    if not found.accepted:
        what = "is not on the page" if found.verdict == "weak" else "is ambiguous"
        failure = Failure(
            type=FailureType.IMAGE_NOT_MATCHED,
            message=f"the picture {name} {what}: {found.describe()}",
            step_index=step.index,
            evidence=(
                f"template {name} ({template.shape[1]}x{template.shape[0]} px), threshold "
                f"{vision.THRESHOLD:.2f}, margin {vision.MARGIN:.2f}",
                f"searched a {found.shot_size[0]}x{found.shot_size[1]} px screenshot in "
                f"{found.duration_ms:.0f} ms",
            ),
        )
        return ImageOutcome(failure, record, annotated)
    x, y = b.centre
    try:
        vx, vy, hit = bounded.call(
            page, "aiming at the picture", lambda: page.evaluate(_AIM, [x, y])
        )
        monitor.acted_at = epoch_ms()
        if step.action is Action.HOVER:
            bounded.call(page, "hovering the picture", lambda: page.mouse.move(vx, vy))
        else:
            bounded.call(page, "clicking the picture", lambda: page.mouse.click(vx, vy))
    except PlaywrightError as exc:
        return ImageOutcome(
            classify_error(exc, f"{step.action.value} at the picture", step.index),
            record,
            annotated,
        )
    record = record.model_copy(update={"hit": hit})
    return ImageOutcome(None, record, annotated)
