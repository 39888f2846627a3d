"""``pacts discover``'s walk: a requirement's flow run in a browser as a dry run.

The walk is a run of the engine (``application.walk_run``, the executor the tests
use), so every page the flow reaches is discovered on the page state the step really meets.
What makes it a dry run:

* it performs the flow's own steps and nothing else: no healing (the healing ladder may
  dismiss a banner or act on another element), so a step whose element is not found
  stops the walk and says why, with the closest candidates;
* it records nothing: no store (no cached locators, heal proposals or run history), no
  screenshots, no reports;
* ``until`` stops before a step: the steps before it are performed, that step and the
  later ones on the same page are only located (e.g. stop before "Place order").

Native dialogs a step raises are answered as in a test run (accepted).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.application.walks import walk_run
from pytest_pacts.discovery import Discoverer, to_code
from pytest_pacts.discovery.planning import start_page_steps
from pytest_pacts.discovery.step_values import values_of
from pytest_pacts.models import Plan, Step
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.outcome import FailureType, RunRecord, StepRecord
from pytest_pacts.runtime import bounded
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS

# Failures that mean "the step's element was not found" (rather than found and then the
# action or its expectation failed).
_NOT_FOUND = frozenset({FailureType.NOT_FOUND, FailureType.NOT_UNIQUE, FailureType.AMBIGUOUS})


@dataclass
class WalkedStep:
    """What the walk learnt about one step. ``status``:

    ``resolved``     its element was found and the step performed;
    ``done``         a step without an element (``goto``, ``press`` on the page) performed;
    ``located``      found and deliberately not performed (``until``);
    ``unresolved``   its element was not found, or not singled out: ``message`` says why;
    ``failed``       found, but the action or its expected outcome failed;
    ``skipped``      failed, and the step says ``on_fail: skip``;
    ``not_reached``  after the walk stopped.
    """

    index: int
    text: str
    source: str
    status: str
    code: str | None = None
    strategy: str | None = None
    confidence: float | None = None
    alternates: list[str] = field(default_factory=list)
    gate: dict[str, dict[str, object]] = field(default_factory=dict)
    message: str | None = None
    candidates: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    url: str | None = None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "index": self.index,
            "text": self.text,
            "source": self.source,
            "status": self.status,
        }
        optional: dict[str, object] = {
            "code": self.code,
            "strategy": self.strategy,
            "confidence": self.confidence,
            "alternates": self.alternates,
            "gate": self.gate,
            "message": self.message,
            "candidates": self.candidates,
            "notes": self.notes,
            "url": self.url,
        }
        out.update({k: v for k, v in optional.items() if v not in (None, [], {})})
        return out


@dataclass
class Walk:
    """One requirement's walk: where it started, each step, and the problems."""

    plan: Plan
    url: str | None
    steps: list[WalkedStep] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    stopped_before: int | None = None  # the 0-based step the walk stopped before (until)
    last_url: str | None = None  # the page the walk ended on
    halted: bool = False  # a step before ``stopped_before`` (or the start page) did not pass

    def report(self, hint: str | None = None) -> dict[str, object]:
        """The walk as ``pacts discover --json`` prints it (``hint``: the ``pacts elements``
        command for the page where it stopped)."""
        return {
            "req_id": self.plan.req_id,
            "url": self.url,
            "source": self.plan.requirement.source.render(),
            "problems": self.problems,
            "stopped_before": self.stopped_before,
            "last_url": self.last_url,
            "elements_hint": hint,
            "steps": [s.as_json() for s in self.steps],
        }


def _gate(
    result: DiscoveryResult | None, record: StepRecord | None
) -> dict[str, dict[str, object]]:
    snapshot = record.gate if record is not None and record.gate is not None else None
    if snapshot is None and result is not None:
        snapshot = result.gate
    if snapshot is None:
        return {}
    return {p.name: {"ok": p.ok, "code": p.code, "reason": p.reason} for p in snapshot.points}


def _describe_locator(out: WalkedStep, result: DiscoveryResult | None) -> None:
    if result is None or result.locator is None:
        return
    try:
        out.code = to_code(result.locator)
    except Exception:  # an unrenderable locator has no code; its strategy still tells
        out.code = None
    out.strategy = result.locator.strategy.value
    out.confidence = result.locator.confidence
    for alternate in result.alternates:
        try:
            out.alternates.append(to_code(alternate))
        except Exception:
            continue


def _step(
    step: Step,
    record: StepRecord,
    result: DiscoveryResult | None,
) -> WalkedStep:
    out = WalkedStep(step.index, step.describe(), step.source.render(), "not_reached")
    out.notes = list(record.notes)
    failure = record.failure
    if record.status in ("passed", "healed"):
        out.status = "resolved" if step.target is not None else "done"
        if result is None and record.locator is not None:
            out.code, out.strategy = record.code, record.locator.strategy.value
            out.confidence = record.locator.confidence
    elif record.status in ("failed", "skipped"):
        found = record.locator is not None or (result is not None and result.locator is not None)
        if failure is not None and failure.type in _NOT_FOUND and not found:
            out.status = "unresolved"
        else:
            out.status = "failed" if record.status == "failed" else "skipped"
        if failure is not None:
            out.message = failure.message
            out.candidates = [f"{c.description} ({c.score:.2f})" for c in failure.candidates[:3]]
    _describe_locator(out, result)
    out.gate = _gate(result, record)
    return out


def _url(page: Page) -> str | None:
    try:
        return page.url
    except PlaywrightError:  # closed: the run says why
        return None


def _locate_rest(page: Page, plan: Plan, start: int, timeout_ms: float) -> list[WalkedStep]:
    """The steps from ``start`` on that act on the current page, located, not performed."""
    rest = plan.model_copy(update={"steps": plan.steps[start:]})
    here = [s for s in start_page_steps(rest) if s.target is not None]
    targets = [(s.index, s.target, s.action) for s in here if s.target is not None]
    found: dict[int, DiscoveryResult] = {}
    problem: str | None = None
    try:
        with bounded.budget(timeout_ms):
            # the first of them acts next on this page (the walk stopped before it)
            values = values_of((s.index, s) for s in here)
            found = Discoverer().discover(page, targets, at_turn=True, values=values)
    except PlaywrightError as exc:
        problem = f"discovery failed on {page.url}: {str(exc).splitlines()[0]}"
    out: list[WalkedStep] = []
    for step in here:
        walked = WalkedStep(step.index, step.describe(), step.source.render(), "located")
        result = found.get(step.index)
        if result is None or result.locator is None:
            walked.status = "unresolved"
            walked.message = (
                problem
                or (result.unresolved.message if result and result.unresolved else None)
                or "not found"
            )
            if result is not None and result.unresolved is not None:
                walked.candidates = [
                    f"{c.description} ({c.score:.2f})" for c in result.unresolved.candidates[:3]
                ]
        _describe_locator(walked, result)
        walked.gate = _gate(result, None)
        walked.url = page.url
        out.append(walked)
    return out


# long because: the walk's step loop with its per-step reporting; one sequence a reader follows
def walk_plan(
    page: Page,
    plan: Plan,
    base_url: str | None,
    *,
    step_timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS,
    until: int | None = None,
    env: Mapping[str, str] | None = None,
) -> Walk:
    """Walk ``plan`` on ``page`` (see the module's docstring); ``until`` is the 0-based step
    to stop before. Never raises for a failing step or page: they are in the answer."""
    walk = Walk(plan, None)
    stop = len(plan.steps) if until is None else max(0, min(until, len(plan.steps)))
    performed = plan.model_copy(update={"steps": plan.steps[:stop]})
    discovered: dict[int, DiscoveryResult] = {}
    urls: dict[int, str] = {}

    def on_discovered(index: int, result: DiscoveryResult) -> None:
        discovered[index] = result
        urls[index] = page.url

    record: RunRecord = walk_run(
        page,
        performed,
        base_url,
        step_timeout_ms=step_timeout_ms,
        env=env,
        on_discovered=on_discovered,
    )
    walk.url = record.url
    walk.last_url = _url(page)
    records = {r.index: r for r in record.steps}
    started = any(r.status != "not_run" for r in record.steps)
    if record.verdict != "pass" and not started:  # the start page could not be opened
        where = plan.requirement.source.render()
        walk.problems.append(f"{where}: {plan.req_id}: {record.rca.message}")
    stopped_at: int | None = None
    for step in performed.steps:
        walked = _step(step, records[step.index], discovered.get(step.index))
        walked.url = urls.get(step.index)
        if walked.status == "not_reached":
            walked.message = (
                f"step {stopped_at + 1} did not pass" if stopped_at is not None else None
            )
        walk.steps.append(walked)
        if walked.status in ("unresolved", "failed"):
            stopped_at = step.index if stopped_at is None else stopped_at
            walk.problems.append(
                f"{step.source.render()}: {plan.req_id}: step {step.index + 1} "
                f"({step.describe()}): {walked.message}"
            )
    walk.halted = bool(walk.problems)
    if stop < len(plan.steps):
        walk.stopped_before = stop
        located = _locate_rest(page, plan, stop, step_timeout_ms) if not walk.problems else []
        by_index = {w.index: w for w in located}
        for step in plan.steps[stop:]:
            walked = by_index.get(step.index) or WalkedStep(
                step.index,
                step.describe(),
                step.source.render(),
                "not_reached",
                message=(
                    f"step {stopped_at + 1} did not pass"
                    if stopped_at is not None
                    else f"the walk stopped before step {stop + 1} (--until) and this step "
                    "acts on a later page"
                ),
            )
            walk.steps.append(walked)
            if walked.status == "unresolved":
                walk.problems.append(
                    f"{step.source.render()}: {plan.req_id}: step {step.index + 1} "
                    f"({step.describe()}): {walked.message}"
                )
    return walk
