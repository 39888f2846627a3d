"""A heal's writes off the step's path (engine/confirming.py): in order, bounded, never
raising into the run."""

from __future__ import annotations

import threading
from collections.abc import Callable

from pytest_pacts.engine.confirming import Confirmations
from pytest_pacts.models.outcome import FailureType, HealAttempt, HealRung

ATTEMPT = HealAttempt(
    round=1, rung=HealRung.SIMILARITY, accepted=True, reason="ok", failure=FailureType.NOT_UNIQUE
)


def test_writes_run_in_the_order_sent_and_only_once_started() -> None:
    done: list[int] = []
    sent = Confirmations()

    def writer(n: int) -> Callable[[], HealAttempt]:
        def write() -> HealAttempt:
            done.append(n)
            return ATTEMPT.model_copy(update={"proposal_id": f"P-{n}"})

        return write

    for n in (1, 2, 3):
        sent.send(n, 0, writer(n))
    assert done == [] and sent.pending  # queued: started once the step's record is made
    taken = sent.take()
    assert done == [1, 2, 3] and not sent.pending
    assert [(j.index, j.result and j.result.proposal_id, j.error) for j in taken] == [
        (1, "P-1", None), (2, "P-2", None), (3, "P-3", None)
    ]  # fmt: skip


def test_a_write_that_raises_or_outlasts_the_cap_is_said_not_waited_for() -> None:
    release = threading.Event()
    sent = Confirmations(cap_s=0.05)

    def broken() -> HealAttempt:
        raise RuntimeError("the store is gone\nmore")

    def stuck() -> HealAttempt:
        release.wait(5.0)
        return ATTEMPT

    sent.send(0, 0, broken)
    sent.send(1, 0, stuck)
    try:
        first, second = sent.take()
    finally:
        release.set()
    assert first.result is None and first.error == "raised the store is gone"
    assert second.result is None and second.error == "was not written within 0 s"
