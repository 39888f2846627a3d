"""What an accepted heal leaves behind once the retried action succeeded.

Healing memory gets the locator with its evidence (url, original locator, failure type);
the store gets a heal proposal, gated by the self-heal gate. Repairs keep the
same locator; their proposal records the repair (and the evidence the RCA class's
contract asks for: ``waited_ms``, ``bounding_box``) without changing the selector.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from pydantic import JsonValue

from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing.basics import element_key, locator_json
from pytest_pacts.governance import (
    HealSite,
    PatchRejected,
    build_heal_proposal,
    built_on_generated,
)
from pytest_pacts.governance.drift import same
from pytest_pacts.models.heal import HealProposal
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.outcome import FailureType, HealAttempt
from pytest_pacts.models.recipe import JsonObject, Recipe
from pytest_pacts.models.requirement import Plan
from pytest_pacts.store.records import HealingEvidence

if TYPE_CHECKING:
    from pytest_pacts.engine.ports import HealStore, ProposalSink
    from pytest_pacts.store.records import JSONValue

RecipeSource = Callable[[Plan], Recipe]

_REPAIR_RCA = {
    FailureType.NOT_VISIBLE: "visibility_issue",
    FailureType.OBSCURED: "visibility_issue",
    FailureType.UNSTABLE: "timing_instability",
    FailureType.TIMEOUT: "timing_instability",
    FailureType.DISABLED: "enablement_issue",
}


def rca_class(ctx: HealContext, result: RungResult) -> str:
    """A relocation is selector drift; a repair is what the failure says."""
    if result.locator is not None:
        return "selector_drift"
    return _REPAIR_RCA.get(ctx.failure.type, "selector_drift")


def remember(
    store: HealStore, ctx: HealContext, result: RungResult, old: JSONValue, url: str | None = None
) -> None:
    """Healing memory, with evidence (no evidence, no record: an unproven heal is never reused).
    ``url``: the page's address after the retried action (default: read now). Not for a
    locator built on a generated id or class: the next render may give it to another element
    (Ember's ``#ember9``, React's ``#:r1:``), so it is used for this run only."""
    assert result.locator is not None
    if built_on_generated(locator_json(result.locator)):
        return
    evidence = HealingEvidence(
        url=ctx.page.url if url is None else url,
        original_locator=old,
        failure_type=ctx.failure.type.value,
    )
    store.healing.record(
        element_key(ctx), locator_json(result.locator), evidence, req_id=ctx.plan.req_id
    )


# long because: build, gate and persist one proposal; the three steps in order
def proposal_for(
    proposals: ProposalSink,
    recipes: RecipeSource,
    ctx: HealContext,
    result: RungResult,
    old: Locator | None,
    site: HealSite | None = None,
    url: str | None = None,
) -> HealProposal | None:
    """Build, gate and persist the heal proposal; ``None`` if the patch contract refuses it.

    ``old`` is the locator that failed (the step's state may already hold the new one);
    ``site`` where it healed (deployment, page, screenshots); ``url`` the page's address
    after the retried action (default: read now). The same drift healed before
    is an occurrence of its proposal, which is returned. ``None`` too when the recipe
    already holds the healed locator for the element.
    """
    healed = result.locator or old
    if healed is None:
        return None
    evidence: list[str | JsonObject] = [
        {name: _json(value)} for name, value in result.evidence.items() if value is not None
    ]
    evidence.append({"url": ctx.page.url if url is None else url})
    # the bars in effect, so a reviewer reads the score against them (docs/healing.md)
    options = ctx.options
    evidence.append(
        {
            "heal_threshold": options.evidence.threshold,
            "heal_margin": options.evidence.margin,
            "memory_threshold": options.memory_threshold,
        }
    )
    evidence.append(f"{result.rung.value}: {result.reason}")
    recipe = recipes(ctx.plan)
    if result.locator is not None and _held(recipe, element_key(ctx), healed, old):
        return None
    try:
        proposal = build_heal_proposal(
            recipe,
            step_index=ctx.state.step.index,
            element_key=element_key(ctx),
            healed_locator=locator_json(healed),
            tool_name=result.rung.value,
            score=result.score if result.score is not None else 1.0,
            runner_up_score=result.runner_up_score,
            rca_class=rca_class(ctx, result),
            failure_type=ctx.failure.type.value,
            failed_locator=locator_json(old) if old is not None else None,
            evidence=evidence,
        )
    except PatchRejected:
        return None
    return proposals(proposal, site)


def _held(recipe: Recipe, key: str, healed: Locator, old: Locator | None) -> bool:
    """Whether the recipe already holds the healed locator for this element (a fallback
    discovery verified, or a heal accepted for another deployment): accepting would write
    nothing, so there is nothing to propose; the run counts it as verified on this
    deployment, and the next run here uses it without healing."""
    entry = recipe.selectors.get(key)
    if entry is None or (old is not None and healed == old):
        return False
    target = locator_json(healed)
    return any(same(target, held) for held in (entry.primary, *entry.fallbacks))


def _json(value: object) -> JsonValue:
    """Evidence as plain JSON (models and tuples become objects and lists)."""
    return cast(JsonValue, json.loads(json.dumps(value, default=str)))


def with_proposal(attempt: HealAttempt, proposal: HealProposal) -> HealAttempt:
    """The attempt with the stored proposal's id, track and promotion flag."""
    gate = proposal.self_heal_gate
    return attempt.model_copy(
        update={
            "proposal_id": proposal.id,
            "track": gate["track"] if gate else None,
            "promotion_required": gate["promotion_required"] if gate else False,
        }
    )
