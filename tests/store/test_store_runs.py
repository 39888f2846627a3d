"""Runs, their details and the SESSION_CONFLICT in-flight guard."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from pytest_pacts.store import (
    DEFAULT_LEASE,
    RUN_ABANDONED_EVENT,
    InvalidTransition,
    RecordNotFound,
    SessionConflict,
    Store,
)

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def _dead_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_begin_records_owner_and_finish_records_verdict(store: Store) -> None:
    run = store.runs.begin("s1", "REQ-1", plan_hash="h1", recipe_version="v001", now=T0)
    assert (run.status, run.verdict, run.pid) == ("running", None, os.getpid())
    assert run.started_at == T0 and run.lease_expires_at == T0 + DEFAULT_LEASE
    done = store.runs.finish(
        run.id,
        verdict="fail",
        rca_class="selector_drift",
        healed=True,
        heal_count=2,
        llm_calls=1,
        now=T0 + timedelta(seconds=3),
    )
    assert done == store.runs.get(run.id)
    assert (done.status, done.verdict, done.rca_class) == ("finished", "fail", "selector_drift")
    assert (done.healed, done.heal_count, done.llm_calls) == (True, 2, 1)
    assert done.finished_at == T0 + timedelta(seconds=3)
    assert (done.plan_hash, done.recipe_version) == ("h1", "v001")


def test_second_begin_while_in_flight_is_a_session_conflict(store: Store) -> None:
    first = store.runs.begin("s1", "REQ-1", now=T0)
    with pytest.raises(SessionConflict) as info:
        store.runs.begin("s1", "REQ-1", now=T0 + timedelta(seconds=1))
    err = info.value
    assert err.code == "SESSION_CONFLICT"
    assert (err.holder_run_id, err.holder_pid, err.since) == (first.id, os.getpid(), T0)
    text = str(err)
    for part in ("SESSION_CONFLICT", "'REQ-1'", "'s1'", f"run #{first.id}", T0.isoformat()):
        assert part in text
    assert "Wait for it to finish" in text
    # The refused begin wrote nothing: still exactly one run, still in flight.
    assert [r.id for r in store.runs.query()] == [first.id]
    # Other sessions and other requirements are independent.
    store.runs.begin("s2", "REQ-1", now=T0)
    store.runs.begin("s1", "REQ-2", now=T0)
    # Finishing releases the slot.
    store.runs.finish(first.id, verdict="pass")
    again = store.runs.begin("s1", "REQ-1", now=T0 + timedelta(seconds=2))
    assert again.id != first.id


def test_expired_lease_is_stale_and_taken_over(store: Store) -> None:
    old = store.runs.begin("s", "REQ", lease=timedelta(minutes=1), now=T0)
    with pytest.raises(SessionConflict):
        store.runs.begin("s", "REQ", now=T0 + timedelta(seconds=59))
    new = store.runs.begin("s", "REQ", now=T0 + timedelta(minutes=1))
    abandoned = store.runs.get(old.id)
    assert abandoned.status == "abandoned" and abandoned.finished_at == T0 + timedelta(minutes=1)
    assert store.runs.in_flight() == [new]
    (trace,) = store.audit.events(event_type=RUN_ABANDONED_EVENT)
    assert trace.req_id == "REQ" and trace.payload["run_id"] == old.id
    assert trace.payload["taken_over_by_pid"] == os.getpid()


def test_heartbeat_extends_the_lease_until_the_run_finishes(store: Store) -> None:
    run = store.runs.begin("s", "REQ", lease=timedelta(minutes=1), now=T0)
    until = store.runs.heartbeat(run.id, lease=timedelta(minutes=5), now=T0 + timedelta(seconds=50))
    assert until == T0 + timedelta(minutes=5, seconds=50)
    with pytest.raises(SessionConflict):
        store.runs.begin("s", "REQ", now=T0 + timedelta(minutes=3))
    store.runs.finish(run.id, verdict="pass")
    with pytest.raises(InvalidTransition, match="is finished, not running"):
        store.runs.heartbeat(run.id)


def test_run_of_a_dead_process_on_this_host_is_stale_at_once(store: Store) -> None:
    dead = store.runs.begin("s", "REQ", pid=_dead_pid(), now=T0)
    new = store.runs.begin("s", "REQ", now=T0 + timedelta(seconds=1))
    assert store.runs.get(dead.id).status == "abandoned"
    assert new.status == "running"


def test_live_process_or_another_host_keeps_its_slot_until_the_lease(store: Store) -> None:
    store.runs.begin("s", "A", pid=os.getppid(), now=T0)
    store.runs.begin("s", "B", pid=_dead_pid(), host="another-runner", now=T0)
    for req in ("A", "B"):  # a pid on another host cannot be probed from here
        with pytest.raises(SessionConflict):
            store.runs.begin("s", req, now=T0 + timedelta(seconds=1))


def test_late_finish_of_an_abandoned_run_is_kept_but_double_finish_is_refused(
    store: Store,
) -> None:
    slow = store.runs.begin("s", "REQ", lease=timedelta(seconds=10), now=T0)
    store.runs.begin("s", "REQ", now=T0 + timedelta(minutes=1))
    assert store.runs.finish(slow.id, verdict="pass").status == "finished"
    with pytest.raises(InvalidTransition, match="already finished"):
        store.runs.finish(slow.id, verdict="fail")
    with pytest.raises(RecordNotFound):
        store.runs.finish(987654, verdict="pass")
    with pytest.raises(ValueError, match="verdict must be one of"):
        store.runs.finish(slow.id, verdict="great")  # type: ignore[arg-type]


def test_naive_datetimes_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        store.runs.begin("s", "REQ", now=datetime(2026, 1, 1))


def test_steps_artifacts_and_metrics_round_trip(store: Store) -> None:
    run = store.runs.begin("s", "REQ", now=T0)
    locator = {"strategy": "label", "name": "Username", "frame_path": [], "confidence": 0.92}
    gate = {"unique": True, "visible": True, "enabled": True, "stable": True, "scoped": True}
    store.runs.add_step(
        run.id,
        step_index=1,
        action="click",
        status="failed",
        element_key="Login@LoginForm",
        heal_round=0,
        now=T0,
    )
    store.runs.add_step(
        run.id,
        step_index=0,
        action="fill",
        status="passed",
        element_key="Username@LoginForm",
        locator=locator,
        strategy="label",
        confidence=0.92,
        gate=gate,
        duration_ms=12.5,
        now=T0,
    )
    healed = store.runs.add_step(
        run.id, step_index=1, action="click", status="passed", heal_round=1, now=T0
    )
    steps = store.runs.steps(run.id)
    assert [(s.step_index, s.heal_round) for s in steps] == [(0, 0), (1, 0), (1, 1)]
    assert steps[0].locator == locator and steps[0].gate == gate
    assert (steps[0].confidence, steps[0].duration_ms) == (0.92, 12.5)
    assert steps[1].locator is None and steps[2] == healed

    store.runs.add_artifact(run.id, "screenshot", "reports/REQ/fail.png")
    store.runs.add_artifact(run.id, "verdict", "reports/REQ/verdict_REQ.json")
    assert [a.kind for a in store.runs.artifacts(run.id)] == ["screenshot", "verdict"]
    store.runs.add_metric(run.id, "llm_calls", 0, now=T0)
    store.runs.add_metric(run.id, "duration_ms", 1234.5, now=T0 + timedelta(hours=1))
    assert {m.name: m.value for m in store.runs.metrics(run.id)} == {
        "llm_calls": 0.0,
        "duration_ms": 1234.5,
    }
    window = store.runs.metric_values("duration_ms", since=T0, until=T0 + timedelta(hours=2))
    assert [m.value for m in window] == [1234.5]
    assert store.runs.metric_values("duration_ms", until=T0 + timedelta(hours=1)) == []


def test_report_queries_window_and_latest_per_requirement(store: Store) -> None:
    def finished(req: str, minutes: int, verdict: str) -> int:
        run = store.runs.begin(f"s{minutes}", req, now=T0 + timedelta(minutes=minutes))
        store.runs.finish(run.id, verdict=verdict)  # type: ignore[arg-type]
        return run.id

    a1 = finished("REQ-A", 0, "fail")
    a2 = finished("REQ-A", 10, "pass")
    b1 = finished("REQ-B", 5, "partial")
    in_flight = store.runs.begin("s99", "REQ-A", now=T0 + timedelta(minutes=20))

    window = store.runs.query(since=T0 + timedelta(minutes=5), until=T0 + timedelta(minutes=20))
    assert [r.id for r in window] == [b1, a2]
    assert [r.id for r in store.runs.query(req_id="REQ-A")] == [a1, a2, in_flight.id]
    assert [r.id for r in store.runs.query(status="finished", limit=2)] == [a1, b1]
    latest = store.runs.latest_per_requirement()
    assert [(r.req_id, r.id, r.verdict) for r in latest] == [
        ("REQ-A", a2, "pass"),
        ("REQ-B", b1, "partial"),
    ]
    assert [r.id for r in store.runs.latest_per_requirement(since=T0 + timedelta(minutes=6))] == [
        a2
    ]
    assert store.runs.in_flight() == [in_flight]
