"""Recipe versions are written once and never change."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import pytest

from pytest_pacts.store import (
    ImmutableRecordError,
    RecordNotFound,
    StaleParentError,
    Store,
)

T0 = datetime(2026, 11, 1, tzinfo=UTC)
BODY = {"workflow": {"steps": [{"id": "s1", "op": "act_cached"}]}, "selectors": {"a": "#a"}}


def _proposal(store: Store) -> int:
    return store.proposals.create(
        req_id="REQ-1",
        step_index=0,
        element_key="A@Form",
        severity="minor",
        track="contract",
        promotion_required=False,
        payload={"self_heal_gate": {"exception_fingerprint": "fp"}},
    ).id


def test_versions_are_numbered_and_chained(store: Store) -> None:
    assert store.recipes.latest("REQ-1") is None
    v1 = store.recipes.add_version("REQ-1", BODY, plan_hash="h1", now=T0)
    pid = _proposal(store)
    v2 = store.recipes.add_version(
        "REQ-1", {**BODY, "selectors": {"a": "#b"}}, plan_hash="h1", proposal_id=pid
    )
    assert (v1.version, v1.number, v1.parent_version, v1.proposal_id) == ("v001", 1, None, None)
    assert (v2.version, v2.parent_version, v2.proposal_id) == ("v002", "v001", pid)
    assert v1.created_at == T0 and v1.body == BODY and v1.plan_hash == "h1"
    assert store.recipes.latest("REQ-1") == v2
    assert store.recipes.get("REQ-1", "v001") == v1
    assert store.recipes.versions("REQ-1") == [v1, v2]
    assert store.recipes.add_version("REQ-2", {}, plan_hash="x").version == "v001"
    assert store.recipes.requirements() == ["REQ-1", "REQ-2"]
    with pytest.raises(RecordNotFound, match="has no version 'v009'"):
        store.recipes.get("REQ-1", "v009")


def test_a_version_derived_from_an_old_parent_is_refused_and_writes_nothing(
    store: Store,
) -> None:
    store.recipes.add_version("REQ-1", BODY, plan_hash="h", expected_parent=None)
    store.recipes.add_version("REQ-1", BODY, plan_hash="h", expected_parent="v001")
    with pytest.raises(StaleParentError, match=r"based on 'v001' but the latest is 'v002'"):
        store.recipes.add_version("REQ-1", BODY, plan_hash="h", expected_parent="v001")
    # The counter bump was rolled back with the refused version: no gap in the numbering.
    assert store.recipes.add_version("REQ-1", BODY, plan_hash="h").version == "v003"


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE recipe_versions SET body = body",
        "UPDATE recipe_versions SET plan_hash = 'tampered'",
        "DELETE FROM recipe_versions",
    ],
)
def test_the_database_refuses_to_change_a_written_version(store: Store, statement: str) -> None:
    v1 = store.recipes.add_version("REQ-1", BODY, plan_hash="h1")
    with pytest.raises(ImmutableRecordError, match="written once"):
        store.backend.execute(statement)
    assert store.recipes.versions("REQ-1") == [v1]


def test_refusal_holds_for_a_plain_driver_connection_too(store: Store, store_target: str) -> None:
    """Not only our API: any client of the database is refused (triggers, not code)."""
    store.recipes.add_version("REQ-1", BODY, plan_hash="h1")
    if store.backend_name == "sqlite":
        conn = sqlite3.connect(store_target)
        try:
            for sql in (
                "UPDATE recipe_versions SET version = 'v999'",
                "DELETE FROM recipe_versions",
            ):
                with pytest.raises(sqlite3.IntegrityError, match="pacts_immutable"):
                    conn.execute(sql)
        finally:
            conn.close()
    else:
        import psycopg

        with psycopg.connect(store_target, autocommit=True) as pg:
            for sql in (
                "UPDATE recipe_versions SET version = 'v999'",
                "DELETE FROM recipe_versions",
                "TRUNCATE recipe_versions",
            ):
                with pytest.raises(psycopg.Error, match="pacts_immutable"):
                    pg.execute(sql)
    assert [v.version for v in store.recipes.versions("REQ-1")] == ["v001"]


def test_repository_offers_no_way_to_modify_a_version(store: Store) -> None:
    public = {name for name in dir(store.recipes) if not name.startswith("_")}
    assert public == {"add_version", "get", "latest", "requirements", "versions"}
