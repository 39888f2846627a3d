"""The "copy proposal" text: one block a reviewer pastes into an issue.

The copied text holds the gate result, the suggested diff, the confidence
and the evidence contract. Reports and ``pacts heals show`` use these helpers, so the
badge words and the rule a heal was held to (:func:`heal_rule`) are defined once here.
Steps are numbered from 1, as in the requirement sheet.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Literal

from pytest_pacts.governance.contracts import evidence_contract_for
from pytest_pacts.models.evidence import DEFAULT_MARGIN, DEFAULT_THRESHOLD, EvidenceRule
from pytest_pacts.models.heal import HealProposal, SelfHealGate

Language = Literal["en", "ko"]
LANGUAGES: tuple[Language, ...] = ("en", "ko")

PROMOTION_REQUIRED_LABELS: Mapping[str, str] = {
    "en": "Promotion required",
    "ko": "승격 필요",
}
"""Shown beside the track badge when ``promotion_required``: the exception keeps coming
back and needs a lasting fix. English unless Korean is asked for (``--lang ko``)."""

PROMOTION_REQUIRED_LABEL = PROMOTION_REQUIRED_LABELS["en"]
"""The English label, the default everywhere."""

# The bars a heal is held to when the proposal does not record them (the evidence rule's
# defaults, models/evidence.py; docs/healing.md).
DEFAULT_HEAL_THRESHOLD = DEFAULT_THRESHOLD
DEFAULT_HEAL_MARGIN = DEFAULT_MARGIN
DEFAULT_MEMORY_THRESHOLD = 0.7


def promotion_label(lang: str = "en") -> str:
    """The "promotion required" label in ``lang`` (``en`` or ``ko``; anything else: en)."""
    return PROMOTION_REQUIRED_LABELS.get(lang, PROMOTION_REQUIRED_LABEL)


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


def _bar(proposal: HealProposal, name: str, default: float) -> float:
    for item in proposal.evidence:
        if isinstance(item, dict):
            value = item.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
    return default


def rule_text(
    tool: str,
    score: float | None,
    *,
    relocated: bool = True,
    threshold: float = DEFAULT_HEAL_THRESHOLD,
    margin: float = DEFAULT_HEAL_MARGIN,
    memory: float = DEFAULT_MEMORY_THRESHOLD,
) -> str:
    """Which rule a heal by the rung ``tool`` was held to, and whether ``score`` meets the
    heal threshold; ``relocated`` is false for a repair that kept its locator.

    Only relocations by similarity (the similarity and extension rungs) are held to the
    heal threshold and the margin over the runner-up. A recorded or re-discovered locator
    (alternate, re-discovery, memory, region drift) that passed the five-point gate is held
    to agreement instead: no other element may resemble the recorded one better by the
    margin. A repair keeps the locator; its gate passing is the evidence. See
    docs/healing.md, "What a heal reports".
    """
    if score is None:
        meets = "no score"
    else:
        meets = f"score {score:.2f} " + (
            "meets" if EvidenceRule(threshold, margin).meets_threshold(score) else "is below"
        )
        meets += " the threshold"
    if tool in ("similarity", "extension"):
        return (
            f"held to the heal threshold {threshold:.2f} and a margin of {margin:.2f} over "
            f"the runner-up; {meets}"
        )
    agreement = (
        f"not held to the heal threshold {threshold:.2f} but to agreement (no other element "
        f"more similar by {margin:.2f}); {meets}"
    )
    if tool == "memory":
        return f"a remembered locator (confidence above {memory:.2f}) that passed the gate; " + (
            agreement
        )
    if tool in ("alternate", "rediscovery") or (tool == "repair" and relocated):
        return "a recorded or re-discovered locator that passed the gate; " + agreement
    if tool == "repair":
        return "a repair with the same locator: the gate passing after it is the evidence"
    return f"{tool}: chosen outside the automatic rungs; {meets}"


def heal_rule(proposal: HealProposal) -> str:
    """:func:`rule_text` of a proposal, with the bars its evidence recorded."""
    return rule_text(
        proposal.tool_name,
        proposal.score,
        relocated=proposal.healed_locator != proposal.failed_locator,
        threshold=_bar(proposal, "heal_threshold", DEFAULT_HEAL_THRESHOLD),
        margin=_bar(proposal, "heal_margin", DEFAULT_HEAL_MARGIN),
        memory=_bar(proposal, "memory_threshold", DEFAULT_MEMORY_THRESHOLD),
    )


def render_copy_text(
    proposal: HealProposal,
    evidence_contract: Sequence[str] | None = None,
    *,
    lang: str = "en",
) -> str:
    """The proposal as plain text: header, track, confidence, plan, evidence, gate, diff.

    ``evidence_contract`` defaults to the contract of the proposal's RCA class (or its
    violation key), as the gate looks it up; ``lang`` is the labels' language.
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
        badge += f" · {promotion_label(lang)}: {gate['promotion_reason']}"
    missing = gate["missing_evidence_fields"] if gate is not None else []
    lines = [
        f"Heal proposal {proposal.id}: {proposal.req_id}, step {proposal.step_index + 1}, "
        f"{proposal.element_key}",
        f"Track: {badge}",
        f"Status: {proposal.status.value} · severity {proposal.severity.value} · "
        f"recipe {proposal.base_version or '-'} · {proposal.created_at.isoformat()}",
        f"Healed by: {proposal.tool_name} after {proposal.failure_type or '-'} "
        f"(RCA {proposal.rca_class or '-'})",
        f"Confidence: {_confidence(proposal)}",
        f"Rule: {heal_rule(proposal)}",
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
