"""The one entry point the pytest layer (and ``pacts``) call to run a requirement.

The pytest item hands over the plan, the page from pytest-playwright's fixtures and a
:class:`Runtime` built from its options; the engine knows nothing of pytest (the
layering of docs/architecture.md) and never raises from its internals: whatever happens,
the answer is a
:class:`~pytest_pacts.models.outcome.RunRecord`. Render the failure text for a
person with :func:`~pytest_pacts.engine.failure_text.render_failure`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.discovery import Discoverer
from pytest_pacts.engine.artifacts import Shots
from pytest_pacts.engine.contracts import EngineOptions, Healer
from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.engine.errors import classify_error
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.finder import Finder
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.engine.network import ResponseLog, plan_patterns
from pytest_pacts.engine.observing import ActionObserver
from pytest_pacts.engine.ports import RunStore
from pytest_pacts.engine.recording import Recorder
from pytest_pacts.engine.run import Run
from pytest_pacts.engine.step_records import not_run
from pytest_pacts.engine.tracing import Tracer, plan_secrets
from pytest_pacts.engine.verdict import build_verdict
from pytest_pacts.errors import PactsError
from pytest_pacts.models import Plan
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.outcome import Failure, FailureType, RunRecord
from pytest_pacts.planner.templating import Resolver
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.healing import install_early
from pytest_pacts.settings import base_url_of

__all__ = [
    "RequirementFailed",
    "Runtime",
    "record_run",
    "render_failure",
    "run_requirement",
]


@dataclass(frozen=True)
class Runtime:
    """What a run needs from its surroundings (the pytest layer fills it from fixtures).

    ``pom`` is the cached POM for this plan (step index → discovery result, possibly
    empty); ``on_discovered`` is told every fresh discovery so the caller can persist it.
    ``healer`` ``None`` means no healing: failures go straight to the verdict.
    ``navigate`` ``False`` runs the steps on the page as it is (the ``pacts`` fixture of a
    hand-written test, which drives navigation itself); the plan's URL is then only recorded.
    ``observer`` is told each step's element after the gate passed, before the action
    (benchmarks compare it with a ground-truth selector).
    ``record`` ``False`` leaves the run out of the store's run history (the caller records a
    combined run itself, see :func:`record_run`); the POM cache, healing memory and heal
    proposals are written as always. ``secrets`` is filled by the run (see the field).
    """

    env: Mapping[str, str]
    secret_vars: frozenset[str] = frozenset()
    base_url: str | None = None
    options: EngineOptions = field(default_factory=EngineOptions)
    store: RunStore | None = None
    healer: Healer | None = None
    pom: Mapping[int, DiscoveryResult] = field(default_factory=dict)
    on_discovered: Callable[[int, DiscoveryResult], None] | None = None
    session_id: str = "local"
    discoverer: Discoverer | None = None
    navigate: bool = True
    record: bool = True
    observer: ActionObserver | None = None
    recipe_version: str | None = None  # the stored recipe version the run starts from
    # Every secret value the run knew (typed, defaults included, and secret extracts), added
    # as the run ends: the caller masks them in what it writes afterwards (a Playwright
    # trace, docs/reports.md "What the secret guarantee covers"). Memory only, never written.
    secrets: set[str] = field(default_factory=set)


class RequirementFailed(PactsError):
    """Raised by the pytest layer with a text written for a person (no plugin traceback)."""


# long because: the engine's one entry point: the run's services assembled in the order they depend
# on
def run_requirement(plan: Plan, page: Page, runtime: Runtime) -> RunRecord:
    """Run ``plan`` on ``page``: planner → discovery → executor ⇄ healer →
    verdict (``engine/machine.py``). Returns the run's record; never raises for a failing
    requirement, a broken page or a dead server."""
    started = datetime.now(UTC)
    recorder = Recorder(
        runtime.store if runtime.record else None,
        runtime.session_id,
        plan,
        recipe_version=runtime.recipe_version,
    )
    conflict = recorder.begin()
    if conflict is not None:
        return _not_started(plan, conflict, started)
    monitor = EnvMonitor(page)
    if isinstance(runtime.healer, HealingLadder):
        # its in-page code in every document from the first moment, as discovery's is: the
        # first heal on a page does not send it along first
        install_early(page)
    responses = ResponseLog(page, plan_patterns(plan), runtime.options.max_response_bytes)
    resolver = Resolver(runtime.env, plan.requirement.vars, plan.secret_vars | runtime.secret_vars)
    finder = Finder(
        page,
        plan,
        cache=runtime.pom,
        on_discovered=runtime.on_discovered,
        monitor=monitor,
        discoverer=(runtime.discoverer or Discoverer()).under(runtime.options.evidence),
    )
    # an observer that also has ``opening(step, element)`` is told each control a step
    # opens to show its hidden element (a closed menu, a tab), before the click
    finder.on_open = getattr(runtime.observer, "opening", None)
    options = runtime.options
    known = plan_secrets(plan, resolver)
    runtime.secrets.update(known)
    tracer = (
        Tracer(
            page,
            options.artifacts_dir,
            secrets=known,
            max_bytes=options.trace_max_bytes,
        )
        if options.trace
        else None
    )
    run = Run(
        plan,
        page,
        options=runtime.options,
        resolver=resolver,
        finder=finder,
        monitor=monitor,
        base_url=base_url_of(runtime.base_url, plan.requirement.base_url),
        healer=runtime.healer,
        shots=Shots(
            page, runtime.options.artifacts_dir, plan.req_id, documents=lambda: monitor.documents
        ),
        navigate=runtime.navigate,
        observer=runtime.observer,
        on_step=recorder.step_done,
        tracer=tracer,
        responses=responses,
    )
    try:
        with bounded.budget(runtime.options.step_timeout_ms):
            if tracer is not None:
                tracer.start()
            record = run.execute()
    except PlaywrightError as exc:  # a browser error none of the stages expected
        record = _not_started(plan, classify_error(exc, "running the requirement", None), started)
    except BaseException as exc:
        # a bug, or Ctrl-C: raised as it is, but the run's row is closed first, never left
        # ``running`` for the next run to take over as stale
        stopped = Failure(
            type=FailureType.ENV_FAULT,
            message=f"the run stopped: {type(exc).__name__}: {exc}"[:500],
            step_index=None,
        )
        recorder.finish(_not_started(plan, stopped, started))
        raise
    finally:
        if tracer is not None:
            tracer.stop()
        monitor.detach()
        responses.detach()
        runtime.secrets.update(resolver.known_secrets())
    if runtime.recipe_version is not None:
        record = record.model_copy(update={"recipe_version": runtime.recipe_version})
    problems = recorder.finish(record)
    if problems:
        record = record.model_copy(
            update={"rca": record.rca.model_copy(
                update={"evidence": (*record.rca.evidence, *problems)})}
        )  # fmt: skip
    return record


def record_run(store: RunStore | None, session_id: str, plan: Plan, record: RunRecord) -> list[str]:
    """Write a run that was executed in parts (``Runtime(record=False)``) to the store's run
    history as one run of ``plan``; returns store problems (never raises). A conflicting run
    of the same requirement in the session is reported, and this one is not recorded."""
    recorder = Recorder(store, session_id, plan)
    conflict = recorder.begin()
    if conflict is not None:
        return [conflict.message]
    return recorder.finish(record)


def _not_started(plan: Plan, failure: Failure, started: datetime) -> RunRecord:
    return build_verdict(
        plan,
        [not_run(plan, i) for i in range(len(plan.steps))],
        start_failure=failure,
        started_at=started,
        duration_ms=(datetime.now(UTC) - started).total_seconds() * 1000,
        url=plan.requirement.url,
        artifacts={},
    )
