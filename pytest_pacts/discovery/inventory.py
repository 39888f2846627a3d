"""The elements a person can name on a page, each with an ``Element@Region`` text that
discovery resolves to exactly that element (``pacts elements``: authoring help).

One in-page pass (``inventory`` in ``js/api.js``) lists the visible controls of the top
document with the names they show and the texts of the containers around them. Each
element's candidate texts are tried in order (its name alone, then with each container
text as region, nearest first) by the discovery the tests use (:class:`Discoverer`), all
elements at once: one scan per round. A text is kept only when discovery resolves it and
the resolved locator, run through Playwright, is the listed element itself, so no text is
shown that would find another element or none. Every page call is bounded.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from playwright.sync_api import ElementHandle, Frame, Page
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery.engine import Discoverer
from pytest_pacts.discovery.render import to_code, to_playwright
from pytest_pacts.discovery.strategies import UnrenderableLocator
from pytest_pacts.models.evidence import EvidenceRule
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.requirement import Action, Target
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.bridge import call_in_frame, call_on_elements, call_on_handle, frame_info
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS

JSON = dict[str, object]
_list_ids = itertools.count(1)
MAX_CANDIDATES = 12  # texts tried per element (names x regions), best first


@dataclass
class PageElement:
    """One control of the page. ``text`` is ``None`` when no candidate text singles it out;
    ``why`` then says what discovery answered for the best one."""

    number: int
    action: str
    description: str
    group: str
    box: tuple[float, float, float, float]
    text: str | None = None
    code: str | None = None
    strategy: str | None = None
    why: str | None = None
    tried: list[str] = field(default_factory=list)

    @property
    def region(self) -> str | None:
        if self.text is None or "@" not in self.text:
            return None
        return self.text.rpartition("@")[2]

    def as_json(self) -> JSON:
        x, y, w, h = self.box
        out: JSON = {
            "number": self.number,
            "action": self.action,
            "text": self.text,
            "group": self.group,
            "element": self.description,
            "box": {"x": round(x), "y": round(y), "width": round(w), "height": round(h)},
        }
        if self.code is not None:
            out["locator"] = self.code
            out["strategy"] = self.strategy
        if self.why is not None:
            out["why"] = self.why
        return out


def _candidates(raw: JSON) -> list[Target]:
    names = cast(list[str], raw["names"])[:3]
    regions = cast(list[str], raw["regions"])
    out = [
        Target(element=name, region=region)
        for name in names
        for region in (None, *regions)
        if region is None or region.casefold() != name.casefold()
    ]
    return out[:MAX_CANDIDATES]


def _why(result: DiscoveryResult | None, text: str) -> str:
    if result is None:
        return f'"{text}" was not resolved'
    if result.unresolved is not None:
        return result.unresolved.message
    return f'"{text}" resolves to another element'


def list_elements(
    page: Page, *, timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS, limit: int = 200
) -> list[PageElement]:
    """The page's nameable elements in document order (the top document, then each
    same-origin iframe, as discovery searches them), numbered from 1, each with the first
    candidate text discovery resolves to it (see the module's docstring)."""
    elements: list[PageElement] = []
    listed_as: list[tuple[str, int]] = []  # (the frame's list id, index in that list)
    candidates: list[list[Target]] = []
    with bounded.budget(timeout_ms):
        for frame, origin, label in _frames(page):
            if len(elements) >= limit:
                break
            list_id = f"l{next(_list_ids)}"
            raw = cast(
                list[JSON],
                call_in_frame(
                    frame,
                    "listing the page's elements",
                    "inventory",
                    {"list_id": list_id, "limit": limit - len(elements)},
                ),
            )
            for item in raw:
                box = cast(dict[str, float], item["box"])
                if origin is not None:  # inside an iframe: where the frame shows it
                    view = cast(dict[str, float], item["view"])
                    box = {**box, "x": origin[0] + view["x"], "y": origin[1] + view["y"]}
                element = PageElement(
                    number=len(elements) + 1,
                    action=str(item["action"]),
                    description=str(item["description"]),
                    group=str(item["group"] or label),
                    box=(box["x"], box["y"], box["width"], box["height"]),
                )
                options = _candidates(item)
                if not options:
                    element.why = "it shows no name (no text, label, title or test id)"
                elements.append(element)
                listed_as.append((list_id, cast(int, item["index"])))
                candidates.append(options)
        _resolve(page, listed_as, elements, candidates)
    return elements


# asked in the iframe itself (a same-origin one: its ``frameElement`` is readable)
_ORIGIN = """() => {
  const el = window.frameElement;
  const r = el.getBoundingClientRect();
  return [r.x + el.clientLeft, r.y + el.clientTop];
}"""


def _frames(page: Page) -> list[tuple[Frame, tuple[float, float] | None, str]]:
    """The top frame, then every same-origin iframe (depth first, as discovery searches
    them), each with where its content starts on the page (``None`` for the top frame) and
    the group its elements fall back to."""
    out: list[tuple[Frame, tuple[float, float] | None, str]] = [(page.main_frame, None, "")]
    scroll = cast(
        list[float], bounded.call(page, "reading the scroll", page.evaluate, "[scrollX, scrollY]")
    )

    def visit(frame: Frame, origin: tuple[float, float]) -> None:
        for child in frame.child_frames:
            try:
                info = cast(JSON, frame_info(frame, child))
                if not info["same_origin"]:  # discovery cannot read it either
                    continue
                at = cast(
                    list[float],
                    bounded.call(child, "placing an iframe", child.evaluate, _ORIGIN),
                )
            except PlaywrightError:  # detached while we looked: nothing to list
                continue
            here = (origin[0] + at[0], origin[1] + at[1])
            out.append((child, here, f"frame {info['selector']}"))
            visit(child, here)

    visit(page.main_frame, (scroll[0], scroll[1]))
    return out


def name_of(
    page: Page,
    element: ElementHandle,
    action: Action,
    *,
    evidence: EvidenceRule | None = None,
    timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS,
) -> PageElement | None:
    """The text that names ``element`` (a control of the top document, or an element inside
    one: the icon of a button) for ``action``, found as :func:`list_elements` finds each
    element's, under ``evidence`` (the run's rule): its name alone, then with a region,
    nearest first, then with an ordinal. ``text`` is ``None`` when none resolves back to
    exactly this element, and ``why`` says what discovery answered; ``None`` when it is
    not a control discovery lists (hidden, or no control at all)."""
    list_id = f"l{next(_list_ids)}"
    with bounded.budget(timeout_ms):
        raw = cast(
            list[JSON],
            call_in_frame(
                page.main_frame,
                "listing the page's elements",
                "inventory",
                {"list_id": list_id, "limit": 1000},
            ),
        )
        at = cast(
            int,
            call_on_handle(page.main_frame, "finding the element used", element, "locate",
                           {"list_id": list_id}),
        )  # fmt: skip
        if at < 0:
            return None
        item = next(i for i in raw if i["index"] == at)
        box = cast(dict[str, float], item["box"])
        found = PageElement(
            number=1,
            action=action.value,
            description=str(item["description"]),
            group=str(item["group"] or ""),
            box=(box["x"], box["y"], box["width"], box["height"]),
        )
        options = _candidates(item)
        if not options:
            found.why = "it shows no name (no text, label, title or test id)"
            return found
        _resolve(page, [(list_id, at)], [found], [options], evidence=evidence)
    return found


def _resolve(
    page: Page,
    listed_as: list[tuple[str, int]],
    elements: list[PageElement],
    candidates: list[list[Target]],
    *,
    evidence: EvidenceRule | None = None,
) -> None:
    """Try each element's candidates in rounds (one discovery scan per round, all elements)."""
    tries = dict.fromkeys(range(len(elements)), 0)
    first: dict[int, DiscoveryResult | None] = {}
    while True:
        pending = {i: candidates[i][n] for i, n in tries.items() if n < len(candidates[i])}
        if not pending:
            return
        targets = [(i, t, Action(elements[i].action)) for i, t in pending.items()]
        found = Discoverer(max_alternates=0, evidence=evidence).discover(page, targets)
        for i, target in pending.items():
            result = found.get(i)
            elements[i].tried.append(str(target))
            first.setdefault(i, result)
            list_id, index = listed_as[i]
            if (
                result is not None
                and result.locator is not None
                and _is_listed(page, list_id, index, result)
            ):
                element = elements[i]
                element.text, element.why = str(target), None
                element.strategy = result.locator.strategy.value
                try:
                    element.code = to_code(result.locator)
                except UnrenderableLocator:
                    element.code = None
                tries[i] = len(candidates[i])
                continue
            tries[i] += 1
            if tries[i] >= len(candidates[i]) and not _counting(candidates[i]):
                # last resort: the first text that was ambiguous, with an ordinal
                candidates[i].extend(_ordinals(candidates[i], elements[i].tried, first[i]))
            if tries[i] >= len(candidates[i]):
                elements[i].why = _why(first[i], str(candidates[i][0]))


def _counting(targets: list[Target]) -> bool:
    return any(t.ordinal is not None for t in targets)


def _ordinals(
    targets: list[Target], tried: list[str], first: DiscoveryResult | None
) -> list[Target]:
    """``Delete[1]@Cart`` … ``Delete[8]@Cart`` for the element's first candidate text (its
    name, and the nearest region that holds it), when that text was ambiguous: the place
    among identical elements, counted as discovery counts it."""
    if first is None or first.unresolved is None or first.unresolved.reason != "ambiguous":
        return []
    base = targets[1] if len(targets) > 1 and targets[1].element == targets[0].element else None
    base = base or targets[0]
    count = max(2, len(first.unresolved.candidates))
    return [base.model_copy(update={"ordinal": n}) for n in range(1, count + 1)]


def _is_listed(page: Page, list_id: str, index: int, result: DiscoveryResult) -> bool:
    assert result.locator is not None
    try:
        target = to_playwright(page, result.locator)
        return bool(call_on_elements(target, "listed", {"list_id": list_id, "index": index}))
    except (PlaywrightError, UnrenderableLocator):
        return False


def grouped(elements: list[PageElement]) -> OrderedDict[str, list[PageElement]]:
    """Elements by the part of the page they stand in, in order of first appearance: the
    nearest heading around them, else their landmark (header, navigation, a form...), else
    "Page". A text's own region (a card's or a row's title) is in the text itself."""
    groups: OrderedDict[str, list[PageElement]] = OrderedDict()
    for element in elements:
        groups.setdefault(element.group or "Page", []).append(element)
    return groups


_OVERLAY = """(boxes) => {
  const old = document.getElementById('__pacts_elements__');
  if (old) old.remove();
  if (!boxes) return;
  const root = document.createElement('div');
  root.id = '__pacts_elements__';
  root.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;z-index:2147483647;'
    + 'pointer-events:none;';
  for (const b of boxes) {
    const box = document.createElement('div');
    const colour = b.named ? '#d6336c' : '#868e96';
    box.style.cssText = `position:absolute;left:${b.x - 2}px;top:${b.y - 2}px;`
      + `width:${b.width + 4}px;height:${b.height + 4}px;border:2px solid ${colour};`
      + 'box-sizing:border-box;border-radius:3px;';
    const tag = document.createElement('div');
    tag.textContent = String(b.n);
    // on a small element the number stands above it, so its text stays readable
    const top = b.height < 24 ? Math.max(0, b.y - 16) : b.y - 2;
    tag.style.cssText = `position:absolute;left:${b.x - 2}px;top:${top}px;`
      + `background:${colour};color:#fff;font:bold 11px/14px sans-serif;padding:0 3px;`
      + 'border-radius:3px 0 3px 0;opacity:0.9;';
    root.append(box, tag);
  }
  document.documentElement.append(root);
}"""


def annotate(page: Page, elements: list[PageElement], path: Path, *, timeout_ms: float) -> Path:
    """A full-page screenshot at ``path`` with a numbered box on each element (grey when no
    text names it); the boxes are removed from the page afterwards."""
    boxes = [
        {"n": e.number, "x": e.box[0], "y": e.box[1], "width": e.box[2], "height": e.box[3],
         "named": e.text is not None}
        for e in elements
    ]  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    with bounded.budget(timeout_ms):
        bounded.call(page, "drawing the element boxes", lambda: page.evaluate(_OVERLAY, boxes))
        try:
            bounded.call(
                page,
                "the annotated screenshot",
                lambda: page.screenshot(path=str(path), full_page=True, timeout=timeout_ms),
            )
        finally:
            bounded.call(page, "removing the element boxes", lambda: page.evaluate(_OVERLAY, None))
    return path
