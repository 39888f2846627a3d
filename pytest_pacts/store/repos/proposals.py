"""Heal proposals awaiting review.

Creating a proposal also appends the ``RUNTIME_PATCH_PROPOSAL_CREATED`` audit event, in the
same transaction, carrying the proposal's ``self_heal_gate``: the gate's 7/30-day repeat
counts are read from those events, so a proposal without its event, or an
event without its proposal, would skew every later gate decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Literal

from pytest_pacts.store.backend import Backend, Row
from pytest_pacts.store.errors import InvalidTransition, RecordNotFound
from pytest_pacts.store.records import (
    PROPOSAL_CREATED_EVENT,
    PROPOSAL_RECURRED_EVENT,
    HealOccurrence,
    NewOccurrence,
    ProposalRecord,
    ProposalStatus,
    Severity,
    Track,
)
from pytest_pacts.store.repos._rows import (
    as_bool,
    as_int,
    as_object,
    as_str,
    as_ts,
    opt_float,
    opt_str,
    opt_ts,
    placeholders,
)
from pytest_pacts.store.repos.audit import AuditRepository
from pytest_pacts.store.timeutil import require_aware, utcnow

#: Audit event written when a proposal is accepted or rejected.
PROPOSAL_DECIDED_EVENT = "RUNTIME_PATCH_PROPOSAL_DECIDED"

_COLUMNS = (
    "id, req_id, step_index, element_key, status, severity, track, promotion_required, "
    "exception_fingerprint, created_at, decided_at, decided_by, payload, drift_key, page"
)
_OCCURRENCE_COLUMNS = (
    "id, proposal_id, req_id, step_index, base_version, deployment, url, failed_locator, "
    "score, runner_up_score, evidence, created_at"
)
_SEVERITIES = ("minor", "major")
_TRACKS = ("contract", "exception")
_STATUSES = ("pending", "accepted", "rejected")


class ProposalRepository:
    """Create, read and decide heal proposals (pending → accepted | rejected)."""

    def __init__(self, db: Backend, audit: AuditRepository) -> None:
        self._db = db
        self._audit = audit

    # long because: one transaction: the proposal and its audit event written together
    def create(
        self,
        *,
        req_id: str,
        step_index: int,
        element_key: str,
        severity: Severity,
        track: Track,
        promotion_required: bool,
        payload: Mapping[str, object],
        exception_fingerprint: str | None = None,
        drift_key: str | None = None,
        page: str | None = None,
        occurrence: NewOccurrence | None = None,
        now: datetime | None = None,
    ) -> ProposalRecord:
        """Store a pending proposal and its ``RUNTIME_PATCH_PROPOSAL_CREATED`` event.

        ``payload`` is the whole proposal and must hold the ``self_heal_gate`` object.
        ``exception_fingerprint`` defaults to the gate's. ``drift_key`` names what changed
        (:meth:`find_drift` finds the proposal by it); ``occurrence``, its first occurrence,
        is written in the same transaction.
        """
        if severity not in _SEVERITIES:
            raise ValueError(f"severity must be one of {_SEVERITIES}, got {severity!r}")
        if track not in _TRACKS:
            raise ValueError(f"track must be one of {_TRACKS}, got {track!r}")
        gate = payload.get("self_heal_gate")
        if not isinstance(gate, Mapping):
            raise ValueError(
                f"heal proposal for {req_id!r} step {step_index + 1} has no 'self_heal_gate' "
                "object in its payload; every proposal passes the self-heal gate "
                "and its audit event must carry the gate result"
            )
        if exception_fingerprint is None:
            gate_fp = gate.get("exception_fingerprint")
            exception_fingerprint = gate_fp if isinstance(gate_fp, str) and gate_fp else None
        db = self._db
        created = require_aware(now or utcnow(), "now")
        with db.transaction():
            row = db.fetchone(
                f"INSERT INTO heal_proposals ({_COLUMNS.removeprefix('id, ')}) "
                f"VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?) "
                f"RETURNING {_COLUMNS}",
                (
                    req_id,
                    step_index,
                    element_key,
                    severity,
                    track,
                    promotion_required,
                    exception_fingerprint,
                    db.ts_in(created),
                    db.json_in(dict(payload)),
                    drift_key,
                    page,
                ),
            )
            assert row is not None
            proposal = self._proposal(row)
            if occurrence is not None:
                self._insert_occurrence(proposal.id, occurrence, created)
            self._audit.record(
                PROPOSAL_CREATED_EVENT,
                {
                    "proposal_id": proposal.id,
                    "req_id": req_id,
                    "step_index": step_index,
                    "element_key": element_key,
                    "severity": severity,
                    "track": track,
                    "promotion_required": promotion_required,
                    "self_heal_gate": dict(gate),
                },
                req_id=req_id,
                exception_fingerprint=exception_fingerprint,
                now=created,
            )
        return proposal

    def add_occurrence(
        self,
        proposal_id: int,
        occurrence: NewOccurrence,
        *,
        payload: Mapping[str, object] | None = None,
        promotion_required: bool | None = None,
        exception_fingerprint: str | None = None,
        now: datetime | None = None,
    ) -> HealOccurrence:
        """Record the same drift healed again, and its ``RUNTIME_PATCH_PROPOSAL_RECURRED``
        event (the gate counts it as a repeat of ``exception_fingerprint``: the occurrence's
        own, default the proposal's).

        A pending proposal may take a re-gated ``payload`` and ``promotion_required`` in
        the same transaction (the repeat counts grew); a decided one keeps its own.
        """
        db = self._db
        created = require_aware(now or utcnow(), "now")
        with db.transaction():
            current = self.get(proposal_id)
            if current.status == "pending" and payload is not None:
                db.execute(
                    "UPDATE heal_proposals SET payload = ?, promotion_required = ? "
                    "WHERE id = ? AND status = 'pending'",
                    (
                        db.json_in(dict(payload)),
                        current.promotion_required
                        if promotion_required is None
                        else promotion_required,
                        proposal_id,
                    ),
                )
            found = self._insert_occurrence(proposal_id, occurrence, created)
            self._audit.record(
                PROPOSAL_RECURRED_EVENT,
                {
                    "proposal_id": proposal_id,
                    "occurrence_id": found.id,
                    "req_id": occurrence.req_id,
                    "step_index": occurrence.step_index,
                    "element_key": current.element_key,
                    "deployment": occurrence.deployment,
                },
                req_id=occurrence.req_id,
                exception_fingerprint=exception_fingerprint or current.exception_fingerprint,
                now=created,
            )
        return found

    def find_drift(
        self, drift_key: str, statuses: Sequence[ProposalStatus] = ("pending", "rejected")
    ) -> ProposalRecord | None:
        """The newest proposal of this drift among ``statuses`` (pending and rejected by
        default: a rejected drift is not filed again, an accepted one may need a new patch).

        Call it inside :meth:`Store.transaction` together with the ``create`` it decides
        on: on PostgreSQL it takes a transaction lock on the drift key.
        """
        wanted = [s for s in statuses if s in _STATUSES]
        if not wanted:
            return None
        if self._db.name == "postgresql":
            # Two runners healing the same drift at once: the second waits for the first's
            # transaction (in which it creates the proposal) and then finds it. SQLite's
            # BEGIN IMMEDIATE already serialises writers.
            self._db.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (drift_key,))
        row = self._db.fetchone(
            f"SELECT {_COLUMNS} FROM heal_proposals WHERE drift_key = ? "
            f"AND status IN ({placeholders(len(wanted))}) ORDER BY id DESC LIMIT 1",
            (drift_key, *wanted),
        )
        return None if row is None else self._proposal(row)

    def occurrences(self, proposal_id: int) -> list[HealOccurrence]:
        """Every occurrence of a proposal, oldest first. A proposal written before schema
        v4 has none stored: its own requirement and step stand as the one occurrence."""
        rows = self._db.fetchall(
            f"SELECT {_OCCURRENCE_COLUMNS} FROM heal_occurrences WHERE proposal_id = ? ORDER BY id",
            (proposal_id,),
        )
        if rows:
            return [self._occurrence(r) for r in rows]
        record = self.get(proposal_id)
        payload = record.payload
        base = payload.get("base_version")
        score = payload.get("score")
        runner_up = payload.get("runner_up_score")
        return [
            HealOccurrence(
                id=0,
                proposal_id=record.id,
                req_id=record.req_id,
                step_index=record.step_index,
                base_version=base if isinstance(base, str) else None,
                deployment="",
                url="",
                failed_locator=payload.get("failed_locator"),
                score=float(score) if isinstance(score, int | float) else None,
                runner_up_score=float(runner_up) if isinstance(runner_up, int | float) else None,
                evidence={},
                created_at=record.created_at,
            )
        ]

    def occurrence_counts(self, proposal_ids: Sequence[int]) -> dict[int, int]:
        """``{proposal id: occurrences}`` (at least 1: a proposal is its first occurrence)."""
        counts = dict.fromkeys(proposal_ids, 1)
        if not proposal_ids:
            return counts
        rows = self._db.fetchall(
            "SELECT proposal_id, COUNT(*) FROM heal_occurrences "
            f"WHERE proposal_id IN ({placeholders(len(proposal_ids))}) GROUP BY proposal_id",
            list(proposal_ids),
        )
        for row in rows:
            counts[as_int(row[0])] = max(1, as_int(row[1]))
        return counts

    def decide(
        self,
        proposal_id: int,
        status: Literal["accepted", "rejected"],
        *,
        decided_by: str,
        now: datetime | None = None,
    ) -> ProposalRecord:
        """Accept or reject a pending proposal; a decided one never changes again."""
        if status not in ("accepted", "rejected"):
            raise ValueError(f"a proposal is decided as accepted or rejected, not {status!r}")
        if not decided_by.strip():
            raise ValueError("decided_by must name who decided (a user, CI job or command)")
        db = self._db
        decided = require_aware(now or utcnow(), "now")
        with db.transaction():
            row = db.fetchone(
                f"UPDATE heal_proposals SET status = ?, decided_at = ?, decided_by = ? "
                f"WHERE id = ? AND status = 'pending' RETURNING {_COLUMNS}",
                (status, db.ts_in(decided), decided_by, proposal_id),
            )
            if row is None:
                current = self.get(proposal_id)
                raise InvalidTransition(
                    f"heal proposal #{proposal_id} was already {current.status} by "
                    f"{current.decided_by!r} at "
                    f"{current.decided_at.isoformat() if current.decided_at else '?'}; "
                    f"only pending proposals can be {status}"
                )
            proposal = self._proposal(row)
            self._audit.record(
                PROPOSAL_DECIDED_EVENT,
                {"proposal_id": proposal_id, "status": status, "decided_by": decided_by},
                req_id=proposal.req_id,
                exception_fingerprint=proposal.exception_fingerprint,
                now=decided,
            )
        return proposal

    def get(self, proposal_id: int) -> ProposalRecord:
        row = self._db.fetchone(
            f"SELECT {_COLUMNS} FROM heal_proposals WHERE id = ?", (proposal_id,)
        )
        if row is None:
            raise RecordNotFound(f"no heal proposal #{proposal_id} in the store")
        return self._proposal(row)

    def query(
        self,
        *,
        status: ProposalStatus | None = None,
        req_id: str | None = None,
        since: datetime | None = None,
        limit: int | None = None,
    ) -> list[ProposalRecord]:
        """Proposals matching the filters, oldest first (``pacts heals list``)."""
        clauses: list[str] = []
        params: list[object] = []
        if status is not None:
            if status not in _STATUSES:
                raise ValueError(f"status must be one of {_STATUSES}, got {status!r}")
            clauses.append("status = ?")
            params.append(status)
        if req_id is not None:
            clauses.append("req_id = ?")
            params.append(req_id)
        if since is not None:
            clauses.append("created_at >= ?")
            params.append(self._db.ts_in(since))
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        sql = f"SELECT {_COLUMNS} FROM heal_proposals{where} ORDER BY created_at, id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(int(limit))
        return [self._proposal(r) for r in self._db.fetchall(sql, params)]

    def count_by_status(self) -> dict[str, int]:
        """``{"pending": n, "accepted": m, "rejected": k}`` (for the terminal summary)."""
        counts = dict.fromkeys(_STATUSES, 0)
        for row in self._db.fetchall("SELECT status, COUNT(*) FROM heal_proposals GROUP BY 1"):
            counts[as_str(row[0])] = as_int(row[1])
        return counts

    def _proposal(self, row: Row) -> ProposalRecord:
        db = self._db
        return ProposalRecord(
            id=as_int(row[0]),
            req_id=as_str(row[1]),
            step_index=as_int(row[2]),
            element_key=as_str(row[3]),
            status=as_str(row[4]),  # type: ignore[arg-type]  # CHECK constraint in schema
            severity=as_str(row[5]),  # type: ignore[arg-type]  # CHECK constraint in schema
            track=as_str(row[6]),  # type: ignore[arg-type]  # CHECK constraint in schema
            promotion_required=as_bool(row[7]),
            exception_fingerprint=opt_str(row[8]),
            created_at=as_ts(db, row[9]),
            decided_at=opt_ts(db, row[10]),
            decided_by=opt_str(row[11]),
            payload=as_object(db, row[12]),
            drift_key=opt_str(row[13]),
            page=opt_str(row[14]),
        )

    def _insert_occurrence(
        self, proposal_id: int, occurrence: NewOccurrence, created: datetime
    ) -> HealOccurrence:
        db = self._db
        row = db.fetchone(
            f"INSERT INTO heal_occurrences ({_OCCURRENCE_COLUMNS.removeprefix('id, ')}) "
            f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_OCCURRENCE_COLUMNS}",
            (
                proposal_id,
                occurrence.req_id,
                occurrence.step_index,
                occurrence.base_version,
                occurrence.deployment,
                occurrence.url,
                db.json_in(occurrence.failed_locator),
                occurrence.score,
                occurrence.runner_up_score,
                db.json_in(dict(occurrence.evidence or {})),
                db.ts_in(created),
            ),
        )
        assert row is not None
        return self._occurrence(row)

    def _occurrence(self, row: Row) -> HealOccurrence:
        db = self._db
        return HealOccurrence(
            id=as_int(row[0]),
            proposal_id=as_int(row[1]),
            req_id=as_str(row[2]),
            step_index=as_int(row[3]),
            base_version=opt_str(row[4]),
            deployment=as_str(row[5]),
            url=as_str(row[6]),
            failed_locator=db.json_out(row[7]),
            score=opt_float(row[8]),
            runner_up_score=opt_float(row[9]),
            evidence=as_object(db, row[10]),
            created_at=as_ts(db, row[11]),
        )
