"""The evidence rule's verdict in words (models/evidence.py): a refusal names its figures
truthfully, also when the pick's rival scores higher than the pick (held-out DokuWiki's
"Search" read "beats the runner-up 0.95 by -0.07")."""

from __future__ import annotations

from pytest_pacts.models.evidence import Evidence, EvidenceRule


def test_a_rival_that_scores_higher_is_said_to_outscore_the_pick() -> None:
    rule = EvidenceRule()
    assert rule.verdict(0.88, 0.95) is Evidence.CLOSE
    words = rule.explain(0.88, 0.95)
    assert "outscored by another element at 0.95" in words and "-0." not in words


def test_a_close_rival_below_the_pick_is_said_to_lose_by_less_than_the_margin() -> None:
    words = EvidenceRule().explain(0.90, 0.85)
    assert "beats the runner-up 0.85 by 0.05, less than the margin 0.10" in words
