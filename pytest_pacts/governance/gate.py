"""The self-heal gate: classify a proposal and record what it lacks.

The gate records, it never blocks: missing fields only turn the
``*_ok`` flags false. Its result is the ``self_heal_gate`` object with
``gate_version: "v1"``, as a plain JSON-ready dict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from pytest_pacts.governance._values import Payload, as_payload, get_mapping, is_missing
from pytest_pacts.governance.contracts import (
    REQUIRED_CONTRACT_FIELDS,
    REQUIRED_EXCEPTION_FIELDS,
    evidence_contract_for,
)
from pytest_pacts.governance.fingerprint import compute_exception_fingerprint
from pytest_pacts.governance.promotion import (
    compute_promotion_required,
    normalise_exception_stats,
)
from pytest_pacts.governance.signals import detect_case_specific_signals
from pytest_pacts.models.heal import HealProposal, SelfHealGate, Violation

GATE_VERSION = "v1"
"""The gate's version, recorded in every gate it builds."""

EvidenceContract = Sequence[str] | Mapping[str, Sequence[str]]
"""A list of required evidence fields, or named lists (``{name: [fields]}``)."""


def _required_evidence(evidence_contract: EvidenceContract | None, violation: Payload) -> list[str]:
    if evidence_contract is None:
        principle = violation.get("principle_key")
        key = violation.get("violation_key")
        return list(
            evidence_contract_for(
                principle if isinstance(principle, str) else None,
                key if isinstance(key, str) else None,
            )
        )
    if isinstance(evidence_contract, str):
        return [evidence_contract]
    if isinstance(evidence_contract, Mapping):
        fields = [f for group in evidence_contract.values() for f in group]
    else:
        fields = list(evidence_contract)
    return list(dict.fromkeys(fields))


# long because: the self-heal gate step by step, as docs/governance.md lists it
def build_self_heal_gate(
    proposal: HealProposal | Payload,
    violation: Violation | Payload | None = None,
    evidence_contract: EvidenceContract | None = None,
    exception_stats: Mapping[str, object] | None = None,
    *,
    now: datetime | None = None,
) -> SelfHealGate:
    """The gate, step by step (docs/governance.md "The self-heal gate").

    - ``case_specific_signals``: :func:`detect_case_specific_signals`; any -> ``exception``
      track, none -> ``contract``;
    - ``missing_contract_fields`` / ``missing_exception_fields``: the required fields of each
      track (``contracts.REQUIRED_*``) missing from the proposal;
      both lists are recorded whatever the track, so a reviewer sees both gaps;
    - ``missing_evidence_fields``: the evidence contract's fields missing from
      ``violation.evidence``; with ``evidence_contract=None`` the contract is looked up by
      :func:`evidence_contract_for` (principle key, then violation key, else none);
    - ``promotion_required`` / ``promotion_reason``: :func:`compute_promotion_required` with
      the proposal's ``exception_expiry`` and ``created_at``; a malformed expiry also makes
      ``exception_fields_ok`` false;
    - ``exception_fingerprint``: :func:`compute_exception_fingerprint`;
    - ``exception_stats``: the given counts, zeros when none.

    A :class:`HealProposal` given without a violation is gated against its own
    :attr:`HealProposal.violation`.
    """
    if violation is None and isinstance(proposal, HealProposal):
        violation = proposal.violation
    data = as_payload(proposal)
    violation_data = as_payload(violation)
    evidence = get_mapping(violation_data, "evidence")

    signals = detect_case_specific_signals(data, violation_data)
    contract_missing = [f for f in REQUIRED_CONTRACT_FIELDS if is_missing(data.get(f))]
    exception_missing = [f for f in REQUIRED_EXCEPTION_FIELDS if is_missing(data.get(f))]
    required_evidence = _required_evidence(evidence_contract, violation_data)
    evidence_missing = [f for f in required_evidence if is_missing(evidence.get(f))]

    promotion = compute_promotion_required(
        exception_stats,
        data.get("exception_expiry"),
        _created_at(data.get("created_at")),
        now,
    )
    return {
        "track": "exception" if signals else "contract",
        "gate_version": "v1",
        "contract_fields_ok": not contract_missing,
        "exception_fields_ok": not exception_missing and promotion.expiry_ok,
        "evidence_contract_ok": not evidence_missing,
        "case_specific_signals": signals,
        "missing_contract_fields": contract_missing,
        "missing_exception_fields": exception_missing,
        "missing_evidence_fields": evidence_missing,
        "promotion_required": promotion.required,
        "promotion_reason": promotion.reason,
        "exception_fingerprint": compute_exception_fingerprint(data, violation_data),
        "exception_stats": normalise_exception_stats(exception_stats),
    }


def _created_at(value: object) -> datetime | str | None:
    return value if isinstance(value, datetime | str) else None


def gated(
    proposal: HealProposal,
    violation: Violation | Payload | None = None,
    exception_stats: Mapping[str, object] | None = None,
    *,
    evidence_contract: EvidenceContract | None = None,
    now: datetime | None = None,
) -> HealProposal:
    """A copy of ``proposal`` with its ``self_heal_gate`` filled (the original is frozen)."""
    gate = build_self_heal_gate(proposal, violation, evidence_contract, exception_stats, now=now)
    return proposal.model_copy(update={"self_heal_gate": gate})
