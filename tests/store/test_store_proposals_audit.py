"""Heal proposals, their audit events and the self-heal gate's repeat counts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pytest_pacts.store import (
    PROPOSAL_CREATED_EVENT,
    PROPOSAL_DECIDED_EVENT,
    PROPOSAL_RECURRED_EVENT,
    InvalidTransition,
    NewAuditEvent,
    NewOccurrence,
    RecordNotFound,
    Store,
)

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
GATE = {
    "gate_version": "v1",
    "track": "exception",
    "promotion_required": False,
    "exception_fingerprint": "ex:selector_drift:REQ-1.Login@Form:nth_child",
}


def _create(store: Store, *, now: datetime = NOW, **overrides: object) -> int:
    fields: dict[str, object] = {
        "req_id": "REQ-1",
        "step_index": 2,
        "element_key": "Login@Form",
        "severity": "minor",
        "track": "exception",
        "promotion_required": False,
        "payload": {"ops": [{"path": "selectors.login", "op": "replace"}], "self_heal_gate": GATE},
    }
    fields.update(overrides)
    return store.proposals.create(now=now, **fields).id  # type: ignore[arg-type]


def test_creating_a_proposal_writes_its_audit_event_with_the_gate(store: Store) -> None:
    pid = _create(store)
    proposal = store.proposals.get(pid)
    assert (proposal.status, proposal.severity, proposal.track) == ("pending", "minor", "exception")
    assert proposal.exception_fingerprint == GATE["exception_fingerprint"]
    assert proposal.payload["self_heal_gate"] == GATE
    assert proposal.decided_at is None and proposal.decided_by is None
    (event,) = store.audit.events(event_type=PROPOSAL_CREATED_EVENT)
    assert event.created_at == NOW and event.req_id == "REQ-1"
    assert event.exception_fingerprint == GATE["exception_fingerprint"]
    assert event.payload["proposal_id"] == pid
    assert event.payload["self_heal_gate"] == GATE


def test_a_proposal_without_a_self_heal_gate_is_refused_and_nothing_is_written(
    store: Store,
) -> None:
    with pytest.raises(ValueError, match="no 'self_heal_gate'"):
        _create(store, payload={"ops": []})
    assert store.proposals.query() == []
    assert store.audit.events() == []


def test_proposal_and_event_commit_or_roll_back_together(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction():
        _create(store)
        raise RuntimeError("the engine failed after creating the proposal")
    assert store.proposals.query() == []
    assert store.audit.count_events(PROPOSAL_CREATED_EVENT) == 0


def test_pending_goes_to_accepted_or_rejected_once(store: Store) -> None:
    first, second = _create(store), _create(store)
    later = NOW + timedelta(hours=1)
    accepted = store.proposals.decide(first, "accepted", decided_by="qa@example", now=later)
    assert (accepted.status, accepted.decided_by, accepted.decided_at) == (
        "accepted",
        "qa@example",
        later,
    )
    store.proposals.decide(second, "rejected", decided_by="ci")
    with pytest.raises(InvalidTransition, match=r"already accepted by 'qa@example'"):
        store.proposals.decide(first, "rejected", decided_by="someone")
    with pytest.raises(ValueError, match="accepted or rejected"):
        store.proposals.decide(first, "pending", decided_by="x")  # type: ignore[arg-type]
    with pytest.raises(RecordNotFound):
        store.proposals.decide(424242, "accepted", decided_by="x")
    assert store.proposals.count_by_status() == {"pending": 0, "accepted": 1, "rejected": 1}
    assert [p.id for p in store.proposals.query(status="rejected")] == [second]
    assert store.audit.count_events(PROPOSAL_DECIDED_EVENT) == 2
    # Decisions are not repeats: the gate counts only created events.
    assert store.audit.count_events(PROPOSAL_CREATED_EVENT) == 2


def test_invalid_severity_or_track_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="severity"):
        _create(store, severity="huge")
    with pytest.raises(ValueError, match="track"):
        _create(store, track="other")


def test_count_events_filters_type_fingerprint_and_half_open_window(store: Store) -> None:
    for minutes, fp in [(0, "a"), (10, "a"), (20, "b"), (30, "a")]:
        store.audit.record("X", {}, exception_fingerprint=fp, now=NOW + timedelta(minutes=minutes))
    store.audit.record("Y", {}, exception_fingerprint="a", now=NOW)
    assert store.audit.count_events("X") == 4
    assert store.audit.count_events("X", "a") == 3
    assert store.audit.count_events("X", "a", since=NOW + timedelta(minutes=10)) == 2
    assert store.audit.count_events("X", "a", until=NOW + timedelta(minutes=10)) == 1
    assert (
        store.audit.count_events(
            "X", since=NOW + timedelta(minutes=10), until=NOW + timedelta(minutes=30)
        )
        == 2
    )


def test_exception_stats_count_only_past_events_in_7_and_30_days(store: Store) -> None:
    fp = "fp-boundaries"
    ages = {
        "now (not past)": timedelta(0),
        "1 µs ago": timedelta(microseconds=1),
        "6 days ago": timedelta(days=6),
        "exactly 7 days ago": timedelta(days=7),
        "7 days + 1 µs ago": timedelta(days=7, microseconds=1),
        "29 days ago": timedelta(days=29),
        "exactly 30 days ago": timedelta(days=30),
        "30 days + 1 µs ago": timedelta(days=30, microseconds=1),
        "in the future": -timedelta(days=1),
    }
    store.audit.record_many(
        NewAuditEvent(PROPOSAL_CREATED_EVENT, {"case": name}, NOW - age, None, fp)
        for name, age in ages.items()
    )
    # Same window, but another fingerprint or another event type: never counted.
    store.audit.record(PROPOSAL_CREATED_EVENT, {}, exception_fingerprint="other", now=NOW)
    store.audit.record("RUNTIME_PATCH_APPLIED", {}, exception_fingerprint=fp, now=NOW)
    stats = store.audit.exception_stats(fp, NOW)
    # 7d: 1 µs, 6 d, exactly 7 d.  30d: those + 7 d 1 µs, 29 d, exactly 30 d.
    assert stats == {"count_7d": 3, "count_30d": 6}
    assert store.audit.exception_stats("never-seen", NOW) == {"count_7d": 0, "count_30d": 0}


def test_repeat_counts_grow_as_proposals_with_one_fingerprint_repeat(store: Store) -> None:
    fp = GATE["exception_fingerprint"]
    assert isinstance(fp, str)
    for day in range(3):
        before = store.audit.exception_stats(fp, NOW + timedelta(days=day))
        assert before["count_30d"] == day  # the proposal about to be created is not counted
        _create(store, now=NOW + timedelta(days=day))
    assert store.audit.exception_stats(fp, NOW + timedelta(days=3)) == {
        "count_7d": 3,
        "count_30d": 3,
    }


def test_the_repeat_count_query_uses_the_composite_index(store: Store) -> None:
    db = store.backend
    if store.backend_name == "postgresql":
        # A tiny table is cheaper to scan; ask the planner what it does when that is not so.
        with store.transaction():
            db.execute("SET LOCAL enable_seqscan = off")
            plan = "\n".join(store.audit.explain_exception_stats("fp", NOW))
    else:
        plan = "\n".join(store.audit.explain_exception_stats("fp", NOW))
    assert "audit_events_type_fp_created" in plan, plan


def test_one_drift_is_one_proposal_with_its_occurrences(store: Store) -> None:
    first = NewOccurrence(
        req_id="REQ-1",
        step_index=2,
        failed_locator={"css": "#login"},
        base_version="v001",
        deployment="http://a.test",
        url="http://a.test/login",
        score=0.9,
        evidence={"screenshot_before": "heal_REQ-1_s2_r1_before.png"},
    )
    created = store.proposals.create(
        req_id="REQ-1",
        step_index=2,
        element_key="Login@Form",
        severity="minor",
        track="exception",
        promotion_required=False,
        payload={"self_heal_gate": GATE},
        drift_key="drift:1",
        page="/login",
        occurrence=first,
        now=NOW,
    )
    assert (created.drift_key, created.page) == ("drift:1", "/login")
    assert store.proposals.find_drift("drift:1") == created
    assert store.proposals.find_drift("drift:2") is None
    again = NewOccurrence(req_id="REQ-2", step_index=0, failed_locator={"css": "#login"})
    regated = {"self_heal_gate": {**GATE, "promotion_required": True}}
    store.proposals.add_occurrence(
        created.id, again, payload=regated, promotion_required=True, now=NOW + timedelta(hours=1)
    )
    occurrences = store.proposals.occurrences(created.id)
    assert [(o.req_id, o.step_index) for o in occurrences] == [("REQ-1", 2), ("REQ-2", 0)]
    assert occurrences[0].evidence == {"screenshot_before": "heal_REQ-1_s2_r1_before.png"}
    assert (occurrences[0].deployment, occurrences[0].score) == ("http://a.test", 0.9)
    assert store.proposals.occurrence_counts([created.id]) == {created.id: 2}
    updated = store.proposals.get(created.id)
    assert updated.promotion_required and updated.payload == regated
    # the recurrence is a repeat for the gate's counts
    stats = store.audit.exception_stats(
        str(GATE["exception_fingerprint"]), now=NOW + timedelta(days=1)
    )
    assert stats == {"count_7d": 2, "count_30d": 2}
    assert store.audit.count_events(PROPOSAL_RECURRED_EVENT) == 1
    # a decided proposal keeps its payload; an accepted drift is not found by default
    store.proposals.decide(created.id, "accepted", decided_by="t")
    store.proposals.add_occurrence(created.id, again, payload={"self_heal_gate": {}})
    assert store.proposals.get(created.id).payload == regated
    assert store.proposals.find_drift("drift:1") is None
    assert store.proposals.find_drift("drift:1", ("accepted",)) is not None


def test_verified_locators_are_counted_per_deployment(store: Store) -> None:
    strong = {"strategy": "test_id", "test_id": "login"}
    weak = {"strategy": "text", "text": "Sign in"}
    store.locators.verify("REQ-1", "Login@Form", strong, "http://a.test", now=NOW)
    store.locators.verify("REQ-1", "Login@Form", strong, "http://a.test", now=NOW)
    store.locators.verify("REQ-1", "Login@Form", weak, "http://b.test", now=NOW + timedelta(1))
    store.locators.verify("REQ-2", "Login@Form", strong, "http://a.test", now=NOW)
    mine = store.locators.for_element("Login@Form", "REQ-1")
    assert [(v.locator, v.deployment, v.verified_count) for v in mine] == [
        (weak, "http://b.test", 1),
        (strong, "http://a.test", 2),
    ]
    assert len(store.locators.for_element("Login@Form")) == 3
    assert [v.req_id for v in store.locators.for_requirement("REQ-2")] == ["REQ-2"]
    with pytest.raises(ValueError, match="needs its deployment"):
        store.locators.verify("REQ-1", "Login@Form", strong, " ")
