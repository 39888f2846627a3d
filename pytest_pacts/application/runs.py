"""A requirement run's services, before and after it: the runtime under the reviewed
recipe with its healing ladder (:func:`prepare_run`), and what the store learns after it
(:func:`conclude_run`, :func:`finish_run`: trace bundles, accepted heals, the generated
test)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytest_pacts.discovery.pom import load_pom, remember_step
from pytest_pacts.engine.api import Runtime
from pytest_pacts.engine.healing import HealingLadder, default_rungs
from pytest_pacts.engine.ports import ProposalSink
from pytest_pacts.governance import HealSite, propose
from pytest_pacts.governance.drift import deployment_of
from pytest_pacts.governance.recipes import current_recipe, ensure_recipe, overlay
from pytest_pacts.models import Plan
from pytest_pacts.models.heal import HealProposal
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.outcome import RunRecord
from pytest_pacts.models.recipe import Recipe
from pytest_pacts.planner.urls import UrlError, resolve_url
from pytest_pacts.settings import (
    base_url_of,
)
from pytest_pacts.store import Store
from pytest_pacts.traces import conclude as conclude_traces

if TYPE_CHECKING:
    pass
from pytest_pacts.application.codegen import generate_test
from pytest_pacts.application.options import RunSettings
from pytest_pacts.application.review import accept_heals


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
        # (a copy: the proposal is written on a worker thread while discovery goes on,
        # engine/confirming.py)
        return ensure_recipe(store, plan, dict(verified))

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
