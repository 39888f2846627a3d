"""Record types returned by the repositories (docs/store.md).

Records are frozen dataclasses: a row read from the store is a fact about the past, and
nothing that holds one should be able to change it behind the store's back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, TypeAlias, TypedDict

JSONValue: TypeAlias = "dict[str, JSONValue] | list[JSONValue] | str | int | float | bool | None"
JSONObject: TypeAlias = "dict[str, JSONValue]"

RunStatus = Literal["running", "finished", "abandoned"]
Verdict = Literal["pass", "fail", "partial"]
ProposalStatus = Literal["pending", "accepted", "rejected"]
Severity = Literal["minor", "major"]
Track = Literal["contract", "exception"]
PomStatus = Literal["hit", "miss", "expired", "plan_hash_mismatch"]

#: The audit event type the self-heal gate counts for its 7/30-day repeats.
PROPOSAL_CREATED_EVENT = "RUNTIME_PATCH_PROPOSAL_CREATED"
#: The same drift healed again (another requirement or run): an occurrence of a proposal.
#: The gate counts it with the creations, so a drift that keeps coming back is a repeat.
PROPOSAL_RECURRED_EVENT = "RUNTIME_PATCH_PROPOSAL_RECURRED"


@dataclass(frozen=True, slots=True)
class Run:
    """One execution of one requirement (the ``runs`` table)."""

    id: int
    session_id: str
    req_id: str
    status: RunStatus
    verdict: Verdict | None
    rca_class: str | None
    started_at: datetime
    finished_at: datetime | None
    lease_expires_at: datetime | None
    pid: int | None
    host: str | None
    plan_hash: str | None
    recipe_version: str | None
    healed: bool
    heal_count: int
    llm_calls: int


@dataclass(frozen=True, slots=True)
class RunStep:
    """One executed step of a run, with the gate result recorded."""

    id: int
    run_id: int
    step_index: int
    action: str
    element_key: str | None
    locator: JSONValue
    strategy: str | None
    confidence: float | None
    gate: JSONValue
    status: str
    heal_round: int
    duration_ms: float | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Artifact:
    """A file a run produced: screenshot, trace, verdict JSON, generated test."""

    id: int
    run_id: int
    kind: str
    path: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Metric:
    """A named number measured during a run."""

    id: int
    run_id: int
    name: str
    value: float
    created_at: datetime


@dataclass(frozen=True, slots=True)
class PomLookup:
    """Result of a POM cache lookup (``hit``, ``miss`` or ``PLAN_HASH_MISMATCH``).

    ``payload`` is set only on a ``hit``. ``cached_plan_hashes`` names what *is* cached for
    the requirement on a mismatch, so the caller can say what changed.
    """

    status: PomStatus
    payload: JSONValue = None
    expires_at: datetime | None = None
    cached_plan_hashes: tuple[str, ...] = ()

    @property
    def hit(self) -> bool:
        return self.status == "hit"


@dataclass(frozen=True, slots=True)
class RecipeVersion:
    """One immutable version of a requirement's verified plan."""

    req_id: str
    version: str
    number: int
    plan_hash: str
    parent_version: str | None
    proposal_id: int | None
    created_at: datetime
    body: JSONValue


@dataclass(frozen=True, slots=True)
class ProposalRecord:
    """A heal proposal as the store keeps it: its row (status, severity, track, decision)
    and, in ``payload``, the proposal itself (governance reads it back as the
    ``HealProposal`` model)."""

    id: int
    req_id: str
    step_index: int
    element_key: str
    status: ProposalStatus
    severity: Severity
    track: Track
    promotion_required: bool
    exception_fingerprint: str | None
    created_at: datetime
    decided_at: datetime | None
    decided_by: str | None
    payload: JSONObject
    drift_key: str | None = None
    page: str | None = None


@dataclass(frozen=True, slots=True)
class HealOccurrence:
    """One time a drift was healed: which requirement and step, where, from which locator.

    A proposal is one drift (page, element, new locator); each run of each requirement that
    healed it adds an occurrence, so a reviewer sees how often and where it happened.
    """

    id: int
    proposal_id: int
    req_id: str
    step_index: int
    base_version: str | None
    deployment: str
    url: str
    failed_locator: JSONValue
    score: float | None
    runner_up_score: float | None
    evidence: JSONObject
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewOccurrence:
    """An occurrence to write with a proposal (:meth:`ProposalRepository.create`) or after
    it (:meth:`ProposalRepository.add_occurrence`)."""

    req_id: str
    step_index: int
    failed_locator: JSONValue
    base_version: str | None = None
    deployment: str = ""
    url: str = ""
    score: float | None = None
    runner_up_score: float | None = None
    evidence: JSONObject | None = None


@dataclass(frozen=True, slots=True)
class VerifiedLocator:
    """A locator that passed the gate and acted on an element on one deployment."""

    id: int
    req_id: str
    element_key: str
    locator: JSONValue
    deployment: str
    verified_count: int
    first_verified_at: datetime
    last_verified_at: datetime


@dataclass(frozen=True, slots=True)
class AuditEvent:
    """An append-only audit fact (the ``audit_events`` table)."""

    id: int
    event_type: str
    created_at: datetime
    req_id: str | None
    exception_fingerprint: str | None
    payload: JSONObject


@dataclass(frozen=True, slots=True)
class NewAuditEvent:
    """An audit event to write in bulk with :meth:`AuditRepository.record_many`."""

    event_type: str
    payload: JSONObject
    created_at: datetime | None = None
    req_id: str | None = None
    exception_fingerprint: str | None = None


class RepeatCounts(TypedDict):
    """How often one exception fingerprint was proposed (created or recurred) in the last 7
    and 30 days, from the audit trail; the self-heal gate records them as its
    ``exception_stats``."""

    count_7d: int
    count_30d: int


@dataclass(frozen=True, slots=True)
class HealingEvidence:
    """Why a healing-memory record may be trusted (no evidence, no record)."""

    url: str
    original_locator: JSONValue
    failure_type: str

    def problems(self) -> list[str]:
        """What is missing from this evidence, in words; empty when it is complete."""
        missing = []
        if not self.url.strip():
            missing.append("url is empty")
        if self.original_locator in (None, "", {}, []):
            missing.append("original_locator is empty")
        if not self.failure_type.strip():
            missing.append("failure_type is empty")
        return missing


@dataclass(frozen=True, slots=True)
class HealingRecord:
    """A locator that healed an element before, with its track record."""

    id: int
    req_id: str
    element_key: str
    locator: JSONValue
    success_count: int
    failure_count: int
    evidence: HealingEvidence
    created_at: datetime
    last_used: datetime

    @property
    def confidence(self) -> float:
        """successes / (successes + failures), the memory's confidence."""
        total = self.success_count + self.failure_count
        return self.success_count / total if total else 0.0


@dataclass(frozen=True, slots=True)
class DiscoveryLease:
    """Who discovers a requirement's plan, so runners sharing a store discover it once.

    One row per ``(req_id, plan_hash)``, kept after release: ``claims`` counts how often it
    was taken, ``discoveries`` how often a holder really discovered (a holder that found the
    POM cache already filled releases without discovering).
    """

    req_id: str
    plan_hash: str
    holder: str
    pid: int | None
    host: str | None
    acquired_at: datetime
    expires_at: datetime
    released_at: datetime | None
    claims: int
    discoveries: int

    def held(self, now: datetime) -> bool:
        """Whether someone holds it at ``now`` (not released, lease not run out)."""
        return self.released_at is None and self.expires_at > now


@dataclass(frozen=True, slots=True)
class DiscoveryClaim:
    """The answer to :meth:`DiscoveryLeaseRepository.claim`.

    ``granted``: the caller holds the lease now and should discover, then release.
    Otherwise ``lease`` names the holder. ``previous_released_at`` is when the lease was last
    released before this claim (``None``: never taken, or taken over after it ran out), so a
    caller can tell a result discovered moments ago from an old one.
    """

    granted: bool
    lease: DiscoveryLease
    previous_released_at: datetime | None


@dataclass(frozen=True, slots=True)
class TraceBundleRecord:
    """One stored trace bundle (``trace_bundles``): a passing run's steps, compact.

    ``payload`` is the bundle as JSON (``pytest_pacts.models.trace.TraceBundle``);
    ``folder`` is where its step pictures are on disk, ``None`` once they were pruned."""

    id: int
    req_id: str
    label: str
    plan_hash: str
    created_at: datetime
    folder: str | None
    picture_bytes: int
    payload: JSONObject
