"""Small helpers the rungs share: the step's action, locator JSON, fingerprint agreement."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Page

from pytest_pacts.discovery import UnrenderableLocator, to_playwright
from pytest_pacts.engine.contracts import HealContext
from pytest_pacts.engine.healing._js import call_on_elements
from pytest_pacts.engine.healing.scoring import WEIGHTS, fingerprint_json, rank_page
from pytest_pacts.models.locator import Fingerprint, Locator
from pytest_pacts.models.recipe import JsonObject

JSON = dict[str, object]


def action_of(ctx: HealContext) -> str:
    return ctx.state.step.action.value


def element_key(ctx: HealContext) -> str:
    target = ctx.state.step.target
    return target.key if target is not None else f"step {ctx.state.step.index}"


def locator_json(locator: Locator) -> JsonObject:
    """A locator as stored in healing memory and recipes: its set fields only."""
    return cast(JsonObject, locator.model_dump(mode="json", exclude_none=True))


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def frame_of(page: Page, path: tuple[str, ...]) -> Frame | None:
    """The frame a discovery frame path names (``iframe#pay`` > ...), or ``None``."""
    frame = page.main_frame
    for selector in path:
        try:
            handle = frame.query_selector(selector)
            child = handle.content_frame() if handle is not None else None
        except PlaywrightError:
            return None
        if child is None:
            return None
        frame = child
    return frame


@dataclass(frozen=True)
class Resolved:
    """What a locator resolves to now: how many elements, and for one, its fingerprint and
    similarity to the stored fingerprint (``None`` when there is none to compare with)."""

    count: int
    score: float | None = None
    fingerprint: Fingerprint | None = None
    description: str = ""


def resolve(page: Page, locator: Locator, fp: Fingerprint | None) -> Resolved:
    """One round trip: count, fresh fingerprint and similarity of ``locator``'s element."""
    arg = {"fp": fingerprint_json(fp) if fp else None, "weights": dict(WEIGHTS)}
    try:
        raw = cast(JSON, call_on_elements(to_playwright(page, locator), "scoreOf", arg))
    except (PlaywrightError, UnrenderableLocator):
        return Resolved(0)
    if raw["fingerprint"] is None:
        return Resolved(cast(int, raw["count"]))
    fresh = Fingerprint.model_validate(
        {**cast(JSON, raw["fingerprint"]), "frame_path": locator.frame_path}
    )
    score = raw["score"]
    return Resolved(
        1, float(cast(float, score)) if score is not None else None, fresh, str(raw["description"])
    )


def disagreement(ctx: HealContext, found: Resolved) -> str | None:
    """Why a locator found by intent (an alternate, re-discovery, memory) must not be used
    although it is unique and actionable: another element matches the stored fingerprint
    better by at least the margin. ``None`` when they agree (or there is no fingerprint).

    Principle 3 (SPEC.md §2): when the intent and the element's own attributes point at
    different elements, guessing is worse than failing.
    """
    fp = ctx.state.fingerprint
    if fp is None or found.score is None:
        return None
    ranking = rank_page(ctx.page, fp, action_of(ctx), limit=1)
    best = ranking.best
    if best is None or best.score - found.score < ctx.options.heal_margin:
        return None
    return (
        f"{found.description} matches the recorded fingerprint at {found.score:.2f}, but "
        f"{best.description} matches it at {best.score:.2f}: intent and fingerprint disagree"
    )


def gate_evidence(ctx: HealContext, locator: Locator) -> tuple[bool, str, JSON]:
    """The five-point gate on ``locator``: ok, the reason in words, and the evidence."""
    from pytest_pacts.discovery import check_locator
    from pytest_pacts.engine.healing.relocate import gate_json

    try:
        gate = check_locator(ctx.page, locator, action_of(ctx))
    except (PlaywrightError, UnrenderableLocator) as exc:
        return False, first_line(exc), {}
    evidence: JSON = {"gate_result": gate_json(gate)}
    if gate.box is not None:
        evidence["bounding_box"] = gate.box.model_dump(mode="json")
    failed = gate.failed
    return gate.ok, ("passes the gate" if failed is None else failed.reason), evidence
