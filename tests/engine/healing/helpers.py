"""Building a healing context the way the executor will: discover, break, heal."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import Discoverer, check_locator
from pytest_pacts.engine.contracts import EngineOptions, HealContext, StepState
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.models.requirement import Action, Plan, Requirement, SourceRef, Step, Target

SOURCE = SourceRef(path="heal.req.yaml", line=3)


def plan_for(element: str, action: str = "click", region: str | None = None) -> Plan:
    step = Step(index=0, action=Action(action), target=Target(element=element, region=region),
                source=SOURCE)  # fmt: skip
    requirement = Requirement(req_id="REQ-HEAL-001", url="about:blank", steps=(step,),
                              source=SOURCE)  # fmt: skip
    return Plan(requirement=requirement, steps=(step,), plan_hash="h" * 16)


def discovered(page: Page, element: str, action: str = "click", region: str | None = None
               ) -> tuple[Plan, StepState]:  # fmt: skip
    """Discover ``element`` on the page as it is now (the "before drift" snapshot)."""
    plan = plan_for(element, action, region)
    step = plan.steps[0]
    assert step.target is not None
    result = Discoverer().discover(page, [(0, step.target, step.action)])[0]
    assert result.locator is not None, result.unresolved
    state = StepState(step=step, discovery=result, locator=result.locator,
                      alternates=result.alternates, fingerprint=result.fingerprint)  # fmt: skip
    return plan, state


def failing_context(page: Page, plan: Plan, state: StepState, options: EngineOptions | None = None,
                    locator: Locator | None = None, round: int = 1) -> HealContext:  # fmt: skip
    """The context the executor builds when the gate fails on ``state.locator``."""
    if locator is not None:
        state.locator = locator
    assert state.locator is not None
    gate = check_locator(page, state.locator, state.step.action)
    failed = gate.failed
    assert failed is not None, "the locator still passes the gate: nothing to heal"
    kind = {
        "none": FailureType.NOT_UNIQUE, "not_unique": FailureType.NOT_UNIQUE,
        "obscured": FailureType.OBSCURED, "not_visible": FailureType.NOT_VISIBLE,
        "disabled": FailureType.DISABLED, "unstable": FailureType.UNSTABLE,
        "detached": FailureType.DETACHED,
    }.get(failed.code, FailureType.TIMEOUT)  # fmt: skip
    failure = Failure(type=kind, message=failed.reason, gate=gate)
    return HealContext(page=page, plan=plan, state=state, failure=failure, round=round,
                       options=options or EngineOptions())  # fmt: skip
