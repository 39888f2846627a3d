"""From a heal to a heal proposal, with the track fields filled honestly.

A heal replaces an element's primary locator. The proposal carries that change as a patch
(``selectors.<element key>``, the failed locator kept as the last fallback because the
recipe is shared by every deployment the requirement runs against), the
unified diff of the next recipe version, a plain-words change plan, and the fields of one
track:

- a heal to a sound locator (role, label, test id, placeholder, or anything with no
  brittle signal) fills the contract fields;
- a heal to a brittle locator (the locator signals: positional, auto-generated id/class,
  text only) fills the exception fields, expiring ``created_at + 30 days``,
  given as that day, rounded up so it never expires early.

The self-heal gate is not run here: :func:`pytest_pacts.governance.gated` or the store
service adds it, with the repeat counts only the store knows.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, time, timedelta

from pytest_pacts.governance._values import is_missing
from pytest_pacts.governance.locators import locator_signals, locator_strategy
from pytest_pacts.governance.patch import apply_patch, classify_patch, recipe_diff
from pytest_pacts.governance.promotion import (
    DEFAULT_EXCEPTION_TTL,
    PROMOTION_THRESHOLD_7D,
    PROMOTION_THRESHOLD_30D,
    as_utc,
)
from pytest_pacts.models.heal import HealProposal
from pytest_pacts.models.recipe import JsonObject, PatchOp, Recipe, SelectorEntry

_ANCHOR_KEYS = ("role", "name", "label", "placeholder", "test_id", "aria_label", "alt", "title")


def _compact(locator: JsonObject) -> str:
    """One-line JSON of the locator's set fields (a typed locator's dump has many nulls)."""
    shown = {k: v for k, v in locator.items() if not is_missing(v)}
    return json.dumps(shown, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def default_exception_expiry(created_at: datetime) -> str:
    """``created_at + 30 days`` as ``YYYY-MM-DD``, rounded up to the next whole day."""
    moment = as_utc(created_at) + DEFAULT_EXCEPTION_TTL
    day = moment.date()
    if moment.timetz() != time(0, tzinfo=UTC):
        day += timedelta(days=1)
    return day.isoformat()


def _selector_op(
    recipe: Recipe, element_key: str, failed: JsonObject, healed: JsonObject
) -> PatchOp:
    current = recipe.selectors.get(element_key)
    kept = [f for f in (current.fallbacks if current else ()) if f not in (healed, failed)]
    if failed and failed != healed:
        kept.append(failed)
    entry = SelectorEntry(primary=healed, fallbacks=tuple(kept))
    return PatchOp(
        path=f"selectors.{element_key}",
        op="replace" if current is not None else "add",
        value=entry.model_dump(mode="json"),
    )


def _contract_fields(
    recipe: Recipe, element_key: str, healed: JsonObject, steps: int
) -> dict[str, str]:
    strategy = locator_strategy(healed)
    anchors = [f"{k}={healed[k]!r}" for k in _ANCHOR_KEYS if not is_missing(healed.get(k))]
    expectation = (", ".join(anchors) or _compact(healed)) + " resolves to exactly one element"
    return {
        "contract_scope": f"{recipe.req_id}.{element_key}: {strategy} locator",
        "generalization_scope": (
            f"{steps} step(s) of {recipe.req_id} targeting {element_key!r}, on every "
            "deployment that shares the recipe"
        ),
        "locator_strategy": strategy,
        "pre_post_invariant_strategy": (
            "five-point gate before the action (unique, visible, enabled, stable, scoped); "
            "the step's expected outcome after it"
        ),
        "contract_expectation": expectation,
    }


def _exception_fields(
    recipe: Recipe,
    element_key: str,
    step_index: int,
    signals: Sequence[str],
    steps: int,
    created_at: datetime,
) -> dict[str, str]:
    return {
        "exception_reason": (
            f"the heal produced a brittle locator ({', '.join(signals)}) instead of a role, "
            "label, test id or placeholder one"
        ),
        "exception_scope": f"{recipe.req_id}.{element_key} only (step {step_index + 1})",
        "exception_expiry": default_exception_expiry(created_at),
        "promotion_plan": (
            f"give {element_key!r} a stable semantic anchor (a data-testid, a <label>, or an "
            "accessible name), then re-discover so the recipe stores a semantic locator"
        ),
        "promotion_trigger": (
            f"repeat_count_7d>={PROMOTION_THRESHOLD_7D} or "
            f"repeat_count_30d>={PROMOTION_THRESHOLD_30D}"
        ),
        "blast_radius": f"{steps} step(s) of {recipe.req_id} that target {element_key!r}",
    }


# long because: the proposal's fields assembled one by one from the heal
def build_heal_proposal(
    recipe: Recipe,
    *,
    step_index: int,
    element_key: str,
    healed_locator: JsonObject,
    tool_name: str,
    score: float,
    runner_up_score: float | None,
    rca_class: str,
    failure_type: str,
    failed_locator: JsonObject | None = None,
    evidence: Sequence[str | JsonObject] = (),
    created_at: datetime | None = None,
    proposal_id: str | None = None,
) -> HealProposal:
    """The proposal for one accepted heal of ``element_key`` in ``recipe``.

    ``failed_locator`` defaults to the recipe's current primary locator of the element.
    The patch is validated against the contract (a heal that breaks it raises
    :class:`~pytest_pacts.governance.patch.PatchRejected`).
    """
    created = as_utc(created_at) if created_at is not None else datetime.now(UTC)
    pid = proposal_id or f"hp_{uuid.uuid4().hex}"
    current = recipe.selectors.get(element_key)
    failed = failed_locator if failed_locator is not None else (current.primary if current else {})
    op = _selector_op(recipe, element_key, failed, healed_locator)
    new_recipe = apply_patch(recipe, [op], proposal_id=pid)
    steps = len(recipe.steps_targeting(element_key))
    signals = locator_signals(healed_locator)
    runner_up = "none" if runner_up_score is None else f"{runner_up_score:.2f}"
    change_plan = (
        f"{'Replace' if op.op == 'replace' else 'Add'} the primary locator of {element_key!r} "
        f"(step {step_index + 1}) in recipe {recipe.req_id} {recipe.version} -> "
        f"{new_recipe.version}: {_compact(failed) if failed else '(none)'} -> "
        f"{_compact(healed_locator)}, found by {tool_name} after {failure_type} "
        f"(score {score:.2f}, runner-up {runner_up})"
        + ("; keep the old locator as the last fallback." if failed else ".")
    )
    track_fields = (
        _exception_fields(recipe, element_key, step_index, signals, steps, created)
        if signals
        else _contract_fields(recipe, element_key, healed_locator, steps)
    )
    return HealProposal.model_validate(
        {
            "id": pid,
            "created_at": created,
            "req_id": recipe.req_id,
            "step_index": step_index,
            "element_key": element_key,
            "base_version": recipe.version,
            "rca_class": rca_class,
            "failure_type": failure_type,
            "failed_locator": failed,
            "healed_locator": healed_locator,
            "tool_name": tool_name,
            "score": score,
            "runner_up_score": runner_up_score,
            "evidence": list(evidence),
            "patch_ops": [op],
            "reason": f"healed by {tool_name} after {failure_type}",
            "severity": classify_patch([op]),
            "suggested_diff": recipe_diff(recipe, new_recipe),
            "change_plan": change_plan,
            "target_files": [f"recipes/{recipe.req_id}/{new_recipe.version}/selectors.json"],
            **track_fields,
        }
    )
