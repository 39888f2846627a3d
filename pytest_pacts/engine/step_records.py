"""The records a run keeps of each step while it runs (:class:`StepProgress`) and the
helpers that finish a step's record: a step never reached, pictures never written."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from pytest_pacts.engine.attempt import Attempt
from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.models import Plan
from pytest_pacts.models.outcome import Failure, HealAttempt, StepRecord


@dataclass
class StepProgress:
    heal_rounds: int = 0
    heals: list[HealAttempt] = field(default_factory=list)
    failure: Failure | None = None
    attempt: Attempt = field(default_factory=Attempt)
    started: float = field(default_factory=time.monotonic)
    # how long the step's attempts and its repairs spent, heal rounds' reading not counted:
    # together they get one step timeout to wait for the element's state
    waited_ms: float = 0.0
    healed: bool = False
    # no further heal round: the last one abstained on a page that did not change while it
    # ran, so another would read the same page and give the same answer
    exhausted: bool = False
    # an applied heal waiting for the retry's outcome: (context, index in heals, result)
    pending: tuple[HealContext, int, RungResult] | None = None
    # what applied heals did to the page to find the element (a menu they opened): the
    # step's notes, kept across its attempts
    notes: list[str] = field(default_factory=list)


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else ""


def without_pictures(step: StepRecord, lost: set[str]) -> StepRecord:
    """``step`` without the heal pictures that were never written."""
    sides = ("screenshot_before", "screenshot_after")
    if not any(getattr(h, side) in lost for h in step.heals for side in sides):
        return step
    heals = tuple(
        h.model_copy(update={side: None for side in sides if getattr(h, side) in lost})
        for h in step.heals
    )
    return step.model_copy(update={"heals": heals})


def not_run(plan: Plan, index: int) -> StepRecord:
    """The record of a step the run never reached."""
    step = plan.steps[index]
    return StepRecord(
        index=step.index,
        action=step.action.value,
        description=step.describe(),
        source=step.source.render(),
        element_key=step.target.key if step.target else None,
        expectation=str(step.expected) if step.expected else None,
        status="not_run",
        block=step.block,
    )
