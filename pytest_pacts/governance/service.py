"""Proposing a heal through the store: repeat counts in, gated proposal out.

When a proposal is created, the past
``RUNTIME_PATCH_PROPOSAL_CREATED`` audit events with the same exception fingerprint are
counted over the last 7 and 30 days, the gate is built with those counts, and the proposal
is stored with the gate in its payload. The store writes the audit event in the same
transaction, so the next proposal's counts include this one.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from pytest_pacts.governance._values import Payload
from pytest_pacts.governance.fingerprint import compute_exception_fingerprint
from pytest_pacts.governance.gate import EvidenceContract, gated
from pytest_pacts.governance.promotion import as_utc
from pytest_pacts.models.heal import HealProposal, Violation

if TYPE_CHECKING:
    from pytest_pacts.store import HealProposal as ProposalRecord
    from pytest_pacts.store import Store


def proposal_from_record(record: ProposalRecord) -> HealProposal:
    """A stored proposal as the model: its payload, with the store's id and status.

    The store numbers proposals; that number (as text) is the proposal's ``id`` from then
    on (``pacts heals show 12``). The payload keeps the provisional ``hp_…`` id it was
    built with under ``id`` until then.
    """
    data = dict(record.payload)
    data["id"] = str(record.id)
    data["status"] = record.status
    return HealProposal.model_validate(data)


def propose(
    store: Store,
    proposal: HealProposal,
    violation: Violation | Payload | None = None,
    *,
    evidence_contract: EvidenceContract | None = None,
    now: datetime | None = None,
) -> HealProposal:
    """Gate ``proposal`` with the store's repeat counts and persist it (pending).

    ``violation`` defaults to the proposal's own (:attr:`HealProposal.violation`); ``now``
    (the clock when ``None``) is the moment the counts look back from and the audit
    event's time. Returns the stored proposal, ``self_heal_gate`` filled, ``id`` set to the
    store's number.
    """
    moment = as_utc(now) if now is not None else datetime.now(UTC)
    fingerprint = compute_exception_fingerprint(proposal, violation)
    stats = store.audit.exception_stats(fingerprint, now=moment)
    result = gated(proposal, violation, stats, evidence_contract=evidence_contract, now=moment)
    gate = result.self_heal_gate
    assert gate is not None
    record = store.proposals.create(
        req_id=result.req_id,
        step_index=result.step_index,
        element_key=result.element_key,
        severity=result.severity.value,
        track=gate["track"],
        promotion_required=gate["promotion_required"],
        payload=result.payload(),
        exception_fingerprint=gate["exception_fingerprint"],
        now=moment,
    )
    return proposal_from_record(record)
