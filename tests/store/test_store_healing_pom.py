"""Healing memory and the POM cache (hit, miss, PLAN_HASH_MISMATCH)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pytest_pacts.store import HealingEvidence, Store

T0 = datetime(2026, 11, 1, tzinfo=UTC)
EVIDENCE = HealingEvidence(
    url="http://127.0.0.1:8000/login",
    original_locator={"strategy": "css", "css": "#login-button"},
    failure_type="none",
)
ROLE = {"strategy": "role", "role": "button", "name": "Log in"}
TESTID = {"strategy": "test_id", "test_id": "login"}


def test_record_without_evidence_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match=r"no evidence given.*no evidence, no record"):
        store.healing.record("Login@Form", ROLE, None)
    incomplete = HealingEvidence(url=" ", original_locator=None, failure_type="")
    with pytest.raises(ValueError, match="url is empty; original_locator is empty; failure"):
        store.healing.record("Login@Form", ROLE, incomplete)
    assert store.healing.entries() == []


def test_successes_and_failures_drive_confidence(store: Store) -> None:
    first = store.healing.record("Login@Form", ROLE, EVIDENCE, now=T0)
    again = store.healing.record("Login@Form", dict(reversed(ROLE.items())), EVIDENCE)
    assert again.id == first.id and again.success_count == 2  # same locator, any key order
    assert again.evidence == EVIDENCE
    failed = store.healing.record_failure("Login@Form", ROLE, now=T0 + timedelta(days=1))
    assert failed is not None
    assert (failed.success_count, failed.failure_count) == (2, 1)
    assert failed.confidence == pytest.approx(2 / 3)
    assert failed.last_used == T0 + timedelta(days=1)
    assert store.healing.record_failure("Login@Form", {"css": "#never"}) is None


def test_suggest_returns_only_above_threshold_best_first(store: Store) -> None:
    for _ in range(3):
        store.healing.record("Login@Form", ROLE, EVIDENCE)  # 3/3 = 1.0
    for _ in range(7):
        store.healing.record("Login@Form", TESTID, EVIDENCE)
    for _ in range(3):
        store.healing.record_failure("Login@Form", TESTID)  # 7/10 = 0.7: not ABOVE 0.7
    css = {"strategy": "css", "css": ".btn"}
    for _ in range(4):
        store.healing.record("Login@Form", css, EVIDENCE)
    store.healing.record_failure("Login@Form", css)  # 4/5 = 0.8
    store.healing.record("Other@Form", ROLE, EVIDENCE)

    suggested = store.healing.suggest("Login@Form")
    assert [s.locator for s in suggested] == [ROLE, css]
    assert [round(s.confidence, 2) for s in suggested] == [1.0, 0.8]
    assert [s.locator for s in store.healing.suggest("Login@Form", threshold=0.69)] == [
        ROLE,
        css,
        TESTID,
    ]
    assert store.healing.suggest("Login@Form", threshold=0.9, limit=1)[0].locator == ROLE
    with pytest.raises(ValueError, match=r"within 0\.\.1"):
        store.healing.suggest("Login@Form", threshold=7)


def test_suggest_scopes_by_requirement_plus_shared_records(store: Store) -> None:
    store.healing.record("Login@Form", ROLE, EVIDENCE, req_id="REQ-A")
    store.healing.record("Login@Form", TESTID, EVIDENCE, req_id="REQ-B")
    store.healing.record("Login@Form", {"css": "#shared"}, EVIDENCE)  # req_id "" = shared
    assert {s.req_id for s in store.healing.suggest("Login@Form", req_id="REQ-A")} == {"REQ-A", ""}
    assert len(store.healing.suggest("Login@Form")) == 3


def test_prune_drops_low_confidence_and_stale_records(store: Store) -> None:
    store.healing.record("Good@F", ROLE, EVIDENCE, now=T0 + timedelta(days=30))
    store.healing.record("Weak@F", ROLE, EVIDENCE, now=T0 + timedelta(days=30))
    store.healing.record_failure("Weak@F", ROLE, now=T0 + timedelta(days=30))  # 0.5
    store.healing.record("Old@F", ROLE, EVIDENCE, now=T0)
    removed = store.healing.prune(
        min_confidence=0.6, max_age=timedelta(days=14), now=T0 + timedelta(days=31)
    )
    assert removed == 2
    assert [r.element_key for r in store.healing.entries()] == ["Good@F"]


def test_pom_cache_hit_miss_expired_and_plan_hash_mismatch(store: Store) -> None:
    payload = {"steps": [{"element": "Username@LoginForm", "locator": ROLE}]}
    assert store.pom_cache.get("REQ-1", "h1", now=T0).status == "miss"
    store.pom_cache.put("REQ-1", "h1", payload, ttl=timedelta(hours=1), now=T0)

    hit = store.pom_cache.get("REQ-1", "h1", now=T0 + timedelta(minutes=59))
    assert hit.hit and hit.payload == payload and hit.expires_at == T0 + timedelta(hours=1)
    expired = store.pom_cache.get("REQ-1", "h1", now=T0 + timedelta(hours=1))
    assert expired.status == "expired" and expired.payload is None

    mismatch = store.pom_cache.get("REQ-1", "h2", now=T0)
    assert mismatch.status == "plan_hash_mismatch" and mismatch.payload is None
    assert mismatch.cached_plan_hashes == ("h1",)
    assert store.pom_cache.get("REQ-2", "h1", now=T0).status == "miss"


def test_pom_cache_is_host_independent_replaceable_and_purgeable(store: Store) -> None:
    # Nothing about a host is part of the key: one put serves every --base-url.
    store.pom_cache.put("REQ-1", "h1", {"v": 1}, ttl=None, now=T0)
    store.pom_cache.put("REQ-1", "h1", {"v": 2}, ttl=None, now=T0)
    forever = store.pom_cache.get("REQ-1", "h1", now=T0 + timedelta(days=3650))
    assert forever.hit and forever.payload == {"v": 2} and forever.expires_at is None

    store.pom_cache.put("REQ-2", "h", {}, ttl=timedelta(minutes=1), now=T0)
    assert store.pom_cache.purge_expired(now=T0 + timedelta(minutes=2)) == 1
    assert store.pom_cache.invalidate("REQ-1") == 1
    assert store.pom_cache.get("REQ-1", "h1").status == "miss"
    with pytest.raises(ValueError, match="ttl must be positive"):
        store.pom_cache.put("REQ-1", "h1", {}, ttl=timedelta(0))


def test_a_lone_surrogate_from_a_page_is_stored_as_a_replacement_character(store: Store) -> None:
    """A page's text cut between the two halves of an emoji (ArchiveBox 0.5.4's "🏛" titles)
    reached the store as a lone surrogate, which SQLite cannot encode: the whole corpus run
    stopped. Unicode has no such character; it is kept as U+FFFD, and the write goes on."""
    payload = {"text": "Archived \U0001f3db"[:-1] + "\ud83c", "name": "caf\u00e9 \U0001f35e"}
    store.pom_cache.put("REQ-1", "h1", payload, ttl=None, now=T0)
    hit = store.pom_cache.get("REQ-1", "h1", now=T0)
    assert hit.payload == {"text": "Archived \ufffd", "name": "caf\u00e9 \U0001f35e"}
