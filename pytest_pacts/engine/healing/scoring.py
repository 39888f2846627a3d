"""Similarity scoring against a stored fingerprint: weights, page ranking, settling.

Rung 5 of the ladder (docs/healing.md "Similarity relocation"). Weights are the share of
each attribute left unchanged across real site versions (the published stability study):
a stable attribute counts more. The in-page half is ``js/healing.js``; one ``evaluate`` per
frame scores every visible, action-compatible element (open shadow roots included, and
same-origin iframes through one call each).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from playwright.sync_api import ElementHandle, Frame, Page
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery import UnrenderableLocator
from pytest_pacts.discovery.chain import apply
from pytest_pacts.discovery.payloads import FrameInfo, RankResult, checked
from pytest_pacts.discovery.render import frame_calls, region_calls
from pytest_pacts.engine.contracts import StepState
from pytest_pacts.engine.waiting import wait_for_change
from pytest_pacts.models.locator import Candidate, Fingerprint, Locator
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.bridge import frame_info
from pytest_pacts.runtime.healing import call_in_frame

WEIGHTS: Mapping[str, float] = {
    "type": 0.96,  # tag + input type
    "name": 0.95,  # the form ``name`` attribute
    "text": 0.95,  # visible text; also used for the label and placeholder a person reads
    "id": 0.87,
    # not in the study: a link's destination, the request it makes, as a form control's
    # name is the key it is submitted under; counted only where it is the recorded one and
    # on one link of the page (``js/healing.js``, ``similarity``), never against a link
    "href": 0.95,
    # test ids are not in the study; they are id-like attributes, so they get id's share
    "test_id": 0.87,
    "role": 0.85,
    "aria_label": 0.82,  # accessible name when it is not the visible text; alt, title
    "class": 0.80,
    "ancestors": 0.54,  # the study's XPath: the ancestor chain
    "neighbours": 0.53,
    "position": 0.35,
}
"""Attribute weights: the published stability anchors."""

ANCHOR_MIN = 0.75
"""A relocation needs one of the element's own attributes (text, label, placeholder, name,
id, test id, accessible name) at least this similar: surroundings alone (type, role,
ancestors, neighbours, position) describe the slot, not the element."""

JSON = dict[str, object]
_heal_ids = itertools.count(1)


@dataclass(frozen=True)
class Scored:
    """One ranked element: where it lives, its score and the per-attribute similarities."""

    frame: Frame
    frame_path: tuple[str, ...]
    heal_id: str
    index: int
    score: float
    description: str
    fits: bool
    anchor: float = 0.0  # best similarity among the element's own attributes
    parts: Mapping[str, float] = field(default_factory=dict)

    def candidate(self) -> Candidate:
        where = f" in frame {' > '.join(self.frame_path)}" if self.frame_path else ""
        return Candidate(description=self.description + where, score=round(self.score, 4))


@dataclass(frozen=True)
class Ranking:
    """Every frame's best candidates, best first; ``considered`` counts scored elements."""

    ranked: tuple[Scored, ...]
    considered: int

    @property
    def best(self) -> Scored | None:
        return self.ranked[0] if self.ranked else None

    @property
    def runner_up(self) -> Scored | None:
        return self.ranked[1] if len(self.ranked) > 1 else None

    def candidates(self, limit: int = 5) -> tuple[Candidate, ...]:
        return tuple(s.candidate() for s in self.ranked[:limit])


def frames(page: Page) -> list[tuple[Frame, tuple[str, ...]]]:
    """The top frame and every same-origin iframe, with discovery's frame paths."""
    out: list[tuple[Frame, tuple[str, ...]]] = [(page.main_frame, ())]

    def visit(frame: Frame, path: tuple[str, ...]) -> None:
        for child in frame.child_frames:
            try:
                info = checked(frame_info(frame, child), FrameInfo, "the in-page 'frameInfo' call")
            except PlaywrightError:  # detached while we looked
                continue
            if info["same_origin"]:
                child_path = (*path, info["selector"])
                out.append((child, child_path))
                visit(child, child_path)

    visit(page.main_frame, ())
    return out


def fingerprint_json(fp: Fingerprint) -> JSON:
    return cast(JSON, fp.model_dump(mode="json"))


@dataclass(frozen=True)
class Scope:
    """The step's region: its text, and its containers when they resolve."""

    text: str
    frame_path: tuple[str, ...] = ()
    containers: tuple[ElementHandle, ...] = ()


# long because: mostly its docstring; the body ranks each frame in one loop
def rank_page(
    page: Page,
    fp: Fingerprint,
    action: str,
    *,
    limit: int = 5,
    scope: Scope | None = None,
    top_frame: bool = True,
) -> Ranking:
    """Score every visible element whose type fits ``action`` against ``fp``, all frames
    (only inside ``scope`` when the step names a region; not the top frame without
    ``top_frame``, for a caller that ranked it already)."""
    ranked: list[Scored] = []
    considered = 0
    for frame, path in frames(page):
        if scope is not None and scope.containers and path != scope.frame_path:
            continue  # the region's containers live in one frame
        if not path and not top_frame:
            continue
        heal_id = new_heal_id()
        arg = rank_arg(heal_id, fp, action, limit)
        if scope is not None:
            arg["regions"] = list(scope.containers)
            arg["region_text"] = scope.text
        try:
            raw = checked(
                call_in_frame(frame, "rank", arg), RankResult, "the in-page healing 'rank' call"
            )
        except PlaywrightError:
            if not path:
                raise
            continue  # a child frame went away mid-scan
        considered += raw["considered"]
        ranked.extend(ranking_of(frame, path, heal_id, raw).ranked)
    ranked.sort(key=lambda s: -s.score)
    return Ranking(tuple(ranked), considered)


def rank_arg(heal_id: str, fp: Fingerprint, action: str, limit: int = 5) -> JSON:
    """The in-page ``rank`` call's argument for ``fp`` (no region: the whole frame)."""
    return {
        "heal_id": heal_id,
        "fp": fingerprint_json(fp),
        "action": action,
        "weights": dict(WEIGHTS),
        "limit": limit,
    }


def new_heal_id() -> str:
    """A key for the elements an in-page ranking keeps (``js/healing.js``, ``healRegistry``)."""
    return f"h{next(_heal_ids)}"


def ranking_of(frame: Frame, path: tuple[str, ...], heal_id: str, raw: RankResult) -> Ranking:
    """One frame's in-page ``rank`` answer as a :class:`Ranking`."""
    scored = [
        Scored(
            frame=frame,
            frame_path=path,
            heal_id=heal_id,
            index=c["index"],
            score=c["score"],
            description=c["description"],
            fits=c["fits"],
            anchor=c["anchor"],
            parts=c["parts"],
        )
        for c in raw["candidates"]
    ]
    scored.sort(key=lambda s: -s.score)
    return Ranking(tuple(scored), raw["considered"])


def settle(page: Page, timeout_ms: float, busy: Callable[[], bool] | None = None) -> bool:
    """Wait until the page is settled, as observed: loaded, no request it waits on in flight
    (``busy``, the run's view of the network; ``None`` when there is none), and no DOM
    change for two animation frames (counted in the page since healing's script arrived in
    it, so a page already still answers at once). ``False`` when it did not settle within
    ``timeout_ms``.

    Healenium relocates while a page is still loading; similarity scoring runs only on a
    settled page.
    """
    deadline = time.monotonic() + timeout_ms / 1000.0
    try:
        page.wait_for_load_state("load", timeout=timeout_ms)
        while True:
            left_ms = max((deadline - time.monotonic()) * 1000.0, 0.0)
            if busy is None or not busy():
                answer = call_in_frame(page.main_frame, "settled", {"timeout_ms": left_ms})
                quiet = checked(answer, bool, "the in-page healing 'settled' call")
                if quiet and (busy is None or not busy()):
                    return True
                if not quiet:
                    return False  # changing until the deadline
            if time.monotonic() >= deadline:
                return False
            wait_for_change(page, min(50.0, max(left_ms, 1.0)))
    except PlaywrightError:
        return False


def describe_parts(parts: Mapping[str, float]) -> str:
    """``text 1.00, id 0.00, …``: why a candidate scored what it did, for the evidence."""
    return ", ".join(f"{k} {v:.2f}" for k, v in parts.items())


def top_lines(ranked: Sequence[Scored], limit: int = 3) -> list[str]:
    return [f"{s.description} {s.score:.3f} ({describe_parts(s.parts)})" for s in ranked[:limit]]


def region_scope(
    page: Page,
    state: StepState,
    lookup: Callable[[Locator], Sequence[ElementHandle]] | None = None,
) -> Scope | None:
    """The step's region as a :class:`Scope`: the region of the locators recorded for the
    step (rendered to its containers as they are now), else only its text. ``lookup``
    renders a locator's region to its containers instead (one that keeps what it found)."""
    target = state.step.target
    if target is None or target.region is None:
        return None
    recorded = [state.locator, *state.alternates]
    if state.discovery is not None:
        recorded += [state.discovery.locator, *state.discovery.alternates]
    tried: set[tuple[tuple[str, ...], str]] = set()
    for locator in recorded:
        if locator is None or locator.region is None:
            continue
        # the alternates of one element usually share its region: look each one up once
        key = (locator.frame_path, locator.region.model_dump_json())
        if key in tried:
            continue
        tried.add(key)
        try:
            if lookup is not None:
                handles = tuple(lookup(locator))
            else:
                calls = frame_calls(locator) + region_calls(locator.region)
                region = apply(page, calls)
                handles = tuple(bounded.call(page, "finding the region", region.element_handles))
        except (PlaywrightError, UnrenderableLocator):
            continue
        if handles:
            return Scope(target.region, locator.frame_path, handles)
    return Scope(target.region)
