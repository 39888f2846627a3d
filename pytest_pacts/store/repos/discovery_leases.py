"""Discovery leases: one discovery per requirement and plan hash across runners (docs/ci.md).

Several CI runners (and the xdist controller of each) sharing one store would otherwise all
discover the same cold requirements at once. Before discovering, a runner *claims* the lease
of ``(req_id, plan_hash)``; the database decides who gets it, with one
``INSERT ... ON CONFLICT DO UPDATE ... WHERE`` (the row is taken only if it is free), so
exactly one claimer wins on SQLite (``BEGIN IMMEDIATE``) and on PostgreSQL (the conflicting
row is locked and its condition re-checked). The others wait for the release and read the
POM cache the holder wrote.

A lease is free when it was released, when it ran out (``expires_at``, default claim + 2
minutes), or when its holder ran on this host and that pid is gone (signal 0). A crashed
runner therefore delays a requirement's discovery by one lease at most, and not at all on
its own machine.
"""

from __future__ import annotations

import os
import socket
import uuid
from datetime import datetime, timedelta

from pytest_pacts.store.backend import Backend, Row
from pytest_pacts.store.records import DiscoveryClaim, DiscoveryLease
from pytest_pacts.store.repos._rows import as_int, as_str, as_ts, opt_int, opt_str, opt_ts
from pytest_pacts.store.repos.runs import pid_alive
from pytest_pacts.store.timeutil import require_aware, utcnow

#: How long a claim holds unless released; discovering one requirement takes seconds.
DEFAULT_DISCOVERY_LEASE = timedelta(minutes=2)

_COLUMNS = (
    "req_id, plan_hash, holder, pid, host, acquired_at, expires_at, released_at, claims, "
    "discoveries"
)


class DiscoveryLeaseRepository:
    """Claim, release and inspect discovery leases (see the module docstring)."""

    def __init__(self, db: Backend) -> None:
        self._db = db
        self._host = socket.gethostname()
        #: Names this store connection as a holder unless the caller names one.
        self.holder = f"{self._host}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    # long because: one transaction: read, decide, write the lease
    def claim(
        self,
        req_id: str,
        plan_hash: str,
        *,
        holder: str | None = None,
        lease: timedelta = DEFAULT_DISCOVERY_LEASE,
        pid: int | None = None,
        host: str | None = None,
        now: datetime | None = None,
    ) -> DiscoveryClaim:
        """Take the lease of ``(req_id, plan_hash)`` if it is free (or already ours).

        Returns a :class:`DiscoveryClaim`; when not granted, its ``lease`` names who holds
        it and until when. Claiming again a lease one holds renews it.
        """
        if lease <= timedelta(0):
            raise ValueError(f"lease must be positive, got {lease}")
        db = self._db
        start = require_aware(now or utcnow(), "now")
        who = self.holder if holder is None else holder
        owner_pid = os.getpid() if pid is None else pid
        owner_host = self._host if host is None else host
        with db.transaction():
            self._serialise(req_id, plan_hash)
            current = self.get(req_id, plan_hash)
            previous = current.released_at if current is not None else None
            if current is not None and current.held(start) and self._owner_gone(current):
                # a dead holder on this host: its lease ends now, not when it runs out
                db.execute(
                    "UPDATE discovery_leases SET expires_at = ? WHERE req_id = ? AND "
                    "plan_hash = ? AND holder = ? AND released_at IS NULL",
                    (db.ts_in(start), req_id, plan_hash, current.holder),
                )
            row = db.fetchone(
                f"INSERT INTO discovery_leases ({_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 1, 0) "
                "ON CONFLICT (req_id, plan_hash) DO UPDATE SET holder = excluded.holder, "
                "pid = excluded.pid, host = excluded.host, "
                "acquired_at = excluded.acquired_at, expires_at = excluded.expires_at, "
                "released_at = NULL, claims = discovery_leases.claims + 1 "
                "WHERE discovery_leases.released_at IS NOT NULL "
                "OR discovery_leases.expires_at <= excluded.acquired_at "
                "OR discovery_leases.holder = excluded.holder "
                f"RETURNING {_COLUMNS}",
                (
                    req_id,
                    plan_hash,
                    who,
                    owner_pid,
                    owner_host,
                    db.ts_in(start),
                    db.ts_in(start + lease),
                ),
            )
            if row is not None:
                return DiscoveryClaim(True, self._lease(row), previous)
            holder_now = self.get(req_id, plan_hash)
        if holder_now is None:  # pragma: no cover - rows are never deleted by the store
            raise AssertionError(f"discovery lease of {req_id!r} vanished during a claim")
        return DiscoveryClaim(False, holder_now, previous)

    def _serialise(self, req_id: str, plan_hash: str) -> None:
        """Make the claims and releases of one lease take turns, inside their transaction.

        SQLite's ``BEGIN IMMEDIATE`` already does. PostgreSQL (read committed) gives each
        statement its own snapshot: a release committed between a claim's read of the row
        (``previous_released_at``) and its upsert let the upsert take the lease while the
        claim believed it had never been released, so under ``--pacts-discover=always``
        every runner discovered the requirement again (2, 4 and 4 times in one audit, the
        lease table saying once). A transaction-scoped advisory lock on the lease's key
        closes that gap (tests/store/test_store_discovery_leases.py)."""
        if self._db.name == "postgresql":
            self._db.fetchone(
                "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))",
                (f"pacts-discovery-lease {len(req_id)}:{req_id} {plan_hash}",),
            )

    def release(
        self,
        req_id: str,
        plan_hash: str,
        *,
        discovered: bool,
        holder: str | None = None,
        now: datetime | None = None,
    ) -> bool:
        """Release a lease after discovering (``discovered=True``) or deciding not to.

        Returns ``False`` when the lease was no longer the caller's (it ran out and another
        runner took it); a discovery made anyway is still counted.
        """
        db = self._db
        end = require_aware(now or utcnow(), "now")
        who = self.holder if holder is None else holder
        count = 1 if discovered else 0
        with db.transaction():
            self._serialise(req_id, plan_hash)
            released = db.execute(
                "UPDATE discovery_leases SET released_at = ?, expires_at = ?, "
                "discoveries = discoveries + ? WHERE req_id = ? AND plan_hash = ? "
                "AND holder = ? AND released_at IS NULL",
                (db.ts_in(end), db.ts_in(end), count, req_id, plan_hash, who),
            )
            if not released and count:
                db.execute(
                    "UPDATE discovery_leases SET discoveries = discoveries + 1 "
                    "WHERE req_id = ? AND plan_hash = ?",
                    (req_id, plan_hash),
                )
        return bool(released)

    def get(self, req_id: str, plan_hash: str) -> DiscoveryLease | None:
        row = self._db.fetchone(
            f"SELECT {_COLUMNS} FROM discovery_leases WHERE req_id = ? AND plan_hash = ?",
            (req_id, plan_hash),
        )
        return None if row is None else self._lease(row)

    def is_free(self, lease: DiscoveryLease, *, now: datetime | None = None) -> bool:
        """Whether ``lease`` may be claimed: released, run out, or its holder here is gone."""
        moment = require_aware(now or utcnow(), "now")
        return not lease.held(moment) or self._owner_gone(lease)

    def leases(self, *, req_id: str | None = None) -> list[DiscoveryLease]:
        """Every lease row (one per requirement and plan hash), by requirement."""
        where, params = ("", ()) if req_id is None else (" WHERE req_id = ?", (req_id,))
        rows = self._db.fetchall(
            f"SELECT {_COLUMNS} FROM discovery_leases{where} ORDER BY req_id, plan_hash",
            params,
        )
        return [self._lease(r) for r in rows]

    def _owner_gone(self, lease: DiscoveryLease) -> bool:
        return lease.host == self._host and lease.pid is not None and not pid_alive(lease.pid)

    def _lease(self, row: Row) -> DiscoveryLease:
        db = self._db
        return DiscoveryLease(
            req_id=as_str(row[0]),
            plan_hash=as_str(row[1]),
            holder=as_str(row[2]),
            pid=opt_int(row[3]),
            host=opt_str(row[4]),
            acquired_at=as_ts(db, row[5]),
            expires_at=as_ts(db, row[6]),
            released_at=opt_ts(db, row[7]),
            claims=as_int(row[8]),
            discoveries=as_int(row[9]),
        )
