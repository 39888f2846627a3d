"""Recording a run in the store: begin, one row per step as it finishes, finish.

Kept small on purpose: reports read the :class:`~pytest_pacts.models.outcome.RunRecord`,
not the store. A second process starting the same requirement in the same session gets
``SESSION_CONFLICT``: the run does not start and fails with that reason. Each step is
written as soon as it finishes, so a run in flight shows its progress (the live view of
``pacts serve``, docs/observer.md); :meth:`Recorder.finish` writes the steps that never ran.
"""

from __future__ import annotations

from pytest_pacts.engine.ports import RunStore
from pytest_pacts.models import Plan
from pytest_pacts.models.outcome import Failure, FailureType, RunRecord, StepRecord
from pytest_pacts.store.errors import SessionConflict, StoreError


class Recorder:
    def __init__(
        self,
        store: RunStore | None,
        session_id: str,
        plan: Plan,
        *,
        recipe_version: str | None = None,
    ) -> None:
        self.store = store
        self.session_id = session_id
        self.plan = plan
        self.recipe_version = recipe_version
        self.run_id: int | None = None
        self._written: set[int] = set()
        self._problems: list[str] = []

    def begin(self) -> Failure | None:
        if self.store is None:
            return None
        try:
            run = self.store.runs.begin(
                self.session_id,
                self.plan.req_id,
                plan_hash=self.plan.plan_hash,
                recipe_version=self.recipe_version,
            )
        except SessionConflict as exc:
            return Failure(
                type=FailureType.ENV_FAULT,
                message=f"SESSION_CONFLICT: {self.plan.req_id} is already running in session "
                f"{self.session_id!r}; this run did not start",
                cause="session_conflict",
                evidence=(str(exc),),
            )
        self.run_id = run.id
        return None

    def step_done(self, step: StepRecord) -> None:
        """Write one finished step now; a store problem is kept for :meth:`finish` to
        report (never raised: a store hiccup must not fail a step)."""
        if self.store is None or self.run_id is None or step.index in self._written:
            return
        try:
            self._add_step(step)
        except StoreError as exc:
            self._problems.append(f"step {step.index + 1} could not be recorded: {exc}")
            return
        self._written.add(step.index)

    def _add_step(self, step: StepRecord) -> None:
        assert self.store is not None and self.run_id is not None
        self.store.runs.add_step(
            self.run_id,
            step_index=step.index,
            action=step.action,
            status=step.status,
            element_key=step.element_key,
            locator=step.locator.model_dump(mode="json") if step.locator else None,
            strategy=step.strategy,
            confidence=step.confidence,
            gate=step.gate.model_dump(mode="json") if step.gate else None,
            heal_round=len(step.heals),
            duration_ms=step.duration_ms,
        )

    def finish(self, record: RunRecord) -> list[str]:
        """Write the steps not written yet and the verdict; store problems are returned,
        never raised (a store hiccup must not turn a real verdict into an error)."""
        if self.store is None or self.run_id is None:
            return []
        runs = self.store.runs
        try:
            for step in record.steps:
                if step.index not in self._written:
                    self._add_step(step)
                    self._written.add(step.index)
            for kind, path in record.artifacts.items():
                runs.add_artifact(self.run_id, kind, path)
            runs.finish(
                self.run_id,
                verdict=record.verdict,
                rca_class=record.rca.rca_class.value,
                healed=record.healed,
                heal_count=record.heal_count,
                llm_calls=record.llm_calls,
            )
        except StoreError as exc:
            return [*self._problems, f"the run could not be recorded in the store: {exc}"]
        return list(self._problems)
