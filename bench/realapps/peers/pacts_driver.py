"""pytest-pacts, run like the peers (the project's own venv).

Record: discovery of the step's words (``Element[N]@Region`` + action, with the ordinal when
the flow's step has one) on the old page; it must single out the ground-truth element
(checked by identity), else the case is a record failure for us. Relocate, what the product
does with a cached locator on the new page: the gate on the cached locator (``run_gate``: it
must match one actionable element, checked against the recorded fingerprint and the step's
words as the executor checks a cached locator); when it fails, a healing round
(``HealingLadder()``: alternates, repair, re-discovery, similarity; no store, no extension,
not interactive), the healed locator gated again, up to ``max_heal_rounds`` rounds as the
executor does. The answer is the locator the step would act on; an abstention is no answer.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import IS_MARKED_JS, MARK_ALL_JS, UNMARK_JS, RecordFailed, serve, truth_set

from pytest_pacts.discovery import Discoverer, to_playwright
from pytest_pacts.engine.contracts import EngineOptions, HealContext, StepState
from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.engine.finder import Located
from pytest_pacts.engine.gate import run_gate
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.engine.identity import located_identity
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.outcome import HealAttempt
from pytest_pacts.models.requirement import Action, Plan, Requirement, SourceRef, Step, Target

# a selector that matches nothing fails after 100 ms on a settled page (the peers' first
# try gets the same); transient states (disabled, animating) are re-checked up to 1 s
OPTIONS = EngineOptions(step_timeout_ms=1_000.0, settle_timeout_ms=100.0)
SOURCE = SourceRef(path="bench_peers.req.yaml", line=1)


def plan_for(case: dict[str, Any]) -> Plan:
    target = Target(element=case["element"], region=case["region"], ordinal=case.get("ordinal"))
    step = Step(index=0, action=Action(case["action"]), target=target, source=SOURCE)
    req = Requirement(req_id=case["req_id"], url="about:blank", steps=(step,), source=SOURCE)
    return Plan(requirement=req, steps=(step,), plan_hash="p" * 16)


def record(page: Any, case: dict[str, Any]) -> tuple[Plan, DiscoveryResult]:
    plan = plan_for(case)
    step = plan.steps[0]
    assert step.target is not None
    found = Discoverer().discover(page, [(0, step.target, step.action)])[0]
    if found.locator is None:
        why = found.unresolved.reason if found.unresolved is not None else "no locator"
        raise RecordFailed(f"discovery singled out no element ({why})")
    page.locator(truth_set(case)).evaluate_all(MARK_ALL_JS)  # marked after discovery, removed below
    target = to_playwright(page, found.locator)
    same = target.count() == 1 and bool(target.evaluate(IS_MARKED_JS))
    page.evaluate(UNMARK_JS)
    if not same:
        raise RecordFailed(f"discovery picked another element: {found.locator.describe()}")
    return plan, found


def prepare(page: Any, case: dict[str, Any], memo: Any) -> tuple[Plan, DiscoveryResult, Any]:
    plan, found = memo
    return plan, found, EnvMonitor(page)


def relocate(page: Any, case: dict[str, Any], memo: Any) -> tuple[Any, str]:
    plan, found, monitor = memo
    step = plan.steps[0]
    state = StepState(step=step, discovery=found, locator=found.locator,
                      alternates=found.alternates, fingerprint=found.fingerprint)  # fmt: skip
    ladder = HealingLadder()
    attempts: list[HealAttempt] = []
    notes: list[str] = []
    for heal_round in range(OPTIONS.max_heal_rounds + 1):
        assert state.locator is not None
        # the recorded locator's element is checked against what was recorded, as the
        # executor checks a cached locator's; a locator healed in this run is not
        identity = located_identity(step, Located(state, None, "cache" if not attempts else "run"))
        gate = run_gate(page, state.locator, step.action, step_index=0,
                        timeout_ms=OPTIONS.step_timeout_ms, settle_ms=OPTIONS.settle_timeout_ms,
                        monitor=monitor, identity=identity)  # fmt: skip
        if gate.failure is None:
            how = " then ".join(notes) or "the cached locator passes the gate"
            return to_playwright(page, state.locator), f"{how}: {state.locator.describe()}"
        if heal_round == OPTIONS.max_heal_rounds:
            break
        ctx = HealContext(page=page, plan=plan, state=state, failure=gate.failure,
                          round=heal_round + 1, options=OPTIONS,
                          attempts=list(attempts))  # fmt: skip
        attempt, result = ladder.heal(ctx)
        attempts.append(attempt)
        if result is None or not result.accepted or not (result.locator or result.repaired):
            return None, f"abstained ({gate.failure.message[:80]}): {attempt.reason[-240:]}"
        if result.locator is not None:
            state.locator = result.locator
            if result.fingerprint is not None:
                state.fingerprint = result.fingerprint
        notes.append(f"{result.rung.value} ({result.reason[:80]})")
    return None, "the healed locator failed the gate: " + " then ".join(notes)


if __name__ == "__main__":
    serve(record, relocate, prepare)
