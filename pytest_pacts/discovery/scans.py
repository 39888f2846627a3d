"""One frame's scan in discovery: what it was sent as and what it answered
(:class:`FrameScan`), the steps as scanned there, and the gate snapshots asked of it after.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Page

from pytest_pacts.discovery.payloads import (
    JsonDict,
    ScanResult,
    VerifyResult,
    checked,
)
from pytest_pacts.discovery.render import elements_frame, to_playwright
from pytest_pacts.models.locator import CONFIDENCE, STRUCTURAL_CEILING, Locator, Strategy
from pytest_pacts.models.requirement import Action
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.bridge import call_on_elements
from pytest_pacts.runtime.scripts import (
    NOT_INSTALLED,
    PageScriptError,
    decoded,
    installed_page_function,
    page_error,
)

JSON = dict[str, object]


@dataclass(frozen=True)
class StepBase:
    element: str
    region: str | None
    action: str

    def fields(self) -> dict[str, str | None]:
        return {"element": self.element, "region": self.region, "action": self.action}


@dataclass(frozen=True)
class FrameScan:
    frame: Frame
    path: tuple[str, ...]
    scan_id: str
    results: list[ScanResult]
    # the gate snapshots, when the scan answered them itself (no "stable" to wait for)
    gates: list[JsonDict] | None = None


@dataclass(frozen=True)
class SentScan:
    frame: Frame
    scan_id: str
    answer: bounded.Sent[Any]


def inside(step: JSON, held: frozenset[str]) -> JSON:
    """A step as scanned in a frame: a region that holds the frame's iframe is satisfied by
    the frame path itself, so the frame is searched whole for it."""
    return {**step, "region": None} if step["region"] in held else step


def gates_of(scan: FrameScan) -> list[JSON] | None:
    try:
        raw = bounded.call(
            scan.frame,
            "the in-page gate",
            lambda: scan.frame.evaluate(
                installed_page_function("gates", encoded=True), {"scan_id": scan.scan_id}
            ),
        )
    except PlaywrightError as exc:
        if isinstance(error := page_error(exc, "the in-page gate"), PageScriptError):
            raise error from exc
        return None  # navigated or closed meanwhile
    raw = None if raw == NOT_INSTALLED else decoded(raw, "the in-page gate")
    if raw is None:
        return None
    return checked(raw, list[JsonDict], "the in-page gate")


def scanned_action(action: Action | str) -> str:
    """The action the scan resolves a step for. A ``wait`` looks for its element as a
    ``hover`` would: any element a person can see by that name, not an editable or
    clickable kind."""
    act = Action(action)
    return Action.HOVER.value if act.observes else act.value


def locator_options(raw: ScanResult) -> list[JsonDict]:
    """The scan's locator options, then, only as the last resort, the element's place in
    the page (its CSS path without generated names), tried when no option above it
    singles the element out."""
    options = list(raw.get("options") or [])
    path = raw.get("structural")
    if path:
        score = raw.get("score")
        options.append(
            {
                "strategy": Strategy.CSS.value,
                "confidence": structural_score(score),
                "css": path,
                "structural": True,
            }
        )
    return options


def structural_score(score: float | None) -> float:
    """A pick located only by its CSS path: the scan's score for it (the css strategy's when
    it has none), capped under the 0.90 band (``STRUCTURAL_CEILING``)."""
    return min(CONFIDENCE[Strategy.CSS] if score is None else score, STRUCTURAL_CEILING)


def verify_in_page(page: Page, scan: FrameScan, index: object, locator: Locator) -> VerifyResult:
    """Whether ``locator`` resolves to exactly the element ``index`` of ``scan`` (the in-page
    'verify' call, in the locator's frame)."""
    return checked(
        call_on_elements(
            to_playwright(page, locator),
            "verify",
            {"scan_id": scan.scan_id, "index": index},
            frame=elements_frame(page, locator),
        ),
        VerifyResult,
        "the in-page 'verify' call",
    )


def runner_up_score(raw: ScanResult) -> float | None:
    """The best other element's confidence at the level that decided the pick, if any."""
    runner = raw.get("runner_up")
    return runner["score"] if runner else None
