"""The abstain rule (no heal rather than a false pass; docs/healing.md).

A relocation is accepted only if the best candidate's score passes the evidence rule
(``models/evidence.py``: at least the threshold, and at least the margin over the
runner-up), and its element type fits the action; the gate (the fourth
condition) is checked by the caller on the rendered locator, since it needs the page.
Acting on the wrong element is the worst outcome, so every "no" says why, in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_pacts.models.evidence import Evidence, EvidenceRule


@dataclass(frozen=True)
class Verdict:
    """The rule's answer for one ranking: accepted, or the reason it abstained."""

    accepted: bool
    reason: str


def judge(
    best: float | None,
    runner_up: float | None,
    *,
    fits: bool,
    anchored: bool = True,
    rule: EvidenceRule,
    action: str,
) -> Verdict:
    """Apply the evidence rule and the type condition of the abstain rule."""
    if best is None:
        return Verdict(False, f"abstained: no visible element fits {action}")
    if rule.verdict(best, runner_up) is not Evidence.ACCEPTED:
        return Verdict(False, f"abstained: {rule.explain(best, runner_up)}")
    if not anchored:
        return Verdict(
            False,
            "abstained: the best candidate shares none of the element's own attributes "
            "(text, label, name, id, test id); it only sits where the element was",
        )
    if not fits:
        return Verdict(False, f"abstained: the best candidate's element type does not fit {action}")
    return Verdict(True, rule.explain(best, runner_up))
