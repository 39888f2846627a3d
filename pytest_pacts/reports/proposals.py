"""A run's heal proposals as the reports show them (docs/reports.md).

A :class:`~pytest_pacts.models.outcome.RunRecord` names its proposals by id; the proposals
themselves (with the self-heal gate) live in the store. When the store has them, the view
carries the gate JSON and the "copy proposal" text; when it does not (no store, or a
proposal id the store does not know), the view is built from the heal attempt alone, so a
report never loses a heal.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import ValidationError

from pytest_pacts.governance import (
    PROMOTION_REQUIRED_LABEL,
    heal_rule,
    proposal_from_record,
    render_copy_text,
    rule_text,
    track_badge,
)
from pytest_pacts.models.outcome import HealAttempt, RunRecord

if TYPE_CHECKING:
    from pytest_pacts.store import Store

JSON = dict[str, object]


@dataclass(frozen=True)
class ProposalView:
    """One heal proposal, flattened for JUnit, HTML and the artifacts."""

    id: str
    step_index: int | None
    element_key: str | None
    track: str | None  # "contract" | "exception" | None (not gated)
    promotion_required: bool = False
    promotion_reason: str = ""
    severity: str | None = None
    status: str | None = None
    gate: JSON | None = None
    copy_text: str = ""
    heal: JSON = field(default_factory=dict)
    rule: str = ""  # which rule the heal was held to (governance.heal_rule)

    @property
    def badge(self) -> str:
        """``Contract`` / ``Exception`` / ``Ungated``, the governance package's words."""
        if self.track is None:
            return track_badge(None)
        return "Exception" if self.track == "exception" else "Contract"

    @property
    def promotion_label(self) -> str:
        return PROMOTION_REQUIRED_LABEL if self.promotion_required else ""

    def as_json(self) -> JSON:
        return {
            "id": self.id,
            "step_index": self.step_index,
            "element_key": self.element_key,
            "track": self.track,
            "promotion_required": self.promotion_required,
            "promotion_reason": self.promotion_reason,
            "severity": self.severity,
            "status": self.status,
            "self_heal_gate": self.gate,
        }


def accepted_heals(record: RunRecord) -> list[tuple[int, HealAttempt]]:
    """Every accepted heal of the run with its step index, in step order."""
    return [(s.index, h) for s in record.steps for h in s.heals if h.accepted]


def _from_heal(step_index: int, heal: HealAttempt, element_key: str | None) -> ProposalView:
    relocated = heal.new_locator is not None and heal.new_locator != heal.old_locator
    return ProposalView(
        id=heal.proposal_id or f"step{step_index + 1}-round{heal.round}",
        step_index=step_index,
        element_key=element_key,
        track=heal.track,
        promotion_required=heal.promotion_required,
        heal=heal_json(heal),
        rule=rule_text(heal.rung.value, heal.score, relocated=relocated),
    )


def heal_json(heal: HealAttempt) -> JSON:
    """A heal attempt as JSON (old/new locator, score, runner-up, screenshots)."""
    return heal.model_dump(mode="json", exclude_none=True)


def _from_store(store: Store, proposal_id: str) -> ProposalView | None:
    from pytest_pacts.store import StoreError

    if not proposal_id.isdigit():
        return None
    try:
        record = store.proposals.get(int(proposal_id))
        model = proposal_from_record(record)
    except (StoreError, ValidationError, ValueError):
        return None
    gate = model.self_heal_gate
    return ProposalView(
        id=proposal_id,
        step_index=record.step_index,
        element_key=record.element_key,
        track=record.track,
        promotion_required=record.promotion_required,
        promotion_reason=gate["promotion_reason"] if gate is not None else "",
        severity=record.severity,
        status=record.status,
        gate=dict(gate) if gate is not None else None,
        copy_text=render_copy_text(model),
        rule=heal_rule(model),
    )


def proposal_views(record: RunRecord, store: Store | None) -> list[ProposalView]:
    """The run's proposals: from the store when it has them, else from the heal attempts."""
    heals = {h.proposal_id: (i, h) for i, h in accepted_heals(record) if h.proposal_id}
    keys = {s.index: s.element_key for s in record.steps}
    views: list[ProposalView] = []
    for proposal_id in _unique((*record.proposals, *heals)):
        view = _from_store(store, proposal_id) if store is not None else None
        index_heal = heals.get(proposal_id)
        if view is None and index_heal is not None:
            view = _from_heal(index_heal[0], index_heal[1], keys.get(index_heal[0]))
        elif view is None:
            view = ProposalView(id=proposal_id, step_index=None, element_key=None, track=None)
        elif index_heal is not None:
            view = ProposalView(**{**view.__dict__, "heal": heal_json(index_heal[1])})
        views.append(view)
    # Accepted heals without a proposal id still show (principle 4: healed is never silent).
    for index, heal in accepted_heals(record):
        if not heal.proposal_id:
            views.append(_from_heal(index, heal, keys.get(index)))
    return views


def _unique(ids: Iterable[str]) -> list[str]:
    out: list[str] = []
    for i in ids:
        if i not in out:
            out.append(i)
    return out


def gates_json(views: Iterable[ProposalView]) -> str:
    """Compact JSON of the run's gates (``pacts_self_heal_gate``): one object per proposal."""
    out = []
    for v in views:
        gate: JSON = dict(v.gate) if v.gate is not None else {"track": v.track}
        gate["proposal_id"] = v.id
        if v.gate is None:
            gate["promotion_required"] = v.promotion_required
        out.append(gate)
    return json.dumps(out, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
