"""Special surfaces: what a step's words may name but no locator can reach.

When a step's element is not found (the normal find came up empty), the page is looked at
once more for what no DOM strategy can act on, so the failure says what was found and what
can be done instead of blaming selector drift:

- a CAPTCHA / one-time-code challenge (``captcha_or_2fa``; it ends the run);
- a ``<canvas>``: what it draws is pixels (``canvas_detected``);
- a PDF shown by the browser's viewer (``<embed>``, ``<object>`` or ``<iframe>`` of a PDF:
  ``pdf_embed_detected``);
- a component whose content is in a *closed* shadow root, which no script can enter (a
  custom element with no shadow root visible to scripts, no light content and a box on
  screen: ``closed_shadow_root_detected``);
- an ``<iframe>`` of another origin, whose document this page cannot read
  (``cross_origin_iframe_detected``); Playwright can still read its text, so the failure
  says when the step's words are in it.

Nothing here runs on the happy path: one bounded ``evaluate`` (plus one per cross-origin
frame) after a step already failed to find its element.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypedDict, cast
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Page

from pytest_pacts.models import Step
from pytest_pacts.models.locator import BoundingBox
from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.runtime import bounded

# Surfaces smaller than this (in CSS px, each side) are ignored: icons, spacers, trackers.
MIN_SIDE_PX = 16
# A canvas smaller than this (CSS px²: 64x64) is decoration (a sparkline, an avatar), not a
# drawn control or chart, and does not explain a missing element.
MIN_CANVAS_AREA = 64 * 64
FRAME_TEXT_MS = 1_000.0  # reading one cross-origin frame's text
# How far from a recorded element's old place a surface may lie and still be where the
# element went (a layout that shifted between versions), in CSS px.
NEAR_PX = 48.0


class _Found(TypedDict):
    kind: str  # "canvas", "pdf", "closed_shadow", "cross_origin_iframe"
    what: str
    area: float
    url: str
    box: list[float]  # x, y, width, height in document coordinates


class _Scan(TypedDict):
    captcha: str | None
    surfaces: list[_Found]


_SCAN = """([minSide, minArea]) => {
  const captcha = document.querySelector(
    'iframe[src*="captcha" i], iframe[title*="captcha" i], [class*="captcha" i], [id*="captcha" i],'
    + ' input[autocomplete="one-time-code"]');
  if (captcha) return {captcha: captcha.outerHTML.slice(0, 120), surfaces: []};
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < minSide || r.height < minSide) return null;
    const s = getComputedStyle(el);
    return s.visibility === 'hidden' || s.display === 'none' ? null : r;
  };
  const name = (el) => {
    let text = el.localName;
    if (el.id) text += '#' + el.id;
    else if (el.classList.length) text += '.' + el.classList[0];
    const label = el.getAttribute('aria-label') || el.getAttribute('title');
    if (label) text += ` "${label.slice(0, 40)}"`;
    return text;
  };
  const size = (r) => `${Math.round(r.width)}x${Math.round(r.height)} px`;
  const pdf = (el) => {
    const type = (el.getAttribute('type') || '').toLowerCase();
    const src = el.getAttribute('src') || el.getAttribute('data') || '';
    return type === 'application/pdf' || /\\.pdf([?#]|$)/i.test(src);
  };
  const out = [];
  const add = (kind, el, r, extra, url) =>
    out.push({kind, what: `${name(el)} (${size(r)}${extra})`, area: r.width * r.height, url,
              box: [r.x + scrollX, r.y + scrollY, r.width, r.height]});
  for (const el of document.querySelectorAll('canvas')) {
    const r = shown(el);
    if (r && r.width * r.height >= minArea) add('canvas', el, r, '', '');
  }
  for (const el of document.querySelectorAll('embed, object, iframe')) {
    const r = shown(el);
    if (!r) continue;
    const src = el.src || el.data || '';
    if (pdf(el)) { add('pdf', el, r, src ? `, ${src}` : '', src); continue; }
    if (el.localName !== 'iframe' || !src) continue;
    let readable = false;
    try { readable = el.contentDocument !== null; } catch (e) { readable = false; }
    const origin = new URL(src, location.href).origin;
    if (!readable) add('cross_origin_iframe', el, r, `, from ${origin}`, src);
  }
  for (const el of document.querySelectorAll('*')) {
    if (!el.localName.includes('-') || el.shadowRoot || el.childElementCount) continue;
    if (el.textContent.trim() || !customElements.get(el.localName)) continue;
    const r = shown(el);
    if (r) add('closed_shadow', el, r, '', '');
  }
  return {captcha: null, surfaces: out};
}"""

_TYPES = {
    "canvas": FailureType.CANVAS_DETECTED,
    "pdf": FailureType.PDF_EMBED_DETECTED,
    "closed_shadow": FailureType.CLOSED_SHADOW_ROOT_DETECTED,
    "cross_origin_iframe": FailureType.CROSS_ORIGIN_IFRAME_DETECTED,
}
_WHAT = {
    "canvas": ("draws on a canvas,", "what it draws is pixels, with no elements to find"),
    "pdf": (
        "shows a PDF in the browser's viewer,",
        "the viewer's content is not part of the page",
    ),
    "closed_shadow": (
        "has a component with a closed shadow root,",
        "no script or locator can enter it",
    ),
    "cross_origin_iframe": (
        "has an iframe of another origin,",
        "this page cannot search that frame's document",
    ),
}
# When several surfaces are on the page, the one most likely to hold the target is named
# first: a cross-origin frame that shows the step's words, else the largest surface.
_ORDER = ("cross_origin_iframe", "closed_shadow", "pdf", "canvas")


@dataclass(frozen=True)
class Surface:
    kind: str
    what: str
    area: float
    url: str = ""
    has_words: bool = False
    box: tuple[float, float, float, float] | None = None  # x, y, width, height (document)

    def covers(self, was: BoundingBox) -> bool:
        """Does the surface lie over the place ``was`` (a recorded element's box), give or
        take :data:`NEAR_PX` (a layout that shifted a little between versions)? True when
        the surface's own box is not known."""
        if self.box is None:
            return True
        x, y, w, h = self.box
        return (
            x - NEAR_PX < was.x + was.width
            and was.x < x + w + NEAR_PX
            and y - NEAR_PX < was.y + was.height
            and was.y < y + h + NEAR_PX
        )


def _box(raw: object) -> tuple[float, float, float, float] | None:
    if isinstance(raw, list) and len(raw) == 4 and all(isinstance(v, int | float) for v in raw):
        return (float(raw[0]), float(raw[1]), float(raw[2]), float(raw[3]))
    return None


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _frame_has(page: Page, frame: Frame, words: str) -> bool:
    try:
        text = bounded.call(
            page,
            "reading a cross-origin frame's text",
            lambda: frame.evaluate("() => document.body ? document.body.innerText : ''"),
            timeout_ms=FRAME_TEXT_MS,
        )
    except PlaywrightError:
        return False
    return isinstance(text, str) and bool(words) and _norm(words) in _norm(text)


def _page_shows(page: Page, words: str) -> bool:
    """Does the page's own text say ``words``? Playwright's text matching (case-insensitive,
    whitespace normalised, through open shadow roots), in the top document."""
    if not words.strip():
        return False
    try:
        count = bounded.call(
            page,
            "looking for the step's words in the page's text",
            lambda: page.get_by_text(words).count(),
            timeout_ms=FRAME_TEXT_MS,
        )
    except PlaywrightError:
        return False
    return count > 0


def find_surfaces(page: Page, words: str) -> tuple[str | None, list[Surface]]:
    """The challenge on the page (its HTML, shortened) or ``None``, and the special surfaces,
    the likeliest holder of ``words`` first. Raises Playwright's ``Error``."""
    scan = cast(
        _Scan,
        bounded.call(
            page,
            "looking for special surfaces",
            lambda: page.evaluate(_SCAN, [MIN_SIDE_PX, MIN_CANVAS_AREA]),
        ),
    )
    if scan["captcha"]:
        return scan["captcha"], []
    surfaces = [
        Surface(s["kind"], s["what"], s["area"], s["url"], box=_box(s.get("box")))
        for s in scan["surfaces"]
    ]
    foreign = [s for s in surfaces if s.kind == "cross_origin_iframe"]
    if foreign:
        main = _origin(page.url)
        frames = [f for f in page.frames[1:] if _origin(f.url) != main]
        hits = {f.url for f in frames if _frame_has(page, f, words)}
        surfaces = [
            Surface(s.kind, s.what, s.area, s.url, True)
            if s.kind == "cross_origin_iframe" and s.url in hits
            else s
            for s in surfaces
        ]
        if hits and not any(s.has_words for s in surfaces):  # a frame the scan named otherwise
            surfaces.insert(0, Surface("cross_origin_iframe", next(iter(hits)), 0, "", True))
    surfaces.sort(key=lambda s: (not s.has_words, -s.area, _ORDER.index(s.kind)))
    return None, surfaces


def matched_nothing(failure: Failure) -> bool:
    """A failure of a locator (or a discovery) that found no element at all."""
    if failure.type is FailureType.NOT_FOUND:
        return True
    if failure.type is not FailureType.NOT_UNIQUE or failure.cause == "identity_changed":
        return False
    if failure.gate is not None:
        return failure.gate.count == 0
    return "(count=0)" in failure.message


# long because: a table of special surfaces (challenge, canvas, PDF, shadow, frame), checked in
# order
def special_surface(
    page: Page,
    failure: Failure,
    step: Step | None = None,
    *,
    misspelt: bool = False,
    was_at: BoundingBox | None = None,
) -> Failure:
    """``failure`` (a step whose element was not found) re-typed when the page shows a
    challenge or a special surface, saying what was found; unchanged otherwise.

    ``misspelt``: the page shows a name close to the step's (a likely typo). Then only a
    cross-origin frame that shows the step's very words re-types the failure; other
    surfaces are added to its evidence. ``was_at``: where a recorded element was (its
    fingerprint's box, in the top document). A surface that shows the step's words, or lies
    where the element was, may hold it now; one elsewhere on the page explains nothing (a
    cookie button gone from a page that also draws a chart) and is only added to the
    evidence."""
    words = step.target.element if step is not None and step.target is not None else ""
    try:
        captcha, surfaces = find_surfaces(page, words)
    except PlaywrightError:
        return failure
    if was_at is not None and not captcha:
        away = [s for s in surfaces if not s.has_words and not s.covers(was_at)]
        surfaces = [s for s in surfaces if s not in away]
        if away and not surfaces:
            where = f"({was_at.x:.0f}, {was_at.y:.0f}, {was_at.width:.0f}x{was_at.height:.0f})"
            return failure.model_copy(
                update={
                    "evidence": (
                        *failure.evidence,
                        *(
                            f"the page also has a {s.kind.replace('_', ' ')}: {s.what}, away "
                            f"from where the element was {where}"
                            for s in away
                        ),
                    )
                }
            )
    # A surface whose content no script reads (a canvas's pixels, a PDF viewer, a closed
    # shadow root) explains a missing element only when its words are nowhere in the page's
    # own text: where the page shows them, the element they name is an element (named
    # otherwise, or hidden), so the surface is only evidence.
    unread = [s for s in surfaces if not s.has_words]
    if unread and not captcha and _page_shows(page, words):
        surfaces = [s for s in surfaces if s.has_words]
        if not surfaces:
            return failure.model_copy(
                update={
                    "evidence": (
                        *failure.evidence,
                        *(
                            f"the page also has a {s.kind.replace('_', ' ')}: {s.what}, but "
                            f'its own text shows "{words}"'
                            for s in unread
                        ),
                    )
                }
            )
    if captcha:
        return failure.model_copy(
            update={
                "type": FailureType.CAPTCHA_OR_2FA,
                "message": f"the page asks for a CAPTCHA or one-time code ({captcha})",
                "evidence": (*failure.evidence, f"challenge: {captcha}"),
            }
        )
    if not surfaces:
        return failure
    first = surfaces[0]
    evidence = [f"{s.kind.replace('_', ' ')}: {s.what}" for s in surfaces]
    if misspelt and not first.has_words:
        return failure.model_copy(
            update={
                "evidence": (*failure.evidence, *(f"the page also has a {e}" for e in evidence))
            }
        )
    intro, limit = _WHAT[first.kind]
    where = f', where "{words}" is written' if first.has_words else ""
    message = f"{failure.message}; the page {intro} {first.what}{where}: {limit}"
    return failure.model_copy(
        update={
            "type": _TYPES[first.kind],
            "message": message,
            "evidence": (*failure.evidence, *evidence),
        }
    )
