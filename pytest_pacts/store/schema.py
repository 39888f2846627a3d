"""Schema versions and forward-only migrations.

The schema's version lives in ``schema_version`` (one row per applied migration). Opening a
store applies, in order and each in the same transaction as its version row, every migration
newer than the store; a store newer than this code is refused, never downgraded. Migrations
are append-only: a released step is never edited, a change is a new step.

DDL is written once with three dialect slots, ``{pk}`` (identity key), ``{ts}`` (time) and
``{json}``; everything else is SQL both SQLite and PostgreSQL accept. Triggers differ in
syntax, so a step may add per-dialect statements.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pytest_pacts.store.backend import IMMUTABLE_MARKER, Backend, DialectName
from pytest_pacts.store.errors import SchemaTooNewError
from pytest_pacts.store.timeutil import utcnow


@dataclass(frozen=True)
class Migration:
    """One forward step of the schema."""

    version: int
    description: str
    common: tuple[str, ...]
    dialect_specific: dict[DialectName, tuple[str, ...]] = field(default_factory=dict)

    def statements(self, backend: Backend) -> list[str]:
        shared = [backend.ddl(s) for s in self.common]
        return shared + list(self.dialect_specific.get(backend.name, ()))


_IMMUTABLE_TEXT = f"{IMMUTABLE_MARKER}: recipe_versions rows are written once"

_V1_TABLES = (
    """CREATE TABLE runs (
        id {pk},
        session_id TEXT NOT NULL,
        req_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'abandoned')),
        verdict TEXT CHECK (verdict IN ('pass', 'fail', 'partial')),
        rca_class TEXT,
        started_at {ts} NOT NULL,
        finished_at {ts},
        pid INTEGER,
        host TEXT,
        plan_hash TEXT,
        recipe_version TEXT,
        healed BOOLEAN NOT NULL DEFAULT FALSE,
        heal_count INTEGER NOT NULL DEFAULT 0,
        llm_calls INTEGER NOT NULL DEFAULT 0
    )""",
    # SESSION_CONFLICT is enforced by the database, not by a read-then-write
    # in Python: at most one 'running' row per (session, requirement) can exist.
    "CREATE UNIQUE INDEX runs_one_in_flight ON runs (session_id, req_id) WHERE status = 'running'",
    """CREATE TABLE run_steps (
        id {pk},
        run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        step_index INTEGER NOT NULL,
        action TEXT NOT NULL,
        element_key TEXT,
        locator {json},
        strategy TEXT,
        confidence DOUBLE PRECISION,
        gate {json},
        status TEXT NOT NULL,
        heal_round INTEGER NOT NULL DEFAULT 0,
        duration_ms DOUBLE PRECISION,
        created_at {ts} NOT NULL
    )""",
    "CREATE INDEX run_steps_run ON run_steps (run_id, step_index)",
    """CREATE TABLE artifacts (
        id {pk},
        run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        path TEXT NOT NULL,
        created_at {ts} NOT NULL
    )""",
    "CREATE INDEX artifacts_run ON artifacts (run_id)",
    """CREATE TABLE metrics (
        id {pk},
        run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        value DOUBLE PRECISION NOT NULL,
        created_at {ts} NOT NULL
    )""",
    "CREATE INDEX metrics_run ON metrics (run_id, name)",
    # Keyed by requirement and plan hash, never by host (another deployment reuses it).
    """CREATE TABLE pom_cache (
        req_id TEXT NOT NULL,
        plan_hash TEXT NOT NULL,
        payload {json} NOT NULL,
        created_at {ts} NOT NULL,
        expires_at {ts},
        PRIMARY KEY (req_id, plan_hash)
    )""",
    """CREATE TABLE heal_proposals (
        id {pk},
        req_id TEXT NOT NULL,
        step_index INTEGER NOT NULL,
        element_key TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending'
            CHECK (status IN ('pending', 'accepted', 'rejected')),
        severity TEXT NOT NULL CHECK (severity IN ('minor', 'major')),
        track TEXT NOT NULL CHECK (track IN ('contract', 'exception')),
        promotion_required BOOLEAN NOT NULL,
        exception_fingerprint TEXT,
        created_at {ts} NOT NULL,
        decided_at {ts},
        decided_by TEXT,
        payload {json} NOT NULL
    )""",
    "CREATE INDEX heal_proposals_status ON heal_proposals (status, created_at)",
    "CREATE INDEX heal_proposals_req ON heal_proposals (req_id, created_at)",
    """CREATE TABLE recipes (
        req_id TEXT PRIMARY KEY,
        latest_number INTEGER NOT NULL,
        created_at {ts} NOT NULL,
        updated_at {ts} NOT NULL
    )""",
    """CREATE TABLE recipe_versions (
        req_id TEXT NOT NULL REFERENCES recipes (req_id),
        number INTEGER NOT NULL CHECK (number > 0),
        version TEXT NOT NULL,
        plan_hash TEXT NOT NULL,
        parent_version TEXT,
        proposal_id BIGINT REFERENCES heal_proposals (id),
        created_at {ts} NOT NULL,
        body {json} NOT NULL,
        PRIMARY KEY (req_id, number)
    )""",
    """CREATE TABLE audit_events (
        id {pk},
        event_type TEXT NOT NULL,
        created_at {ts} NOT NULL,
        req_id TEXT,
        exception_fingerprint TEXT,
        payload {json} NOT NULL
    )""",
    "CREATE INDEX audit_events_created ON audit_events (created_at)",
    # req_id '' = shared by every requirement; a NULL would defeat the UNIQUE constraint.
    """CREATE TABLE healing_memory (
        id {pk},
        req_id TEXT NOT NULL DEFAULT '',
        element_key TEXT NOT NULL,
        locator_key TEXT NOT NULL,
        locator {json} NOT NULL,
        success_count INTEGER NOT NULL DEFAULT 0,
        failure_count INTEGER NOT NULL DEFAULT 0,
        evidence {json} NOT NULL,
        created_at {ts} NOT NULL,
        last_used {ts} NOT NULL,
        UNIQUE (req_id, element_key, locator_key)
    )""",
    "CREATE INDEX healing_memory_element ON healing_memory (element_key)",
)

# Recipe versions never change once written: the database refuses UPDATE and
# DELETE itself, so no code path, old version or hand-typed SQL can rewrite history.
_V1_SQLITE_TRIGGERS = (
    f"""CREATE TRIGGER recipe_versions_no_update BEFORE UPDATE ON recipe_versions
        BEGIN SELECT RAISE(ABORT, '{_IMMUTABLE_TEXT}: UPDATE refused'); END""",
    f"""CREATE TRIGGER recipe_versions_no_delete BEFORE DELETE ON recipe_versions
        BEGIN SELECT RAISE(ABORT, '{_IMMUTABLE_TEXT}: DELETE refused'); END""",
)
_V1_POSTGRES_TRIGGERS = (
    f"""CREATE FUNCTION pacts_recipe_versions_immutable() RETURNS trigger
        LANGUAGE plpgsql AS $body$
        BEGIN
            RAISE EXCEPTION USING
                MESSAGE = '{_IMMUTABLE_TEXT}: ' || TG_OP || ' refused',
                ERRCODE = 'restrict_violation';
        END
        $body$""",
    """CREATE TRIGGER recipe_versions_immutable BEFORE UPDATE OR DELETE ON recipe_versions
        FOR EACH ROW EXECUTE FUNCTION pacts_recipe_versions_immutable()""",
    # TRUNCATE skips row triggers; a statement trigger closes that door too.
    """CREATE TRIGGER recipe_versions_no_truncate BEFORE TRUNCATE ON recipe_versions
        FOR EACH STATEMENT EXECUTE FUNCTION pacts_recipe_versions_immutable()""",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        version=1,
        description="baseline tables: runs, steps, artifacts, "
        "metrics, POM cache, recipes, proposals, audit events, healing memory",
        common=_V1_TABLES,
        dialect_specific={"sqlite": _V1_SQLITE_TRIGGERS, "postgresql": _V1_POSTGRES_TRIGGERS},
    ),
    Migration(
        version=2,
        description="run leases for stale in-flight detection; indexes for the self-heal "
        "gate's repeat counts and for report queries",
        common=(
            # NULL for runs written before v2: their lease is started_at + the default.
            "ALTER TABLE runs ADD COLUMN lease_expires_at {ts}",
            # the 7/30-day repeat counts of the self-heal gate filter exactly these three columns.
            "CREATE INDEX audit_events_type_fp_created "
            "ON audit_events (event_type, exception_fingerprint, created_at)",
            "CREATE INDEX runs_req_started ON runs (req_id, started_at)",
            "CREATE INDEX runs_started ON runs (started_at)",
        ),
    ),
    Migration(
        version=3,
        description="discovery leases: runners sharing a store discover each requirement "
        "and plan hash once",
        common=(
            # One row per (requirement, plan hash), kept after release: taking it is an
            # upsert whose WHERE admits only a free row, so the database picks one holder.
            """CREATE TABLE discovery_leases (
                req_id TEXT NOT NULL,
                plan_hash TEXT NOT NULL,
                holder TEXT NOT NULL,
                pid INTEGER,
                host TEXT,
                acquired_at {ts} NOT NULL,
                expires_at {ts} NOT NULL,
                released_at {ts},
                claims INTEGER NOT NULL DEFAULT 1,
                discoveries INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (req_id, plan_hash)
            )""",
        ),
    ),
    Migration(
        version=4,
        description="one proposal per drift: drift keys and heal occurrences; the locators "
        "verified per element and deployment",
        common=(
            # What changed (page, element, new locator) as one key: the same drift healed
            # in another requirement or another run is an occurrence of the same proposal.
            # NULL for proposals written before v4.
            "ALTER TABLE heal_proposals ADD COLUMN drift_key TEXT",
            "ALTER TABLE heal_proposals ADD COLUMN page TEXT",
            "CREATE INDEX heal_proposals_drift ON heal_proposals (drift_key, status)",
            """CREATE TABLE heal_occurrences (
                id {pk},
                proposal_id BIGINT NOT NULL REFERENCES heal_proposals (id) ON DELETE CASCADE,
                req_id TEXT NOT NULL,
                step_index INTEGER NOT NULL,
                base_version TEXT,
                deployment TEXT NOT NULL DEFAULT '',
                url TEXT NOT NULL DEFAULT '',
                failed_locator {json} NOT NULL,
                score DOUBLE PRECISION,
                runner_up_score DOUBLE PRECISION,
                evidence {json} NOT NULL,
                created_at {ts} NOT NULL
            )""",
            "CREATE INDEX heal_occurrences_proposal ON heal_occurrences (proposal_id, id)",
            # A locator that passed the gate and acted on an element, per deployment (the
            # base URL it ran against): an element may look different on two deployments
            # in use at once, and each keeps the locator verified there.
            """CREATE TABLE element_locators (
                id {pk},
                req_id TEXT NOT NULL,
                element_key TEXT NOT NULL,
                locator_key TEXT NOT NULL,
                locator {json} NOT NULL,
                deployment TEXT NOT NULL,
                verified_count INTEGER NOT NULL DEFAULT 0,
                first_verified_at {ts} NOT NULL,
                last_verified_at {ts} NOT NULL,
                UNIQUE (req_id, element_key, locator_key, deployment)
            )""",
            "CREATE INDEX element_locators_element ON element_locators (element_key, req_id)",
        ),
    ),
    Migration(
        version=5,
        description="trace bundles: each passing run's steps (URL, text, box, DOM hash, "
        "requests, duration) for regression compares; the pictures stay on disk",
        common=(
            # One row per passing run of a requirement. ``payload`` is the compact bundle
            # (no pixels); ``folder`` is where its step pictures are, NULL once pruned.
            """CREATE TABLE trace_bundles (
                id {pk},
                req_id TEXT NOT NULL,
                label TEXT NOT NULL,
                plan_hash TEXT NOT NULL,
                created_at {ts} NOT NULL,
                folder TEXT,
                picture_bytes INTEGER NOT NULL DEFAULT 0,
                payload {json} NOT NULL
            )""",
            "CREATE INDEX trace_bundles_req ON trace_bundles (req_id, id)",
            "CREATE INDEX trace_bundles_label ON trace_bundles (label)",
        ),
    ),
)

LATEST_VERSION = MIGRATIONS[-1].version


def current_version(backend: Backend) -> int:
    """The store's schema version; 0 for an empty store."""
    with backend.transaction():
        _ensure_version_table(backend)
        row = backend.fetchone("SELECT MAX(version) FROM schema_version")
    return int(str(row[0])) if row is not None and row[0] is not None else 0


def migrate(backend: Backend, target: int | None = None) -> int:
    """Bring the store forward to ``target`` (default: latest); return the version reached.

    Safe when several processes open a new store at once: the migration lock serialises
    them, and each re-reads the version under the lock, so every step runs exactly once.
    """
    goal = LATEST_VERSION if target is None else target
    if not 0 <= goal <= LATEST_VERSION:
        raise ValueError(f"schema version {goal} is not in 0..{LATEST_VERSION}")
    with backend.migration_lock():
        _ensure_version_table(backend)
        row = backend.fetchone("SELECT MAX(version) FROM schema_version")
        found = int(str(row[0])) if row is not None and row[0] is not None else 0
        if found > LATEST_VERSION:
            raise SchemaTooNewError(found, LATEST_VERSION)
        for step in MIGRATIONS:
            if found < step.version <= goal:
                for statement in step.statements(backend):
                    backend.execute(statement)
                backend.execute(
                    "INSERT INTO schema_version (version, description, applied_at) "
                    "VALUES (?, ?, ?)",
                    (step.version, step.description, backend.ts_in(utcnow())),
                )
        return max(found, goal)


def _ensure_version_table(backend: Backend) -> None:
    backend.execute(
        backend.ddl(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            "version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at {ts} NOT NULL)"
        )
    )
