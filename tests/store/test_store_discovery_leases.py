"""Discovery leases (issue 11 item 6): runners sharing a store discover each requirement and
plan hash once. The database picks the holder; both backends, real processes racing."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import cast

import _store_workers as workers
import pytest

from pytest_pacts.store import DEFAULT_DISCOVERY_LEASE, Store, open_store

T0 = datetime(2026, 11, 1, tzinfo=UTC)
_ctx = workers.context()


def test_one_holder_at_a_time_and_the_next_claim_sees_the_release(store: Store) -> None:
    leases = store.discovery_leases
    first = leases.claim("REQ-1", "h1", holder="runner-a", now=T0)
    assert first.granted and first.previous_released_at is None
    assert first.lease.holder == "runner-a"
    assert first.lease.expires_at == T0 + DEFAULT_DISCOVERY_LEASE

    second = leases.claim("REQ-1", "h1", holder="runner-b", now=T0 + timedelta(seconds=5))
    assert not second.granted
    assert second.lease.holder == "runner-a" and second.lease.acquired_at == T0
    # another plan hash of the same requirement is another lease
    assert leases.claim("REQ-1", "h2", holder="runner-b", now=T0).granted

    assert leases.release(
        "REQ-1", "h1", discovered=True, holder="runner-a", now=T0 + timedelta(seconds=9)
    )
    got = leases.get("REQ-1", "h1")
    assert got is not None and got.released_at == T0 + timedelta(seconds=9)
    assert leases.is_free(got, now=T0 + timedelta(seconds=10))

    third = leases.claim("REQ-1", "h1", holder="runner-b", now=T0 + timedelta(seconds=10))
    assert third.granted and third.previous_released_at == T0 + timedelta(seconds=9)
    assert leases.release(
        "REQ-1", "h1", discovered=False, holder="runner-b", now=T0 + timedelta(seconds=11)
    )
    (row,) = leases.leases(req_id="REQ-1")[:1]
    assert (row.plan_hash, row.claims, row.discoveries) == ("h1", 2, 1)
    assert [(r.req_id, r.plan_hash) for r in leases.leases()] == [("REQ-1", "h1"), ("REQ-1", "h2")]


def test_a_lease_that_ran_out_is_taken_over_and_the_late_discovery_still_counts(
    store: Store,
) -> None:
    leases = store.discovery_leases
    assert leases.claim("REQ-1", "h", holder="a", lease=timedelta(seconds=30), now=T0).granted
    assert not leases.claim("REQ-1", "h", holder="b", now=T0 + timedelta(seconds=29)).granted
    taken = leases.claim("REQ-1", "h", holder="b", now=T0 + timedelta(seconds=30))
    assert taken.granted and taken.lease.holder == "b"
    assert taken.previous_released_at is None  # it ran out, nobody released it
    # the first holder finishes late: not its lease any more, but its discovery happened
    assert not leases.release(
        "REQ-1", "h", discovered=True, holder="a", now=T0 + timedelta(seconds=31)
    )
    got = leases.get("REQ-1", "h")
    assert got is not None and got.holder == "b" and got.released_at is None
    assert got.discoveries == 1


def test_claiming_again_renews_and_the_default_holder_is_this_store(store: Store) -> None:
    leases = store.discovery_leases
    assert leases.claim("REQ-1", "h", now=T0).granted
    again = leases.claim("REQ-1", "h", now=T0 + timedelta(seconds=60))
    assert (
        again.granted
        and again.lease.expires_at == T0 + timedelta(seconds=60) + DEFAULT_DISCOVERY_LEASE
    )
    assert again.lease.holder == leases.holder and again.lease.claims == 2
    with pytest.raises(ValueError, match="lease must be positive"):
        leases.claim("REQ-1", "h", lease=timedelta(0))


def test_a_holder_whose_process_died_on_this_host_frees_the_lease_at_once(store: Store) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    pid = int(dead.stdout)
    leases = store.discovery_leases
    assert leases.claim("REQ-1", "h", holder="crashed", pid=pid).granted
    held = leases.get("REQ-1", "h")
    assert held is not None and held.held(datetime.now(UTC))
    assert leases.is_free(held)
    assert leases.claim("REQ-1", "h", holder="next").granted
    # a live holder on another host is judged by its lease only
    assert leases.claim("REQ-2", "h", holder="far", pid=pid, host="elsewhere").granted
    assert not leases.claim("REQ-2", "h", holder="next").granted


def test_processes_claiming_the_same_leases_at_once_get_each_exactly_once(
    store_target: str,
) -> None:
    open_store(store_target).close()
    count = 6
    barrier = _ctx.Barrier(count)
    queue = _ctx.Queue()
    procs = [
        _ctx.Process(
            target=workers.report, args=(queue, "claim_discovery", store_target, w, barrier)
        )
        for w in range(count)
    ]
    for proc in procs:
        proc.start()
    results = [queue.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0
    assert all(status == "ok" for status, _ in results), results
    won = Counter(req for _status, reqs in results for req in cast(list[str], reqs))
    assert won == Counter({f"REQ-{n}": 1 for n in range(workers.LEASES)})
    with open_store(store_target) as store:
        rows = store.discovery_leases.leases()
        assert len(rows) == workers.LEASES
        assert all(r.claims == 1 and r.discoveries == 1 and r.released_at for r in rows)


def test_processes_discovering_in_always_mode_discover_each_requirement_once(
    store_target: str,
) -> None:
    """Under ``--pacts-discover=always`` a claim counts a result as fresh only when its
    lease was released after the phase began. On PostgreSQL the claim read that release in
    one statement and took the lease in another: a release committed in between made the
    claimer discover again (2, 4 and 4 times in an audit, the lease table saying once)."""
    open_store(store_target).close()
    count = 4
    barrier = _ctx.Barrier(count)
    queue = _ctx.Queue()
    procs = [
        _ctx.Process(
            target=workers.report, args=(queue, "discover_always", store_target, w, barrier)
        )
        for w in range(count)
    ]
    for proc in procs:
        proc.start()
    results = [queue.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0
    assert all(status == "ok" for status, _ in results), results
    done = Counter(req for _status, reqs in results for req in cast(list[str], reqs))
    assert done == Counter({f"REQ-{n}": 1 for n in range(workers.LEASES)})
    with open_store(store_target) as store:
        rows = store.discovery_leases.leases()
        assert {r.req_id: r.discoveries for r in rows} == dict.fromkeys(done, 1)
