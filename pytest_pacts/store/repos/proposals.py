"""Heal proposals awaiting review.

Creating a proposal also appends the ``RUNTIME_PATCH_PROPOSAL_CREATED`` audit event, in the
same transaction, carrying the proposal's ``self_heal_gate``: the gate's 7/30-day repeat
counts are read from those events, so a proposal without its event, or an
event without its proposal, would skew every later gate decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Literal

from pytest_pacts.store.backend import Backend, Row
from pytest_pacts.store.errors import InvalidTransition, RecordNotFound
from pytest_pacts.store.records import (
    PROPOSAL_CREATED_EVENT,
    HealProposal,
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
    opt_str,
    opt_ts,
)
from pytest_pacts.store.repos.audit import AuditRepository
from pytest_pacts.store.timeutil import require_aware, utcnow

#: Audit event written when a proposal is accepted or rejected.
PROPOSAL_DECIDED_EVENT = "RUNTIME_PATCH_PROPOSAL_DECIDED"

_COLUMNS = (
    "id, req_id, step_index, element_key, status, severity, track, promotion_required, "
    "exception_fingerprint, created_at, decided_at, decided_by, payload"
)
_SEVERITIES = ("minor", "major")
_TRACKS = ("contract", "exception")
_STATUSES = ("pending", "accepted", "rejected")


class ProposalRepository:
    """Create, read and decide heal proposals (pending → accepted | rejected)."""

    def __init__(self, db: Backend, audit: AuditRepository) -> None:
        self._db = db
        self._audit = audit

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
        now: datetime | None = None,
    ) -> HealProposal:
        """Store a pending proposal and its ``RUNTIME_PATCH_PROPOSAL_CREATED`` event.

        ``payload`` is the whole proposal and must hold the ``self_heal_gate`` object.
        ``exception_fingerprint`` defaults to the gate's.
        """
        if severity not in _SEVERITIES:
            raise ValueError(f"severity must be one of {_SEVERITIES}, got {severity!r}")
        if track not in _TRACKS:
            raise ValueError(f"track must be one of {_TRACKS}, got {track!r}")
        gate = payload.get("self_heal_gate")
        if not isinstance(gate, Mapping):
            raise ValueError(
                f"heal proposal for {req_id!r} step {step_index} has no 'self_heal_gate' "
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
                f"VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, NULL, NULL, ?) "
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
                ),
            )
            assert row is not None
            proposal = self._proposal(row)
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

    def decide(
        self,
        proposal_id: int,
        status: Literal["accepted", "rejected"],
        *,
        decided_by: str,
        now: datetime | None = None,
    ) -> HealProposal:
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

    def get(self, proposal_id: int) -> HealProposal:
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
    ) -> list[HealProposal]:
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

    def _proposal(self, row: Row) -> HealProposal:
        db = self._db
        return HealProposal(
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
        )
