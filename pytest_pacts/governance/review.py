"""Accepting a heal proposal: contract check, approval, next recipe version.

One implementation for ``pacts heals accept`` and ``--pacts-accept-heals``. A proposal made
against an older version is *rebased* onto the latest when none of the paths it patches
changed in between (two heals of one run touch two different selectors); otherwise it is
stale and nothing is written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from pydantic import ValidationError

from pytest_pacts.governance.patch import PatchRejected, apply_patch, classify_patch, validate_patch
from pytest_pacts.governance.recipes import recipe_of
from pytest_pacts.governance.service import proposal_from_record
from pytest_pacts.models.heal import HealProposal, Severity
from pytest_pacts.models.recipe import Recipe
from pytest_pacts.store import HealProposal as ProposalRecord
from pytest_pacts.store import StaleParentError, Store

ReviewProblem = Literal["not_pending", "no_recipe", "stale", "contract", "needs_approval"]

#: Audit event carrying a rejection's reason: ``proposals.decide`` records who and when,
#: not why, so the reason is its own fact, written in the decision's transaction.
DECISION_REASON_EVENT = "RUNTIME_PATCH_PROPOSAL_DECISION_REASON"


class ReviewError(Exception):
    """Why a proposal was not accepted; ``problem`` names the rule, the text says what to do."""

    def __init__(self, problem: ReviewProblem, message: str) -> None:
        super().__init__(message)
        self.problem = problem


@dataclass(frozen=True)
class Accepted:
    proposal_id: int
    req_id: str
    from_version: str
    to_version: str
    major: bool
    rebased: bool


def _value(recipe: Recipe, path: str) -> str:
    section, _, key = path.partition(".")
    if section == "workflow":
        step_id, _, _field = key.partition(".")
        found = next((s for s in recipe.workflow if s.id == step_id), None)
        return json.dumps(found.expect if found else None)
    data = recipe.model_dump(mode="json").get(section, {})
    value = data.get(key) if isinstance(data, dict) else None
    return json.dumps(value, sort_keys=True)


def is_major(record: ProposalRecord, proposal: HealProposal) -> bool:
    return record.severity == "major" or classify_patch(proposal.patch_ops) is Severity.MAJOR


def prepare(store: Store, record: ProposalRecord) -> tuple[HealProposal, Recipe, bool]:
    """The proposal, the recipe to patch (the latest) and whether it was rebased onto it."""
    if record.status != "pending":
        raise ReviewError(
            "not_pending", f"heal proposal #{record.id} is {record.status}, not pending"
        )
    proposal = proposal_from_record(record)
    latest = store.recipes.latest(record.req_id)
    if latest is None:
        raise ReviewError(
            "no_recipe",
            f"requirement {record.req_id} has no recipe in the "
            f"store, so heal proposal #{record.id} has nothing to "
            "patch",
        )
    try:
        recipe = recipe_of(latest)
    except ValidationError as exc:
        raise ReviewError(
            "no_recipe",
            f"recipe {record.req_id} {latest.version} in the store "
            f"is not a valid recipe ({exc.errors()[0]['msg']})",
        ) from None
    rebased = False
    base = proposal.base_version
    if base is not None and base != latest.version:
        try:
            old = recipe_of(store.recipes.get(record.req_id, base))
        except Exception:
            old = None
        paths = [op.path for op in proposal.patch_ops]
        if (
            old is None
            or old.plan_hash != recipe.plan_hash
            or any(_value(old, p) != _value(recipe, p) for p in paths)
        ):
            raise ReviewError(
                "stale",
                f"heal proposal #{record.id} was made against recipe "
                f"{record.req_id} {base}, and what it patches changed in {latest.version}: "
                f"it is stale. Reject it (`pacts heals reject {record.id} --reason stale`); "
                "a run that still needs the heal proposes it again.",
            )
        rebased = True
    checks = validate_patch(recipe, proposal.patch_ops)
    refused = [c for c in checks if not c.allowed]
    if refused or not checks:
        lines = [f"  op {c.index} {c.op} {c.path}: {c.reason}" for c in refused]
        raise ReviewError(
            "contract",
            f"heal proposal #{record.id} breaks the patch contract against "
            f"{record.req_id} {latest.version}; nothing was written:\n"
            + ("\n".join(lines) or "  the proposal has no patch operations"),
        )
    return proposal, recipe, rebased


def accept(store: Store, proposal_id: int, *, by: str, approved_major: bool) -> Accepted:
    """Accept a pending proposal: write the next recipe version and mark it accepted.

    A major proposal needs ``approved_major`` (``--yes``, a GO, or ``--pacts-accept-heals
    all``). Raises :class:`ReviewError`.
    """
    record = store.proposals.get(proposal_id)
    proposal, recipe, rebased = prepare(store, record)
    major = is_major(record, proposal)
    if major and not approved_major:
        raise ReviewError(
            "needs_approval",
            f"heal proposal #{record.id} is major (it touches "
            "the workflow or expectations): it needs explicit "
            "approval",
        )
    try:
        new = apply_patch(recipe, proposal.patch_ops, proposal_id=str(record.id))
    except PatchRejected as exc:
        raise ReviewError("contract", str(exc)) from None
    try:
        with store.transaction():
            written = store.recipes.add_version(
                record.req_id,
                new.model_dump(mode="json"),
                plan_hash=new.plan_hash,
                proposal_id=record.id,
                expected_parent=recipe.version,
            )
            store.proposals.decide(record.id, "accepted", decided_by=by)
    except StaleParentError as exc:
        raise ReviewError(
            "stale", f"heal proposal #{record.id} is stale: {exc}; nothing was written"
        ) from None
    return Accepted(record.id, record.req_id, recipe.version, written.version, major, rebased)


def reject(store: Store, proposal_id: int, *, by: str, reason: str | None = None) -> ProposalRecord:
    """Reject a pending proposal (the recipe is unchanged); ``reason`` is kept as a
    :data:`DECISION_REASON_EVENT` audit event in the same transaction. Raises
    :class:`ReviewError` (``not_pending``) for a proposal already decided."""
    record = store.proposals.get(proposal_id)
    if record.status != "pending":
        raise ReviewError(
            "not_pending", f"heal proposal #{record.id} is {record.status}, not pending"
        )
    with store.transaction():
        decided = store.proposals.decide(record.id, "rejected", decided_by=by)
        if reason:
            store.audit.record(
                DECISION_REASON_EVENT,
                {
                    "proposal_id": record.id,
                    "status": "rejected",
                    "decided_by": by,
                    "reason": reason,
                },
                req_id=record.req_id,
                exception_fingerprint=record.exception_fingerprint,
            )
    return decided
