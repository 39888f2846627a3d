"""The application layer: one place that builds a requirement run's services.

A run needs the store (:func:`store_target`), the store's cached POM under the reviewed
recipe, a callback that persists fresh discoveries, the healing ladder with its recipe
source, and the engine options (:func:`run_settings`, from the session's
:class:`~pytest_pacts.settings.PactsSettings`); after it, the store learns what passed,
``--pacts-accept-heals`` applies and ``--pacts-generate`` writes the plain test
(:func:`finish_run`). The pytest item, the ``pacts`` fixture, the corpus benchmark and (later)
the CLI and the web dashboard all build it here, so a run behaves the same whoever starts it.
Find-first discovery before the runs (:func:`discover_plans`: the POM cache, the browser,
the store's discovery leases) is composed here too. Nothing here imports pytest.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.contexts import ContextSetup
from pytest_pacts.discovery.pom import load_pom, remember_step, save_pom
from pytest_pacts.engine.api import Runtime
from pytest_pacts.engine.contracts import EngineOptions, ExtensionHealer
from pytest_pacts.engine.executor import ActionObserver
from pytest_pacts.engine.healing import HealingLadder, HumanRung, default_rungs
from pytest_pacts.engine.ports import ProposalSink
from pytest_pacts.governance import HealSite, propose, review
from pytest_pacts.governance.drift import deployment_of
from pytest_pacts.governance.recipes import current_recipe, ensure_recipe, overlay
from pytest_pacts.models import Plan
from pytest_pacts.models.evidence import EvidenceRule
from pytest_pacts.models.heal import HealProposal
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.outcome import Rca, RunRecord
from pytest_pacts.models.recipe import Recipe
from pytest_pacts.planner.urls import UrlError, resolve_url
from pytest_pacts.settings import (
    DEFAULT_STEP_TIMEOUT_MS,
    AcceptHeals,
    PactsSettings,
    base_url_of,
)
from pytest_pacts.store import Store, default_store_path
from pytest_pacts.traces import RunComparison, Thresholds, TraceSettings, UnknownRun
from pytest_pacts.traces import compare_runs as _compare_runs
from pytest_pacts.traces import conclude as conclude_traces

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from pytest_pacts.auth import AuthFailed, Sessions
    from pytest_pacts.planner.loader import LoaderOptions

__all__ = [
    "HumanRung",
    "PreparedRun",
    "RunComparison",
    "RunConclusion",
    "RunSettings",
    "SharedDiscovery",
    "UnknownRun",
    "accept_heals",
    "auth_failure_record",
    "auth_sessions",
    "compare_runs",
    "conclude_run",
    "discover_once",
    "discover_plans",
    "engine_options",
    "finish_run",
    "generate_test",
    "prepare_run",
    "run_settings",
    "store_proposals",
    "store_target",
    "trace_settings",
]


@dataclass(frozen=True)
class RunSettings:
    """What a run takes from its caller's settings (plain values, read once by the caller)."""

    options: EngineOptions = field(default_factory=EngineOptions)
    base_url: str | None = None
    env: Mapping[str, str] | None = None  # None: the process environment
    secret_vars: frozenset[str] = frozenset()
    session_id: str = "default"
    discovery_ttl_seconds: int = PactsSettings.discovery_ttl
    navigate: bool = True
    extensions: Sequence[ExtensionHealer] = ()
    human: HumanRung | None = None
    observer: ActionObserver | None = None
    # proposals persisted as recipe versions at the end
    accept_heals: AcceptHeals = PactsSettings.accept_heals
    generate_dir: Path | None = None  # a passing run's plain pytest-playwright test goes here
    # the run's name in the trace bundles (the id of its report folder); None: no bundles
    run_label: str | None = None
    trace: TraceSettings = field(default_factory=TraceSettings)


def engine_options(settings: PactsSettings, artifacts_dir: str | None = None) -> EngineOptions:
    """What the engine takes of the session's settings; screenshots go to ``artifacts_dir``
    (``None``: none are taken)."""
    return EngineOptions(
        step_timeout_ms=settings.step_timeout * 1000,
        max_heal_rounds=settings.max_heal_rounds,
        evidence=EvidenceRule(settings.heal_threshold, settings.heal_margin),
        strict_heal=settings.strict_heal,
        interactive=settings.interactive,
        extension_budget=settings.extension_budget,
        dialogs=settings.dialogs,
        max_response_bytes=int((settings.max_response_kb or PactsSettings.max_response_kb) * 1024),
        artifacts_dir=artifacts_dir,
        trace=settings.trace == "on",
        trace_max_bytes=settings.trace_max_kb * 1024,
    )


def trace_settings(settings: PactsSettings) -> TraceSettings:
    """The ``pacts_trace*`` settings: when a difference from the last passing run is a
    regression, how many bundles the store keeps."""
    return TraceSettings(
        enabled=settings.trace == "on",
        thresholds=Thresholds(
            slower=settings.trace_slower,
            slow_floor_ms=settings.trace_slow_floor_ms,
            move_px=settings.trace_move_px,
        ),
        keep=settings.trace_keep,
        max_bytes=settings.trace_max_kb * 1024,
    )


def run_settings(
    settings: PactsSettings,
    *,
    artifacts_dir: str | None = None,
    base_url: str | None = None,
    env: Mapping[str, str] | None = None,
    navigate: bool = True,
    extensions: Sequence[ExtensionHealer] = (),
    human: HumanRung | None = None,
    generate_dir: Path | None = None,
    run_label: str | None = None,
) -> RunSettings:
    """A run's settings from the session's: ``base_url`` wins over the configured one (a
    project's ``base_url`` fixture); ``generate_dir`` is where :func:`finish_run` writes the
    plain test of a passing run (``None``: it writes none); ``run_label`` names the run in
    the trace bundles (``None``: the run keeps none and is compared with none)."""
    options = engine_options(settings, artifacts_dir)
    if run_label is None:  # nothing would keep or compare the steps' traces
        options = replace(options, trace=False)
    return RunSettings(
        options=options,
        base_url=base_url_of(base_url, settings.base_url),
        env=env,
        secret_vars=frozenset(settings.secret_vars),
        session_id=settings.session_id,
        discovery_ttl_seconds=settings.discovery_ttl,
        navigate=navigate,
        extensions=extensions,
        human=human,
        accept_heals=settings.accept_heals,
        generate_dir=generate_dir,
        run_label=run_label,
        trace=trace_settings(settings),
    )


def store_target(
    settings: PactsSettings, rootpath: Path, environ: Mapping[str, str] | None = None
) -> str:
    """Where the store is: ``pacts_store``, else ``PACTS_STORE``, else ``.pacts/pacts.db``
    in the rootdir."""
    environ = os.environ if environ is None else environ
    configured = settings.store or environ.get("PACTS_STORE")
    return configured or str(default_store_path(rootpath))


def auth_sessions(
    settings: PactsSettings,
    rootpath: Path,
    store: Callable[[], Store] | None,
    *,
    loader: LoaderOptions,
    base_url: str | None = None,
    env: Mapping[str, str] | None = None,
    run_id: str = "",
    slot: int = 0,
    say: Callable[[str], None] = lambda _text: None,
    vault_dir: Path | None = None,
) -> Sessions:
    """The auth sessions of this process (:class:`~pytest_pacts.auth.Sessions`): the
    profiles of ``pacts_auth_file``, the private folder ``pacts_auth_dir``, and the engine
    run that logs in (healing on, as for any requirement) or checks a saved session (one
    ``wait`` step, no healing, at most 5 s). ``run_id`` is shared by every process of a run
    (a failed login is not retried in it); ``slot`` picks the account (rotation). The store
    is opened only when a login runs; without one (``pacts discover``, which writes nothing)
    the login runs on discovery alone, without healing. ``vault_dir`` replaces the
    configured folder."""
    import dataclasses

    from pytest_pacts.auth import Sessions, Vault, load_profiles
    from pytest_pacts.engine.api import run_requirement

    config = load_profiles(rootpath / settings.auth_file, settings.auth_file)
    base_url = base_url_of(base_url, settings.base_url)
    verify_options = dataclasses.replace(
        engine_options(settings), step_timeout_ms=min(settings.step_timeout, 5.0) * 1000
    )

    def run(plan: Plan, page: Page, verify: bool) -> RunRecord:
        if verify or store is None:
            runtime = Runtime(
                env=dict(os.environ) if env is None else env,
                secret_vars=frozenset(settings.secret_vars),
                base_url=base_url,
                options=verify_options if verify else engine_options(settings),
                record=False,
            )
            return run_requirement(plan, page, runtime)
        prepared = prepare_run(
            store(),
            plan,
            run_settings(settings, base_url=base_url, env=env),
        )
        runtime = dataclasses.replace(prepared.runtime, record=False)
        record = run_requirement(plan, page, runtime)
        return conclude_run(prepared, record)

    return Sessions(
        config=config,
        vault=Vault(vault_dir or rootpath / settings.auth_dir),
        run=run,
        loader=loader,
        base_url=base_url,
        run_id=run_id,
        slot=slot,
        say=say,
    )


def auth_failure_record(plan: Plan, failure: AuthFailed) -> RunRecord:
    """The record of a requirement that could not start: its auth profile has no session.
    Its root cause is the login's (credentials: ``data_issue``; the login page or the
    environment: ``env_fault``), never a step of the requirement's own."""
    now = datetime.now(UTC).isoformat()
    first = failure.text.splitlines()[0]
    return RunRecord(
        req_id=plan.req_id,
        plan_hash=plan.plan_hash,
        verdict="fail",
        rca=Rca.model_validate(
            {
                "class": failure.rca.value,
                "confidence": 0.9,
                "message": first,
                "evidence": (f"auth profile {failure.profile!r}",),
                "recommendation": "fix the login of the profile; the requirement itself "
                "did not run",
            }
        ),
        steps=(),
        started_at=now,
        finished_at=now,
        url=plan.requirement.url,
    )


@dataclass(frozen=True)
class PreparedRun:
    """A :class:`Runtime` for one plan, and what :func:`conclude_run` needs after the run."""

    plan: Plan
    store: Store
    runtime: Runtime
    verified: dict[int, DiscoveryResult]
    deployment: str = ""
    settings: RunSettings = field(default_factory=RunSettings)


def store_proposals(store: Store) -> ProposalSink:
    """Heal proposals gated and kept in ``store`` (the engine's :data:`ProposalSink`)."""

    def sink(proposal: HealProposal, site: HealSite | None) -> HealProposal:
        return propose(store, proposal, site=site)

    return sink


def prepare_run(store: Store, plan: Plan, settings: RunSettings) -> PreparedRun:
    """The runtime of a run of ``plan``: the cached POM under the reviewed recipe (an accepted
    heal wins over what discovery cached), fresh discoveries persisted as they happen, and the
    healing ladder whose proposals patch the stored recipe."""
    _state, entry = load_pom(store, plan)
    verified: dict[int, DiscoveryResult] = dict(entry.steps) if entry is not None else {}
    base_url = base_url_of(settings.base_url, plan.requirement.base_url)
    try:
        url = resolve_url(plan.requirement.url, base_url)
    except UrlError:
        url = plan.requirement.url  # the run says so, with what to do
    # the deployment this run drives: each element's locator verified there comes first
    deployment = deployment_of(base_url, url)
    known = store.locators.for_requirement(plan.req_id)
    recipe = current_recipe(store, plan)
    pom = overlay(plan, recipe, verified, known, deployment)

    def on_discovered(index: int, result: DiscoveryResult) -> None:
        if result.locator is not None:
            verified[index] = result
            remember_step(store, plan, index, result, url, settings.discovery_ttl_seconds)

    def recipe_source(_plan: Plan) -> Recipe:
        # a heal proposal patches the stored recipe; write v001 from what was verified so far
        return ensure_recipe(store, plan, verified)

    rungs = default_rungs(store, settings.extensions, human=settings.human)
    runtime = Runtime(
        env=dict(os.environ) if settings.env is None else settings.env,
        secret_vars=settings.secret_vars,
        base_url=settings.base_url,
        options=settings.options,
        store=store,
        healer=HealingLadder(
            store=store,
            proposals=store_proposals(store),
            recipes=recipe_source,
            rungs=rungs,
            deployment=deployment,
        ),
        pom=pom,
        on_discovered=on_discovered,
        session_id=settings.session_id,
        navigate=settings.navigate,
        observer=settings.observer,
        recipe_version=recipe.version if recipe is not None else None,
    )
    return PreparedRun(plan, store, runtime, verified, deployment, settings)


def conclude_run(prepared: PreparedRun, record: RunRecord) -> RunRecord:
    """After the run: a clean pass becomes the requirement's first recipe version; every
    locator that passed the gate and acted is counted as verified on this deployment.
    Returns the record naming the recipe version it ran on: the one it started from, else
    the one its clean pass just wrote (``v001`` on a first run)."""
    if record.verdict == "pass" and not record.healed:
        recipe = ensure_recipe(prepared.store, prepared.plan, prepared.verified)
        if record.recipe_version is None:
            record = record.model_copy(update={"recipe_version": recipe.version})
    if not prepared.deployment:
        return record
    for step in record.steps:
        if step.status not in ("passed", "healed") or step.locator is None:
            continue
        if not step.element_key:
            continue
        locator = step.locator.model_dump(mode="json", exclude_none=True)
        prepared.store.locators.verify(
            prepared.plan.req_id, step.element_key, locator, prepared.deployment
        )
    return record


@dataclass(frozen=True)
class RunConclusion:
    """What :func:`finish_run` did after a run: the record naming its recipe version, the
    notes on proposals ``--pacts-accept-heals`` accepted, the generated test's path."""

    record: RunRecord
    accepted: tuple[str, ...] = ()
    generated: str | None = None


def finish_run(prepared: PreparedRun, record: RunRecord) -> RunConclusion:
    """Everything after a run: :func:`conclude_run`; the run compared with the last passing
    trace bundle of its requirement (its regressions go into the record) and its own bundle
    kept when it passed (``traces.conclude``); then the run's heal proposals accepted as the
    settings say (:func:`accept_heals`), then its plain test written when it passed and the
    settings name a folder (:func:`generate_test`)."""
    record = conclude_run(prepared, record)
    settings = prepared.settings
    record = conclude_traces(
        prepared.store,
        record,
        label=settings.run_label,
        settings=settings.trace,
        artifacts_dir=settings.options.artifacts_dir,
    )
    accepted = accept_heals(prepared.store, record, settings.accept_heals)
    generated = (
        generate_test(prepared.plan, record, settings.generate_dir)
        if settings.generate_dir is not None
        else None
    )
    return RunConclusion(record, tuple(accepted), generated)


def accept_heals(store: Store, record: RunRecord, mode: AcceptHeals) -> list[str]:
    """``--pacts-accept-heals=minor|all``: persist this run's proposals as recipe versions
    (``all`` approves major changes too). Returns one note per proposal."""
    if mode == "none" or not record.healed:
        return []
    notes: list[str] = []
    seen: set[str] = set()  # two heals of one drift share a proposal: accept it once
    for step in record.steps:
        for heal in step.heals:
            if not (heal.accepted and heal.proposal_id and heal.proposal_id.isdigit()):
                continue
            if heal.proposal_id in seen:
                continue
            seen.add(heal.proposal_id)
            try:
                done = review.accept(
                    store,
                    int(heal.proposal_id),
                    by="--pacts-accept-heals",
                    approved_major=(mode == "all"),
                )
            except review.ReviewError as exc:
                notes.append(f"proposal #{heal.proposal_id} not accepted: {exc}")
                continue
            notes.append(f"proposal #{done.proposal_id} accepted: {done.summary()}")
    return notes


def generate_test(plan: Plan, record: RunRecord, out_dir: Path) -> str | None:
    """``--pacts-generate``: ``<out_dir>/test_<req_id>.py`` (plain pytest-playwright) from the
    locators a passing run used, rewritten only when the plan hash changes. ``None`` when the
    run did not pass or the test cannot be written."""
    if record.verdict != "pass":
        return None
    from pytest_pacts.generator import GenerationError, locators_from_record, write_test

    try:
        result = write_test(plan, locators_from_record(record), out_dir)
    except (GenerationError, OSError):
        return None
    return str(result.path)


def compare_runs(
    store: Store,
    first: str,
    second: str,
    thresholds: Thresholds | None = None,
    req_ids: Sequence[str] = (),
) -> RunComparison:
    """``pacts compare``: run ``second`` against run ``first`` (run ids as their report folders
    are named, a unique prefix, ``latest`` or ``previous``), requirement by requirement, from
    the trace bundles in the store; only ``req_ids`` when given. Raises :class:`UnknownRun`."""
    result = _compare_runs(store, first, second, thresholds)
    if not req_ids:
        return result
    wanted = set(req_ids)
    return replace(
        result,
        comparisons=tuple(c for c in result.comparisons if c.current.req_id in wanted),
        only_first=tuple(r for r in result.only_first if r in wanted),
        only_second=tuple(r for r in result.only_second if r in wanted),
    )


# -- find first, before the runs ---------------------------------------------------------------

#: How often a runner waiting for another runner's discovery looks at the store.
POLL_SECONDS = 0.25


def discover_plans(
    store: Store,
    plans: Iterable[Plan],
    *,
    mode: str = "auto",
    base_url: str | None = None,
    browser_path: str | None = None,
    ttl_seconds: int = PactsSettings.discovery_ttl,
    say: Callable[[str], None] = lambda _text: None,
    contexts: ContextSetup | Callable[[], ContextSetup] | None = None,
    browser: Callable[[], Browser] | None = None,
    timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS,
) -> None:
    """Discover the start page of each plan without a valid cached POM (every plan under
    ``mode="always"``) in one browser, once across every runner sharing ``store``
    (:func:`discover_once`), and cache what was verified; progress and problems go to
    ``say``. A warm cache launches no browser (docs/discovery.md).

    Each plan's page opens in a context made by ``contexts`` (the one the tests use:
    ``browser_context_args``, the requirement's ``context``, its auth session, the
    project's customisation; a function giving it is called only when a page is opened).
    ``browser`` gives the browser to use, called only when a page is opened (in a pytest
    session: the tests' own browser, launched or connected to as pytest-playwright does);
    ``None``: a Chromium of its own (:class:`~pytest_pacts.browser.StandaloneBrowser` with
    ``browser_path``). A plan that needs no page (nothing to find on its start page, or a
    relative URL with no base URL) asks for neither.

    ``timeout_ms`` is the run's step timeout: the start page's load, and each call into the
    page, get the patience a step gets (a page that stops responding is given up on as
    quickly as in the run)."""
    from pytest_pacts.browser import StandaloneBrowser
    from pytest_pacts.discovery.planning import PlanDiscovery, discover_plan, without_page

    todo: list[Plan] = []
    cached = 0
    for plan in plans:
        state, _entry = ("miss", None) if mode == "always" else load_pom(store, plan)
        if state == "hit":
            cached += 1
        else:
            todo.append(plan)
    if not todo:
        say(f"discovery: {cached} requirement(s) cached, none to discover (no browser launched)")
        return
    done: list[PlanDiscovery] = []
    position = {id(plan): n for n, plan in enumerate(todo, start=1)}

    made: list[ContextSetup] = []

    def setup() -> ContextSetup:
        # asked for when the first page opens: making it may start Playwright itself
        # (pytest-playwright's context arguments)
        if not made:
            made.append((contexts() if callable(contexts) else contexts) or ContextSetup())
        return made[0]

    no_session: set[str] = set()  # auth profiles whose login failed: said once
    with StandaloneBrowser(browser_path) as own:
        given: list[Browser] = []

        def current() -> Browser:
            if not given:
                given.append(browser() if browser is not None else own.browser)
            return given[0]

        def discover(plan: Plan) -> None:
            say(
                f"discovering {plan.req_id} ({position[id(plan)]}/{len(todo)}) "
                f"[{plan.requirement.source.render()}]"
            )
            from pytest_pacts.auth import AuthFailed

            # a plan that needs no page (nothing on its start page, or no URL to open) asks
            # for no browser, context nor login
            outcome = without_page(plan, base_url)
            try:
                if outcome is None:
                    with setup().page(current(), plan.requirement) as page:
                        outcome = discover_plan(page, plan, base_url, timeout_ms=timeout_ms)
            except AuthFailed as exc:
                # never discovered as the login page: left to discovery right before it runs
                if exc.profile not in no_session:
                    no_session.add(exc.profile)
                    say(f"  {exc.text}")
                say(f"  {plan.req_id}: not discovered (no session of auth profile {exc.profile!r})")
                return
            done.append(outcome)
            if outcome.cacheable:
                save_pom(store, outcome.entry(), ttl_seconds)
            for problem in outcome.problems:
                if problem.kind == "step":
                    # often an element shown only after earlier steps: not an error yet
                    say(
                        f"  {problem} (not resolved on the start page; it is "
                        "discovered again right before it runs)"
                    )
                else:
                    say(f"  {problem}")

        shared = discover_once(store, todo, discover, mode=mode, say=say)
        launches = own.launches
        used = bool(given)
    found = sum(len(d.cacheable) for d in done)
    elsewhere = (
        f", {shared.elsewhere} discovered by another runner (waited {shared.waited:.1f} s)"
        if shared.elsewhere
        else ""
    )
    if browser is None:
        where = f"browser launched {launches} time(s)"
    else:
        where = "in the tests' browser" if used else "no browser used"
    say(
        f"discovery: {shared.here} requirement(s) discovered ({found} step locator(s) "
        f"verified), {cached} cached{elsewhere}; {where}"
    )


@dataclass
class SharedDiscovery:
    """What :func:`discover_once` did: discovered here, by another runner, time waited."""

    here: int = 0
    elsewhere: int = 0
    waited: float = 0.0


def discover_once(
    store: Store,
    todo: Sequence[Plan],
    discover: Callable[[Plan], None],
    *,
    mode: str = "auto",
    say: Callable[[str], None] = lambda _text: None,
    poll_seconds: float = POLL_SECONDS,
) -> SharedDiscovery:
    """Call ``discover`` for each plan of ``todo`` that no other process sharing the store is
    discovering or has just discovered; wait for those that one is (docs/store.md,
    "Discovery leases").

    A plan is claimed through the store's discovery lease of ``(req_id, plan_hash)``: one
    claimer wins, the others wait until it is released and then read the POM cache it wrote.
    If the holder left nothing cached (nothing verified, or it crashed and its lease ran
    out), a waiter claims the lease and discovers itself. Under ``--pacts-discover=always``
    a result counts as fresh only if its lease was released after this phase began.
    """
    leases = store.discovery_leases
    began = datetime.now(UTC)
    result = SharedDiscovery()
    pending = deque(todo)
    waiting: list[Plan] = []
    waiting_since: float | None = None
    while pending or waiting:
        if pending:
            plan = pending.popleft()
            claim = leases.claim(plan.req_id, plan.plan_hash)
            if not claim.granted:
                waiting.append(plan)
                continue
            fresh = mode != "always" or (
                claim.previous_released_at is not None and claim.previous_released_at >= began
            )
            if fresh and load_pom(store, plan)[0] == "hit":
                leases.release(plan.req_id, plan.plan_hash, discovered=False)
                result.elsewhere += 1
                continue
            discovered = False
            try:
                discover(plan)
                discovered = True
            finally:
                leases.release(plan.req_id, plan.plan_hash, discovered=discovered)
            result.here += 1
            continue
        if waiting_since is None:
            waiting_since = time.monotonic()
            first = leases.get(waiting[0].req_id, waiting[0].plan_hash)
            holder = f" (first: {waiting[0].req_id} by {first.holder})" if first else ""
            say(
                f"waiting for {len(waiting)} requirement(s) being discovered by another "
                f"runner sharing the store{holder}"
            )
        time.sleep(poll_seconds)
        still: list[Plan] = []
        for plan in waiting:
            lease = leases.get(plan.req_id, plan.plan_hash)
            if lease is not None and not leases.is_free(lease):
                still.append(plan)
            elif load_pom(store, plan)[0] == "hit":
                result.elsewhere += 1
            else:
                pending.append(plan)  # its holder left nothing cached: discover it here
        waiting = still
    if waiting_since is not None:
        result.waited = time.monotonic() - waiting_since
    return result
