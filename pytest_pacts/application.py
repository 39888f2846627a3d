"""The application layer: one place that builds a requirement run's services.

A run needs the store's cached POM under the reviewed recipe, a callback that persists fresh
discoveries, the healing ladder with its recipe source, and the engine options. The pytest
item, the corpus benchmark and (later) the CLI and the web dashboard all build it here, so a
run behaves the same whoever starts it. Nothing here imports pytest.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pytest_pacts.discovery.pom import load_pom, remember_step
from pytest_pacts.engine.api import Runtime
from pytest_pacts.engine.contracts import EngineOptions, ExtensionHealer
from pytest_pacts.engine.executor import ActionObserver
from pytest_pacts.engine.healing import HealingLadder, HumanRung, default_rungs
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
from pytest_pacts.store import Store

__all__ = ["PreparedRun", "RunSettings", "conclude_run", "prepare_run", "store_proposals"]


@dataclass(frozen=True)
class RunSettings:
    """What a run takes from its caller's settings (plain values, read once by the caller)."""

    options: EngineOptions = field(default_factory=EngineOptions)
    base_url: str | None = None
    env: Mapping[str, str] | None = None  # None: the process environment
    secret_vars: frozenset[str] = frozenset()
    session_id: str = "default"
    discovery_ttl_seconds: int = 3600
    navigate: bool = True
    extensions: Sequence[ExtensionHealer] = ()
    human: HumanRung | None = None
    observer: ActionObserver | None = None


@dataclass(frozen=True)
class PreparedRun:
    """A :class:`Runtime` for one plan, and what :func:`conclude_run` needs after the run."""

    plan: Plan
    store: Store
    runtime: Runtime
    verified: dict[int, DiscoveryResult]
    deployment: str = ""


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
    try:
        url = resolve_url(plan.requirement.url, settings.base_url or plan.requirement.base_url)
    except UrlError:
        url = plan.requirement.url  # the run says so, with what to do
    # the deployment this run drives: each element's locator verified there comes first
    deployment = deployment_of(settings.base_url or plan.requirement.base_url, url)
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
    return PreparedRun(plan, store, runtime, verified, deployment)


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
