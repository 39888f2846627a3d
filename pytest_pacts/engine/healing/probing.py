"""A candidate locator checked: the five-point gate in words and evidence
(:func:`gate_evidence`), or, in one round trip, what it resolves to, its gate and the page's
ranking (:func:`probe`, over a loop's :class:`Probing`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from playwright.sync_api import ElementHandle
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery import UnrenderableLocator
from pytest_pacts.discovery.chain import apply
from pytest_pacts.discovery.payloads import (
    ProbeRanking,
    ProbeResult,
    checked,
)
from pytest_pacts.discovery.render import frame_calls, region_calls
from pytest_pacts.engine.contracts import HealContext, Resolved
from pytest_pacts.engine.gate import (
    NO_ENABLED,
    SEEN_BY_WAIT,
    blocking_point,
    heal_blocking_point,
    takes_disabled,
)
from pytest_pacts.engine.healing.basics import JSON, action_of, first_line, wait_budget_ms
from pytest_pacts.engine.healing.relocate import call_on_locator, candidate_gate, gate_json
from pytest_pacts.engine.healing.resolving import (
    Element,
    resolved_key,
    resolved_of,
)
from pytest_pacts.engine.healing.scoring import (
    WEIGHTS,
    Scope,
    fingerprint_json,
    region_scope,
)
from pytest_pacts.models.locator import GateSnapshot, Locator
from pytest_pacts.models.requirement import Action
from pytest_pacts.runtime import bounded


def gate_evidence(
    ctx: HealContext, locator: Locator, *, repair: bool = False
) -> tuple[bool, str, JSON]:
    """The five-point gate on ``locator``: ok, the reason in words, and the evidence.

    Measured by :func:`candidate_gate`: "stable" is left to the step's gate before the
    action, and a candidate that fails only because its box is still moving (a menu sliding
    in) is waited for and checked again, so the choice, and the proposal it opens, does not
    depend on timing. A candidate disabled now is not refused
    (:func:`~pytest_pacts.engine.gate.heal_blocking_point`, which says when it is); a
    ``repair`` of the step's own locator passes only when all the points the action needs
    pass.
    """
    try:
        gate = candidate_gate(ctx.page, locator, action_of(ctx), wait_ms=wait_budget_ms(ctx))
    except (PlaywrightError, UnrenderableLocator) as exc:
        return False, first_line(exc), {}
    return gate_answer(ctx, gate, repair=repair)


def gate_answer(
    ctx: HealContext, gate: GateSnapshot, *, repair: bool = False
) -> tuple[bool, str, JSON]:
    """:func:`gate_evidence`'s answer for a gate already measured."""
    evidence: JSON = {"gate_result": gate_json(gate)}
    if gate.box is not None:
        evidence["bounding_box"] = gate.box.model_dump(mode="json")
    # the executor's rule for which points an action needs (hover and focus do not need an
    # enabled element), so a candidate is judged exactly as the retried step will be
    action = Action(action_of(ctx))
    failed = (
        blocking_point(gate, action)
        if repair
        else heal_blocking_point(gate, action, ctx.failure.type)
    )
    if failed is not None:
        return False, failed.reason, evidence
    if blocking_point(gate, action) is not None:
        return True, "passes the gate but is disabled now: the step waits for it", evidence
    return True, "passes the gate", evidence


_probe_ids = itertools.count(1)


@dataclass
class Probing:
    """What one loop over candidate locators (:func:`~.intent.try_locators`) reads once:
    the step's region as a :class:`Scope` and the containers of the candidates' own
    regions. :meth:`close` lets go of their element handles."""

    ctx: HealContext
    _scope: tuple[Scope | None] | None = None
    _containers: dict[tuple[tuple[str, ...], str], list[ElementHandle]] = field(
        default_factory=dict
    )

    def usable(self, locator: Locator) -> bool:
        """Whether :func:`probe` can check ``locator``: it lives in the top frame (the page's
        other frames, when it has any, are ranked as :func:`agreement` ranks them)."""
        return not locator.frame_path

    def gone(self, locator: Locator) -> None:
        """``locator``'s region was just found on no element: it is not looked up again."""
        assert locator.region is not None
        self._containers[(locator.frame_path, locator.region.model_dump_json())] = []

    def scope(self) -> Scope | None:
        if self._scope is None:
            self._scope = (region_scope(self.ctx.page, self.ctx.state, self.containers),)
        return self._scope[0]

    def containers(self, locator: Locator) -> list[ElementHandle]:
        """The elements ``locator``'s region resolves to now (the gate's "scoped" point)."""
        assert locator.region is not None
        key = (locator.frame_path, locator.region.model_dump_json())
        if key not in self._containers:
            region = apply(self.ctx.page, frame_calls(locator) + region_calls(locator.region))
            self._containers[key] = bounded.call(
                region, "finding the step's region", region.element_handles
            )
        return self._containers[key]

    def close(self) -> None:
        scope = self._scope[0] if self._scope is not None else None
        handles = [*(scope.containers if scope else ())]
        handles += itertools.chain.from_iterable(self._containers.values())
        self._scope = None
        self._containers.clear()
        # the scope's containers come from the same lookup: each handle once, and no round
        # trip waited for
        bounded.release(handles)


@dataclass(frozen=True)
class Probe:
    """One candidate locator checked in one round trip (:func:`probe`): what it resolves to,
    :func:`gate_evidence`'s answer (``None`` when it was not gated: not one element, or
    replaced while its box moved) and, when it passed, the page's ranking."""

    found: Resolved
    gate: tuple[bool, str, JSON] | None = None
    ranking: ProbeRanking | None = None
    other: bool = False  # not the element ``expect`` named
    below: bool = False  # its similarity is not above ``min_score``: not gated


# long because: one in-page round trip: its argument built and its answer read in one place
def probe(
    ctx: HealContext,
    locator: Locator,
    probing: Probing,
    gated: GateSnapshot | None = None,
    expect: Element | None = None,
    min_score: float | None = None,
) -> Probe:
    """:func:`resolve`, :func:`gate_evidence` and the ranking :func:`agreement` needs, for a
    locator :meth:`Probing.usable` accepts, in one ``evaluate_all`` on its matches: the
    gate's two animation frames (and the wait for a moving box) happen inside that call.
    The answer is also kept in ``ctx.resolved``, as :func:`resolve` keeps its own.

    ``gated``: the gate this rung's discovery measured on the element it verified this
    locator resolves to; used instead of measuring again when it passes for the step's
    action on an unscoped locator (one that failed, or a moving box, is measured again).

    ``expect``: the element an in-page estimate (:func:`estimate_all`) chose for this
    locator; when Playwright resolves it to another one, nothing more is measured and the
    answer says so (``other``). ``min_score``: a candidate whose similarity to the recorded
    fingerprint is not above it is answered ``below`` without measuring the gate (for a
    rung that refuses such a candidate whatever its gate)."""
    fp = ctx.state.fingerprint
    action = Action(action_of(ctx))
    if gated is not None and (
        locator.region is not None
        or gated.count != 1
        or heal_blocking_point(gated, action, ctx.failure.type)
    ):
        gated = None
    try:
        regions = probing.containers(locator) if locator.region is not None else []
        scope = probing.scope()
        rank: JSON = {"heal_id": f"p{next(_probe_ids)}", "action": action.value, "limit": 2}
        if scope is not None:
            rank["regions"] = list(scope.containers)
            rank["region_text"] = scope.text
        arg: JSON = {
            "fp": fingerprint_json(fp) if fp else None,
            "weights": dict(WEIGHTS),
            "gate": None
            if gated is not None
            else {
                "action": action.value,
                "regions": regions,
                "in_shadow": locator.in_shadow,
                "observes": action.observes,
                "seen_by_wait": sorted(SEEN_BY_WAIT),
                # a candidate disabled now is not refused (heal_blocking_point)
                "no_enabled": action in NO_ENABLED or takes_disabled(ctx.failure.type),
                "timeout_ms": wait_budget_ms(ctx),
            },
            "rank": rank,
        }
        if expect is not None:
            arg["expect"] = {"heal_id": expect[0], "index": expect[1]}
        if min_score is not None and fp is not None:
            arg["min_score"] = min_score
        raw = checked(
            call_on_locator(ctx.page, locator, "probe", arg),
            ProbeResult,
            "the in-page healing 'probe' call",
        )
    except (PlaywrightError, UnrenderableLocator):
        return Probe(Resolved(0))
    found = resolved_of(raw, locator)
    ctx.resolved[resolved_key(locator, fp)] = found
    if raw.get("other"):
        return Probe(found, other=True)
    if raw.get("below"):
        return Probe(found, below=True)
    if gated is not None and found.count == 1:
        return Probe(found, gate_answer(ctx, gated), raw.get("ranking"))
    if "gate" not in raw:
        return Probe(found)
    gate = gate_answer(ctx, GateSnapshot.model_validate(raw["gate"]))
    return Probe(found, gate, raw.get("ranking"))
