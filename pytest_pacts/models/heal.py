"""Heal proposals and the self-heal gate record.

A heal proposal is what every accepted heal leaves behind for review: the old and new
locator, the evidence, the patch against the recipe, and the self-heal gate's verdict on
it. The gate record is a ``TypedDict`` so that it is JSON as it stands (docs/governance.md "The
self-heal gate"); the contract-track fields are adapted to locators (``locator_strategy``
stands for a code patch's request/response mapping strategies).
"""

from __future__ import annotations

import enum
import uuid
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue
from typing_extensions import TypedDict

from pytest_pacts.models.recipe import JsonObject, PatchOp

Track = Literal["contract", "exception"]


class Severity(enum.StrEnum):
    """Patch severity (docs/governance.md "The patch contract")."""

    MINOR = "minor"
    MAJOR = "major"


class ProposalStatus(enum.StrEnum):
    """Where a proposal is in review (``pacts heals accept|reject``)."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class ExceptionStats(TypedDict):
    """Repeat counts of one exception fingerprint."""

    repeat_count_7d: int
    repeat_count_30d: int


class SelfHealGate(TypedDict):
    """The ``self_heal_gate`` record, key for key (``gate_version`` v1; docs/governance.md)."""

    track: Track
    gate_version: Literal["v1"]
    contract_fields_ok: bool
    exception_fields_ok: bool
    evidence_contract_ok: bool
    case_specific_signals: list[str]
    missing_contract_fields: list[str]
    missing_exception_fields: list[str]
    missing_evidence_fields: list[str]
    promotion_required: bool
    promotion_reason: str
    exception_fingerprint: str
    exception_stats: ExceptionStats


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Violation(_Frozen):
    """What the gate calls a violation, in this domain (docs/governance.md "Domain mapping").

    ``principle_key`` is the RCA class, ``violation_key`` is ``<req_id>.<element key>``,
    ``evidence["mismatch_type"]`` the failure type and ``evidence["tool_name"]`` the healing
    rung. ``violation_id`` is kept for JSON payloads (the fingerprint reads it when
    ``violation_key`` is absent).
    """

    principle_key: str | None = None
    violation_key: str | None = None
    violation_id: str | None = None
    evidence: JsonObject = Field(default_factory=dict)


def _new_id() -> str:
    return f"hp_{uuid.uuid4().hex}"


def _utcnow() -> datetime:
    return datetime.now(UTC)


class HealProposal(_Frozen):
    """A heal, recorded for review (every accepted heal produces a proposal).

    ``score`` is the healed candidate's confidence and ``runner_up_score`` the next best
    candidate's (``None`` when there was none). ``rca_class`` and ``failure_type`` are the
    violation's principle key and mismatch type, kept so a proposal can be
    gated on its own. ``self_heal_gate`` is filled by
    ``pytest_pacts.governance.build_self_heal_gate``.
    """

    id: str = Field(default_factory=_new_id)
    created_at: datetime = Field(default_factory=_utcnow)
    status: ProposalStatus = ProposalStatus.PENDING

    req_id: str
    step_index: int = Field(ge=0)
    element_key: str
    base_version: str | None = Field(default=None, description="Recipe version patched.")
    rca_class: str | None = None
    failure_type: str | None = None
    failed_locator: JsonObject
    healed_locator: JsonObject
    tool_name: str
    score: float = Field(allow_inf_nan=False)
    runner_up_score: float | None = Field(default=None, allow_inf_nan=False)
    evidence: list[str | JsonObject] = Field(default_factory=list)

    patch_ops: tuple[PatchOp, ...] = ()
    reason: str = ""
    severity: Severity = Severity.MINOR
    suggested_diff: str = ""
    change_plan: str = ""
    target_files: tuple[str, ...] = ()

    # Contract track (adapted: locator_strategy replaces a code patch's
    # slot_request_mapping_strategy / response_projection_strategy).
    contract_scope: str | None = None
    generalization_scope: str | None = None
    locator_strategy: str | None = None
    pre_post_invariant_strategy: str | None = None
    contract_expectation: str | None = None

    # Exception track.
    exception_reason: str | None = None
    exception_scope: str | None = None
    exception_expiry: str | None = None
    promotion_plan: str | None = None
    promotion_trigger: str | None = None
    blast_radius: str | None = None

    self_heal_gate: SelfHealGate | None = None

    @property
    def violation(self) -> Violation:
        """The violation this proposal answers (docs/governance.md "Domain mapping").

        Its evidence is the object entries of :attr:`evidence` (later ones win) with the
        heal's own facts over them: locators, scores, rung and failure type.
        """
        evidence: JsonObject = {}
        for entry in self.evidence:
            if isinstance(entry, dict):
                evidence.update(entry)
        evidence.update(
            mismatch_type=self.failure_type,
            tool_name=self.tool_name,
            failed_locator=self.failed_locator,
            healed_locator=self.healed_locator,
            score=self.score,
            runner_up_score=self.runner_up_score,
        )
        return Violation(
            principle_key=self.rca_class,
            violation_key=f"{self.req_id}.{self.element_key}",
            evidence=evidence,
        )

    def payload(self) -> dict[str, JsonValue]:
        """The proposal as a JSON object (what the store writes and the gate reads)."""
        return self.model_dump(mode="json")
