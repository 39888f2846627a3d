"""Recipes as the reviewed truth of a requirement's locators.

- :func:`ensure_recipe` writes version ``v001`` (or the next version after the requirement
  changed) from the plan and its verified locators when the store has none for the current
  plan hash; written versions never change.
- :func:`overlay` lets a run prefer the latest recipe's selectors over the POM cache: an
  accepted heal lives in the recipe, so the next run uses it and needs no healing. Of an
  element's locators, the one verified on the run's deployment comes first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import ValidationError

from pytest_pacts.governance.drift import order_for_deployment
from pytest_pacts.models import Plan, Step
from pytest_pacts.models.locator import DiscoveryResult, Locator
from pytest_pacts.models.recipe import Recipe, SelectorEntry
from pytest_pacts.planner.templating import mask_defaults
from pytest_pacts.store import RecipeVersion, Store, VerifiedLocator


def recipe_of(version: RecipeVersion) -> Recipe:
    """The :class:`Recipe` a stored version holds (the row is authoritative for identity)."""
    body = version.body if isinstance(version.body, dict) else {}
    data = {**body, "req_id": version.req_id, "version": version.version}
    data.setdefault("plan_hash", version.plan_hash)
    return Recipe.model_validate(data)


def current_recipe(store: Store, plan: Plan) -> Recipe | None:
    """The latest stored recipe when it belongs to this plan (same plan hash)."""
    latest = store.recipes.latest(plan.req_id)
    if latest is None or latest.plan_hash != plan.plan_hash:
        return None
    try:
        return recipe_of(latest)
    except ValidationError:
        return None


def recipe_from(plan: Plan, verified: Mapping[int, DiscoveryResult]) -> Recipe:
    """A recipe of ``plan`` with the selectors and fingerprints discovery verified."""
    # here, not at the top: discovery loads Playwright, and the store commands (pacts heals
    # list, pacts report) import this module without needing a browser
    # (tests/cli/test_cli_imports.py)
    from pytest_pacts.discovery.planning import kept

    recipe = _masked(Recipe.from_plan(plan), plan)
    selectors: dict[str, SelectorEntry] = {}
    fingerprints: dict[str, object] = {}
    for index, found in sorted(verified.items()):
        result = kept(plan, index, found)
        step = plan.steps[index] if index < len(plan.steps) else None
        if step is None or step.target is None or result.locator is None:
            continue
        key = step.target.key
        if key in selectors:
            continue
        selectors[key] = SelectorEntry(
            primary=result.locator.model_dump(mode="json", exclude_none=True),
            fallbacks=tuple(
                a.model_dump(mode="json", exclude_none=True) for a in result.alternates
            ),
        )
        if result.fingerprint is not None:
            fingerprints[key] = result.fingerprint.model_dump(mode="json", exclude_none=True)
    return recipe.model_copy(update={"selectors": selectors, "fingerprints": fingerprints})


def _masked(recipe: Recipe, plan: Plan) -> Recipe:
    """``recipe`` with each default that stands in for a secret written as ``***``
    (``{{env.PASSWORD:***}}``): the store keeps the sheet's text, never a secret
    (docs/reports.md "What the secret guarantee covers")."""
    names = plan.secret_vars
    steps = tuple(
        s.model_copy(
            update={
                "value": mask_defaults(s.value, names) if s.value else s.value,
                "expect": mask_defaults(s.expect, names) if s.expect else s.expect,
            }
        )
        for s in recipe.workflow
    )
    return recipe.model_copy(update={"workflow": steps})


def ensure_recipe(store: Store, plan: Plan, verified: Mapping[int, DiscoveryResult]) -> Recipe:
    """The current recipe of ``plan``, writing the next version first when there is none."""
    existing = current_recipe(store, plan)
    if existing is not None:
        return existing
    fresh = recipe_from(plan, verified)
    written = store.recipes.add_version(
        plan.req_id, fresh.model_dump(mode="json"), plan_hash=plan.plan_hash
    )
    return recipe_of(written)


def _steps_a_recipe_names(plan: Plan, pom: Mapping[int, DiscoveryResult]) -> list[Step]:
    """The steps a recipe's selector of their element applies to. A selector is recorded
    from the first step naming the element; a step naming the same words for another action
    may mean another element (a hover on a disclosure's visible words, a click on the
    control they show: docs/discovery.md, "Controls before text"), so it keeps its own POM
    entry or discovery unless both steps' own discoveries agree."""
    named: dict[str, int] = {}
    for step in plan.steps:
        if step.target is not None:
            named.setdefault(step.target.key, step.index)
    steps: list[Step] = []
    for step in plan.steps:
        if step.target is None:
            continue
        first = named[step.target.key]
        source, own = pom.get(first), pom.get(step.index)
        if plan.steps[first].action != step.action and (
            source is None or own is None or source.locator != own.locator
        ):
            continue
        steps.append(step)
    return steps


def overlay(
    plan: Plan,
    recipe: Recipe | None,
    pom: Mapping[int, DiscoveryResult],
    verified: Sequence[VerifiedLocator] = (),
    deployment: str = "",
) -> dict[int, DiscoveryResult]:
    """The POM with the recipe's selectors taking precedence for every step they name.

    ``verified`` (the requirement's verified locators) and ``deployment`` (the base URL of
    this run) put first the recipe locator of each element verified on this deployment,
    so two deployments that need different locators each use their own without healing.
    """
    merged = dict(pom)
    if recipe is None:
        return merged
    for step in _steps_a_recipe_names(plan, pom):
        assert step.target is not None
        entry = recipe.selectors.get(step.target.key)
        if entry is None:
            continue
        mine = [v for v in verified if v.element_key == step.target.key]
        first, rest = order_for_deployment(entry, deployment, mine)
        try:
            primary = Locator.model_validate(first)
            fallbacks = tuple(Locator.model_validate(f) for f in rest)
        except ValidationError:
            continue
        known = merged.get(step.index)
        if known is not None and known.locator == primary:
            continue
        base = known or DiscoveryResult(
            element=step.target.element, region=step.target.region, action=step.action.value
        )
        merged[step.index] = base.model_copy(
            update={"locator": primary, "alternates": fallbacks, "unresolved": None, "gate": None}
        )
    return merged
