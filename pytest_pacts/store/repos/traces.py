"""Trace bundles: the compact record of each passing run of a requirement, step by step.

The next runs of the requirement are compared with its latest bundle (docs/store.md,
"Trace bundles"). The payload is JSON without pixels; the step pictures stay on disk beside
the run's artifacts, in ``folder``. Pruning keeps the pictures of the latest bundle of each
requirement only (``folder`` becomes NULL on the others, whose files the caller deletes) and
at most ``keep`` bundles per requirement.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from pytest_pacts.store.backend import Backend, Row
from pytest_pacts.store.records import JSONValue, TraceBundleRecord
from pytest_pacts.store.repos._rows import as_int, as_object, as_str, as_ts, opt_str
from pytest_pacts.store.timeutil import require_aware, utcnow

_COLUMNS = "id, req_id, label, plan_hash, created_at, folder, picture_bytes, payload"


class TraceRepository:
    """Keep, find and prune trace bundles."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    def add(
        self,
        req_id: str,
        label: str,
        plan_hash: str,
        payload: Mapping[str, JSONValue],
        *,
        folder: str | None = None,
        picture_bytes: int = 0,
        now: datetime | None = None,
    ) -> TraceBundleRecord:
        """Keep one run's bundle."""
        if not req_id or not label:
            raise ValueError("a trace bundle needs its requirement and its run label")
        db = self._db
        row = db.fetchone(
            "INSERT INTO trace_bundles (req_id, label, plan_hash, created_at, folder, "
            f"picture_bytes, payload) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING {_COLUMNS}",
            (
                req_id,
                label,
                plan_hash,
                db.ts_in(require_aware(now or utcnow(), "now")),
                folder,
                picture_bytes,
                db.json_in(dict(payload)),
            ),
        )
        assert row is not None
        return self._record(row)

    def latest(self, req_id: str, *, before: int | None = None) -> TraceBundleRecord | None:
        """The newest bundle of ``req_id`` (older than bundle id ``before``, if given)."""
        sql = f"SELECT {_COLUMNS} FROM trace_bundles WHERE req_id = ?"
        params: list[object] = [req_id]
        if before is not None:
            sql += " AND id < ?"
            params.append(before)
        row = self._db.fetchone(sql + " ORDER BY id DESC LIMIT 1", params)
        return self._record(row) if row is not None else None

    def for_label(self, label: str) -> list[TraceBundleRecord]:
        """The bundles of one run (every requirement it passed), by requirement."""
        rows = self._db.fetchall(
            f"SELECT {_COLUMNS} FROM trace_bundles WHERE label = ? ORDER BY req_id, id",
            (label,),
        )
        return [self._record(r) for r in rows]

    def labels(self, limit: int = 50) -> list[tuple[str, int, datetime]]:
        """The runs that kept bundles, newest first: (label, bundles, when)."""
        rows = self._db.fetchall(
            "SELECT label, COUNT(*), MAX(created_at) FROM trace_bundles GROUP BY label "
            "ORDER BY MAX(created_at) DESC, label DESC LIMIT ?",
            (limit,),
        )
        return [(as_str(r[0]), as_int(r[1]), as_ts(self._db, r[2])) for r in rows]

    def prune(self, req_id: str, *, keep: int) -> list[TraceBundleRecord]:
        """Keep the pictures of the newest bundle of ``req_id`` and at most ``keep``
        bundles (``keep`` < 1 keeps them all). Returns the bundles whose pictures the caller
        deletes now (their ``folder`` as it was); in one transaction."""
        db = self._db
        with db.transaction():
            newest = db.fetchone("SELECT MAX(id) FROM trace_bundles WHERE req_id = ?", (req_id,))
            if newest is None or newest[0] is None:
                return []
            top = as_int(newest[0])
            rows = db.fetchall(
                f"SELECT {_COLUMNS} FROM trace_bundles "
                "WHERE req_id = ? AND id < ? AND folder IS NOT NULL",
                (req_id, top),
            )
            db.execute(
                "UPDATE trace_bundles SET folder = NULL WHERE req_id = ? AND id < ?",
                (req_id, top),
            )
            if keep >= 1:
                cut = db.fetchall(
                    "SELECT id FROM trace_bundles WHERE req_id = ? ORDER BY id DESC "
                    "LIMIT 1 OFFSET ?",
                    (req_id, keep - 1),
                )
                if cut:
                    db.execute(
                        "DELETE FROM trace_bundles WHERE req_id = ? AND id < ?",
                        (req_id, as_int(cut[0][0])),
                    )
        return [self._record(r) for r in rows]

    def _record(self, row: Row) -> TraceBundleRecord:
        db = self._db
        return TraceBundleRecord(
            id=as_int(row[0]),
            req_id=as_str(row[1]),
            label=as_str(row[2]),
            plan_hash=as_str(row[3]),
            created_at=as_ts(db, row[4]),
            folder=opt_str(row[5]),
            picture_bytes=as_int(row[6]),
            payload=as_object(db, row[7]),
        )
