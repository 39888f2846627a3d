"""The "copy proposal" text."""

from __future__ import annotations

from pytest_pacts.governance import (
    PROMOTION_REQUIRED_LABEL,
    build_heal_proposal,
    gated,
    heal_rule,
    render_copy_text,
    track_badge,
)
from pytest_pacts.models.heal import HealProposal
from pytest_pacts.models.recipe import JsonObject, Recipe

from .conftest import ROLE_LOCATOR, T0, USER


def _proposal(recipe: Recipe, healed: JsonObject) -> HealProposal:
    return build_heal_proposal(
        recipe,
        step_index=1,
        element_key=USER,
        healed_locator=healed,
        tool_name="similarity",
        score=0.9,
        runner_up_score=0.5,
        rca_class="selector_drift",
        failure_type="none",
        created_at=T0,
        proposal_id="hp_render",
    )


def test_copy_text_holds_gate_diff_confidence_and_evidence_contract(recipe: Recipe) -> None:
    proposal = gated(_proposal(recipe, {"text": "Username"}), None, {"count_7d": 2}, now=T0)
    text = render_copy_text(proposal)
    # step_index 1 is the sheet's step 2: steps are shown numbered from 1
    assert text.startswith("Heal proposal hp_render: REQ-LOGIN-001, step 2, Username@LoginForm\n")
    assert f"Track: Exception · {PROMOTION_REQUIRED_LABEL}: repeat_count_7d>=2" in text
    assert "Confidence: score 0.90, runner-up 0.50 (margin 0.40)" in text
    assert (
        "Evidence contract: tool_name, mismatch_type, failed_locator, healed_locator, score, "
        "runner_up_score, gate_result · missing: gate_result"
    ) in text
    assert '"gate_version": "v1"' in text
    assert "Suggested diff:\n--- recipes/REQ-LOGIN-001/v001" in text
    assert "승격 필요" not in text  # English unless Korean is asked for
    korean = render_copy_text(proposal, lang="ko")
    assert "Track: Exception · 승격 필요: repeat_count_7d>=2" in korean
    # the similarity rung is held to the threshold; 0.90 meets it
    assert (
        "Rule: held to the heal threshold 0.75 and a margin of 0.10 over the runner-up; "
        "score 0.90 meets the threshold"
    ) in text


def test_contract_and_ungated(recipe: Recipe) -> None:
    raw = _proposal(recipe, ROLE_LOCATOR)
    assert track_badge(raw.self_heal_gate) == "Ungated"
    assert "Self-heal gate:\n(not run)" in render_copy_text(raw, evidence_contract=[])
    assert "Evidence contract: (none)" in render_copy_text(raw, evidence_contract=[])
    contract = gated(raw, now=T0)
    assert track_badge(contract.self_heal_gate) == "Contract"
    assert "Track: Contract\n" in render_copy_text(contract)
    assert PROMOTION_REQUIRED_LABEL not in render_copy_text(contract)


def test_the_rule_says_which_rungs_are_held_to_the_threshold(recipe: Recipe) -> None:
    base = _proposal(recipe, ROLE_LOCATOR)
    rediscovered = base.model_copy(
        update={"tool_name": "rediscovery", "score": 0.67, "evidence": [{"heal_threshold": 0.8}]}
    )
    text = heal_rule(rediscovered)
    assert text.startswith("a recorded or re-discovered locator that passed the gate; not held")
    assert "threshold 0.80" in text and "score 0.67 is below the threshold" in text
    assert "Rule: a recorded or re-discovered" in render_copy_text(rediscovered)
    low = base.model_copy(update={"score": 0.7})
    assert heal_rule(low).endswith("score 0.70 is below the threshold")
    same = base.model_copy(update={"tool_name": "repair", "healed_locator": base.failed_locator})
    assert heal_rule(same).startswith("a repair with the same locator")
