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
from pytest_pacts.governance.drift import HealSite, drift_key, page_of
from pytest_pacts.governance.fingerprint import compute_exception_fingerprint
from pytest_pacts.governance.gate import EvidenceContract, gated
from pytest_pacts.governance.promotion import as_utc
from pytest_pacts.models.heal import HealProposal, Violation
from pytest_pacts.store import NewOccurrence

if TYPE_CHECKING:
    from pytest_pacts.store import JSONObject, ProposalRecord, Store


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
    site: HealSite | None = None,
) -> HealProposal:
    """Gate ``proposal`` with the store's repeat counts and persist it (pending), or record
    it as an occurrence of the proposal of the same drift.

    ``violation`` defaults to the proposal's own (:attr:`HealProposal.violation`); ``now``
    (the clock when ``None``) is the moment the counts look back from and the audit
    event's time; ``site`` says where the heal happened (deployment, page URL,
    screenshots). Returns the stored proposal, ``self_heal_gate`` filled, ``id`` set to the
    store's number: the existing one for a drift already proposed.
    """
    moment = as_utc(now) if now is not None else datetime.now(UTC)
    where = site or HealSite()
    page = page_of(where.url, where.deployment)
    key = drift_key(page, proposal.element_key, proposal.healed_locator)
    occurrence = _occurrence(proposal, where)
    with store.transaction():
        fingerprint = compute_exception_fingerprint(proposal, violation)
        existing = store.proposals.find_drift(key)
        if existing is not None:
            return _recur(store, existing, occurrence, fingerprint, evidence_contract, moment)
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
            drift_key=key,
            page=page,
            occurrence=occurrence,
            now=moment,
        )
    return proposal_from_record(record)


def _occurrence(proposal: HealProposal, site: HealSite) -> NewOccurrence:
    evidence: JSONObject = {name: path for name, path in site.screenshots.items() if path}
    return NewOccurrence(
        req_id=proposal.req_id,
        step_index=proposal.step_index,
        failed_locator=dict(proposal.failed_locator),
        base_version=proposal.base_version,
        deployment=site.deployment,
        url=site.url,
        score=proposal.score,
        runner_up_score=proposal.runner_up_score,
        evidence=evidence,
    )


def _recur(
    store: Store,
    existing: ProposalRecord,
    occurrence: NewOccurrence,
    fingerprint: str,
    evidence_contract: EvidenceContract | None,
    moment: datetime,
) -> HealProposal:
    """The same drift again: an occurrence, and a pending proposal gated anew.

    The recurrence is a repeat of the occurrence's own exception fingerprint (its
    requirement, element, failure and rung), as a new proposal of that requirement used to
    be: the same drift in four requirements of one run is one drift with a wide reach, not
    an exception that keeps coming back; the same requirement healing it run after run is.
    The proposal is gated with the occurrence's counts (the past repeats of its own
    fingerprint, this one not included, as for a new proposal); once a promotion is
    required it stays.
    """
    current = proposal_from_record(existing)
    payload: Payload | None = None
    promotion: bool | None = None
    if existing.status == "pending":
        stats = store.audit.exception_stats(fingerprint, now=moment)
        regated = gated(current, None, stats, evidence_contract=evidence_contract, now=moment)
        gate = regated.self_heal_gate
        assert gate is not None
        if gate["promotion_required"] or not existing.promotion_required:
            stored = regated.payload()
            # the payload keeps its provisional id; the store's number is the record's
            stored["id"] = existing.payload.get("id", stored["id"])
            payload, promotion = stored, gate["promotion_required"]
    store.proposals.add_occurrence(
        existing.id,
        occurrence,
        payload=payload,
        promotion_required=promotion,
        exception_fingerprint=fingerprint,
        now=moment,
    )
    return proposal_from_record(store.proposals.get(existing.id))
