"""From a ranked element to a new structured locator and fresh fingerprint.

The new locator is the most semantic rendering that singles the element out (test id,
role + name, label, placeholder, aria/title/alt, text, shadow host), with CSS only when
nothing semantic is unique: a CSS heal is what the self-heal gate calls case-specific.
Every rendering is re-checked through Playwright itself: it must resolve to
exactly the ranked element (identity, not "some element"), then pass the five-point gate.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.discovery import UnrenderableLocator, check_locator, to_playwright
from pytest_pacts.discovery.payloads import LocateResult, SameElement, checked
from pytest_pacts.engine.healing._js import call_in_frame, call_on_elements
from pytest_pacts.engine.healing.scoring import Scored
from pytest_pacts.models.locator import (
    CONFIDENCE,
    Fingerprint,
    GateSnapshot,
    Locator,
    Strategy,
)

# Semantic first (it survives restyling); css last.
ORDER: tuple[Strategy, ...] = (
    Strategy.TEST_ID,
    Strategy.ROLE_NAME,
    Strategy.LABEL,
    Strategy.PLACEHOLDER,
    Strategy.ARIA,
    Strategy.TEXT,
    Strategy.SHADOW,
    Strategy.CSS,
)
JSON = dict[str, object]


@dataclass(frozen=True)
class Relocation:
    """A rendering of the ranked element, verified; ``gate`` says whether it is actionable."""

    locator: Locator
    fingerprint: Fingerprint
    gate: GateSnapshot


def render(page: Page, scored: Scored) -> tuple[Locator, Fingerprint] | str:
    """The best verified locator for ``scored`` and its fingerprint, or why there is none."""
    arg = {"heal_id": scored.heal_id, "index": scored.index, "order": [s.value for s in ORDER]}
    answer = call_in_frame(scored.frame, "locate", arg)
    raw = checked(answer, LocateResult, "the in-page healing 'locate' call")
    if raw["fingerprint"] is None:
        return "the candidate left the document"
    fingerprint = Fingerprint.model_validate(
        {**raw["fingerprint"], "frame_path": scored.frame_path}
    )
    for spec in raw["specs"]:
        strategy = Strategy(str(spec["strategy"]))
        locator = Locator.model_validate(
            {**spec, "confidence": CONFIDENCE[strategy], "frame_path": scored.frame_path}
        )
        try:
            check = checked(
                call_on_elements(to_playwright(page, locator), "isSame", arg),
                SameElement,
                "the in-page healing 'isSame' call",
            )
        except (PlaywrightError, UnrenderableLocator):
            continue
        if check["same"]:
            return locator, fingerprint
    return "no rendering of the candidate resolves to exactly that element"


def relocate(page: Page, scored: Scored, action: str) -> Relocation | str:
    """:func:`render`, then the five-point gate on the rendered locator."""
    rendered = render(page, scored)
    if isinstance(rendered, str):
        return rendered
    locator, fingerprint = rendered
    gate = check_locator(page, locator, action)
    return Relocation(locator, fingerprint, gate)


def gate_json(gate: GateSnapshot) -> JSON:
    """The gate as evidence (``gate_result`` of the governance evidence contracts)."""
    return {"ok": gate.ok, "points": {p.name: p.code for p in gate.points}, "count": gate.count}
