"""The abstain rule (no heal rather than a false pass; docs/healing.md).

A relocation is accepted only if the best candidate's score is above the threshold, beats
the runner-up by the margin, and its element type fits the action; the gate (the fourth
condition) is checked by the caller on the rendered locator, since it needs the page.
Acting on the wrong element is the worst outcome, so every "no" says why, in words.
"""

from __future__ import annotations

from dataclasses import dataclass


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
    threshold: float,
    margin: float,
    action: str,
) -> Verdict:
    """Apply the score, margin and type conditions of the abstain rule."""
    if best is None:
        return Verdict(False, f"abstained: no visible element fits {action}")
    if best <= threshold:
        return Verdict(False, f"abstained: best score {best:.2f} is not above {threshold:.2f}")
    lead = best - (runner_up or 0.0)
    # a float hair below the margin is below it: compare with a small tolerance upward only
    if runner_up is not None and lead < margin - 1e-9:
        return Verdict(
            False,
            f"abstained: best {best:.2f} beats the runner-up {runner_up:.2f} by {lead:.2f}, "
            f"less than the margin {margin:.2f} (two look-alikes: refusing to guess)",
        )
    if not anchored:
        return Verdict(
            False,
            "abstained: the best candidate shares none of the element's own attributes "
            "(text, label, name, id, test id); it only sits where the element was",
        )
    if not fits:
        return Verdict(False, f"abstained: the best candidate's element type does not fit {action}")
    shown = "none" if runner_up is None else f"{runner_up:.2f}"
    return Verdict(True, f"score {best:.2f} above {threshold:.2f}, runner-up {shown}")
