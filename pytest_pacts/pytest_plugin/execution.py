"""The body of every requirement item: fixtures in, one engine call, a verdict out.

The item asks pytest-playwright for ``page`` (so ``--browser``, ``--headed``, ``--tracing``,
``--screenshot``, ``--base-url`` and ``browser_context_args`` all apply), has the
application layer build the run from the session's settings (``application.prepare_run``),
calls :func:`~pytest_pacts.engine.api.run_requirement`, has the application layer conclude
it (``application.finish_run``: store, accepted heals, generated test) and turns the
``RunRecord`` into a pytest outcome: fail → a failure text written for a person; a healed
pass → passed with a visible warning, or failed under ``--pacts-strict-heal``.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING

import pytest

from pytest_pacts.errors import PactsHealWarning
from pytest_pacts.models.text import file_stem
from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.items import RequirementItem
from pytest_pacts.pytest_plugin.keys import (
    AUTH_FAILED_KEY,
    GENERATED_KEY,
    RUN_KEY,
    SECRETS_KEY,
    add_secrets,
)
from pytest_pacts.pytest_plugin.store_access import get_store
from pytest_pacts.settings import PactsSettings

# The application layer, the engine, Playwright and the run's models (locators, records) are
# imported by the functions that run a requirement: collection (which builds items around
# these test bodies) loads none of them.
if TYPE_CHECKING:
    from playwright.sync_api import Page

    from pytest_pacts.application import HumanRung, PreparedRun, RunConclusion
    from pytest_pacts.engine.contracts import ExtensionHealer, HealContext
    from pytest_pacts.models import Plan
    from pytest_pacts.models.locator import Locator
    from pytest_pacts.models.outcome import HealAttempt, RunRecord


def _human(config: pytest.Config) -> HumanRung:
    from pytest_pacts.application import HumanRung

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


def prepare(
    config: pytest.Config,
    plan: Plan,
    *,
    navigate: bool = True,
    env: Mapping[str, str] | None = None,
    base_url: str | None = None,
    generate: bool = False,
    trace: bool = False,
) -> PreparedRun:
    """The runtime of a run of ``plan``, built by the application layer from this session's
    settings. ``navigate=False`` runs on the page as it is (the ``pacts`` fixture); ``env``
    replaces ``os.environ`` for value templates; ``generate`` writes the plain test of a
    passing run under ``--pacts-generate``; ``trace`` compares the run with the last passing
    trace bundle of its requirement and keeps its own (requirement items)."""
    from pytest_pacts.application import prepare_run, run_settings
    from pytest_pacts.pytest_plugin.reporting import run_label

    settings = options.settings(config)
    generate_dir = (
        config.rootpath / settings.generate_dir if generate and settings.generate else None
    )
    run = run_settings(
        settings,
        artifacts_dir=artifacts_dir(config, plan),
        base_url=base_url,
        env=env,
        navigate=navigate,
        extensions=_extensions(config),
        human=_human(config),
        generate_dir=generate_dir,
        run_label=run_label(config) if trace else None,
    )
    return prepare_run(get_store(config), plan, run)


def requirement_test(request: pytest.FixtureRequest, page: Page, base_url: str | None) -> None:
    """The test body of every requirement item (the ``callobj`` of its Function). The
    ``base_url`` fixture is pytest-playwright's (option, ini key) or a project's override."""
    from pytest_pacts.application import finish_run
    from pytest_pacts.engine.api import run_requirement

    item = request.node
    assert isinstance(item, RequirementItem)
    failed = item.stash.get(AUTH_FAILED_KEY, None)
    if failed is not None:  # no session for its auth profile: the requirement cannot start
        from pytest_pacts.application import auth_failure_record
        from pytest_pacts.engine.api import RequirementFailed
        from pytest_pacts.pytest_plugin.auth_access import sessions

        item.stash[RUN_KEY] = auth_failure_record(item.plan, failed)
        raise RequirementFailed(sessions(request.config).report(failed))
    prepared = prepare(request.config, item.plan, base_url=base_url, generate=True, trace=True)
    try:
        record = run_requirement(item.plan, page, prepared.runtime)
        if record.verdict == "fail" and item.plan.requirement.auth:
            from pytest_pacts.pytest_plugin.session_expiry import after_failure

            # the saved session may have expired mid-run: renewed once (session_expiry.py)
            record = after_failure(request, page, prepared, record)
    finally:
        add_secrets(item, prepared.runtime.secrets)
        cover_shown_secrets(request.config, page, item)
    done: RunConclusion = finish_run(prepared, record)
    item.stash[RUN_KEY] = done.record
    if done.generated is not None:
        item.stash[GENERATED_KEY] = done.generated
    outcome(
        done.record,
        options.settings(request.config),
        list(done.accepted),
        where=_healed_row(item, done.record),
    )


def _healed_row(item: RequirementItem, record: RunRecord) -> tuple[str, int]:
    """The requirement file and the line (an Excel row) of the first healed step, else of
    the requirement: where a heal warning points, as a person looks for it."""
    source = item.plan.requirement.source
    for step in record.steps:
        if any(h.accepted for h in step.heals) and 0 <= step.index < len(item.plan.steps):
            source = item.plan.steps[step.index].source
            break
    return str(item.path), source.zero_based_line + 1


def cover_shown_secrets(config: pytest.Config, page: Page, item: pytest.Item) -> None:
    """Before pytest-playwright's last pictures of the test (``--screenshot``, the trace's
    last snapshot, ``--video``): cover the known secrets the page shows
    (``engine/secretfields.py``)."""
    known = item.stash.get(SECRETS_KEY, set())
    if not known or all(
        str(config.getoption(name, default="off") or "off") == "off"
        for name in ("screenshot", "tracing", "video")
    ):
        return
    from pytest_pacts.engine.secretfields import cover_secrets

    cover_secrets(page, known)


def dry_run_test(request: pytest.FixtureRequest) -> None:
    """``--pacts-dry-run``: resolve every value at its moment of use, open no browser.

    Catches what changes between collection and run time (an environment variable that
    disappeared) without driving the app; discovery before the tests still follows
    ``--pacts-discover``.
    """
    from pytest_pacts.engine.api import RequirementFailed
    from pytest_pacts.planner.templating import Resolver, TemplateError

    item = request.node
    assert isinstance(item, RequirementItem)
    plan = item.plan
    secret = frozenset(options.settings(request.config).secret_vars)
    resolver = Resolver(dict(os.environ), plan.requirement.vars, plan.secret_vars | secret)
    for step in plan.steps:
        value = step.value if step.capture is None else None
        for text in (value, plan.requirement.url if step.index == 0 else None):
            if text is None:
                continue
            try:
                resolver.resolve(text)
            except TemplateError as exc:
                raise RequirementFailed(
                    f"{step.source.render()}: step {step.index + 1} ({step.describe()}): {exc}; "
                    "expected the value to be available when the test runs"
                ) from None
        if step.capture is not None:  # the run stores it; later steps may use it
            resolver.bind(step.capture.var, "-", secret=step.capture.secret)


def outcome(
    record: RunRecord,
    settings: PactsSettings,
    accepted: list[str],
    *,
    where: tuple[str, int] | None = None,
) -> None:
    """The pytest outcome of a record: fail raises :class:`RequirementFailed`
    with the failure text; a healed pass warns (:class:`PactsHealWarning`), or raises under
    ``--pacts-strict-heal``. ``where``: the file and line the warning is attributed to (the
    requirement's row, not this module: pytest's warnings summary prints it)."""
    from pytest_pacts.engine.api import RequirementFailed, render_failure

    if record.verdict == "fail":
        raise RequirementFailed(render_failure(record))
    if record.healed:
        heals = [h for s in record.steps for h in s.heals if h.accepted]
        review = (
            "; review the proposal(s) with `pacts heals list`"
            if any(h.proposal_id for h in heals)
            else ""
        )
        lines = [f"{record.req_id} passed after {len(heals)} heal(s){review}:"]
        lines.extend(heal_line(heal) for heal in heals)
        lines.extend(f"  {note}" for note in accepted)
        text = "\n".join(lines)
        if settings.strict_heal:
            raise RequirementFailed(text + "\n--pacts-strict-heal: a healed run fails")
        if where is None:
            warnings.warn(PactsHealWarning(text), stacklevel=1)
        else:
            warnings.warn_explicit(PactsHealWarning(text), PactsHealWarning, *where)


def heal_line(heal: HealAttempt) -> str:
    """One accepted heal in the warning a healed requirement gives: the rung, the locators,
    what decided it (as the report says it: a re-discovery is accepted by discovery's
    confidence and margin, its ``score`` then only the similarity to the recorded element;
    an alternate, a repair or a similarity heal by its score and runner-up), and its
    proposal."""
    old = heal.old_locator.describe() if heal.old_locator else "(none)"
    new = heal.new_locator.describe() if heal.new_locator else "(none)"
    if heal.basis:
        figures = heal.basis
    else:
        score = f"{heal.score:.2f}" if heal.score is not None else "-"
        runner = f"{heal.runner_up_score:.2f}" if heal.runner_up_score is not None else "-"
        figures = f"score {score}, runner-up {runner}"
    # no proposal: most often the recipe already holds the locator (verified on another
    # deployment, docs/governance.md), so there is nothing to review
    see = (
        f"proposal #{heal.proposal_id}, {heal.track or 'no'} track"
        if heal.proposal_id
        else "no proposal to review"
    )
    return f"  {heal.rung.value}: {old} -> {new} ({figures}; {see})"
