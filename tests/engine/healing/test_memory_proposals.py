"""Healing memory with evidence, confirm/reject, and heal proposals through the gate."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.application import store_proposals
from pytest_pacts.engine.contracts import RungResult
from pytest_pacts.engine.healing import HealingLadder, MemoryRung, RepairRung
from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.models.outcome import HealRung
from pytest_pacts.models.recipe import Recipe, SelectorEntry
from pytest_pacts.store import HealingEvidence, Store

from .helpers import discovered, failing_context

PAGE = """<form id="login_form"><label for="u">Username</label><input id="u">
  <button id="login-button" class="btn" data-mark="real">Login</button></form>"""
ENTER = Locator(strategy=Strategy.CSS, confidence=0.7, css="#enter")


def _drift(page: Page) -> None:
    page.evaluate("""() => { const b = document.querySelector('#login-button');
        b.id = 'enter'; b.textContent = 'Enter'; b.className = 'cta'; }""")


def test_memory_hit_with_evidence(tab: Page, store: Store) -> None:
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Login")
    evidence = HealingEvidence(url="http://shop.test/", original_locator={"css": "#x"},
                               failure_type="not_unique")  # fmt: skip
    store.healing.record("Login", ENTER.model_dump(mode="json", exclude_none=True), evidence,
                         req_id=plan.req_id)  # fmt: skip
    tab.evaluate("() => { document.querySelector('#login-button').id = 'enter'; }")
    ladder = HealingLadder(store=store, rungs=[MemoryRung(store)])
    ctx = failing_context(tab, plan, state, locator=Locator(strategy=Strategy.CSS,
                          confidence=0.8, css="#login-button"))  # fmt: skip
    attempt, result = ladder.heal(ctx)
    assert result is not None and attempt.rung is HealRung.MEMORY, attempt.reason
    assert result.locator == ENTER
    assert result.evidence["memory_evidence_url"] == "http://shop.test/"
    # scored by the element's identity, not by the record's success rate (1.0)
    assert result.score is not None and 0.75 <= result.score < 1.0


def test_a_remembered_locator_is_held_to_the_evidence_rule(tab: Page, store: Store) -> None:
    """A remembered heal says which locator worked, not which element it finds now. The
    recorded "Login" button became "Enter" with a new id and class: memory's ``#enter``
    used to be accepted on its record's success rate although the element matches the
    recorded one only at 0.51 (the same weak identity that makes similarity abstain, and
    that made the demo's alternates heal at 0.72). Under the evidence rule it is re-scored
    and refused before acting."""
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Login")
    evidence = HealingEvidence(url="http://shop.test/", original_locator={"css": "#x"},
                               failure_type="not_unique")  # fmt: skip
    store.healing.record("Login", ENTER.model_dump(mode="json", exclude_none=True), evidence,
                         req_id=plan.req_id)  # fmt: skip
    _drift(tab)
    attempt, result = HealingLadder(store=store).heal(failing_context(tab, plan, state))
    assert result is None and not attempt.accepted
    assert "memory: no usable remembered locator: css #enter" in attempt.reason
    assert "below the threshold 0.75" in attempt.reason


def test_memory_refuses_without_evidence(store: Store) -> None:
    locator = ENTER.model_dump(mode="json", exclude_none=True)
    with pytest.raises(ValueError, match="no evidence"):
        store.healing.record("Login", locator, None)
    with pytest.raises(ValueError, match="url is empty"):
        store.healing.record("Login", locator, HealingEvidence("", {"css": "#x"}, "none"))
    assert store.healing.suggest("Login") == []


def test_confirm_records_memory_and_a_gated_proposal(tab: Page, store: Store) -> None:
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Login")
    old = state.locator
    assert old is not None
    tab.evaluate("() => { document.querySelector('#login-button').textContent = 'Log in'; }")
    ctx = failing_context(tab, plan, state)
    ladder = HealingLadder(store=store, proposals=store_proposals(store))
    attempt, result = ladder.heal(ctx)
    assert result is not None and result.locator is not None
    # nothing is written before the executor says the retried action succeeded
    assert store.healing.suggest("Login", req_id=plan.req_id) == []
    confirmed = ladder.confirm(ctx, attempt, result)
    assert state.locator == result.locator  # used for the rest of the run
    assert confirmed.proposal_id is not None and confirmed.track == "contract"
    stored = store.proposals.get(int(confirmed.proposal_id))
    payload = stored.payload
    assert isinstance(payload, dict)
    gate = payload["self_heal_gate"]
    assert isinstance(gate, dict) and gate["gate_version"] == "v1"
    assert gate["evidence_contract_ok"] is True, gate["missing_evidence_fields"]
    assert any(isinstance(e, dict) and "gate_result" in e for e in payload["evidence"])  # type: ignore[union-attr]
    [memory] = store.healing.suggest("Login", req_id=plan.req_id)
    assert memory.evidence.url == tab.url
    assert memory.evidence.failure_type == "not_unique"
    assert memory.evidence.original_locator == old.model_dump(mode="json", exclude_none=True)


def test_reject_lowers_a_remembered_locator_below_the_threshold(tab: Page, store: Store) -> None:
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Login")
    evidence = HealingEvidence("http://shop.test/", {"css": "#x"}, "not_unique")
    store.healing.record("Login", ENTER.model_dump(mode="json", exclude_none=True), evidence,
                         req_id=plan.req_id)  # fmt: skip
    tab.evaluate("() => { document.querySelector('#login-button').id = 'enter'; }")
    ctx = failing_context(tab, plan, state, locator=Locator(strategy=Strategy.CSS,
                          confidence=0.8, css="#login-button"))  # fmt: skip
    ladder = HealingLadder(store=store, rungs=[MemoryRung(store)])
    attempt, result = ladder.heal(ctx)
    assert result is not None and attempt.rung is HealRung.MEMORY, attempt.reason
    ladder.reject(ctx, attempt, result)
    assert store.healing.suggest("Login", 0.7, req_id=plan.req_id) == []  # 1 / 2 = 0.5


def test_a_repair_proposal_carries_the_evidence_its_rca_class_needs(
    tab: Page, store: Store
) -> None:
    tab.set_content("""<button id="send" disabled>Send</button>""")
    plan, state = discovered(tab, "Send")
    ctx = failing_context(tab, plan, state)  # the gate sees it disabled
    # enabled a moment later, while the repair rung waits (started only now: a timer started
    # before the gate raced it on a busy machine)
    tab.evaluate("() => setTimeout(() => document.querySelector('#send').disabled = false, 200)")
    ladder = HealingLadder(store=store, proposals=store_proposals(store), rungs=[RepairRung()])
    attempt, result = ladder.heal(ctx)
    assert result is not None and result.repaired
    confirmed = ladder.confirm(ctx, attempt, result)
    assert confirmed.proposal_id is not None
    payload = store.proposals.get(int(confirmed.proposal_id)).payload
    assert isinstance(payload, dict) and payload["rca_class"] == "enablement_issue"
    gate = payload["self_heal_gate"]
    assert isinstance(gate, dict) and gate["evidence_contract_ok"] is True, gate
    assert store.healing.suggest("Send") == []  # the locator did not change: nothing to remember


def test_a_css_heal_goes_on_the_exception_track(tab: Page, store: Store) -> None:
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Login")
    ctx = failing_context(tab, plan, state, locator=Locator(strategy=Strategy.CSS,
                          confidence=0.7, css="#gone"))  # fmt: skip
    brittle = Locator(strategy=Strategy.CSS, confidence=0.7, css="form > button:nth-of-type(1)")
    result = RungResult(HealRung.SIMILARITY, True, "test", locator=brittle, score=0.9,
                        runner_up_score=0.4, evidence={"gate_result": {"ok": True}})  # fmt: skip
    attempt, _ = HealingLadder(store=store, rungs=[]).heal(ctx)
    ladder = HealingLadder(store=store, proposals=store_proposals(store))
    confirmed = ladder.confirm(ctx, attempt, result)
    assert confirmed.track == "exception"


def test_a_heal_to_a_locator_the_recipe_holds_proposes_nothing(tab: Page, store: Store) -> None:
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Login")
    assert state.locator is not None
    _drift(tab)
    ctx = failing_context(tab, plan, state)
    held = Recipe.from_plan(plan).model_copy(
        update={
            "selectors": {
                "Login": SelectorEntry(
                    primary=state.locator.model_dump(mode="json", exclude_none=True),
                    fallbacks=(ENTER.model_dump(mode="json", exclude_none=True),),
                )
            }
        }
    )
    result = RungResult(HealRung.ALTERNATE, True, "test", locator=ENTER, score=0.9)
    attempt, _ = HealingLadder(store=store, rungs=[]).heal(ctx)
    # the fallback is already in the recipe: accepting would write nothing
    ladder = HealingLadder(store=store, proposals=store_proposals(store), recipes=lambda _p: held)
    confirmed = ladder.confirm(ctx, attempt, result)
    assert confirmed.proposal_id is None and store.proposals.query() == []
    # a locator the recipe does not hold is proposed, as one drift
    other = Locator(strategy=Strategy.CSS, confidence=0.7, css="#login_form .cta")
    again = RungResult(HealRung.ALTERNATE, True, "test", locator=other, score=0.9)
    proposed = ladder.confirm(ctx, attempt, again)
    assert proposed.proposal_id is not None and len(store.proposals.query()) == 1


def test_without_a_proposal_sink_a_heal_is_remembered_but_not_proposed(
    tab: Page, store: Store
) -> None:
    """The ladder reaches the store through two narrow seams: healing memory (the store's
    ``healing``) and the proposal sink the application layer builds over governance."""
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Login")
    tab.evaluate("() => { document.querySelector('#login-button').textContent = 'Log in'; }")
    ctx = failing_context(tab, plan, state)
    ladder = HealingLadder(store=store)
    attempt, result = ladder.heal(ctx)
    assert result is not None and result.locator is not None
    confirmed = ladder.confirm(ctx, attempt, result)
    assert confirmed.proposal_id is None and store.proposals.query() == []
    assert len(store.healing.suggest("Login", req_id=plan.req_id)) == 1
