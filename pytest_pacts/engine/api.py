"""The one entry point the pytest layer (and ``pacts``) call to run a requirement.

The pytest item hands over the plan and what it got from fixtures; the engine knows nothing
of pytest (STYLE.md habit 2). Until the executor lands (issue 5) a run is a *dry run*: every
template is resolved at the moment of use, exactly as the executor will do it, and the
outcome reports what would be executed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pytest_pacts.models import Plan
from pytest_pacts.planner.templating import Resolver, TemplateError


@dataclass(frozen=True)
class Runtime:
    """What a run needs from its surroundings (the pytest layer fills it from fixtures)."""

    env: Mapping[str, str]
    secret_vars: frozenset[str] = frozenset()
    base_url: str | None = None


@dataclass(frozen=True)
class StepOutcome:
    index: int
    description: str
    status: str  # "planned" in a dry run
    detail: str = ""


@dataclass(frozen=True)
class RunOutcome:
    req_id: str
    plan_hash: str
    verdict: str  # "pass" | "fail"
    steps: tuple[StepOutcome, ...] = ()
    failure: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"


class RequirementFailed(Exception):
    """Raised by the pytest layer with a text written for a person (no plugin traceback)."""


def run_requirement(plan: Plan, runtime: Runtime) -> RunOutcome:
    """Run ``plan``. For now: resolve every value at its moment of use and report the plan."""
    resolver = Resolver(runtime.env, plan.requirement.vars, plan.secret_vars | runtime.secret_vars)
    outcomes: list[StepOutcome] = []
    for step in plan.steps:
        try:
            if step.value is not None:
                resolver.resolve(step.value)
        except TemplateError as exc:
            text = f"{step.source.render()}: step {step.index + 1} ({step.describe()}): {exc}"
            return RunOutcome(plan.req_id, plan.plan_hash, "fail", tuple(outcomes), text)
        outcomes.append(StepOutcome(step.index, step.describe(), "planned"))
    return RunOutcome(
        plan.req_id,
        plan.plan_hash,
        "pass",
        tuple(outcomes),
        notes=("dry run: the execution engine is not enabled yet",),
    )
