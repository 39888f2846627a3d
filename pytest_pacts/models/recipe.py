"""Recipes: a requirement's verified plan, versioned and immutable.

A recipe is five JSON files (``workflow``, ``actions``, ``selectors``,
``fingerprints``, ``policies``) in a version directory ``v001/``, ``v002/``, …; a version
never changes once written, a patch produces the next one (docs/governance.md "Recipes").
Here the five files are the five body sections of one model, adapted to locators:

- ``workflow``: the steps, each with an ``id`` (``s001``…), the action (``op``), the element
  key it targets, the value *template* (never a resolved secret), the expectation text and
  ``on_fail``;
- ``actions``: per step id, how the action is performed (method, target element key,
  options);
- ``selectors``: per element key (``Element@Region``), the primary locator and its
  fallbacks;
- ``fingerprints``: per element key, the element fingerprint recorded at discovery;
- ``policies``: per element key, or ``"global"``, e.g. heal thresholds.

Locator and fingerprint payloads are plain JSON objects here: the discovery package owns
their typed models. The patch contract over these sections lives in
``pytest_pacts.governance.patch``.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator

from pytest_pacts.models.requirement import Action, OnFail, Plan

JsonObject = dict[str, JsonValue]
"""A JSON object (locators, fingerprints and policies are carried in this form)."""

RecipeSection = Literal["workflow", "actions", "selectors", "fingerprints", "policies"]
RECIPE_SECTIONS: tuple[RecipeSection, ...] = (
    "workflow",
    "actions",
    "selectors",
    "fingerprints",
    "policies",
)
"""The five body sections, in the order of a recipe directory's files."""

GLOBAL_POLICY_KEY = "global"
"""The ``policies`` key of the policy that applies to every element."""

_VERSION = re.compile(r"^v(\d{3,})$")


def version_label(number: int) -> str:
    """``1`` -> ``"v001"`` (zero-padded to three digits, growing past 999)."""
    if number < 1:
        raise ValueError(f"recipe version numbers start at 1, got {number}")
    return f"v{number:03d}"


def version_number(label: str) -> int:
    """``"v002"`` -> ``2``; a label not of the form ``v001`` is a ``ValueError``."""
    match = _VERSION.match(label)
    if match is None or int(match.group(1)) < 1:
        raise ValueError(f"a recipe version looks like 'v001', got {label!r}")
    return int(match.group(1))


def next_version(label: str) -> str:
    """The version a patch of ``label`` is written as: ``"v001"`` -> ``"v002"``."""
    return version_label(version_number(label) + 1)


def step_id(index: int) -> str:
    """The recipe step id of the plan step ``index`` (0-based): ``0`` -> ``"s001"``."""
    return f"s{index + 1:03d}"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class WorkflowStep(_Frozen):
    """One step of the workflow section (the step, its action and its expectation)."""

    id: str = Field(min_length=1)
    op: Action
    target: str | None = Field(default=None, description="Element key (Element@Region).")
    value: str | None = Field(default=None, description="Value template, never resolved.")
    expect: str | None = Field(default=None, description="Expected outcome, e.g. 'checked'.")
    on_fail: OnFail = OnFail.ABORT

    @field_validator("id")
    @classmethod
    def _id_has_no_dot(cls, value: str) -> str:
        # Step ids appear in patch paths ("workflow.<id>.expect"); a dot would be ambiguous.
        if "." in value:
            raise ValueError(f"a step id may not contain '.', got {value!r}")
        return value


class ActionEntry(_Frozen):
    """How one step's action is performed (keyed by step id)."""

    method: Action
    target: str | None = Field(default=None, description="Element key into ``selectors``.")
    options: JsonObject = Field(default_factory=dict)


class SelectorEntry(_Frozen):
    """An element's primary locator and its fallbacks."""

    primary: JsonObject
    fallbacks: tuple[JsonObject, ...] = ()


class PatchOp(_Frozen):
    """One patch operation ``{path, op, value}``.

    Paths name an entry of a section: ``selectors.<element key>``, ``actions.<step id>``,
    ``policies.<key>`` (the key is everything after the first dot, dots included) or a
    step's expectation, ``workflow.<step id>.expect``. Which paths and ops are allowed is
    the patch contract (``pytest_pacts.governance.patch``), not this model: ``remove`` is
    representable so that it can be rejected with a reason.
    """

    path: str
    op: Literal["replace", "add", "remove"]
    value: JsonValue = None


class Recipe(_Frozen):
    """A requirement's verified plan at one version.

    ``parent_version`` is the version this one was patched from (``None`` for ``v001``) and
    ``proposal_id`` the heal proposal whose patch produced it.
    """

    req_id: str = Field(min_length=1)
    version: str = "v001"
    plan_hash: str
    parent_version: str | None = None
    proposal_id: str | None = None
    workflow: tuple[WorkflowStep, ...] = ()
    actions: dict[str, ActionEntry] = Field(default_factory=dict)
    selectors: dict[str, SelectorEntry] = Field(default_factory=dict)
    fingerprints: dict[str, JsonObject] = Field(default_factory=dict)
    policies: dict[str, JsonObject] = Field(default_factory=dict)

    @field_validator("version", "parent_version")
    @classmethod
    def _version_form(cls, value: str | None) -> str | None:
        if value is not None:
            version_number(value)
        return value

    @field_validator("workflow")
    @classmethod
    def _unique_step_ids(cls, steps: tuple[WorkflowStep, ...]) -> tuple[WorkflowStep, ...]:
        seen: set[str] = set()
        for step in steps:
            if step.id in seen:
                raise ValueError(f"duplicate workflow step id {step.id!r}")
            seen.add(step.id)
        return steps

    def step(self, step_id: str) -> WorkflowStep | None:
        """The workflow step with this id, if any."""
        return next((s for s in self.workflow if s.id == step_id), None)

    def steps_targeting(self, element_key: str) -> tuple[WorkflowStep, ...]:
        """The workflow steps whose target is ``element_key``."""
        return tuple(s for s in self.workflow if s.target == element_key)

    @classmethod
    def from_plan(cls, plan: Plan) -> Recipe:
        """Version ``v001`` of a plan: its workflow and actions, no locators yet.

        Discovery fills ``selectors`` and ``fingerprints`` once elements are verified.
        """
        steps = tuple(
            WorkflowStep(
                id=step_id(step.index),
                op=step.action,
                target=step.target.key if step.target is not None else None,
                value=step.value,
                expect=str(step.expected) if step.expected is not None else None,
                on_fail=step.on_fail,
            )
            for step in plan.steps
        )
        actions = {s.id: ActionEntry(method=s.op, target=s.target) for s in steps}
        return cls(req_id=plan.req_id, plan_hash=plan.plan_hash, workflow=steps, actions=actions)
