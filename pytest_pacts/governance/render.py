"""The "copy proposal" text: one block a reviewer pastes into an issue.

The copied text holds the gate result, the suggested diff, the confidence
and the evidence contract. Reports and ``pacts heals show`` use these helpers, so the
badge words are defined once here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from pytest_pacts.governance.contracts import evidence_contract_for
from pytest_pacts.models.heal import HealProposal, SelfHealGate

PROMOTION_REQUIRED_LABEL = "Promotion required (승격 필요)"
"""Shown beside the track badge when ``promotion_required`` (English and Korean words)."""


def track_badge(gate: SelfHealGate | None) -> str:
    """``Contract`` or ``Exception``; ``Ungated`` before the gate ran."""
    if gate is None:
        return "Ungated"
    return "Exception" if gate["track"] == "exception" else "Contract"


def _confidence(proposal: HealProposal) -> str:
    text = f"score {proposal.score:.2f}"
    if proposal.runner_up_score is None:
        return text + ", no runner-up"
    margin = proposal.score - proposal.runner_up_score
    return text + f", runner-up {proposal.runner_up_score:.2f} (margin {margin:.2f})"


def render_copy_text(proposal: HealProposal, evidence_contract: Sequence[str] | None = None) -> str:
    """The proposal as plain text: header, track, confidence, plan, evidence, gate, diff.

    ``evidence_contract`` defaults to the contract of the proposal's RCA class (or its
    violation key), as the gate looks it up.
    """
    gate = proposal.self_heal_gate
    violation = proposal.violation
    contract = (
        list(evidence_contract)
        if evidence_contract is not None
        else list(evidence_contract_for(violation.principle_key, violation.violation_key))
    )
    badge = track_badge(gate)
    if gate is not None and gate["promotion_required"]:
        badge += f" · {PROMOTION_REQUIRED_LABEL}: {gate['promotion_reason']}"
    missing = gate["missing_evidence_fields"] if gate is not None else []
    lines = [
        f"Heal proposal {proposal.id}: {proposal.req_id}, step {proposal.step_index}, "
        f"{proposal.element_key}",
        f"Track: {badge}",
        f"Status: {proposal.status.value} · severity {proposal.severity.value} · "
        f"recipe {proposal.base_version or '-'} · {proposal.created_at.isoformat()}",
        f"Healed by: {proposal.tool_name} after {proposal.failure_type or '-'} "
        f"(RCA {proposal.rca_class or '-'})",
        f"Confidence: {_confidence(proposal)}",
        f"Change plan: {proposal.change_plan or '-'}",
        f"Target files: {', '.join(proposal.target_files) or '-'}",
        f"Evidence contract: {', '.join(contract) or '(none)'}"
        + (f" · missing: {', '.join(missing)}" if missing else ""),
        "Self-heal gate:",
        json.dumps(gate, indent=2, ensure_ascii=False) if gate is not None else "(not run)",
        "Suggested diff:",
        proposal.suggested_diff.rstrip("\n") or "(none)",
    ]
    return "\n".join(lines) + "\n"
