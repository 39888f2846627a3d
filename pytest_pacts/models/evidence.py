"""The evidence rule: when a candidate element is good enough to act on.

One rule for discovery (at collection and at run time, ``pacts discover``, ``pacts
elements``, ``discover_element``) and for every healing rung (docs/discovery.md, "The
evidence rule"; docs/healing.md): a candidate is accepted only when its score is **at
least** the threshold (inclusive) and beats the best *other* element's score by **at
least** the margin. Below it nothing acts: the step fails as ``ambiguous`` (a runner-up too
close) or ``not_found`` (nothing scores enough), naming the candidates and what would make
the name unique.

Discovery's runner-up is the best element the step's words name other than the pick, and
two kinds of element are the pick's own, never its rivals (``runtime/js/resolve.js``,
``runnerUp``): an element that holds the pick or that it holds; and, for a click, a link to
the same address in the same repeated item (HTML's following hyperlinks: a card's cover and
title links). Two facts weigh on the scores of both (the factors of ``models/locator.py``,
docs/discovery.md, "Evidence beyond the level"): a name in another letter case than the
step's, where one is in the step's (Playwright's exact name matching is case-sensitive),
and, for a key at its turn, not having keyboard focus where an element the words name has
it (HTML's focus model). Neither decides alone: this rule judges the scores.

Every comparison of a score with the threshold or the margin is one of the methods below
(the in-page scan ranks, it compares with neither).

One corroboration is written here too (:meth:`EvidenceRule.corroborated`): when two
independent sources single out the same element (a recorded locator by the element's id,
which HTML makes unique in its document, and the fingerprint's ranking; two recorded or
re-discovered locators reading different attributes), the second source stands in for the
margin, never for the threshold.
Nothing stands in for the threshold: below it no element is acted on.

The defaults are written here and nowhere else.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

DEFAULT_THRESHOLD = 0.75
DEFAULT_MARGIN = 0.10
CALIBRATED = 0.90
"""The score from which the calibration holds picks >= 99% right (docs/benchmarks.md,
"Calibration"; ``STRUCTURAL_CEILING`` caps a pick by its place under it). A pick under it
whose click the click guard stopped, the element not moved, is not clicked another way
(``engine/checked.py``, ``_stopped_in_place``)."""

# Scores are rounded to six places before they are compared: 0.85 - 0.75 is
# 0.09999999999999998 in floating point, and a lead of exactly the margin meets it.
_PLACES = 6


class Evidence(enum.StrEnum):
    """The rule's verdict on one ranking."""

    ACCEPTED = "accepted"
    WEAK = "weak"  # the best score is below the threshold
    CLOSE = "close"  # the runner-up is within the margin: two look-alikes


@dataclass(frozen=True)
class EvidenceRule:
    """``threshold``: the least score a candidate must reach (inclusive); ``margin``: the
    least lead it must have over the runner-up (inclusive)."""

    threshold: float = DEFAULT_THRESHOLD
    margin: float = DEFAULT_MARGIN

    def __post_init__(self) -> None:
        if not 0.0 <= self.threshold <= 1.0 or not 0.0 <= self.margin <= 1.0:
            raise ValueError(
                f"the evidence rule needs a threshold and a margin between 0 and 1, "
                f"got {self.threshold} and {self.margin}"
            )

    def verdict(self, best: float, runner_up: float | None = None) -> Evidence:
        """How the rule judges ``best`` against the ``runner_up`` (``None``: no other
        element scored)."""
        if round(best, _PLACES) < round(self.threshold, _PLACES):
            return Evidence.WEAK
        if runner_up is not None and not self.clears_margin(best, runner_up):
            return Evidence.CLOSE
        return Evidence.ACCEPTED

    def accepts(self, best: float, runner_up: float | None = None) -> bool:
        return self.verdict(best, runner_up) is Evidence.ACCEPTED

    def corroborated(self, best: float, runner_up: float | None = None) -> bool:
        """The rule when two independent sources single out the same element: the second
        source stands in for the margin, never for the threshold. ``best`` (the element's
        similarity to the recorded one) must reach the threshold and be strictly above every
        other element's (``runner_up``): a look-alike within the margin does not outvote two
        sources, one that is as similar or more does."""
        if not self.meets_threshold(best):
            return False
        return runner_up is None or round(best, _PLACES) > round(runner_up, _PLACES)

    def meets_threshold(self, score: float) -> bool:
        return round(score, _PLACES) >= round(self.threshold, _PLACES)

    def clears_margin(self, best: float, other: float) -> bool:
        """Does ``best`` lead ``other`` by at least the margin?"""
        return self.lead(best, other) >= round(self.margin, _PLACES)

    @property
    def floor(self) -> float:
        """The least raw score :meth:`meets_threshold` accepts (scores are rounded to six
        places first): what the page is sent when it may skip work on a candidate the rule
        refuses anyway (``min_score``: healing's in-page probe and locate)."""
        return round(self.threshold, _PLACES) - 0.5 * 10.0**-_PLACES

    @staticmethod
    def lead(best: float, runner_up: float) -> float:
        return round(best - runner_up, _PLACES)

    def explain(self, best: float, runner_up: float | None = None) -> str:
        """The verdict in words, with the figures."""
        shown = "none" if runner_up is None else f"{runner_up:.2f}"
        match self.verdict(best, runner_up):
            case Evidence.WEAK:
                return f"best score {best:.2f} is below the threshold {self.threshold:.2f}"
            case Evidence.CLOSE:
                assert runner_up is not None
                if runner_up > best:
                    # the pick is the first strategy's (a stronger kind of name), the rival a
                    # later one's: a rival that scores higher is no lead at all
                    return (
                        f"best {best:.2f} is outscored by another element at "
                        f"{runner_up:.2f} (two candidates: refusing to guess)"
                    )
                return (
                    f"best {best:.2f} beats the runner-up {runner_up:.2f} by "
                    f"{self.lead(best, runner_up):.2f}, less than the margin {self.margin:.2f} "
                    "(two look-alikes: refusing to guess)"
                )
            case _:
                return f"score {best:.2f} at least {self.threshold:.2f}, runner-up {shown}"
