"""Where the generator's locators come from: a run record, the POM cache or a recipe.

Each reads a projection (``RunRecord``, the POM cache payload, a recipe body as documented
in docs/governance.md), never engine internals.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import ValidationError

from pytest_pacts.generator.codegen import Locators
from pytest_pacts.models import Plan
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.outcome import DropdownUse, RunRecord


def _locator(value: object) -> Locator | None:
    if not isinstance(value, Mapping):
        return None
    try:
        return Locator.model_validate(dict(value))
    except ValidationError:
        return None


def locators_from_record(record: RunRecord) -> Locators:
    """The locators a run used (healed ones included: they are what passed)."""
    steps: dict[int, Locator] = {}
    elements: dict[str, Locator] = {}
    dropdowns = {s.index: s.dropdown for s in record.steps if s.dropdown is not None}
    for step in record.steps:
        if step.locator is not None:
            steps[step.index] = step.locator
            if step.element_key:
                elements.setdefault(step.element_key, step.locator)
    return Locators(steps=steps, elements=elements, dropdowns=dropdowns)


def locators_from_pom(payload: object, plan: Plan) -> Locators:
    """A POM cache payload (``{"steps": {index: DiscoveryResult}}``) for ``plan``."""
    steps: dict[int, Locator] = {}
    elements: dict[str, Locator] = {}
    raw = payload.get("steps") if isinstance(payload, Mapping) else None
    if isinstance(raw, Mapping):
        for key, result in raw.items():
            loc = _locator(result.get("locator")) if isinstance(result, Mapping) else None
            if loc is None or not str(key).isdigit():
                continue
            index = int(key)
            steps[index] = loc
            if index < len(plan.steps) and plan.steps[index].target is not None:
                target = plan.steps[index].target
                assert target is not None
                elements.setdefault(target.key, loc)
    return Locators(steps=steps, elements=elements)


def locators_from_recipe(body: object) -> Locators:
    """A recipe body's ``selectors`` section: element key -> ``{primary, fallbacks}``."""
    elements: dict[str, Locator] = {}
    selectors = body.get("selectors") if isinstance(body, Mapping) else None
    if isinstance(selectors, Mapping):
        for key, entry in selectors.items():
            loc = _locator(entry.get("primary")) if isinstance(entry, Mapping) else None
            if loc is not None:
                elements[str(key)] = loc
    return Locators(elements=elements)


def merged(*sources: Locators) -> Locators:
    """Earlier sources win."""
    steps: dict[int, Locator] = {}
    elements: dict[str, Locator] = {}
    dropdowns: dict[int, DropdownUse] = {}
    for src in reversed(sources):
        steps.update(src.steps)
        elements.update(src.elements)
        dropdowns.update(src.dropdowns)
    return Locators(steps=steps, elements=elements, dropdowns=dropdowns)
