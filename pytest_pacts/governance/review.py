"""Accepting a heal proposal: contract check, approval, next recipe versions.

One implementation for ``pacts heals accept``, ``--pacts-accept-heals`` and any other
front end (:func:`plan_accept` says what :func:`accept` would write, without writing).

A proposal of a drift (an element healed to a new locator, ``drift_key`` set) applies to
every requirement using that element: each requirement where it occurred, and each whose
latest recipe holds one of the locators that failed for it. The selector entry is merged
on each requirement's latest version (:func:`~pytest_pacts.governance.drift.merge_heal`:
every locator kept, a stronger primary that still works on another deployment kept), so
such a proposal is never stale.

Any other proposal (a workflow expectation, a proposal written before drifts were
identified) patches its own requirement: made against an older version, it is *rebased*
onto the latest when none of the paths it patches changed in between; otherwise it is
stale and nothing is written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from pydantic import ValidationError

from pytest_pacts.errors import PactsError
from pytest_pacts.governance.drift import merge_heal, same
from pytest_pacts.governance.patch import PatchRejected, apply_patch, classify_patch, validate_patch
from pytest_pacts.governance.recipes import recipe_of
from pytest_pacts.governance.service import proposal_from_record
from pytest_pacts.models.heal import HealProposal, Severity
from pytest_pacts.models.recipe import JsonObject, PatchOp, Recipe
from pytest_pacts.store import ProposalRecord, StaleParentError, Store

ReviewProblem = Literal["not_pending", "no_recipe", "stale", "contract", "needs_approval"]

#: Audit event carrying a rejection's reason: ``proposals.decide`` records who and when,
#: not why, so the reason is its own fact, written in the decision's transaction.
DECISION_REASON_EVENT = "RUNTIME_PATCH_PROPOSAL_DECISION_REASON"


class ReviewError(PactsError):
    """Why a proposal was not accepted; ``problem`` names the rule, the text says what to do."""

    def __init__(self, problem: ReviewProblem, message: str) -> None:
        super().__init__(message)
        self.problem = problem


@dataclass(frozen=True)
class RecipeChange:
    """One requirement's recipe as an accepted proposal changes it."""

    req_id: str
    from_version: str
    to_version: str  # the version written (a planned one, in a preview)
    op: PatchOp
    kept_primary: bool = False
    reason: str = ""


@dataclass(frozen=True)
class Accepted:
    """What accepting a proposal wrote: one new version per requirement it changed."""

    proposal_id: int
    changes: tuple[RecipeChange, ...]
    major: bool
    rebased: bool
    unchanged: tuple[str, ...] = ()  # requirements whose recipe already held the heal

    @property
    def req_id(self) -> str:
        return self.changes[0].req_id if self.changes else "-"

    @property
    def from_version(self) -> str:
        return self.changes[0].from_version if self.changes else "-"

    @property
    def to_version(self) -> str:
        return self.changes[0].to_version if self.changes else "-"

    def summary(self) -> str:
        """``recipe REQ-A v001 -> v002, REQ-B v003 -> v004`` (or why nothing changed)."""
        if not self.changes:
            held = ", ".join(self.unchanged) or "no requirement"
            return f"no recipe changed ({held} already held the heal)"
        parts = [f"{c.req_id} {c.from_version} -> {c.to_version}" for c in self.changes]
        return "recipe " + ", ".join(parts)


def is_drift(record: ProposalRecord, proposal: HealProposal) -> bool:
    """A proposal of a drift: a drift key, and one op on its element's selector entry."""
    ops = proposal.patch_ops
    return (
        record.drift_key is not None
        and len(ops) == 1
        and ops[0].path == f"selectors.{record.element_key}"
        and ops[0].op in ("replace", "add")
    )


def _targets(store: Store, record: ProposalRecord, failed: list[JsonObject]) -> list[str]:
    """Requirements using the element: where the drift occurred, then every recipe whose
    latest version holds one of the locators that failed for it under the same key."""
    occurred = [o.req_id for o in store.proposals.occurrences(record.id)]
    found: list[str] = []
    for req_id in store.recipes.requirements():
        if req_id in occurred:
            continue
        latest = store.recipes.latest(req_id)
        if latest is None:
            continue
        try:
            entry = recipe_of(latest).selectors.get(record.element_key)
        except ValidationError:
            continue
        held = [entry.primary, *entry.fallbacks] if entry is not None else []
        if any(same(h, f) for h in held for f in failed):
            found.append(req_id)
    return list(dict.fromkeys([*occurred, *found]))


# long because: what accepting writes, per requirement, computed in one dry pass
def plan_accept(store: Store, record: ProposalRecord) -> tuple[list[RecipeChange], list[str]]:
    """What accepting a drift proposal writes, per requirement, without writing: the
    changes, and the requirements whose latest recipe already holds the heal.

    Raises :class:`ReviewError` (not pending, not a drift, a patch the contract refuses).
    """
    if record.status != "pending":
        raise ReviewError(
            "not_pending", f"heal proposal #{record.id} is {record.status}, not pending"
        )
    proposal = proposal_from_record(record)
    if not is_drift(record, proposal):
        raise ReviewError(
            "contract", f"heal proposal #{record.id} does not change one element's locators"
        )
    occurrences = store.proposals.occurrences(record.id)
    failed = [o.failed_locator for o in occurrences if isinstance(o.failed_locator, dict)] or [
        proposal.failed_locator
    ]
    deployments = [o.deployment for o in occurrences]
    key = record.element_key
    changes: list[RecipeChange] = []
    unchanged: list[str] = []
    for req_id in _targets(store, record, failed):
        latest = store.recipes.latest(req_id)
        if latest is None:
            continue
        try:
            recipe = recipe_of(latest)
        except ValidationError:
            continue
        entry = recipe.selectors.get(key)
        merged = merge_heal(
            entry,
            proposal.healed_locator,
            failed,
            store.locators.for_element(key, req_id),
            deployments,
        )
        if entry is not None and merged.entry == entry:
            unchanged.append(req_id)
            continue
        op = PatchOp(
            path=f"selectors.{key}",
            op="replace" if entry is not None else "add",
            value=merged.entry.model_dump(mode="json"),
        )
        refused = [c for c in validate_patch(recipe, [op]) if not c.allowed]
        if refused:
            raise ReviewError(
                "contract",
                f"heal proposal #{record.id} breaks the patch contract against {req_id} "
                f"{recipe.version}; nothing was written: {refused[0].reason}",
            )
        nxt = apply_patch(recipe, [op], proposal_id=str(record.id)).version
        changes.append(
            RecipeChange(req_id, recipe.version, nxt, op, merged.kept_primary, merged.reason)
        )
    return changes, unchanged


def _accept_drift(store: Store, record: ProposalRecord, by: str) -> Accepted:
    with store.transaction():
        changes, unchanged = plan_accept(store, record)
        written: list[RecipeChange] = []
        for change in changes:
            latest = store.recipes.latest(change.req_id)
            assert latest is not None
            recipe = recipe_of(latest)
            new = apply_patch(recipe, [change.op], proposal_id=str(record.id))
            try:
                version = store.recipes.add_version(
                    change.req_id,
                    new.model_dump(mode="json"),
                    plan_hash=new.plan_hash,
                    proposal_id=record.id,
                    expected_parent=recipe.version,
                )
            except StaleParentError as exc:
                raise ReviewError(
                    "stale", f"heal proposal #{record.id}: {exc}; nothing was written"
                ) from None
            written.append(
                RecipeChange(
                    change.req_id,
                    recipe.version,
                    version.version,
                    change.op,
                    change.kept_primary,
                    change.reason,
                )
            )
        store.proposals.decide(record.id, "accepted", decided_by=by)
    return Accepted(record.id, tuple(written), False, False, tuple(unchanged))


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


# long because: the proposal, the recipe and the rebase checked in order, each refusal said
def prepare(store: Store, record: ProposalRecord) -> tuple[HealProposal, Recipe, bool]:
    """The proposal, the recipe to patch (the latest) and whether it was rebased onto it.

    Raises :class:`ReviewError` when accepting would fail (not pending, no recipe, stale,
    a patch the contract refuses); a drift proposal is checked with :func:`plan_accept`.
    """
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
    if is_drift(record, proposal):
        # merged on each requirement's latest version when accepted: never stale
        plan_accept(store, record)
        return proposal, recipe, False
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
    """Accept a pending proposal: write the next recipe version of every requirement it
    applies to and mark it accepted, all in one transaction.

    A major proposal needs ``approved_major`` (``--yes``, a GO, or ``--pacts-accept-heals
    all``). Raises :class:`ReviewError`.
    """
    record = store.proposals.get(proposal_id)
    if record.status == "pending" and is_drift(record, proposal_from_record(record)):
        return _accept_drift(store, record, by)
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
    change = RecipeChange(record.req_id, recipe.version, written.version, proposal.patch_ops[0])
    return Accepted(record.id, (change,), major, rebased)


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
