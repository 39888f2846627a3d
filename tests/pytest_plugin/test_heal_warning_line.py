"""The line a healed requirement's warning gives each heal says what decided it, as the
report does (``HealAttempt.figures``): a re-discovery is accepted by discovery's evidence
rule (its confidence and lead), and its ``score`` is only the similarity to the recorded
element. Before, the warning printed that similarity as "score 0.69, runner-up 0.29" (the
demo's REQ-SORT-001 on release v2), which reads as a heal accepted under the 0.75 threshold."""

from __future__ import annotations

from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.models.outcome import FailureType, HealAttempt, HealRung
from pytest_pacts.pytest_plugin.execution import heal_line

_OLD = Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Add to cart")
_NEW = Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Add to Cart")


def _heal(rung: HealRung, basis: str | None) -> HealAttempt:
    return HealAttempt(
        round=1,
        rung=rung,
        accepted=True,
        reason="accepted",
        failure=FailureType.NOT_UNIQUE,
        old_locator=_OLD,
        new_locator=_NEW,
        score=0.69,
        runner_up_score=0.29,
        basis=basis,
        proposal_id="4",
        track="contract",
    )


def test_a_rediscovery_heal_says_discoverys_confidence_not_a_score_under_the_threshold() -> None:
    basis = (
        "discovery's confidence 0.95 (no other element named so); "
        "similarity to the recorded element 0.69"
    )
    line = heal_line(_heal(HealRung.REDISCOVERY, basis))
    assert f"({basis}; proposal #4, contract track)" in line
    assert "score 0.69" not in line


def test_a_heal_decided_by_its_score_shows_the_score_and_runner_up() -> None:
    line = heal_line(_heal(HealRung.ALTERNATE, None))
    assert line.startswith('  alternate: role_name button "Add to cart" -> ')
    assert line.endswith("(score 0.69, runner-up 0.29; proposal #4, contract track)")
