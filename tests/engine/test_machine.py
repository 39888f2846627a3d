"""The routing table of the run's state machine (on_fail and healing rounds included)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pytest_pacts.engine.machine import (
    FATAL,
    HEALABLE,
    Machine,
    Move,
    Outcome,
    Signal,
    Stage,
    Transition,
    route,
)
from pytest_pacts.models.outcome import FailureType as F

OK = Outcome.OK
FAILED = Outcome.FAILED
HEALED = Outcome.HEALED
ABSTAINED = Outcome.ABSTAINED


@pytest.mark.parametrize(
    ("stage", "signal", "expected"),
    [
        # the pipeline: planner -> discovery -> executor
        (Stage.PLANNER, Signal(OK), Transition(Stage.DISCOVERY)),
        (Stage.PLANNER, Signal(FAILED, F.NAVIGATION_ERROR), Transition(Stage.VERDICT)),
        (Stage.DISCOVERY, Signal(OK), Transition(Stage.EXECUTOR)),
        (Stage.DISCOVERY, Signal(FAILED, F.ENV_FAULT), Transition(Stage.VERDICT)),
        # a passing step: continue, or the verdict after the last
        (Stage.EXECUTOR, Signal(OK), Transition(Stage.EXECUTOR, Move.NEXT)),
        (Stage.EXECUTOR, Signal(OK, last_step=True), Transition(Stage.VERDICT, Move.NEXT)),
        # a failing step with a healer and rounds left: heal
        (
            Stage.EXECUTOR,
            Signal(FAILED, F.NOT_UNIQUE, healer=True, heal_rounds_used=2),
            Transition(Stage.HEALER, Move.STAY),
        ),
        # ... no rounds left: verdict
        (
            Stage.EXECUTOR,
            Signal(FAILED, F.NOT_UNIQUE, healer=True, heal_rounds_used=3),
            Transition(Stage.VERDICT),
        ),
        # ... no healer: straight to the verdict
        (Stage.EXECUTOR, Signal(FAILED, F.OBSCURED), Transition(Stage.VERDICT)),
        # ... not healable (an assertion, an env fault): verdict even with a healer
        (
            Stage.EXECUTOR,
            Signal(FAILED, F.EXPECTATION_FAILED, healer=True),
            Transition(Stage.VERDICT),
        ),
        (Stage.EXECUTOR, Signal(FAILED, F.ENV_FAULT, healer=True), Transition(Stage.VERDICT)),
        # ... a step without an element (goto, wait) has nothing to heal
        (
            Stage.EXECUTOR,
            Signal(FAILED, F.TIMEOUT, healer=True, has_target=False),
            Transition(Stage.VERDICT),
        ),
        # on_fail: skip moves on (partial), except after an environment fault
        (
            Stage.EXECUTOR,
            Signal(FAILED, F.EXPECTATION_FAILED, skip_on_fail=True),
            Transition(Stage.EXECUTOR, Move.SKIP),
        ),
        (
            Stage.EXECUTOR,
            Signal(FAILED, F.EXPECTATION_FAILED, skip_on_fail=True, last_step=True),
            Transition(Stage.VERDICT, Move.SKIP),
        ),
        (
            Stage.EXECUTOR,
            Signal(FAILED, F.ENV_FAULT, skip_on_fail=True),
            Transition(Stage.VERDICT),
        ),
        # the healer: applied -> retry the same step; nothing -> next round or give up
        (
            Stage.HEALER,
            Signal(HEALED, F.NOT_UNIQUE, healer=True),
            Transition(Stage.EXECUTOR, Move.STAY),
        ),
        (
            Stage.HEALER,
            Signal(ABSTAINED, F.NOT_UNIQUE, healer=True, heal_rounds_used=1),
            Transition(Stage.HEALER, Move.STAY),
        ),
        (
            Stage.HEALER,
            Signal(ABSTAINED, F.NOT_UNIQUE, healer=True, heal_rounds_used=3),
            Transition(Stage.VERDICT),
        ),
        (
            Stage.HEALER,
            Signal(ABSTAINED, F.NOT_UNIQUE, healer=True, heal_rounds_used=3, skip_on_fail=True),
            Transition(Stage.EXECUTOR, Move.SKIP),
        ),
        (Stage.VERDICT, Signal(OK), Transition(Stage.DONE)),
    ],
)
def test_route(stage: Stage, signal: Signal, expected: Transition) -> None:
    assert route(stage, signal) == expected


def test_max_heal_rounds_is_per_step_and_configurable() -> None:
    sig = Signal(FAILED, F.UNSTABLE, healer=True, heal_rounds_used=1, max_heal_rounds=1)
    assert route(Stage.EXECUTOR, sig) == Transition(Stage.VERDICT)


def test_impossible_signals_are_rejected() -> None:
    with pytest.raises(ValueError, match="executor stage cannot report healed"):
        route(Stage.EXECUTOR, Signal(HEALED))


def test_failure_sets_are_disjoint() -> None:
    assert not HEALABLE & FATAL
    assert F.EXPECTATION_FAILED not in HEALABLE  # never heal an assertion


def test_machine_runs_a_heal_loop_to_the_verdict() -> None:
    script = {
        Stage.PLANNER: [Signal(OK)],
        Stage.DISCOVERY: [Signal(OK)],
        Stage.EXECUTOR: [
            Signal(OK),
            Signal(FAILED, F.NOT_UNIQUE, healer=True),
            Signal(OK, last_step=True),
        ],
        Stage.HEALER: [Signal(HEALED, F.NOT_UNIQUE, healer=True, heal_rounds_used=1)],
        Stage.VERDICT: [Signal(OK)],
    }
    moves: list[Move] = []

    def handler(stage: Stage) -> Callable[[], Signal]:
        return lambda: script[stage].pop(0)

    machine = Machine({s: handler(s) for s in script}, moves.append)
    machine.run()
    assert [t[0] for t in machine.trace] == [
        Stage.PLANNER, Stage.DISCOVERY, Stage.EXECUTOR, Stage.EXECUTOR,
        Stage.HEALER, Stage.EXECUTOR, Stage.VERDICT,
    ]  # fmt: skip
    assert moves == [Move.NEXT, Move.STAY, Move.STAY, Move.NEXT]
    assert all(not left for left in script.values())


def test_machine_needs_every_handler() -> None:
    with pytest.raises(ValueError, match="no handler"):
        Machine({Stage.PLANNER: lambda: Signal(OK)}, lambda _m: None)
