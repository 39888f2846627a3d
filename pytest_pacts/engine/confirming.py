"""A heal's confirmation, written off the step's path.

Once a healed step's retried action succeeded, the ladder adopts the heal at once (the rest
of the run uses it: ``Healer.confirm_later``) and hands back the call that writes what
the heal leaves behind: healing memory and the heal proposal (the recipe's diff, the
store's writes). That call reads no page, so it runs on a worker thread, started once the
step's record is made, while the run goes on with its next step (whose first page call
leaves the interpreter to it), rather than between the step's action and the next step.

Every write sent is waited for, in the order sent, before anything that reads what it
writes: before the next heal round (its memory rung reads healing memory, and its proposal
may be an occurrence of this one's) and before the run's verdict (the report names each
proposal's id, track and promotion flag, and the application layer reads the store after
the run). Each wait is bounded by :data:`CONFIRM_CAP_S` in all: a write that has not
finished by then is reported on the step, not waited for further.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from time import monotonic

from pytest_pacts.models.outcome import HealAttempt, StepRecord

# how long the run waits, in all, for the confirmations sent before a heal round or the
# verdict (the store's own busy timeout bounds each of its writes well below this)
CONFIRM_CAP_S = 30.0


@dataclass
class Confirmation:
    """One heal's writes: of step ``index``'s ``at``-th heal attempt."""

    index: int
    at: int
    thread: threading.Thread | None = None
    # the attempt with the proposal's id, track and promotion flag, once written
    result: HealAttempt | None = None
    # why there is no result: the write raised, or did not finish in time
    error: str | None = None
    done: threading.Event = field(default_factory=threading.Event)


class Confirmations:
    """The confirmations sent and not yet taken back, written one after the other."""

    def __init__(self, cap_s: float = CONFIRM_CAP_S) -> None:
        self.cap_s = cap_s
        self._sent: list[Confirmation] = []

    @property
    def pending(self) -> bool:
        return bool(self._sent)

    def send(self, index: int, at: int, write: Callable[[], HealAttempt]) -> None:
        """Queue ``write`` (of step ``index``'s heal attempt ``at``), to run after those
        sent before once :meth:`start` is called."""
        before = self._sent[-1] if self._sent else None
        job = Confirmation(index, at)

        def run() -> None:
            try:
                if before is not None:
                    before.done.wait(self.cap_s)
                job.result = write()
            except Exception as exc:  # the ladder is another component: never let it raise
                text = str(exc).strip()
                job.error = f"raised {text.splitlines()[0] if text else type(exc).__name__}"
            finally:
                job.done.set()

        job.thread = threading.Thread(target=run, name="pacts-confirm", daemon=True)
        self._sent.append(job)

    def start(self) -> None:
        """Start the writes queued: once the step's record is made, so they do not hold up
        its last Python work or its record's own write to the store."""
        for job in self._sent:
            if job.thread is not None and job.thread.ident is None:
                job.thread.start()

    def take(self) -> list[Confirmation]:
        """Wait for every confirmation sent (at most :attr:`cap_s` in all) and hand them
        over: each with its result, or the reason it has none."""
        self.start()
        deadline = monotonic() + self.cap_s
        sent, self._sent = self._sent, []
        for job in sent:
            if not job.done.wait(max(0.0, deadline - monotonic())):
                job.error = f"was not written within {self.cap_s:.0f} s"
        return sent


def kept_pictures(confirmed: HealAttempt, before: HealAttempt) -> HealAttempt:
    """The confirmed attempt, with the heal's pictures of the attempt it confirms where the
    healer's answer has none."""
    keep = {
        "screenshot_before": before.screenshot_before,
        "screenshot_after": before.screenshot_after,
    }
    return confirmed.model_copy(
        update={k: v for k, v in keep.items() if v and not getattr(confirmed, k)}
    )


def taken_into(
    jobs: list[Confirmation],
    heals: Callable[[int], list[HealAttempt]],
    records: MutableMapping[int, StepRecord],
    said: Callable[[int, str], None],
) -> None:
    """Put each confirmation's answer where the step keeps its heals (``heals(index)``) and
    into the step's record when the step is already finished; ``said(index, note)`` for one
    with no answer (the note goes into the step's failure, as an inline confirm's did)."""
    for job in jobs:
        kept = heals(job.index)
        if job.result is not None:
            kept[job.at] = kept_pictures(job.result, kept[job.at])
        else:
            said(job.index, f"the healer's confirm {job.error}")
        record = records.get(job.index)
        if record is not None:
            records[job.index] = record.model_copy(update={"heals": tuple(kept)})
