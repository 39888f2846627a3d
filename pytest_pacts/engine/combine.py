"""One record for steps that ran one at a time (the ``pacts`` fixture of hand-written tests).

A hand-written test drives the page itself between its gated steps, so each step runs as a
one-step plan (``Runtime(navigate=False)``). The reports want one
:class:`~pytest_pacts.models.outcome.RunRecord` per test, like a requirement item's:
:func:`combine_runs` renumbers the steps in order and builds the verdict and root cause
with the same rules (:func:`~pytest_pacts.engine.verdict.build_verdict`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

from pytest_pacts.engine.verdict import build_verdict
from pytest_pacts.models import Plan
from pytest_pacts.models.outcome import RunRecord, StepRecord

__all__ = ["combine_runs"]

_FIRST_STEP = re.compile(r"^(screenshot_)step1(?=\D|$)")


def combine_runs(plan: Plan, runs: Sequence[RunRecord]) -> RunRecord:
    """The record of ``plan`` whose step ``i`` ran as the one-step run ``runs[i]``.

    A run that could not start (its step ``not_run``, its RCA the reason) makes the whole
    record fail with that RCA, as it would for a requirement.
    """
    steps: list[StepRecord] = []
    artifacts: dict[str, str] = {}
    for n, run in enumerate(runs):
        for step in run.steps:
            failure = step.failure
            if failure is not None and failure.step_index is not None:
                failure = failure.model_copy(update={"step_index": n})
            steps.append(step.model_copy(update={"index": n, "failure": failure}))
        for key, path in run.artifacts.items():
            # every one-step run names its shots "step1-..."; say which step it was
            artifacts[_FIRST_STEP.sub(rf"\g<1>step{n + 1}", key)] = path
    started = datetime.fromisoformat(runs[0].started_at) if runs else datetime.now(UTC)
    record = build_verdict(
        plan,
        steps,
        start_failure=None,
        started_at=started,
        duration_ms=sum(r.duration_ms for r in runs),
        url=runs[0].url if runs else plan.requirement.url,
        artifacts=artifacts,
    )
    not_started = next(
        (r for r in runs if r.verdict == "fail" and not any(s.status == "failed" for s in r.steps)),
        None,
    )
    update: dict[str, object] = {
        "proposals": tuple(dict.fromkeys(p for r in runs for p in r.proposals)),
        "llm_calls": sum(r.llm_calls for r in runs),
    }
    if not_started is not None:
        update.update(verdict="fail", rca=not_started.rca)
    return record.model_copy(update=update)
