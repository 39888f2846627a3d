"""The body of every requirement item: fixtures in, one engine call, a verdict out.

The item asks pytest-playwright for ``page`` (so ``--browser``, ``--headed``, ``--tracing``,
``--screenshot``, ``--base-url`` and ``browser_context_args`` all apply), builds a
:class:`~pytest_pacts.engine.api.Runtime` from the settings and the store, calls
:func:`~pytest_pacts.engine.api.run_requirement` and turns the ``RunRecord`` into a pytest
outcome: fail → a failure text written for a person; a healed pass → passed with
a visible warning, or failed under ``--pacts-strict-heal``.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page

from pytest_pacts.application import PreparedRun, RunSettings, conclude_run, prepare_run
from pytest_pacts.engine.api import RequirementFailed, Runtime, render_failure, run_requirement
from pytest_pacts.engine.contracts import EngineOptions, ExtensionHealer, HealContext
from pytest_pacts.engine.healing import HumanRung
from pytest_pacts.errors import PactsHealWarning
from pytest_pacts.governance import review
from pytest_pacts.models import Plan
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.outcome import RunRecord
from pytest_pacts.models.text import file_stem
from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.items import RequirementItem
from pytest_pacts.pytest_plugin.keys import RUN_KEY
from pytest_pacts.pytest_plugin.store_access import get_store
from pytest_pacts.store import Store


def engine_options(config: pytest.Config, artifacts_dir: str | None) -> EngineOptions:
    def number(name: str, default: float) -> float:
        value = options.get(config, name)
        return float(value) if isinstance(value, (int, float)) else default

    return EngineOptions(
        step_timeout_ms=number("pacts_step_timeout", 10.0) * 1000,
        max_heal_rounds=int(number("pacts_max_heal_rounds", 3)),
        heal_threshold=number("pacts_heal_threshold", 0.75),
        heal_margin=number("pacts_heal_margin", 0.10),
        strict_heal=options.get_bool(config, "pacts_strict_heal"),
        interactive=options.get_bool(config, "pacts_interactive"),
        extension_budget=int(number("pacts_extension_budget", 0)),
        dialogs=options.get_str(config, "pacts_dialogs") or "accept",
        artifacts_dir=artifacts_dir,
    )


def session_id(config: pytest.Config) -> str:
    """Runs of one requirement against one deployment conflict while in flight."""
    return options.get_str(config, "pacts_session") or (
        options.configured_base_url(config) or "default"
    )


def _human(config: pytest.Config) -> HumanRung:
    capture = config.pluginmanager.getplugin("capturemanager")

    def ask(prompt: str) -> str:
        # pytest captures stdin/stdout; talk to the real terminal for the GO / NOT GO
        if capture is not None:
            with capture.global_and_fixture_disabled():
                return input(prompt)
        return input(prompt)

    def say(text: str) -> None:
        if capture is not None:
            with capture.global_and_fixture_disabled():
                print(text, flush=True)
        else:
            print(text, flush=True)

    def is_terminal() -> bool:
        return bool(
            sys.__stdin__ and sys.__stdin__.isatty() and sys.__stdout__ and sys.__stdout__.isatty()
        )

    return HumanRung(ask=ask, is_terminal=is_terminal, say=say)


def _extensions(config: pytest.Config) -> list[ExtensionHealer]:
    hook = config.hook

    def external(ctx: HealContext) -> list[Locator]:
        found: list[Locator] = []
        for answer in hook.pytest_pacts_heal_candidates(ctx=ctx):
            found.extend(answer or [])
        return found

    return [external]


def artifacts_dir(config: pytest.Config, plan: Plan) -> str | None:
    """Where the engine's screenshots of ``plan`` go: in this run's report folder (a later
    run never overwrites them and an old report's pictures stay), keyed by file and req_id
    (the same id in two files never shares a folder); ``None`` under
    ``--pacts-report-dir=off``."""
    from pytest_pacts.pytest_plugin.reporting import run_folder

    base = run_folder(config)
    if base is None:
        return None
    path = base / "screenshots" / file_stem(plan.requirement.source.path) / file_stem(plan.req_id)
    path.mkdir(parents=True, exist_ok=True)
    return str(path)


@dataclass(frozen=True)
class Prepared:
    """The application layer's prepared run, with the pytest config it came from."""

    config: pytest.Config
    run: PreparedRun

    @property
    def runtime(self) -> Runtime:
        return self.run.runtime


def prepare(
    config: pytest.Config,
    plan: Plan,
    *,
    navigate: bool = True,
    env: Mapping[str, str] | None = None,
    base_url: str | None = None,
) -> Prepared:
    """The runtime of a run of ``plan``, built by the application layer from this session's
    settings. ``navigate=False`` runs on the page as it is (the ``pacts`` fixture); ``env``
    replaces ``os.environ`` for value templates."""
    ttl = options.get(config, "pacts_discovery_ttl")
    settings = RunSettings(
        options=engine_options(config, artifacts_dir(config, plan)),
        base_url=base_url or options.configured_base_url(config),
        env=env,
        secret_vars=frozenset(options.get_list(config, "pacts_secret_vars")),
        session_id=session_id(config),
        discovery_ttl_seconds=int(ttl) if isinstance(ttl, (int, float)) else 3600,
        navigate=navigate,
        extensions=_extensions(config),
        human=_human(config),
    )
    return Prepared(config, prepare_run(get_store(config), plan, settings))


def conclude(prepared: Prepared, record: RunRecord) -> tuple[RunRecord, list[str]]:
    """After the run: a clean pass becomes recipe v001; ``--pacts-accept-heals`` applies.
    Returns the record naming its recipe version and the notes on accepted proposals for
    :func:`outcome`."""
    record = conclude_run(prepared.run, record)
    return record, _accept_heals(record, prepared.config, prepared.run.store)


def requirement_test(request: pytest.FixtureRequest, page: Page, base_url: str | None) -> None:
    """The test body of every requirement item (the ``callobj`` of its Function). The
    ``base_url`` fixture is pytest-playwright's (option, ini key) or a project's override."""
    item = request.node
    assert isinstance(item, RequirementItem)
    prepared = prepare(request.config, item.plan, base_url=base_url)
    record = run_requirement(item.plan, page, prepared.runtime)
    record, accepted = conclude(prepared, record)
    item.stash[RUN_KEY] = record
    outcome(record, request.config, accepted)


def _accept_heals(record: RunRecord, config: pytest.Config, store: Store) -> list[str]:
    """``--pacts-accept-heals=minor|all``: persist this run's proposals as recipe versions."""
    mode = options.get_str(config, "pacts_accept_heals") or "none"
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


def dry_run_test(request: pytest.FixtureRequest) -> None:
    """``--pacts-dry-run``: resolve every value at its moment of use, open no browser.

    Catches what changes between collection and run time (an environment variable that
    disappeared) without driving the app; collection-time discovery still follows
    ``--pacts-discover``.
    """
    from pytest_pacts.planner.templating import Resolver, TemplateError

    item = request.node
    assert isinstance(item, RequirementItem)
    plan = item.plan
    secret = frozenset(options.get_list(request.config, "pacts_secret_vars"))
    resolver = Resolver(dict(os.environ), plan.requirement.vars, plan.secret_vars | secret)
    for step in plan.steps:
        for text in (step.value, plan.requirement.url if step.index == 0 else None):
            if text is None:
                continue
            try:
                resolver.resolve(text)
            except TemplateError as exc:
                raise RequirementFailed(
                    f"{step.source.render()}: step {step.index + 1} ({step.describe()}): {exc}; "
                    "expected the value to be available when the test runs"
                ) from None


def outcome(record: RunRecord, config: pytest.Config, accepted: list[str]) -> None:
    """The pytest outcome of a record: fail raises :class:`RequirementFailed`
    with the failure text; a healed pass warns (:class:`PactsHealWarning`), or raises under
    ``--pacts-strict-heal``."""
    if record.verdict == "fail":
        raise RequirementFailed(render_failure(record))
    if record.healed:
        heals = [h for s in record.steps for h in s.heals if h.accepted]
        lines = [
            f"{record.req_id} passed after {len(heals)} heal(s); review the proposal(s) "
            "with `pacts heals list`:"
        ]
        for heal in heals:
            old = heal.old_locator.describe() if heal.old_locator else "(none)"
            new = heal.new_locator.describe() if heal.new_locator else "(none)"
            score = f"{heal.score:.2f}" if heal.score is not None else "-"
            runner = f"{heal.runner_up_score:.2f}" if heal.runner_up_score is not None else "-"
            lines.append(
                f"  {heal.rung.value}: {old} -> {new} (score {score}, runner-up "
                f"{runner}, {heal.track or 'no'} track)"
            )
        lines.extend(f"  {note}" for note in accepted)
        text = "\n".join(lines)
        if options.get_bool(config, "pacts_strict_heal"):
            raise RequirementFailed(text + "\n--pacts-strict-heal: a healed run fails")
        warnings.warn(PactsHealWarning(text), stacklevel=1)
