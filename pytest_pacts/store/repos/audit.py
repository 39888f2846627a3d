"""Append-only audit events and the self-heal gate's repeat counts.

Repeat counts filter on ``event_type``, ``exception_fingerprint`` and a ``created_at`` range;
the composite index ``audit_events_type_fp_created`` (schema v2) serves exactly that, so the
count is an index range scan whatever the size of the table (see ``bench/bench_store.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from pytest_pacts.store.backend import Backend, Row
from pytest_pacts.store.records import (
    PROPOSAL_CREATED_EVENT,
    PROPOSAL_RECURRED_EVENT,
    AuditEvent,
    NewAuditEvent,
    RepeatCounts,
)
from pytest_pacts.store.repos._rows import as_int, as_object, as_str, as_ts, opt_str
from pytest_pacts.store.timeutil import require_aware, utcnow

_COLUMNS = "id, event_type, created_at, req_id, exception_fingerprint, payload"
_INSERT = (
    "INSERT INTO audit_events (event_type, created_at, req_id, exception_fingerprint, payload) "
    "VALUES (?, ?, ?, ?, ?)"
)
# One index range scan yields both windows: the 30-day range contains the 7-day one.
_STATS_SQL = (
    "SELECT COUNT(*), COALESCE(SUM(CASE WHEN created_at >= ? THEN 1 ELSE 0 END), 0) "
    "FROM audit_events WHERE event_type IN (?, ?) AND exception_fingerprint = ? "
    "AND created_at >= ? AND created_at < ?"
)


class AuditRepository:
    """Writes and counts audit events; never updates or deletes them."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    def record(
        self,
        event_type: str,
        payload: Mapping[str, object],
        *,
        req_id: str | None = None,
        exception_fingerprint: str | None = None,
        now: datetime | None = None,
    ) -> AuditEvent:
        """Append one event; ``created_at`` is ``now`` (default: the current time)."""
        db = self._db
        row = db.fetchone(
            f"{_INSERT} RETURNING {_COLUMNS}",
            (
                event_type,
                db.ts_in(require_aware(now or utcnow(), "now")),
                req_id,
                exception_fingerprint,
                db.json_in(dict(payload)),
            ),
        )
        assert row is not None
        return self._event(row)

    def record_many(self, events: Iterable[NewAuditEvent]) -> int:
        """Append many events in one transaction (imports, benchmarks); return the count."""
        db = self._db
        default_time = utcnow()
        rows = [
            (
                e.event_type,
                db.ts_in(require_aware(e.created_at or default_time, "created_at")),
                e.req_id,
                e.exception_fingerprint,
                db.json_in(dict(e.payload)),
            )
            for e in events
        ]
        with db.transaction():
            db.executemany(_INSERT, rows)
        return len(rows)

    def count_events(
        self,
        event_type: str,
        fingerprint: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> int:
        """Events of ``event_type`` (and ``fingerprint``, if given) created in
        ``[since, until)``."""
        sql = "SELECT COUNT(*) FROM audit_events WHERE event_type = ?"
        params: list[object] = [event_type]
        if fingerprint is not None:
            sql += " AND exception_fingerprint = ?"
            params.append(fingerprint)
        if since is not None:
            sql += " AND created_at >= ?"
            params.append(self._db.ts_in(since))
        if until is not None:
            sql += " AND created_at < ?"
            params.append(self._db.ts_in(until))
        row = self._db.fetchone(sql, params)
        return 0 if row is None else as_int(row[0])

    def exception_stats(self, fingerprint: str, now: datetime | None = None) -> RepeatCounts:
        """Past ``RUNTIME_PATCH_PROPOSAL_CREATED`` and ``…_RECURRED`` events (a proposal
        created, or the same drift healed again) with this exception fingerprint:
        ``count_7d`` in ``[now - 7d, now)``, ``count_30d`` in
        ``[now - 30d, now)``. Events at or after ``now`` are not the past and don't count,
        so a proposal never counts itself.
        """
        params = self._stats_params(fingerprint, require_aware(now or utcnow(), "now"))
        row = self._db.fetchone(_STATS_SQL, params)
        count_30d, count_7d = (0, 0) if row is None else (as_int(row[0]), as_int(row[1]))
        return {"count_7d": count_7d, "count_30d": count_30d}

    def explain_exception_stats(self, fingerprint: str, now: datetime | None = None) -> list[str]:
        """The database's query plan for :meth:`exception_stats` (benchmarks, docs)."""
        params = self._stats_params(fingerprint, require_aware(now or utcnow(), "now"))
        return self._db.explain(_STATS_SQL, params)

    def events(
        self,
        *,
        event_type: str | None = None,
        req_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int | None = None,
    ) -> list[AuditEvent]:
        """Events matching the filters, oldest first."""
        clauses: list[str] = []
        params: list[object] = []
        for column, value in (("event_type", event_type), ("req_id", req_id)):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        if since is not None:
            clauses.append("created_at >= ?")
            params.append(self._db.ts_in(since))
        if until is not None:
            clauses.append("created_at < ?")
            params.append(self._db.ts_in(until))
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        sql = f"SELECT {_COLUMNS} FROM audit_events{where} ORDER BY created_at, id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(int(limit))
        return [self._event(r) for r in self._db.fetchall(sql, params)]

    def _stats_params(self, fingerprint: str, now: datetime) -> tuple[object, ...]:
        ts = self._db.ts_in
        return (
            ts(now - timedelta(days=7)),
            PROPOSAL_CREATED_EVENT,
            PROPOSAL_RECURRED_EVENT,
            fingerprint,
            ts(now - timedelta(days=30)),
            ts(now),
        )

    def _event(self, row: Row) -> AuditEvent:
        return AuditEvent(
            id=as_int(row[0]),
            event_type=as_str(row[1]),
            created_at=as_ts(self._db, row[2]),
            req_id=opt_str(row[3]),
            exception_fingerprint=opt_str(row[4]),
            payload=as_object(self._db, row[5]),
        )
