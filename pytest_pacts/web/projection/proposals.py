"""Heal proposals as DTOs, and the review decisions through the governance code."""

from __future__ import annotations

from pydantic import ValidationError

from pytest_pacts.governance import proposal_from_record, render_copy_text, review
from pytest_pacts.governance.patch import recipe_diff
from pytest_pacts.governance.recipes import recipe_of
from pytest_pacts.governance.review import DECISION_REASON_EVENT
from pytest_pacts.models.locator_change import payload_change
from pytest_pacts.store import (
    InvalidTransition,
)
from pytest_pacts.web import dto
from pytest_pacts.web.errors import Conflict
from pytest_pacts.web.projection.base import ProjectionBase
from pytest_pacts.web.projection.labels import (
    _PROPOSAL_BADGES,
    _PROPOSAL_FILTERS,
    _choice,
    _locator_text,
    _when,
    proposal_summary,
)


class ProposalViews(ProjectionBase):
    """Read models of heal proposals, and accept/reject as ``pacts heals`` does them."""

    @staticmethod
    def proposal_status_options() -> list[dto.Option]:
        """The proposals list's status filter."""
        options = [dto.Option(value=v, label=_PROPOSAL_BADGES[v][0]) for v in _PROPOSAL_FILTERS]
        return [*options, dto.Option(value="all", label="All")]

    def proposals(self, status: str | None = None, req_id: str | None = None) -> dto.ProposalList:
        chosen = _choice(status, _PROPOSAL_FILTERS, "status") if status != "all" else None
        records = self._store.proposals.query(status=chosen, req_id=req_id or None)  # type: ignore[arg-type]
        records.reverse()  # latest first
        return self._masked(
            dto.ProposalList(
                proposals=[proposal_summary(r) for r in records],
                counts=self._store.proposals.count_by_status(),
            )
        )

    # long because: one DTO assembled field by field from its store rows
    def proposal(self, proposal_id: int) -> dto.ProposalDetail:
        record = self._get_proposal(proposal_id)
        try:
            model = proposal_from_record(record)
        except ValidationError as exc:
            raise Conflict(
                f"heal proposal #{proposal_id} in the store is not a valid proposal "
                f"({exc.error_count()} problem(s))",
                code="INVALID_PROPOSAL",
            ) from None
        latest = self._store.recipes.latest(record.req_id)
        stale = False
        if record.status == "pending" and model.base_version not in (
            None,
            latest.version if latest else None,
        ):
            try:
                review.prepare(self._store, record)
            except review.ReviewError as exc:
                stale = exc.problem == "stale"
        written = None
        versions_written: list[str] = []
        diffs: list[str] = []
        if record.status == "accepted":
            written = next(
                (
                    v.version
                    for v in self._store.recipes.versions(record.req_id)
                    if v.proposal_id == record.id
                ),
                None,
            )
            versions_written, diffs = self._written(record.id)
        reason = None
        if record.status == "rejected":
            events = self._store.audit.events(
                event_type=DECISION_REASON_EVENT, req_id=record.req_id
            )
            reasons = [
                e.payload.get("reason") for e in events if e.payload.get("proposal_id") == record.id
            ]
            last = reasons[-1] if reasons else None
            reason = last if isinstance(last, str) else None
        gate = model.self_heal_gate
        return self._masked(
            dto.ProposalDetail(
                summary=proposal_summary(record),
                occurrences=[
                    dto.OccurrenceView(
                        req_id=o.req_id,
                        step_number=o.step_index + 1,
                        deployment=o.deployment or None,
                        page_url=o.url or None,
                        failed_locator=_locator_text(o.failed_locator),
                        score=o.score,
                        seen_at=_when(o.created_at),
                    )
                    for o in self._store.proposals.occurrences(record.id)
                ],
                failed_locator=_locator_text(model.failed_locator),
                healed_locator=_locator_text(model.healed_locator),
                patch=[f"{op.op} {op.path}" for op in model.patch_ops],
                suggested_diff=model.suggested_diff,
                self_heal_gate=dict(gate) if gate is not None else None,
                copy_text=render_copy_text(model),
                latest_recipe_version=latest.version if latest else None,
                stale=stale,
                recipe_version_written=written,
                decision_reason=reason,
                change=payload_change(model.failed_locator, model.healed_locator),
                versions_written=versions_written,
                written_diff="".join(diffs) or None,
            )
        )

    def _written(self, proposal_id: int) -> tuple[list[str], list[str]]:
        """Every recipe version an accepted proposal wrote (one per requirement that uses
        the element, as ``pacts heals show`` lists them) and the diff of each from its
        parent: the state after the accept, not the diff proposed before it."""
        labels: list[str] = []
        diffs: list[str] = []
        recipes = self._store.recipes
        for req_id in recipes.requirements():
            versions = recipes.versions(req_id)
            by_version = {v.version: v for v in versions}
            for v in versions:
                if v.proposal_id != proposal_id:
                    continue
                labels.append(f"{req_id} {v.version}")
                parent = by_version.get(v.parent_version or "")
                if parent is not None:
                    try:
                        diffs.append(recipe_diff(recipe_of(parent), recipe_of(v)))
                    except ValidationError:
                        continue
        return labels, diffs

    def accept(self, proposal_id: int, *, by: str, go: bool) -> dto.Decision:
        """Accept through the governance code of ``pacts heals accept``; a major proposal
        needs ``go`` (the reviewer's GO), else :class:`Conflict` ``NEEDS_GO``."""
        record = self._get_proposal(proposal_id)
        try:
            proposal, _recipe, _rebased = review.prepare(self._store, record)
            if review.is_major(record, proposal) and not go:
                raise Conflict(
                    f"heal proposal #{record.id} is major (it changes "
                    f"{', '.join(op.path for op in proposal.patch_ops)}) and needs an explicit "
                    'GO: send {"confirm": "GO"} to accept it, or reject it',
                    code="NEEDS_GO",
                )
            done = review.accept(self._store, record.id, by=by, approved_major=True)
        except review.ReviewError as exc:
            raise Conflict(str(exc), code=exc.problem.upper()) from None
        except InvalidTransition as exc:
            raise Conflict(str(exc), code="NOT_PENDING") from None
        rebased = " (rebased onto the latest version)" if done.rebased else ""
        return self._masked(
            dto.Decision(
                proposal_id=done.proposal_id,
                outcome_label="Accepted",
                message=f"accepted heal proposal #{done.proposal_id} "
                f"({'major' if done.major else 'minor'}) by {by}: recipe {done.req_id} "
                f"{done.from_version} -> {done.to_version}{rebased}",
                recipe_version=done.to_version,
            )
        )

    def reject(self, proposal_id: int, *, by: str, reason: str | None) -> dto.Decision:
        """Reject through the governance code of ``pacts heals reject``."""
        record = self._get_proposal(proposal_id)
        try:
            review.reject(self._store, record.id, by=by, reason=reason)
        except review.ReviewError as exc:
            raise Conflict(str(exc), code=exc.problem.upper()) from None
        except InvalidTransition as exc:
            raise Conflict(str(exc), code="NOT_PENDING") from None
        because = f": {reason}" if reason else ""
        return self._masked(
            dto.Decision(
                proposal_id=record.id,
                outcome_label="Rejected",
                message=f"rejected heal proposal #{record.id} ({record.req_id}) by {by}{because}",
            )
        )
