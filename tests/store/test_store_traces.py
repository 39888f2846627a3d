"""Trace bundles in the store (SQLite and PostgreSQL): kept per passing run, the latest
found per requirement, listed per run, and pruned (pictures of the latest bundle only, at
most ``keep`` bundles)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pytest_pacts.store import JSONValue, Store

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def _add(store: Store, req: str, label: str, n: int, folder: str | None = "f") -> int:
    payload: dict[str, JSONValue] = {
        "req_id": req,
        "label": label,
        "steps": [{"index": 0, "text": f"v{n}"}],
    }
    bundle = store.traces.add(
        req, label, "sha256:h", payload, folder=folder and f"{folder}{n}", picture_bytes=10 * n,
        now=T0 + timedelta(minutes=n),
    )  # fmt: skip
    return bundle.id


def test_bundles_kept_found_listed_and_pruned(store: Store) -> None:
    assert store.traces.latest("REQ-A") is None
    ids = [_add(store, "REQ-A", f"run-{n}", n) for n in range(1, 5)]
    _add(store, "REQ-B", "run-4", 9)
    latest = store.traces.latest("REQ-A")
    assert latest is not None and latest.id == ids[-1] and latest.label == "run-4"
    assert latest.payload["steps"] == [{"index": 0, "text": "v4"}]
    assert latest.created_at == T0 + timedelta(minutes=4) and latest.picture_bytes == 40
    before = store.traces.latest("REQ-A", before=ids[-1])
    assert before is not None and before.label == "run-3"
    assert [b.req_id for b in store.traces.for_label("run-4")] == ["REQ-A", "REQ-B"]
    assert [label for label, _n, _when in store.traces.labels()][:2] == ["run-4", "run-3"]

    # pictures: the newest bundle only; rows: at most ``keep``
    pruned = store.traces.prune("REQ-A", keep=2)
    assert sorted(b.folder or "" for b in pruned) == ["f1", "f2", "f3"]
    kept = [store.traces.latest("REQ-A"), store.traces.latest("REQ-A", before=ids[-1])]
    assert [(b.label, b.folder) for b in kept if b] == [("run-4", "f4"), ("run-3", None)]
    assert store.traces.latest("REQ-A", before=ids[-2]) is None
    assert store.traces.prune("REQ-A", keep=2) == []  # nothing left to delete
    assert store.traces.latest("REQ-B") is not None  # another requirement is untouched


def test_a_bundle_needs_its_requirement_and_label(store: Store) -> None:
    with pytest.raises(ValueError, match="run label"):
        store.traces.add("REQ-A", "", "h", {})


def test_migrating_from_v4_keeps_data_and_adds_trace_bundles(store_target: str) -> None:
    import contextlib

    from pytest_pacts.store import open_store
    from pytest_pacts.store.schema import migrate
    from pytest_pacts.store.store import connect_backend

    backend = connect_backend(store_target)
    with contextlib.closing(backend):
        assert migrate(backend, target=4) == 4
        backend.execute(
            "INSERT INTO runs (session_id, req_id, status, started_at) "
            "VALUES (?, ?, 'finished', ?)",
            ("s", "REQ-OLD", backend.ts_in(T0)),
        )
    with open_store(store_target) as store:
        assert [r.req_id for r in store.runs.query(req_id="REQ-OLD")] == ["REQ-OLD"]
        assert store.traces.latest("REQ-OLD") is None
        _add(store, "REQ-OLD", "run-1", 1)
        assert store.traces.latest("REQ-OLD") is not None
