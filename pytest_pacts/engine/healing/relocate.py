"""From a ranked element to a new structured locator and fresh fingerprint.

The new locator is the most semantic rendering that singles the element out (test id,
role + name, label, placeholder, aria/title/alt, text, shadow host), with CSS only when
nothing semantic is unique: a CSS heal is what the self-heal gate calls case-specific.
Every rendering is re-checked through Playwright itself: it must resolve to
exactly the ranked element (identity, not "some element"), then pass the five-point gate.
In ``relocate_element``'s one call (the page ranked and the best candidate rendered in the
round trip that checked the recorded locator) a rendering the document resolves exactly as
Playwright does (``render.page_query``) is re-checked by the document itself, as the
recorded locator was.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.discovery import UnrenderableLocator, check_locator
from pytest_pacts.discovery.payloads import LocateResult, SameGate, checked
from pytest_pacts.discovery.render import elements_frame, page_query, to_playwright
from pytest_pacts.engine.gate import heal_blocking_point
from pytest_pacts.engine.healing.scoring import Scored
from pytest_pacts.models.locator import (
    CONFIDENCE,
    Fingerprint,
    GatePoint,
    GateSnapshot,
    Locator,
    Strategy,
)
from pytest_pacts.models.outcome import FailureType
from pytest_pacts.models.requirement import Action
from pytest_pacts.runtime.healing import call_in_frame, call_on_elements, find_same_gate

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

    def refused(self, action: str, failure: FailureType) -> GatePoint | None:
        """The gate's point that refuses this candidate for ``action`` in a round healing
        ``failure``, or ``None`` (:func:`~pytest_pacts.engine.gate.heal_blocking_point`: a
        disabled element is not refused, the step waits for it)."""
        return heal_blocking_point(self.gate, Action(action), failure)


def call_on_locator(page: Page, locator: Locator, name: str, arg: object) -> object:
    """The healing API function ``name`` on what ``locator`` (discovered on ``page``)
    resolves to (``runtime.healing.call_on_elements``, through the bridge)."""
    target = to_playwright(page, locator)
    return call_on_elements(target, name, arg, elements_frame(page, locator))


def render(page: Page, scored: Scored) -> tuple[Locator, Fingerprint] | str:
    """The best verified locator for ``scored`` and its fingerprint, or why there is none."""
    rendered = _render(page, scored, None)
    return rendered if isinstance(rendered, str) else rendered[:2]


def locate_arg(heal_id: str, index: int) -> JSON:
    """The in-page ``locate`` call's argument: the ranked element and the strategies' order."""
    return {"heal_id": heal_id, "index": index, "order": [s.value for s in ORDER]}


def _render(
    page: Page, scored: Scored, action: str | None, located: object = None
) -> tuple[Locator, Fingerprint, GateSnapshot | None] | str:
    """:func:`render`; with ``action``, also the gate on the rendering, measured in the same
    round trip that checks it resolves to the ranked element (``None`` when it could not
    be: a rendering scoped to a region). ``located``: the in-page ``locate`` answer for
    ``scored``, read already (in the round trip that ranked it)."""
    arg = locate_arg(scored.heal_id, scored.index)
    # ranked and located by relocate_element's one call: the page resolves the renderings
    # it can resolve as Playwright does, as it resolved the recorded locator
    in_page = located is not None
    if located is None:
        located = call_in_frame(scored.frame, "locate", arg)
    raw = checked(located, LocateResult, "the in-page healing 'locate' call")
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
        name, call_arg = ("isSame", arg)
        if action is not None and locator.region is None:
            gate_arg = {"action": Action(action).value, "in_shadow": locator.in_shadow}
            name, call_arg = ("sameGate", {**arg, "gate": gate_arg})
        try:
            answer = _on_rendering(page, scored, locator, name, call_arg, in_page)
            check = checked(answer, SameGate, f"the in-page healing {name!r} call")
        except (PlaywrightError, UnrenderableLocator):
            continue
        if check["same"]:
            raw_gate = check.get("gate")
            gate = GateSnapshot.model_validate(raw_gate) if raw_gate is not None else None
            return locator, fingerprint, gate
    return "no rendering of the candidate resolves to exactly that element"


def _on_rendering(
    page: Page, scored: Scored, locator: Locator, name: str, arg: JSON, in_page: bool
) -> object:
    """Healing's ``name`` (``isSame``, ``sameGate``) on what the rendering ``locator``
    resolves to: with ``in_page``, resolved by the document itself in one plain
    ``Frame.evaluate`` (``runtime.healing.find_same_gate``: no selector work of
    Playwright's, whose first query on a new document builds its selector code) when it
    resolves it exactly as Playwright does (``render.page_query``); through Playwright
    otherwise."""
    query = page_query(locator) if in_page and name == "sameGate" else None
    if query is not None:
        answer = find_same_gate(scored.frame, query, arg)
        if answer is not None:
            return answer
    return call_on_locator(page, locator, name, arg)


def relocate(page: Page, scored: Scored, action: str, located: object = None) -> Relocation | str:
    """:func:`render`, then the five-point gate on the rendered locator (measured in the
    round trip that checks the rendering, when it can be); ``located`` as for
    :func:`_render`."""
    rendered = _render(page, scored, action, located)
    if isinstance(rendered, str):
        return rendered
    locator, fingerprint, gate = rendered
    return Relocation(locator, fingerprint, candidate_gate(page, locator, action, gate))


def candidate_gate(
    page: Page, locator: Locator, action: str, gate: GateSnapshot | None = None, wait_ms: float = 0
) -> GateSnapshot:
    """The five-point gate on a heal candidate, "stable" left to the step's gate (the healed
    locator is gated again right before the action), so a candidate that passes costs no
    animation frame; ``gate``: that check, measured already. A candidate that fails is
    measured in full; when only its box is moving (a menu sliding in) and ``wait_ms``
    allows, it is waited for and checked again: judged mid-animation, the best candidate
    would lose to a lower one that happens to be checked once the animation is over, and
    the choice would depend on timing."""
    if gate is None:
        gate = check_locator(page, locator, action, still=False)
    if heal_blocking_point(gate, Action(action)) is None:
        return gate
    gate = check_locator(page, locator, action)
    point = heal_blocking_point(gate, Action(action))
    if point is not None and point.code == "unstable" and wait_ms > 0:
        call_on_locator(page, locator, "stable", {"timeout_ms": wait_ms})
        gate = check_locator(page, locator, action)
    return gate


def gate_json(gate: GateSnapshot) -> JSON:
    """The gate as evidence (``gate_result`` of the governance evidence contracts)."""
    return {"ok": gate.ok, "points": {p.name: p.code for p in gate.points}, "count": gate.count}
