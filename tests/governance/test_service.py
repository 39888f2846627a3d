"""propose(): repeat counts from the store's audit events, gate, persist.

Runs on a real SQLite store file: the counts are read from the same audit events the store
writes for each proposal, so this is the loop as it runs in production.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from pytest_pacts.governance import HealSite, build_heal_proposal, propose
from pytest_pacts.models.heal import HealProposal
from pytest_pacts.models.recipe import Recipe
from pytest_pacts.store import PROPOSAL_CREATED_EVENT, Store, open_store

from .conftest import T0, USER


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(tmp_path / "pacts.sqlite") as opened:
        yield opened


def brittle(recipe: Recipe, when: timedelta) -> HealProposal:
    return build_heal_proposal(
        recipe,
        step_index=1,
        element_key=USER,
        healed_locator={"strategy": "css", "css": "form > input:nth-child(1)"},
        tool_name="similarity",
        score=0.88,
        runner_up_score=0.5,
        rca_class="selector_drift",
        failure_type="none",
        created_at=T0 + when,
    )


def test_repeats_in_7_days_require_promotion(store: Store, recipe: Recipe) -> None:
    first = propose(store, brittle(recipe, timedelta(0)), now=T0)
    gate = first.self_heal_gate
    assert gate is not None
    assert gate["exception_stats"] == {"repeat_count_7d": 0, "repeat_count_30d": 0}
    assert (gate["track"], gate["promotion_required"]) == ("exception", False)

    second = propose(store, brittle(recipe, timedelta(days=1)), now=T0 + timedelta(days=1))
    assert second.self_heal_gate is not None
    assert second.self_heal_gate["exception_stats"]["repeat_count_7d"] == 1
    assert second.self_heal_gate["promotion_required"] is False

    third = propose(store, brittle(recipe, timedelta(days=2)), now=T0 + timedelta(days=2))
    assert third.self_heal_gate is not None
    assert third.self_heal_gate["exception_stats"] == {
        "repeat_count_7d": 2,
        "repeat_count_30d": 2,
    }
    assert third.self_heal_gate["promotion_required"] is True
    assert third.self_heal_gate["promotion_reason"] == "repeat_count_7d>=2"


def test_stored_proposal_round_trips(store: Store, recipe: Recipe) -> None:
    proposal = brittle(recipe, timedelta(0))
    stored = propose(store, proposal, now=T0)
    assert stored.id.isdigit() and stored.status.value == "pending"
    record = store.proposals.get(int(stored.id))
    assert record.track == "exception"
    assert record.exception_fingerprint == (
        "ex:selector_drift:req-login-001.username@loginform:none:similarity"
    )
    events = store.audit.events(event_type=PROPOSAL_CREATED_EVENT)
    assert len(events) == 1
    assert events[0].payload["self_heal_gate"] == stored.self_heal_gate
    assert stored.model_copy(update={"id": proposal.id, "self_heal_gate": None}) == proposal


def test_one_drift_in_several_requirements_is_one_proposal_not_a_repeat(
    store: Store, recipe: Recipe
) -> None:
    site = HealSite(deployment="http://shop.test", url="http://shop.test/login?next=/")
    reqs = ("REQ-LOGIN-001", "REQ-CART-001", "REQ-CHECKOUT-001")
    stored = [
        propose(store, brittle(recipe.model_copy(update={"req_id": r}), timedelta(0)),
                now=T0 + timedelta(minutes=n), site=site)
        for n, r in enumerate(reqs)
    ]  # fmt: skip
    assert {p.id for p in stored} == {"1"} and len(store.proposals.query()) == 1
    record = store.proposals.get(1)
    assert record.page == "/login"
    assert [o.req_id for o in store.proposals.occurrences(1)] == list(reqs)
    # four requirements healing one drift in one run is reach, not a recurring exception
    assert record.promotion_required is False
    # a second run of the three: each requirement's second time, still no promotion
    for n, r in enumerate(reqs):
        again = brittle(recipe.model_copy(update={"req_id": r}), timedelta(days=1))
        propose(store, again, now=T0 + timedelta(days=1, minutes=n), site=site)
    assert store.proposals.get(1).promotion_required is False
    # the same requirement healing it a third time is a recurring exception
    third = propose(store, brittle(recipe, timedelta(days=2)), now=T0 + timedelta(days=2),
                    site=site)  # fmt: skip
    gate = third.self_heal_gate
    assert gate is not None and gate["promotion_required"] is True
    assert gate["exception_stats"]["repeat_count_7d"] == 2
    # and it stays required when a requirement healing it for the first time comes after
    new = brittle(recipe.model_copy(update={"req_id": "REQ-NEW-001"}), timedelta(days=2))
    propose(store, new, now=T0 + timedelta(days=2, minutes=1), site=site)
    assert store.proposals.get(1).promotion_required is True
    assert len(store.proposals.query()) == 1
    assert len(store.proposals.occurrences(1)) == 8
    # on another page it is another drift
    elsewhere = HealSite(deployment="http://shop.test", url="http://shop.test/signup")
    other = propose(store, brittle(recipe, timedelta(days=3)), now=T0 + timedelta(days=3),
                    site=elsewhere)  # fmt: skip
    assert other.id == "2"
