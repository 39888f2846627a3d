"""Steps, artifacts and metrics of a run (gate results, reports, SLOs)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from pytest_pacts.store.backend import Backend, Row
from pytest_pacts.store.records import Artifact, Metric, RunStep
from pytest_pacts.store.repos._rows import (
    as_float,
    as_int,
    as_str,
    as_ts,
    opt_float,
    opt_str,
)
from pytest_pacts.store.timeutil import require_aware, utcnow

_STEP_COLUMNS = (
    "id, run_id, step_index, action, element_key, locator, strategy, confidence, gate, "
    "status, heal_round, duration_ms, created_at"
)


class RunRecordsRepository:
    """Append-only detail rows hanging off a run."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    # -- steps ------------------------------------------------------------------------
    def add_step(
        self,
        run_id: int,
        *,
        step_index: int,
        action: str,
        status: str,
        element_key: str | None = None,
        locator: Mapping[str, object] | None = None,
        strategy: str | None = None,
        confidence: float | None = None,
        gate: Mapping[str, object] | None = None,
        heal_round: int = 0,
        duration_ms: float | None = None,
        now: datetime | None = None,
    ) -> RunStep:
        """Record one executed step with its locator and five-point gate result."""
        db = self._db
        row = db.fetchone(
            f"INSERT INTO run_steps ({_STEP_COLUMNS.removeprefix('id, ')}) "
            f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_STEP_COLUMNS}",
            (
                run_id,
                step_index,
                action,
                element_key,
                None if locator is None else db.json_in(dict(locator)),
                strategy,
                confidence,
                None if gate is None else db.json_in(dict(gate)),
                status,
                heal_round,
                duration_ms,
                db.ts_in(require_aware(now or utcnow(), "now")),
            ),
        )
        assert row is not None  # RETURNING of a successful INSERT yields the row
        return self._step(row)

    def steps(self, run_id: int) -> list[RunStep]:
        """The run's steps in execution order (heal rounds of one step in write order)."""
        rows = self._db.fetchall(
            f"SELECT {_STEP_COLUMNS} FROM run_steps WHERE run_id = ? ORDER BY step_index, id",
            (run_id,),
        )
        return [self._step(r) for r in rows]

    def _step(self, row: Row) -> RunStep:
        db = self._db
        return RunStep(
            id=as_int(row[0]),
            run_id=as_int(row[1]),
            step_index=as_int(row[2]),
            action=as_str(row[3]),
            element_key=opt_str(row[4]),
            locator=db.json_out(row[5]),
            strategy=opt_str(row[6]),
            confidence=opt_float(row[7]),
            gate=db.json_out(row[8]),
            status=as_str(row[9]),
            heal_round=as_int(row[10]),
            duration_ms=opt_float(row[11]),
            created_at=as_ts(db, row[12]),
        )

    # -- artifacts --------------------------------------------------------------------
    def add_artifact(
        self, run_id: int, kind: str, path: str, *, now: datetime | None = None
    ) -> Artifact:
        """Record a file the run produced (screenshot, trace, verdict JSON)."""
        row = self._db.fetchone(
            "INSERT INTO artifacts (run_id, kind, path, created_at) VALUES (?, ?, ?, ?) "
            "RETURNING id, run_id, kind, path, created_at",
            (run_id, kind, path, self._db.ts_in(require_aware(now or utcnow(), "now"))),
        )
        assert row is not None
        return self._artifact(row)

    def artifacts(self, run_id: int) -> list[Artifact]:
        rows = self._db.fetchall(
            "SELECT id, run_id, kind, path, created_at FROM artifacts WHERE run_id = ? ORDER BY id",
            (run_id,),
        )
        return [self._artifact(r) for r in rows]

    def _artifact(self, row: Row) -> Artifact:
        return Artifact(
            id=as_int(row[0]),
            run_id=as_int(row[1]),
            kind=as_str(row[2]),
            path=as_str(row[3]),
            created_at=as_ts(self._db, row[4]),
        )

    # -- metrics ----------------------------------------------------------------------
    def add_metric(
        self, run_id: int, name: str, value: float, *, now: datetime | None = None
    ) -> Metric:
        """Record one named measurement of a run (docs/reports.md "SLO definitions")."""
        row = self._db.fetchone(
            "INSERT INTO metrics (run_id, name, value, created_at) VALUES (?, ?, ?, ?) "
            "RETURNING id, run_id, name, value, created_at",
            (run_id, name, float(value), self._db.ts_in(require_aware(now or utcnow(), "now"))),
        )
        assert row is not None
        return self._metric(row)

    def metrics(self, run_id: int) -> list[Metric]:
        rows = self._db.fetchall(
            "SELECT id, run_id, name, value, created_at FROM metrics "
            "WHERE run_id = ? ORDER BY name, id",
            (run_id,),
        )
        return [self._metric(r) for r in rows]

    def metric_values(
        self, name: str, *, since: datetime | None = None, until: datetime | None = None
    ) -> list[Metric]:
        """Every value of one metric recorded in ``[since, until)``, oldest first (SLOs)."""
        sql = "SELECT id, run_id, name, value, created_at FROM metrics WHERE name = ?"
        params: list[object] = [name]
        if since is not None:
            sql += " AND created_at >= ?"
            params.append(self._db.ts_in(since))
        if until is not None:
            sql += " AND created_at < ?"
            params.append(self._db.ts_in(until))
        rows = self._db.fetchall(sql + " ORDER BY created_at, id", params)
        return [self._metric(r) for r in rows]

    def _metric(self, row: Row) -> Metric:
        return Metric(
            id=as_int(row[0]),
            run_id=as_int(row[1]),
            name=as_str(row[2]),
            value=as_float(row[3]),
            created_at=as_ts(self._db, row[4]),
        )
