"""What a candidate locator resolves to: how many elements, and for one, its fresh
fingerprint and similarity to the recorded one (:func:`resolve`); several locators estimated
in the page in one round trip (:func:`estimate_all`), and whether Playwright singles out the
element an estimate chose (:func:`singles_out`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.discovery import UnrenderableLocator, to_playwright
from pytest_pacts.discovery.payloads import (
    ResolveAllResult,
    SameElement,
    ScoreResult,
    checked,
)
from pytest_pacts.engine.contracts import HealContext, Resolved
from pytest_pacts.engine.healing.basics import locator_json
from pytest_pacts.engine.healing.relocate import call_on_locator
from pytest_pacts.engine.healing.scoring import (
    WEIGHTS,
    fingerprint_json,
)
from pytest_pacts.models.locator import Fingerprint, Locator
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.healing import count_matches, sent_in_frame, sent_on_elements


def resolve(
    page: Page,
    locator: Locator,
    fp: Fingerprint | None,
    memo: dict[tuple[str, str], Resolved] | None = None,
) -> Resolved:
    """One round trip: count, fresh fingerprint and similarity of ``locator``'s element.

    ``memo`` (``HealContext.resolved``) keeps the answers of one rung: its candidate checks
    ask about the same locators again on a page that has not changed in between."""
    key = resolved_key(locator, fp)
    if memo is not None and key in memo:
        return memo[key]
    found = _resolve(page, locator, fp)
    if memo is not None:
        memo[key] = found
    return found


def resolved_key(locator: Locator, fp: Fingerprint | None) -> tuple[str, str]:
    """The key of :func:`resolve`'s answers in ``HealContext.resolved``."""
    return locator.model_dump_json(), fp.model_dump_json() if fp else ""


def matches_none(ctx: HealContext, locators: list[Locator], region_gone: bool = False) -> None:
    """Count in one round trip what any of the top-frame ``locators`` matches (Playwright's
    ``or_``); when that is nothing, each is kept in ``ctx.resolved`` as matching nothing, so
    the rung does not ask about them one by one. Nothing is kept otherwise.

    ``region_gone``: the failing locator's region was just counted on no element (region
    drift's count, sent at the round's start): a locator inside the same region (and frame)
    matches nothing too, since Playwright looks for a chain's later parts only inside the
    elements of its first. Each is kept as matching nothing without being counted."""
    rendered = []
    current = ctx.state.locator
    for locator in dict.fromkeys(locators):
        if (
            region_gone
            and current is not None
            and locator.region is not None
            and locator.region == current.region
            and locator.frame_path == current.frame_path
        ):
            ctx.resolved[resolved_key(locator, ctx.state.fingerprint)] = Resolved(0)
            continue
        if locator.frame_path:
            continue
        try:
            rendered.append((locator, to_playwright(ctx.page, locator)))
        except UnrenderableLocator:
            continue  # resolve() answers "0 elements" for it anyway
    if len(rendered) < 2:
        return
    union = rendered[0][1]
    for _locator, target in rendered[1:]:
        union = union.or_(target)
    try:
        count = count_matches(ctx.page, "counting the candidates", union)
    except PlaywrightError:
        return
    if count == 0:
        for locator, _target in rendered:
            ctx.resolved[resolved_key(locator, ctx.state.fingerprint)] = Resolved(0)


_estimate_ids = itertools.count(1)

Element = tuple[str, int]
"""An element the in-page estimate singled out: (registry id, index), for ``probe``'s
``expect`` and ``isSame``."""


@dataclass(frozen=True)
class Estimate:
    """What :func:`estimate_all` found for one locator: as :func:`resolve` answers, and for
    exactly one element, that element in the page's registry."""

    found: Resolved
    element: Element | None = None


def estimable(locator: Locator) -> bool:
    """Whether the page can resolve ``locator`` itself (:func:`estimate_all`): top frame, no
    region, exact values."""
    return not locator.frame_path and locator.region is None and locator.exact


def estimate_all(ctx: HealContext, locators: list[Locator]) -> dict[Locator, Estimate]:
    """Several locators resolved in the page in one round trip, as discovery estimates
    uniqueness (its strategies' own matching, over every element of the document), with
    each singled-out element's fingerprint and similarity. Only locators
    :func:`estimable` accepts are sent; one whose strategy the page cannot render is left
    out of the answer, as is every locator when the call fails. An estimate chooses; the
    locator a rung goes on to use is resolved by Playwright (:func:`probe` with ``expect``)."""
    return send_estimates(ctx, locators).result()


@dataclass
class SentEstimates:
    """:func:`estimate_all` sent ahead (:func:`send_estimates`): read with :meth:`result`."""

    wanted: list[Locator]
    heal_id: str = ""
    sent: bounded.Sent[Any] | None = None

    def result(self) -> dict[Locator, Estimate]:
        if self.sent is None:
            return {}
        try:
            raw = checked(
                self.sent.result(), ResolveAllResult, "the in-page healing 'resolveAll' call"
            )
        except PlaywrightError:
            return {}
        out: dict[Locator, Estimate] = {}
        for loc, answer in zip(self.wanted, raw["results"], strict=True):
            if not answer["supported"]:
                continue
            index = answer.get("index")
            if answer.get("count") != 1 or index is None:
                out[loc] = Estimate(Resolved(answer.get("count", 0)))
                continue
            out[loc] = Estimate(resolved_of(raw["elements"][index], loc), (self.heal_id, index))
        return out

    def drop(self) -> None:
        if self.sent is not None:
            self.sent.drop()


def send_estimates(ctx: HealContext, locators: list[Locator]) -> SentEstimates:
    """:func:`estimate_all`'s question sent now, its answer read later."""
    wanted = [loc for loc in dict.fromkeys(locators) if estimable(loc)]
    if not wanted:
        return SentEstimates(wanted)
    fp = ctx.state.fingerprint
    heal_id = f"e{next(_estimate_ids)}"
    specs = [
        {k: v for k, v in locator_json(loc).items() if k not in ("confidence", "in_shadow")}
        for loc in wanted
    ]
    arg = {
        "heal_id": heal_id,
        "specs": specs,
        "fp": fingerprint_json(fp) if fp else None,
        "weights": dict(WEIGHTS),
    }
    return SentEstimates(wanted, heal_id, sent_in_frame(ctx.page.main_frame, "resolveAll", arg))


def singles_out(ctx: HealContext, locators: list[Locator], element: Element) -> bool:
    """Whether Playwright finds exactly ``element`` for the union of ``locators`` (one round
    trip): none of them matches another element, and at least one matches it."""
    return singled_out(send_singles_out(ctx, locators, element))


def send_singles_out(
    ctx: HealContext, locators: list[Locator], element: Element
) -> bounded.Sent[Any] | None:
    """:func:`singles_out`'s question sent ahead (read it with :func:`singled_out`): the
    calls made meanwhile overlap its round trip. ``None``: a locator cannot be rendered."""
    union: PWLocator | None = None
    for locator in locators:
        try:
            target = to_playwright(ctx.page, locator)
        except UnrenderableLocator:
            return None
        union = target if union is None else union.or_(target)
    if union is None:
        return None
    # the bridge needs the frame that holds the elements: the page's, when none has a frame path
    frame = None if any(loc.frame_path for loc in locators) else ctx.page.main_frame
    arg = {"heal_id": element[0], "index": element[1]}
    return sent_on_elements(union, "isSame", arg, frame)


def singled_out(sent: bounded.Sent[Any] | None) -> bool:
    """The answer of :func:`send_singles_out`."""
    if sent is None:
        return False
    try:
        raw = checked(sent.result(), SameElement, "the in-page healing 'isSame' call")
    except PlaywrightError:
        return False
    return raw["same"]


def _resolve(page: Page, locator: Locator, fp: Fingerprint | None) -> Resolved:
    arg = {"fp": fingerprint_json(fp) if fp else None, "weights": dict(WEIGHTS)}
    try:
        raw = checked(
            call_on_locator(page, locator, "scoreOf", arg),
            ScoreResult,
            "the in-page healing 'scoreOf' call",
        )
    except (PlaywrightError, UnrenderableLocator):
        return Resolved(0)
    return resolved_of(raw, locator)


def resolved_of(raw: ScoreResult, locator: Locator) -> Resolved:
    if raw["fingerprint"] is None:
        return Resolved(raw["count"])
    fresh = Fingerprint.model_validate({**raw["fingerprint"], "frame_path": locator.frame_path})
    return Resolved(
        1,
        raw["score"],
        fresh,
        raw.get("description", ""),
        raw.get("anchor"),
        dict(raw.get("parts") or {}),
    )
