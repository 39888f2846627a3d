"""build_heal_proposal: patch, diff, plan, and honest contract / exception fields."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pytest_pacts.governance import (
    REQUIRED_CONTRACT_FIELDS,
    REQUIRED_EXCEPTION_FIELDS,
    PatchRejected,
    apply_patch,
    build_heal_proposal,
    build_self_heal_gate,
    default_exception_expiry,
)
from pytest_pacts.models.heal import HealProposal, Severity
from pytest_pacts.models.recipe import JsonObject, Recipe

from .conftest import LABEL_LOCATOR, ROLE_LOCATOR, T0, USER


def heal(recipe: Recipe, healed: JsonObject, **kw: object) -> HealProposal:
    args: dict[str, object] = {
        "step_index": 1,
        "element_key": USER,
        "healed_locator": healed,
        "tool_name": "rediscovery",
        "score": 0.93,
        "runner_up_score": 0.41,
        "rca_class": "selector_drift",
        "failure_type": "none",
        "created_at": T0,
        "proposal_id": "hp_test",
    }
    args.update(kw)
    return build_heal_proposal(recipe, **args)  # type: ignore[arg-type]


def test_semantic_heal_fills_the_contract_track(recipe: Recipe) -> None:
    proposal = heal(recipe, ROLE_LOCATOR)
    payload = proposal.payload()
    assert all(payload[f] for f in REQUIRED_CONTRACT_FIELDS)
    assert all(payload[f] is None for f in REQUIRED_EXCEPTION_FIELDS)
    assert proposal.locator_strategy == "role_name"
    assert proposal.contract_expectation == (
        "role='textbox', name='Username' resolves to exactly one element"
    )
    gate = build_self_heal_gate(proposal, now=T0)
    assert (gate["track"], gate["contract_fields_ok"]) == ("contract", True)


@pytest.mark.parametrize(
    ("healed", "signal"),
    [
        ({"strategy": "css", "css": "form > input:nth-child(2)"}, "positional_locator"),
        ({"strategy": "css", "css": "input.css-1x2y3z"}, "auto_generated_id_class"),
        ({"strategy": "text", "text": "Username"}, "exact_text_only"),
    ],
)
def test_brittle_heal_fills_the_exception_track(
    recipe: Recipe, healed: JsonObject, signal: str
) -> None:
    proposal = heal(recipe, healed)
    payload = proposal.payload()
    assert all(payload[f] for f in REQUIRED_EXCEPTION_FIELDS)
    assert all(payload[f] is None for f in REQUIRED_CONTRACT_FIELDS)
    assert signal in (proposal.exception_reason or "")
    assert proposal.exception_expiry == "2026-04-01"  # 2026-03-01T12:00 + 30 days, rounded up
    assert proposal.blast_radius == "1 step(s) of REQ-LOGIN-001 that target 'Username@LoginForm'"
    gate = build_self_heal_gate(proposal, now=T0)
    assert gate["track"] == "exception"
    assert gate["case_specific_signals"] == [signal]
    assert gate["exception_fields_ok"] is True
    assert gate["promotion_required"] is False
    later = build_self_heal_gate(proposal, now=datetime(2026, 4, 1, 0, 0, 1, tzinfo=UTC))
    assert later["promotion_reason"] == "exception_expiry_passed:2026-04-01"


@pytest.mark.parametrize(
    ("created", "expiry"),
    [
        (datetime(2026, 3, 1, 0, 0, tzinfo=UTC), "2026-03-31"),  # midnight: exact
        (datetime(2026, 3, 1, 0, 0, 1, tzinfo=UTC), "2026-04-01"),  # rounded up
        (datetime(2026, 12, 15, 9, 30, tzinfo=UTC), "2027-01-15"),
    ],
)
def test_default_exception_expiry(created: datetime, expiry: str) -> None:
    assert default_exception_expiry(created) == expiry
    moment = datetime.fromisoformat(expiry).replace(tzinfo=UTC)
    assert moment >= created + timedelta(days=30)


def test_patch_replaces_the_selector_and_keeps_the_old_as_last_fallback(recipe: Recipe) -> None:
    proposal = heal(recipe, ROLE_LOCATOR)
    (op,) = proposal.patch_ops
    assert (op.path, op.op) == (f"selectors.{USER}", "replace")
    assert op.value == {"primary": ROLE_LOCATOR, "fallbacks": [LABEL_LOCATOR]}
    assert proposal.failed_locator == LABEL_LOCATOR
    assert proposal.severity is Severity.MINOR
    assert proposal.base_version == "v001"
    assert proposal.target_files == ("recipes/REQ-LOGIN-001/v002/selectors.json",)
    v2 = apply_patch(recipe, list(proposal.patch_ops))
    assert v2.selectors[USER].primary == ROLE_LOCATOR
    assert '+        "role": "textbox",' in proposal.suggested_diff
    assert proposal.suggested_diff.startswith("--- recipes/REQ-LOGIN-001/v001\n")
    # step_index 1 is the sheet's step 2
    assert "Replace the primary locator of 'Username@LoginForm' (step 2)" in proposal.change_plan
    assert "score 0.93, runner-up 0.41" in proposal.change_plan
    assert "keep the old locator as the last fallback" in proposal.change_plan


def test_healing_back_to_a_fallback_does_not_duplicate_it(recipe: Recipe) -> None:
    login = "Login@LoginForm"
    css: JsonObject = {"strategy": "css", "css": "#login-button"}
    proposal = heal(recipe, css, element_key=login, step_index=2)
    assert proposal.patch_ops[0].value == {
        "primary": css,
        "fallbacks": [{"strategy": "role_name", "role": "button", "name": "Login"}],
    }


def test_element_new_to_the_recipe_is_added(recipe: Recipe) -> None:
    proposal = heal(recipe, ROLE_LOCATOR, element_key="Remember me@LoginForm")
    (op,) = proposal.patch_ops
    assert (op.op, op.value) == ("add", {"primary": ROLE_LOCATOR, "fallbacks": []})
    assert proposal.failed_locator == {}
    assert "(none)" in proposal.change_plan and proposal.change_plan.startswith("Add")


def test_explicit_failed_locator_and_evidence(recipe: Recipe) -> None:
    failed: JsonObject = {"strategy": "css", "css": "#user-name"}
    proposal = heal(recipe, ROLE_LOCATOR, failed_locator=failed, evidence=["x", {"a": 1}])
    assert proposal.failed_locator == failed
    assert proposal.evidence == ["x", {"a": 1}]
    assert proposal.patch_ops[0].value == {
        "primary": ROLE_LOCATOR,
        "fallbacks": [failed],
    }


def test_no_runner_up(recipe: Recipe) -> None:
    proposal = heal(recipe, ROLE_LOCATOR, runner_up_score=None)
    assert "runner-up none" in proposal.change_plan
    assert build_self_heal_gate(proposal, now=T0)["missing_evidence_fields"] == [
        "runner_up_score",
        "gate_result",
    ]


def test_a_heal_that_breaks_the_contract_raises(recipe: Recipe) -> None:
    with pytest.raises(PatchRejected, match="name one entry"):
        heal(recipe, ROLE_LOCATOR, element_key="")


def test_discovery_locator_models_feed_the_builder(recipe: Recipe) -> None:
    from pytest_pacts.models.locator import Locator, Strategy

    css = Locator(strategy=Strategy.CSS, confidence=0.7, css="#user-name")
    proposal = heal(recipe, css.model_dump(mode="json"))
    assert proposal.locator_strategy == "css"
    assert proposal.contract_expectation == (
        '{"confidence": 0.7, "css": "#user-name", "exact": true, "in_shadow": false, '
        '"strategy": "css"} '
        "resolves to exactly one element"
    )
    text = Locator(strategy=Strategy.TEXT, confidence=0.86, text="Username")
    assert heal(recipe, text.model_dump(mode="json")).exception_reason is not None
