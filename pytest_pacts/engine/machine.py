"""The run as a small explicit state machine (docs/engine.md "The state machine").

Stages: planner → discovery → executor ⇄ healer → verdict. The executor runs one
step per visit; after each visit :func:`route` decides, from a :class:`Signal`, where the run
goes next and whether the step pointer moves. The table is pure data and pure logic, so it is
unit-tested on its own (``tests/engine/test_machine.py``); :class:`Machine` only dispatches.

Routing after the executor (with the step's ``on_fail`` and the healing rounds):

- the step passed: next step, or the verdict after the last one;
- it failed with a healable failure, a healer is present and rounds remain (per step,
  ``max_heal_rounds``): the healer;
- it failed otherwise: ``on_fail: skip`` moves on to the next step (the run becomes
  ``partial``), anything else goes to the verdict. An environment fault always ends the run:
  skipping past a crashed page or a dead server would only produce noise.

After the healer: an applied heal (new locator, or the page repaired) retries the same step;
a round that produced nothing tries the next round while rounds remain, else the step has
failed for good and the same skip/abort rule applies.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pytest_pacts.models.outcome import FailureType
from pytest_pacts.settings import PactsSettings


class Stage(enum.StrEnum):
    PLANNER = "planner"
    DISCOVERY = "discovery"
    EXECUTOR = "executor"
    HEALER = "healer"
    VERDICT = "verdict"
    DONE = "done"


class Outcome(enum.StrEnum):
    """What the stage that just ran reports."""

    OK = "ok"  # a pipeline stage finished, or the executor's step passed
    FAILED = "failed"  # the step (or a pipeline stage) failed
    HEALED = "healed"  # the healer applied a new locator or repaired the page
    ABSTAINED = "abstained"  # a healing round produced nothing usable


class Move(enum.StrEnum):
    """What happens to the step pointer with a transition."""

    STAY = "stay"  # same step (a retry after a heal, another heal round)
    NEXT = "next"  # the following step
    SKIP = "skip"  # the failed step is recorded as skipped, then the following step
    NONE = "none"  # not about steps (pipeline stages, the verdict)


# Failures a healing round can do something about (a gate or action
# failure). Expectations are never healed (a healed assertion is a false pass);
# environment faults cannot be healed from inside the page. ``not_found`` (a first discovery
# that matched nothing) has nothing recorded to heal from.
HEALABLE: frozenset[FailureType] = frozenset(
    {
        FailureType.NOT_UNIQUE,
        FailureType.NOT_VISIBLE,
        FailureType.OBSCURED,
        FailureType.DISABLED,
        FailureType.UNSTABLE,
        FailureType.TIMEOUT,
        FailureType.DETACHED,
    }
)
# Failures that end the run whatever the step's ``on_fail`` says.
FATAL: frozenset[FailureType] = frozenset(
    {FailureType.ENV_FAULT, FailureType.NAVIGATION_ERROR, FailureType.CAPTCHA_OR_2FA}
)


@dataclass(frozen=True)
class Signal:
    """The facts :func:`route` decides on."""

    outcome: Outcome
    failure: FailureType = FailureType.NONE
    last_step: bool = False
    heal_rounds_used: int = 0  # rounds already spent on the current step
    max_heal_rounds: int = PactsSettings.max_heal_rounds
    healer: bool = False
    has_target: bool = True  # healing needs an element to heal
    skip_on_fail: bool = False


@dataclass(frozen=True)
class Transition:
    to: Stage
    move: Move = Move.NONE


def _after_failure(sig: Signal) -> Transition:
    if sig.skip_on_fail and sig.failure not in FATAL:
        return Transition(Stage.VERDICT if sig.last_step else Stage.EXECUTOR, Move.SKIP)
    return Transition(Stage.VERDICT)


def can_heal(sig: Signal) -> bool:
    return (
        sig.healer
        and sig.has_target
        and sig.failure in HEALABLE
        and sig.heal_rounds_used < sig.max_heal_rounds
    )


def route(stage: Stage, sig: Signal) -> Transition:
    """The routing table. Raises ``ValueError`` for a signal a stage cannot produce."""
    if stage is Stage.PLANNER or stage is Stage.DISCOVERY:
        nxt = Stage.DISCOVERY if stage is Stage.PLANNER else Stage.EXECUTOR
        return Transition(nxt) if sig.outcome is Outcome.OK else Transition(Stage.VERDICT)
    if stage is Stage.EXECUTOR:
        if sig.outcome is Outcome.OK:
            return Transition(Stage.VERDICT if sig.last_step else Stage.EXECUTOR, Move.NEXT)
        if sig.outcome is Outcome.FAILED:
            return Transition(Stage.HEALER, Move.STAY) if can_heal(sig) else _after_failure(sig)
    if stage is Stage.HEALER:
        if sig.outcome is Outcome.HEALED:
            return Transition(Stage.EXECUTOR, Move.STAY)
        if sig.outcome is Outcome.ABSTAINED:
            return Transition(Stage.HEALER, Move.STAY) if can_heal(sig) else _after_failure(sig)
    if stage is Stage.VERDICT:
        return Transition(Stage.DONE)
    raise ValueError(f"the {stage.value} stage cannot report {sig.outcome.value}")


Handler = Callable[[], Signal]


class Machine:
    """Runs handlers until ``DONE``. ``on_move`` is told every step-pointer move."""

    def __init__(self, handlers: Mapping[Stage, Handler], on_move: Callable[[Move], None]) -> None:
        missing = set(Stage) - {Stage.DONE} - set(handlers)
        if missing:
            raise ValueError(f"no handler for {sorted(s.value for s in missing)}")
        self._handlers = handlers
        self._on_move = on_move
        self.trace: list[tuple[Stage, Outcome, Stage]] = []

    def run(self, start: Stage = Stage.PLANNER) -> None:
        stage = start
        while stage is not Stage.DONE:
            signal = self._handlers[stage]()
            transition = route(stage, signal)
            self.trace.append((stage, signal.outcome, transition.to))
            if transition.move is not Move.NONE:
                self._on_move(transition.move)
            stage = transition.to
