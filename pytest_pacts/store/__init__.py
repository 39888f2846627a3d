"""Persistence for pytest-pacts: the only package that speaks SQL.

``open_store(path_or_dsn)`` gives a :class:`Store` over SQLite (embedded default, one file
under ``.pacts/``) or PostgreSQL (shared, via a ``postgresql://`` DSN), same schema and API.
Its repositories:

- ``store.runs``       runs, steps, artifacts, metrics; SESSION_CONFLICT guard
- ``store.recipes``    immutable recipe versions v001, v002, ...
- ``store.proposals``  heal proposals (one per drift), their occurrences + audit events
- ``store.audit``      audit events and the self-heal gate's repeat counts
- ``store.healing``    evidence-backed healing memory
- ``store.pom_cache``  discovery cache keyed by requirement and plan hash
- ``store.discovery_leases``  one discovery per requirement across runners sharing a store
- ``store.locators``   the locators verified per element and deployment

See ``docs/store.md`` for tables, concurrency rules and the migration policy.
"""

from pytest_pacts.store.errors import (
    ImmutableRecordError,
    InvalidTransition,
    RecordNotFound,
    SchemaTooNewError,
    SessionConflict,
    StaleParentError,
    StoreBusy,
    StoreError,
)
from pytest_pacts.store.records import (
    PROPOSAL_CREATED_EVENT,
    PROPOSAL_RECURRED_EVENT,
    Artifact,
    AuditEvent,
    DiscoveryClaim,
    DiscoveryLease,
    HealingEvidence,
    HealingRecord,
    HealOccurrence,
    JSONObject,
    JSONValue,
    Metric,
    NewAuditEvent,
    NewOccurrence,
    PomLookup,
    ProposalRecord,
    RecipeVersion,
    RepeatCounts,
    Run,
    RunStep,
    TraceBundleRecord,
    VerifiedLocator,
)
from pytest_pacts.store.repos.discovery_leases import DEFAULT_DISCOVERY_LEASE
from pytest_pacts.store.repos.pom_cache import DEFAULT_TTL
from pytest_pacts.store.repos.proposals import PROPOSAL_DECIDED_EVENT
from pytest_pacts.store.repos.runs import DEFAULT_LEASE, RUN_ABANDONED_EVENT
from pytest_pacts.store.schema import LATEST_VERSION
from pytest_pacts.store.store import Store, default_store_path, open_store

__all__ = [
    "DEFAULT_DISCOVERY_LEASE",
    "DEFAULT_LEASE",
    "DEFAULT_TTL",
    "LATEST_VERSION",
    "PROPOSAL_CREATED_EVENT",
    "PROPOSAL_DECIDED_EVENT",
    "PROPOSAL_RECURRED_EVENT",
    "RUN_ABANDONED_EVENT",
    "Artifact",
    "AuditEvent",
    "DiscoveryClaim",
    "DiscoveryLease",
    "HealOccurrence",
    "HealingEvidence",
    "HealingRecord",
    "ImmutableRecordError",
    "InvalidTransition",
    "JSONObject",
    "JSONValue",
    "Metric",
    "NewAuditEvent",
    "NewOccurrence",
    "PomLookup",
    "ProposalRecord",
    "RecipeVersion",
    "RecordNotFound",
    "RepeatCounts",
    "Run",
    "RunStep",
    "SchemaTooNewError",
    "SessionConflict",
    "StaleParentError",
    "Store",
    "StoreBusy",
    "StoreError",
    "TraceBundleRecord",
    "VerifiedLocator",
    "default_store_path",
    "open_store",
]
