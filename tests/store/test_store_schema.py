"""Opening a store and migrating its schema forward (issue 3 point 1)."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pytest_pacts.store import (
    LATEST_VERSION,
    SchemaTooNewError,
    StoreError,
    default_store_path,
    open_store,
)
from pytest_pacts.store.schema import MIGRATIONS, migrate
from pytest_pacts.store.store import connect_backend

TABLES = (
    "runs",
    "run_steps",
    "artifacts",
    "metrics",
    "pom_cache",
    "recipes",
    "recipe_versions",
    "heal_proposals",
    "audit_events",
    "healing_memory",
    "discovery_leases",
    "heal_occurrences",
    "element_locators",
    "trace_bundles",
)


def test_default_path_is_under_dot_pacts(tmp_path: Path) -> None:
    assert default_store_path(tmp_path) == tmp_path / ".pacts" / "pacts.db"


@pytest.mark.parametrize("spelling", ["path", "str", "sqlite-url"])
def test_sqlite_targets_create_the_file_and_its_directory(tmp_path: Path, spelling: str) -> None:
    path = default_store_path(tmp_path)
    targets: dict[str, str | Path] = {
        "path": path,
        "str": str(path),
        "sqlite-url": f"sqlite:///{path}",
    }
    target = targets[spelling]
    with open_store(target) as store:
        assert store.backend_name == "sqlite"
        assert store.location == f"sqlite:///{path}"
    assert path.is_file()


def test_unknown_scheme_is_refused_with_the_accepted_forms(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"sqlite:///path, or a postgresql://"):
        open_store("mysql://localhost/db")


def test_sqlite_store_uses_wal_busy_timeout_and_foreign_keys(tmp_path: Path) -> None:
    with open_store(tmp_path / "s.db") as store:
        db = store.backend
        assert db.fetchone("PRAGMA journal_mode") == ("wal",)
        row = db.fetchone("PRAGMA busy_timeout")
        assert row is not None and int(str(row[0])) >= 5000
        assert db.fetchone("PRAGMA foreign_keys") == (1,)


def test_postgres_dsn_password_is_redacted() -> None:
    from pytest_pacts.store.postgres import redact_dsn

    assert redact_dsn("postgresql://u:s3cret@h:5432/db") == "postgresql://u:***@h:5432/db"
    assert redact_dsn("postgresql://u@h/db") == "postgresql://u@h/db"


def test_migrating_an_empty_store_applies_every_step_in_order(store_target: str) -> None:
    with open_store(store_target) as store:
        assert store.schema_version() == LATEST_VERSION == 5
        rows = store.backend.fetchall("SELECT version FROM schema_version ORDER BY version")
        assert [r[0] for r in rows] == [m.version for m in MIGRATIONS]
        for table in TABLES:
            assert store.backend.fetchone(f"SELECT COUNT(*) FROM {table}") == (0,)
    # Re-opening is a no-op, not a second migration.
    with open_store(store_target) as store:
        assert store.backend.fetchone("SELECT COUNT(*) FROM schema_version") == (5,)


def test_migrating_from_v1_keeps_data_and_adds_v2(store_target: str) -> None:
    backend = connect_backend(store_target)
    with contextlib.closing(backend):
        assert migrate(backend, target=1) == 1
        started = datetime(2026, 1, 1, tzinfo=UTC)
        backend.execute(
            "INSERT INTO runs (session_id, req_id, status, started_at, pid, host) "
            "VALUES (?, ?, 'running', ?, ?, ?)",
            ("s", "REQ-OLD", backend.ts_in(started), 1, "elsewhere"),
        )
        with pytest.raises(Exception, match="lease_expires_at"):
            backend.fetchall("SELECT lease_expires_at FROM runs")

    with open_store(store_target) as store:
        assert store.schema_version() == LATEST_VERSION
        (old,) = store.runs.query(req_id="REQ-OLD")
        assert old.lease_expires_at is None  # written before v2
        # A pre-v2 run's lease is started_at + DEFAULT_LEASE: long past, so it is stale.
        assert store.runs.is_stale(old, now=started + timedelta(hours=1))
        assert not store.runs.is_stale(old, now=started + timedelta(minutes=1))
        new = store.runs.begin("s", "REQ-OLD")
        assert store.runs.get(old.id).status == "abandoned"
        assert new.lease_expires_at is not None
        plan = " ".join(store.audit.explain_exception_stats("fp"))
        if store.backend_name == "sqlite":
            assert "audit_events_type_fp_created" in plan
        else:
            names = store.backend.fetchall(
                "SELECT indexname FROM pg_indexes WHERE tablename = 'audit_events'"
            )
            assert ("audit_events_type_fp_created",) in names


def test_a_store_from_a_newer_version_is_refused_not_downgraded(store_target: str) -> None:
    with open_store(store_target) as store:
        store.backend.execute(
            "INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)",
            (99, "from the future", store.backend.ts_in(datetime.now(UTC))),
        )
    with pytest.raises(SchemaTooNewError, match=r"version 99.*up to 5; upgrade pytest-pacts"):
        open_store(store_target)


def test_a_file_that_is_not_a_database_gives_a_store_error(tmp_path: Path) -> None:
    bogus = tmp_path / "not.db"
    bogus.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match=r"cannot open the SQLite store .*not a database"):
        open_store(bogus)


def test_unreachable_postgres_is_a_store_error_without_the_password() -> None:
    pytest.importorskip("psycopg")
    # Port 1 on loopback: nothing listens there, the connection is refused at once.
    with pytest.raises(StoreError) as info:
        open_store("postgresql://pacts:canary-s3cret@127.0.0.1:1/pacts?connect_timeout=2")
    text = str(info.value)
    assert "cannot connect to the PostgreSQL store" in text
    assert "canary-s3cret" not in text and "pacts:***@127.0.0.1:1" in text


def test_migrating_from_v2_keeps_data_and_adds_discovery_leases(store_target: str) -> None:
    backend = connect_backend(store_target)
    with contextlib.closing(backend):
        assert migrate(backend, target=2) == 2
        backend.execute(
            "INSERT INTO pom_cache (req_id, plan_hash, payload, created_at) VALUES (?, ?, ?, ?)",
            ("REQ-OLD", "h1", backend.json_in({"steps": {}}), backend.ts_in(datetime.now(UTC))),
        )
        with pytest.raises(Exception, match="discovery_leases"):
            backend.fetchall("SELECT * FROM discovery_leases")

    with open_store(store_target) as store:
        assert store.schema_version() == LATEST_VERSION
        assert store.pom_cache.get("REQ-OLD", "h1").hit
        assert store.discovery_leases.claim("REQ-OLD", "h1").granted


def test_migrating_from_v3_keeps_proposals_and_adds_drifts_and_verified_locators(
    store_target: str,
) -> None:
    backend = connect_backend(store_target)
    created = datetime(2026, 11, 1, tzinfo=UTC)
    with contextlib.closing(backend):
        assert migrate(backend, target=3) == 3
        backend.execute(
            "INSERT INTO heal_proposals (req_id, step_index, element_key, severity, track, "
            "promotion_required, created_at, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                "REQ-OLD", 2, "Login@Form", "minor", "contract", False,
                backend.ts_in(created),
                backend.json_in({"score": 0.9, "failed_locator": {"css": "#login"},
                                 "base_version": "v001"}),
            ),
        )  # fmt: skip
        with pytest.raises(Exception, match="element_locators"):
            backend.fetchall("SELECT * FROM element_locators")

    with open_store(store_target) as store:
        assert store.schema_version() == LATEST_VERSION
        (old,) = store.proposals.query(req_id="REQ-OLD")
        assert (old.drift_key, old.page) == (None, None)  # written before v4
        # the proposal stands as its own single occurrence
        (first,) = store.proposals.occurrences(old.id)
        assert (first.req_id, first.step_index, first.base_version) == ("REQ-OLD", 2, "v001")
        assert first.failed_locator == {"css": "#login"} and first.score == 0.9
        assert store.proposals.occurrence_counts([old.id]) == {old.id: 1}
        verified = store.locators.verify("REQ-OLD", "Login@Form", {"css": "#login"}, "http://a")
        assert verified.verified_count == 1
