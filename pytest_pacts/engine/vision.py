"""Image targets: find a template picture on a screenshot of the page, with abstention.

``image:buttons/refresh.png | click`` names a control by its picture, for what no locator can
reach (a button drawn on a canvas, an icon with no text, no alt and no label). The page is
screenshotted (capped in size), the template is matched with OpenCV's normalised
correlation coefficient (``TM_CCOEFF_NORMED``: 1.0 is a pixel-exact copy, brightness and
contrast shifts aside), and the match is accepted like every other match in the engine:

- the best score must reach :data:`THRESHOLD` (else *weak*: the picture is not on the page,
  or has changed);
- the runner-up (the best score outside the best match's box) must stay below the
  threshold and at least :data:`MARGIN` under the best (else *ambiguous*: the picture is on
  the page more than once).

OpenCV and numpy are an optional extra (``pip install pytest-pacts[vision]``); without them
an image step fails with a message saying so. Nothing here touches the page: the executor
takes the screenshot and acts.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pytest_pacts.errors import PactsError
from pytest_pacts.models.evidence import Evidence, EvidenceRule

IMAGE_RULE = EvidenceRule(threshold=0.90, margin=0.10)
"""The evidence rule (models/evidence.py) on the correlation scale: a pixel match is held to a
higher threshold than a name (0.90), with the same margin."""
THRESHOLD = IMAGE_RULE.threshold
MARGIN = IMAGE_RULE.margin
MAX_SHOT_WIDTH = 1920  # CSS px: the screenshot is clipped to this box (time and memory)
MAX_SHOT_HEIGHT = 4000
MAX_TEMPLATE_SIDE = 600
MIN_TEMPLATE_SIDE = 8

Verdict = Literal["ok", "weak", "ambiguous"]


class VisionError(PactsError):
    """The match could not be run: no OpenCV, an unreadable or unusable template."""


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    width: int
    height: int

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.width / 2, self.y + self.height / 2


@dataclass(frozen=True)
class Match:
    verdict: Verdict
    box: Box
    score: float
    runner_up: float
    runner_up_box: Box | None
    shot_size: tuple[int, int]  # width, height of the screenshot searched
    duration_ms: float

    @property
    def accepted(self) -> bool:
        return self.verdict == "ok"

    def describe(self) -> str:
        at = f"at ({self.box.x}, {self.box.y}) {self.box.width}x{self.box.height} px"
        text = f"best match {self.score:.3f} {at}, runner-up {self.runner_up:.3f}"
        if self.verdict == "weak":
            return f"{text}: below the threshold {THRESHOLD:.2f}"
        if self.verdict == "ambiguous":
            where = ""
            if self.runner_up_box is not None:
                where = f" at ({self.runner_up_box.x}, {self.runner_up_box.y})"
            return f"{text}{where}: the picture is on the page more than once"
        return text


def _cv() -> tuple[Any, Any]:
    try:
        import cv2
        import numpy
    except ImportError as exc:  # pragma: no cover - the suite installs the extra
        raise VisionError(
            "image targets need OpenCV: pip install 'pytest-pacts[vision]' "
            f"(opencv-python-headless and numpy; {exc})"
        ) from exc
    return cv2, numpy


def available() -> bool:
    try:
        _cv()
    except VisionError:
        return False
    return True


#: The largest template file read (a 600 x 600 px PNG is well under 1.5 MB).
MAX_TEMPLATE_BYTES = 4 * 1024 * 1024
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes, name: object) -> tuple[int, int]:
    """The width and height a PNG's header declares (the IHDR chunk, bytes 16 to 24), read
    before anything is decoded: a 109 KB file may declare 30000 x 30000 px, which decodes into
    gigabytes. Raises :class:`VisionError` for an empty, truncated or non-PNG file."""
    if not data:
        raise VisionError(f"the template {name} is an empty file (0 bytes); save the PNG again")
    if not data.startswith(_PNG_SIGNATURE):
        raise VisionError(
            f"the template {name} is not a PNG (its first bytes are not the PNG signature); "
            "save a PNG crop of the control"
        )
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise VisionError(
            f"the template {name} is a truncated PNG ({len(data)} bytes, no complete header); "
            "save the PNG again"
        )
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _check_side(name: object, w: int, h: int) -> None:
    if min(w, h) < MIN_TEMPLATE_SIDE or max(w, h) > MAX_TEMPLATE_SIDE:
        raise VisionError(
            f"the template {name} is {w}x{h} px; a template is {MIN_TEMPLATE_SIDE} to "
            f"{MAX_TEMPLATE_SIDE} px a side (crop it to the control)"
        )


def load_template(path: Path) -> Any:
    """The template as a BGR array. Raises :class:`VisionError` saying what is wrong: the
    file's size and its PNG header (the picture's size) are checked before it is decoded
    (docs/reference.md, "Image targets and special surfaces")."""
    cv2, np = _cv()
    try:
        size = path.stat().st_size
        if size > MAX_TEMPLATE_BYTES:
            raise VisionError(
                f"the template {path} is {size} bytes; a template is at most "
                f"{MAX_TEMPLATE_BYTES // (1024 * 1024)} MiB (crop it to the control)"
            )
        with path.open("rb") as handle:
            data = handle.read(MAX_TEMPLATE_BYTES + 1)
    except OSError as exc:
        raise VisionError(f"the template {path} cannot be read ({exc.strerror})") from exc
    _check_side(path, *png_size(data, path))
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    if image is None:
        raise VisionError(
            f"the template {path} is a damaged PNG (its header is readable, its pixels are "
            "not); save the PNG again"
        )
    h, w = image.shape[:2]
    _check_side(path, w, h)
    if float(image.std()) < 1.0:
        raise VisionError(f"the template {path} is one flat colour: it cannot name one place")
    return image


def decode(png: bytes) -> Any:
    cv2, np = _cv()
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise VisionError("the page screenshot could not be decoded")
    return image


PEAKS = 5  # coarse candidates refined at full resolution
COARSE_MIN_SIDE = 12  # the template's smaller side is kept at least this big when reduced


def _scores(screen: Any, template: Any) -> Any:
    cv2, np = _cv()
    scores = cv2.matchTemplate(screen, template, cv2.TM_CCOEFF_NORMED)
    # a flat patch of the page has no variance: its score is undefined, not a match
    return np.nan_to_num(scores, nan=0.0, posinf=0.0, neginf=0.0)


def _peaks(scores: Any, tw: int, th: int, count: int) -> list[tuple[float, int, int]]:
    """The ``count`` best places, each outside the others' template-sized neighbourhood."""
    cv2, _ = _cv()
    scores = scores.copy()
    out: list[tuple[float, int, int]] = []
    for _ in range(count):
        _, best, _, (x, y) = cv2.minMaxLoc(scores)
        if best <= 0 and out:
            break
        out.append((float(best), int(x), int(y)))
        scores[max(y - th + 1, 0) : y + th, max(x - tw + 1, 0) : x + tw] = -1.0
    return out


def _refine(screen: Any, template: Any, x: int, y: int, reach: int) -> tuple[float, int, int]:
    """The full-resolution best place near ``(x, y)``, within ``reach`` px."""
    cv2, _ = _cv()
    sh, sw = screen.shape[:2]
    th, tw = template.shape[:2]
    x0, y0 = max(x - reach, 0), max(y - reach, 0)
    x1, y1 = min(x + reach + tw, sw), min(y + reach + th, sh)
    scores = _scores(screen[y0:y1, x0:x1], template)
    _, best, _, (bx, by) = cv2.minMaxLoc(scores)
    return float(best), x0 + int(bx), y0 + int(by)


def match(screen: Any, template: Any) -> Match:
    """The template's best place on ``screen`` (BGR arrays) and whether to trust it.

    Coarse to fine, so a large page costs tens of milliseconds: both pictures are reduced
    (by 2 or 4, keeping the template at least :data:`COARSE_MIN_SIDE` px), the
    :data:`PEAKS` best coarse places are scored again at full resolution around each, and
    the best two distinct places decide. A template too small to reduce is matched at full
    resolution."""
    cv2, _ = _cv()
    started = time.monotonic()
    sh, sw = screen.shape[:2]
    th, tw = template.shape[:2]
    if th > sh or tw > sw:
        return Match("weak", Box(0, 0, tw, th), 0.0, 0.0, None, (sw, sh), 0.0)
    factor = 1
    while factor < 4 and min(th, tw) // (factor * 2) >= COARSE_MIN_SIDE:
        factor *= 2
    if factor == 1:
        places = _peaks(_scores(screen, template), tw, th, 2)
    else:
        small = cv2.resize(screen, (sw // factor, sh // factor), interpolation=cv2.INTER_AREA)
        tiny = cv2.resize(template, (tw // factor, th // factor), interpolation=cv2.INTER_AREA)
        coarse = _peaks(_scores(small, tiny), tw // factor, th // factor, PEAKS)
        refined = [
            _refine(screen, template, x * factor, y * factor, 2 * factor) for _, x, y in coarse
        ]
        refined.sort(reverse=True)
        places = refined[:1]
        for score, x, y in refined[1:]:
            if abs(x - places[0][1]) >= tw or abs(y - places[0][2]) >= th:
                places.append((score, x, y))
                break
    best, bx, by = places[0]
    second, rx, ry = places[1] if len(places) > 1 else (0.0, 0, 0)
    best = best if math.isfinite(best) else 0.0
    second = max(second, 0.0) if math.isfinite(second) else 0.0
    judged = IMAGE_RULE.verdict(best, second)
    verdict: Verdict = "weak" if judged is Evidence.WEAK else "ok"
    if judged is Evidence.CLOSE or (verdict == "ok" and IMAGE_RULE.meets_threshold(second)):
        verdict = "ambiguous"  # (a second copy that clears the threshold is a copy too)
    return Match(
        verdict,
        Box(bx, by, tw, th),
        round(best, 4),
        round(second, 4),
        Box(rx, ry, tw, th) if second > 0 else None,
        (sw, sh),
        (time.monotonic() - started) * 1000,
    )


def annotate(screen: Any, found: Match) -> bytes:
    """The screenshot as PNG with the match's box drawn: green when accepted, red when
    refused (and the runner-up's box, orange, when the match was ambiguous)."""
    cv2, _ = _cv()
    image = screen.copy()
    b = found.box
    colour = (60, 160, 40) if found.accepted else (40, 40, 200)
    cv2.rectangle(image, (b.x - 2, b.y - 2), (b.x + b.width + 1, b.y + b.height + 1), colour, 3)
    label = f"{found.score:.2f}"
    cv2.putText(image, label, (b.x, max(b.y - 8, 12)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 2)
    r = found.runner_up_box
    if found.verdict == "ambiguous" and r is not None:
        orange = (0, 140, 255)
        cv2.rectangle(image, (r.x - 2, r.y - 2), (r.x + r.width + 1, r.y + r.height + 1), orange, 3)
        cv2.putText(
            image, f"{found.runner_up:.2f}", (r.x, max(r.y - 8, 12)),
            cv2.FONT_HERSHEY_SIMPLEX, 0.5, orange, 2,
        )  # fmt: skip
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise VisionError("the annotated screenshot could not be encoded")
    return bytes(data.tobytes())
