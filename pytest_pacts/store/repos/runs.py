"""Runs and the in-flight guard behind SESSION_CONFLICT.

The rule, enforced by the database and documented in ``docs/store.md``:

* At most one run per ``(session_id, req_id)`` is ``running`` (a partial unique index).
  :meth:`RunRepository.begin` while one is in flight raises :class:`SessionConflict`.
* :meth:`RunRepository.finish` releases the slot.
* An in-flight run is **stale**, and is marked ``abandoned`` by the next ``begin``, when
  its lease has expired (``lease_expires_at``, default start + 15 minutes, extended by
  :meth:`RunRepository.heartbeat`), or when its owner ran on this host and that pid is
  no longer alive. So a crashed runner blocks its requirement for at most one lease, and not
  at all on its own machine.
"""

from __future__ import annotations

import os
import socket
import sys
from datetime import datetime, timedelta

from pytest_pacts.store.backend import Backend, Row
from pytest_pacts.store.errors import InvalidTransition, RecordNotFound, SessionConflict
from pytest_pacts.store.records import Run, RunStatus, Verdict
from pytest_pacts.store.repos._rows import (
    as_bool,
    as_int,
    as_str,
    as_ts,
    opt_int,
    opt_str,
    opt_ts,
)
from pytest_pacts.store.repos.audit import AuditRepository
from pytest_pacts.store.repos.run_records import RunRecordsRepository
from pytest_pacts.store.timeutil import require_aware, utcnow

#: Audit event written when a stale in-flight run is taken over.
RUN_ABANDONED_EVENT = "RUN_ABANDONED"

#: Lease of an in-flight run unless the caller gives one; see the module docstring.
DEFAULT_LEASE = timedelta(minutes=15)

_RUN_COLUMNS = (
    "id, session_id, req_id, status, verdict, rca_class, started_at, finished_at, "
    "lease_expires_at, pid, host, plan_hash, recipe_version, healed, heal_count, llm_calls"
)
_STATUSES: frozenset[str] = frozenset({"running", "finished", "abandoned"})
_VERDICTS: frozenset[str] = frozenset({"pass", "fail", "partial"})


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists on this host (signal 0 probes, sends nothing)."""
    if pid == os.getpid():
        return True
    if sys.platform == "win32":  # pragma: no cover - os.kill would terminate it there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


class RunRepository(RunRecordsRepository):
    """Run life cycle (begin → heartbeat* → finish) and the queries reports need."""

    def __init__(self, db: Backend, audit: AuditRepository) -> None:
        super().__init__(db)
        self._audit = audit
        self._host = socket.gethostname()

    # long because: one transaction with its retry: the session conflict checked and the run begun
    def begin(
        self,
        session_id: str,
        req_id: str,
        *,
        plan_hash: str | None = None,
        recipe_version: str | None = None,
        lease: timedelta = DEFAULT_LEASE,
        pid: int | None = None,
        host: str | None = None,
        now: datetime | None = None,
    ) -> Run:
        """Start a run of ``req_id`` in ``session_id``; raise :class:`SessionConflict` if
        one is already in flight and not stale.

        ``pid``/``host`` name the process that owns the run (default: this one).
        """
        if lease <= timedelta(0):
            raise ValueError(f"lease must be positive, got {lease}")
        db = self._db
        start = require_aware(now or utcnow(), "now")
        owner_pid = os.getpid() if pid is None else pid
        owner_host = self._host if host is None else host
        # Two attempts: on PostgreSQL the holder seen by ON CONFLICT may finish before we
        # re-read it; then the slot is free and a second insert settles it.
        for _attempt in range(2):
            with db.transaction():
                holder = self._in_flight(session_id, req_id)
                if holder is not None and self.is_stale(holder, now=start):
                    self._abandon(holder, start, taken_over_by=(owner_pid, owner_host))
                row = db.fetchone(
                    f"INSERT INTO runs (session_id, req_id, status, started_at, "
                    f"lease_expires_at, pid, host, plan_hash, recipe_version) "
                    f"VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?) "
                    f"ON CONFLICT (session_id, req_id) WHERE status = 'running' DO NOTHING "
                    f"RETURNING {_RUN_COLUMNS}",
                    (
                        session_id,
                        req_id,
                        db.ts_in(start),
                        db.ts_in(start + lease),
                        owner_pid,
                        owner_host,
                        plan_hash,
                        recipe_version,
                    ),
                )
                if row is not None:
                    return self._run(row)
                holder = self._in_flight(session_id, req_id)
                if holder is not None:
                    raise SessionConflict(
                        session_id=session_id,
                        req_id=req_id,
                        holder_run_id=holder.id,
                        holder_pid=holder.pid,
                        holder_host=holder.host,
                        since=holder.started_at,
                        lease_expires_at=holder.lease_expires_at,
                    )
        raise SessionConflict(  # pragma: no cover - needs two finishes racing two begins
            session_id=session_id,
            req_id=req_id,
            holder_run_id=-1,
            holder_pid=None,
            holder_host=None,
            since=start,
            lease_expires_at=None,
        )

    def is_stale(self, run: Run, *, now: datetime | None = None) -> bool:
        """Whether an in-flight run may be taken over (see the module docstring)."""
        if run.status != "running":
            return False
        moment = require_aware(now or utcnow(), "now")
        lease_end = run.lease_expires_at or run.started_at + DEFAULT_LEASE
        if lease_end <= moment:
            return True
        return run.host == self._host and run.pid is not None and not pid_alive(run.pid)

    def heartbeat(
        self, run_id: int, *, lease: timedelta = DEFAULT_LEASE, now: datetime | None = None
    ) -> datetime:
        """Extend an in-flight run's lease to ``now + lease``; return the new expiry.

        Raises :class:`InvalidTransition` if the run is no longer in flight (finished, or
        abandoned as stale: its owner has lost the slot and should say so).
        """
        until = require_aware(now or utcnow(), "now") + lease
        changed = self._db.execute(
            "UPDATE runs SET lease_expires_at = ? WHERE id = ? AND status = 'running'",
            (self._db.ts_in(until), run_id),
        )
        if not changed:
            run = self.get(run_id)
            raise InvalidTransition(
                f"run #{run_id} is {run.status}, not running: its lease cannot be extended"
            )
        return until

    def finish(
        self,
        run_id: int,
        *,
        verdict: Verdict,
        rca_class: str | None = None,
        healed: bool = False,
        heal_count: int = 0,
        llm_calls: int = 0,
        now: datetime | None = None,
    ) -> Run:
        """Record the verdict and release the in-flight slot.

        A run that was abandoned as stale may still finish: its verdict is a real result,
        and the slot it held was already handed on.
        """
        if verdict not in _VERDICTS:
            raise ValueError(f"verdict must be one of {sorted(_VERDICTS)}, got {verdict!r}")
        end = require_aware(now or utcnow(), "now")
        row = self._db.fetchone(
            f"UPDATE runs SET status = 'finished', verdict = ?, rca_class = ?, "
            f"finished_at = ?, healed = ?, heal_count = ?, llm_calls = ? "
            f"WHERE id = ? AND status IN ('running', 'abandoned') RETURNING {_RUN_COLUMNS}",
            (verdict, rca_class, self._db.ts_in(end), healed, heal_count, llm_calls, run_id),
        )
        if row is None:
            run = self.get(run_id)
            raise InvalidTransition(
                f"run #{run_id} of {run.req_id!r} already finished at "
                f"{run.finished_at.isoformat() if run.finished_at else '?'} "
                f"with verdict {run.verdict!r}; a run finishes once"
            )
        return self._run(row)

    # -- queries ----------------------------------------------------------------------
    def get(self, run_id: int) -> Run:
        row = self._db.fetchone(f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = ?", (run_id,))
        if row is None:
            raise RecordNotFound(f"no run #{run_id} in the store")
        return self._run(row)

    def query(
        self,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        req_id: str | None = None,
        session_id: str | None = None,
        status: RunStatus | None = None,
        limit: int | None = None,
    ) -> list[Run]:
        """Runs started in ``[since, until)`` matching the filters, oldest first."""
        where, params = self._where(req_id, session_id, status, None, since, until)
        sql = f"SELECT {_RUN_COLUMNS} FROM runs{where} ORDER BY started_at, id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(int(limit))
        return [self._run(r) for r in self._db.fetchall(sql, params)]

    def _where(
        self,
        req_id: str | None,
        session_id: str | None,
        status: RunStatus | None,
        verdict: Verdict | None,
        since: datetime | None,
        until: datetime | None,
    ) -> tuple[str, list[object]]:
        """The ``WHERE`` clause and its parameters for the run filters (``""`` for none)."""
        clauses: list[str] = []
        params: list[object] = []
        for column, value in (("req_id", req_id), ("session_id", session_id)):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        for column, value, allowed in (
            ("status", status, _STATUSES),
            ("verdict", verdict, _VERDICTS),
        ):
            if value is None:
                continue
            if value not in allowed:
                raise ValueError(f"{column} must be one of {sorted(allowed)}, got {value!r}")
            clauses.append(f"{column} = ?")
            params.append(value)
        if since is not None:
            clauses.append("started_at >= ?")
            params.append(self._db.ts_in(since))
        if until is not None:
            clauses.append("started_at < ?")
            params.append(self._db.ts_in(until))
        return (f" WHERE {' AND '.join(clauses)}" if clauses else ""), params

    def page(
        self,
        *,
        req_id: str | None = None,
        session_id: str | None = None,
        status: RunStatus | None = None,
        verdict: Verdict | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[Run], int]:
        """One page of the runs matching the filters, latest first, and how many match in
        all (the dashboard's runs list; served by the ``runs_started`` and
        ``runs_req_started`` indexes)."""
        if limit < 1 or offset < 0:
            raise ValueError(f"limit must be >= 1 and offset >= 0, got {limit}/{offset}")
        where, params = self._where(req_id, session_id, status, verdict, since, until)
        # one snapshot for the count and the page, without waiting for a writer
        with self._db.snapshot():
            counted = self._db.fetchone(f"SELECT COUNT(*) FROM runs{where}", params)
            rows = self._db.fetchall(
                f"SELECT {_RUN_COLUMNS} FROM runs{where} "
                "ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?",
                [*params, int(limit), int(offset)],
            )
        total = as_int(counted[0]) if counted is not None else 0
        return [self._run(r) for r in rows], total

    def healed_elements(
        self, *, since: datetime | None = None, limit: int = 10
    ) -> list[tuple[str, int]]:
        """The elements healed most often in runs started since ``since``: ``(element_key,
        steps healed)``, most first (the dashboard's trends)."""
        sql = (
            "SELECT s.element_key, COUNT(*) FROM run_steps s JOIN runs r ON r.id = s.run_id "
            "WHERE s.heal_round > 0 AND s.element_key IS NOT NULL"
        )
        params: list[object] = []
        if since is not None:
            sql += " AND r.started_at >= ?"
            params.append(self._db.ts_in(since))
        sql += " GROUP BY s.element_key ORDER BY COUNT(*) DESC, s.element_key LIMIT ?"
        params.append(int(limit))
        return [(as_str(row[0]), as_int(row[1])) for row in self._db.fetchall(sql, params)]

    def in_flight(self) -> list[Run]:
        """Every run currently marked running (stale ones included; see :meth:`is_stale`)."""
        return self.query(status="running")

    def latest_per_requirement(self, *, since: datetime | None = None) -> list[Run]:
        """The most recent finished run of each requirement, ordered by ``req_id``."""
        sql = (
            f"SELECT {_RUN_COLUMNS} FROM runs r WHERE r.id = ("
            "SELECT r2.id FROM runs r2 WHERE r2.req_id = r.req_id AND r2.status = 'finished' "
            "ORDER BY r2.started_at DESC, r2.id DESC LIMIT 1)"
        )
        params: list[object] = []
        if since is not None:
            sql += " AND r.started_at >= ?"
            params.append(self._db.ts_in(since))
        rows = self._db.fetchall(sql + " ORDER BY r.req_id", params)
        return [self._run(r) for r in rows]

    # -- internals --------------------------------------------------------------------
    def _in_flight(self, session_id: str, req_id: str) -> Run | None:
        row = self._db.fetchone(
            f"SELECT {_RUN_COLUMNS} FROM runs "
            "WHERE session_id = ? AND req_id = ? AND status = 'running'",
            (session_id, req_id),
        )
        return None if row is None else self._run(row)

    def _abandon(self, run: Run, now: datetime, *, taken_over_by: tuple[int, str]) -> None:
        changed = self._db.execute(
            "UPDATE runs SET status = 'abandoned', finished_at = ? "
            "WHERE id = ? AND status = 'running'",
            (self._db.ts_in(now), run.id),
        )
        if changed:
            # Taking over someone's slot is a decision worth a trace.
            self._audit.record(
                RUN_ABANDONED_EVENT,
                {
                    "run_id": run.id,
                    "session_id": run.session_id,
                    "owner_pid": run.pid,
                    "owner_host": run.host,
                    "started_at": run.started_at.isoformat(),
                    "lease_expires_at": (
                        run.lease_expires_at.isoformat() if run.lease_expires_at else None
                    ),
                    "taken_over_by_pid": taken_over_by[0],
                    "taken_over_by_host": taken_over_by[1],
                },
                req_id=run.req_id,
                now=now,
            )

    def _run(self, row: Row) -> Run:
        db = self._db
        status = as_str(row[3])
        verdict = opt_str(row[4])
        if status not in _STATUSES or (verdict is not None and verdict not in _VERDICTS):
            raise ValueError(f"run #{row[0]} has an unknown status/verdict {status}/{verdict}")
        return Run(
            id=as_int(row[0]),
            session_id=as_str(row[1]),
            req_id=as_str(row[2]),
            status=status,  # type: ignore[arg-type]  # checked against _STATUSES above
            verdict=verdict,  # type: ignore[arg-type]  # checked against _VERDICTS above
            rca_class=opt_str(row[5]),
            started_at=as_ts(db, row[6]),
            finished_at=opt_ts(db, row[7]),
            lease_expires_at=opt_ts(db, row[8]),
            pid=opt_int(row[9]),
            host=opt_str(row[10]),
            plan_hash=opt_str(row[11]),
            recipe_version=opt_str(row[12]),
            healed=as_bool(row[13]),
            heal_count=as_int(row[14]),
            llm_calls=as_int(row[15]),
        )
