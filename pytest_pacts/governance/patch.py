"""The patch contract: which recipe changes a heal may propose.

=============================  ============  ==========================================
path                           ops allowed   what it changes
=============================  ============  ==========================================
``selectors.<element key>``    replace, add  an element's primary locator and fallbacks
``actions.<step id>``          replace, add  how a step's action runs (same method/target)
``workflow.<step id>.expect``  replace       a step's expected outcome
``policies.<key>``             replace       an existing policy (``global`` or an element)
=============================  ============  ==========================================

Everything else is rejected, each op with its reason: ``remove`` anywhere, adding,
replacing or removing workflow steps, changing a step's action (``workflow.<id>.op``, or an
``actions`` entry whose method differs from the step's), touching ``fingerprints``, the
recipe's metadata, or any path outside the recipe. ``replace`` needs an existing entry and
``add`` a new one. The key of a section entry is everything after the first dot (element
keys may contain dots); step ids never contain one.

Severity: an op on ``workflow`` (expectations included) or a
``remove`` makes the patch **major**; selector, action and policy updates are **minor**.
A patch never edits a recipe: :func:`apply_patch` writes the next version.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, JsonValue, ValidationError

from pytest_pacts.errors import PactsError
from pytest_pacts.models.heal import Severity
from pytest_pacts.models.recipe import (
    RECIPE_SECTIONS,
    ActionEntry,
    PatchOp,
    Recipe,
    SelectorEntry,
    next_version,
)

PatchInput = PatchOp | Mapping[str, object]
"""An op as a model or as the plain ``{path, op, value}`` object."""

ALLOWED_OPS: Mapping[str, frozenset[str]] = {
    "selectors": frozenset({"replace", "add"}),
    "actions": frozenset({"replace", "add"}),
    "workflow.<step id>.expect": frozenset({"replace"}),
    "policies": frozenset({"replace"}),
}
"""The operations a patch may apply, per recipe section (docs/governance.md)."""

_METADATA = ("req_id", "version", "plan_hash", "parent_version", "proposal_id")
_Body = dict[str, JsonValue]


@dataclass(frozen=True)
class OpCheck:
    """The contract's verdict on one op: ``allowed``, and why not when it is not."""

    index: int
    path: str
    op: str
    allowed: bool
    reason: str = ""


class PatchRejected(ValueError, PactsError):
    """A patch broke the contract; :attr:`checks` holds every op's verdict and reason."""

    def __init__(self, checks: Sequence[OpCheck], message: str | None = None) -> None:
        self.checks = tuple(checks)
        lines = [f"op {c.index} {c.op} {c.path!r}: {c.reason}" for c in self.rejected]
        super().__init__(message or "patch rejected:\n  " + "\n  ".join(lines))

    @property
    def rejected(self) -> tuple[OpCheck, ...]:
        """The ops the contract refused."""
        return tuple(c for c in self.checks if not c.allowed)


def _parse(raw: PatchInput) -> PatchOp | str:
    if isinstance(raw, PatchOp):
        return raw
    op = raw.get("op")
    if op not in ("replace", "add", "remove"):
        return f"unknown op {op!r}: the contract allows replace and add"
    try:
        return PatchOp.model_validate(dict(raw))
    except ValidationError as exc:
        return f"not a patch operation {{path, op, value}}: {exc.errors()[0]['msg']}"


def _model_value(model: type[BaseModel], value: JsonValue, what: str) -> _Body | str:
    try:
        dumped: _Body = model.model_validate(value).model_dump(mode="json")
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "value"
        return f"the value is not {what}: {where}: {first['msg']}"
    return dumped


def _section(body: _Body, name: str) -> dict[str, JsonValue]:
    section = body[name]
    assert isinstance(section, dict)
    return section


def _steps(body: _Body) -> list[dict[str, JsonValue]]:
    steps = body["workflow"]
    assert isinstance(steps, list)
    return [s for s in steps if isinstance(s, dict)]


def _entry_exists(op: PatchOp, exists: bool, section: str) -> str:
    """The replace-needs-existing / add-needs-new rule; ``""`` when it holds."""
    if op.op == "replace" and not exists:
        return f"no {section} entry to replace; use add for a new one"
    if op.op == "add" and exists:
        return f"the {section} entry exists; use replace"
    return ""


def _check_workflow(op: PatchOp, rest: str, body: _Body) -> str:
    step_id, _, field = rest.partition(".")
    if not field:
        verb = {"add": "adding", "replace": "replacing"}.get(op.op, op.op)
        return f"{verb} workflow steps is not allowed (only workflow.<step id>.expect)"
    step = next((s for s in _steps(body) if s.get("id") == step_id), None)
    if step is None:
        return f"the recipe has no workflow step {step_id!r}"
    if field in ("op", "action"):
        return "changing a step's action is not allowed"
    if field != "expect":
        return f"workflow step field {field!r} may not change (only expect)"
    if op.op != "replace":
        return "a step's expect may only be replaced"
    if op.value is not None and not isinstance(op.value, str):
        return "the value is not an expectation: a string such as 'checked' or null"
    step["expect"] = op.value
    return ""


def _check_actions(op: PatchOp, key: str, body: _Body) -> str:
    step = next((s for s in _steps(body) if s.get("id") == key), None)
    if step is None:
        return f"actions are keyed by workflow step id; the recipe has no step {key!r}"
    actions = _section(body, "actions")
    problem = _entry_exists(op, key in actions, "actions")
    if problem:
        return problem
    value = _model_value(ActionEntry, op.value, "an action entry {method, target, options}")
    if isinstance(value, str):
        return value
    if value.get("method") != step.get("op"):
        return f"changing a step's action is not allowed (the method stays {step.get('op')!r})"
    if value.get("target") != step.get("target"):
        return f"an action must keep its step's target {step.get('target')!r}"
    actions[key] = value
    return ""


def _check_selectors(op: PatchOp, key: str, body: _Body) -> str:
    selectors = _section(body, "selectors")
    problem = _entry_exists(op, key in selectors, "selectors")
    if problem:
        return problem
    value = _model_value(SelectorEntry, op.value, "a selector entry {primary, fallbacks}")
    if isinstance(value, str):
        return value
    selectors[key] = value
    return ""


def _check_policies(op: PatchOp, key: str, body: _Body) -> str:
    policies = _section(body, "policies")
    if op.op != "replace":
        return "policies may only be replaced"
    if key not in policies:
        return "no policies entry to replace (policies cannot be added by a patch)"
    if not isinstance(op.value, dict):
        return "the value is not a policy (a JSON object)"
    policies[key] = op.value
    return ""


def _check(op: PatchOp, body: _Body) -> str:
    """Why ``op`` breaks the contract, or ``""`` (and ``body`` now holds its change)."""
    root, _, rest = op.path.partition(".")
    if root in _METADATA:
        return f"{root!r} is recipe metadata, set by apply_patch and never patched"
    if root not in RECIPE_SECTIONS:
        return f"{op.path!r} is outside the recipe (sections: {', '.join(RECIPE_SECTIONS)})"
    if root == "fingerprints":
        return "fingerprints are never modified by a patch"
    if op.op == "remove":
        return "remove is not allowed anywhere"
    if root == "workflow":
        return _check_workflow(op, rest, body)
    if not rest:
        return f"name one entry: {root}.<key>"
    if root == "actions":
        return _check_actions(op, rest, body)
    if root == "selectors":
        return _check_selectors(op, rest, body)
    return _check_policies(op, rest, body)


def _run(recipe: Recipe, ops: Sequence[PatchInput]) -> tuple[tuple[OpCheck, ...], _Body]:
    body: _Body = recipe.model_dump(mode="json")
    checks: list[OpCheck] = []
    for index, raw in enumerate(ops):
        parsed = _parse(raw)
        if isinstance(parsed, str):
            fields = raw if isinstance(raw, Mapping) else {}
            path, op_name = str(fields.get("path", "")), str(fields.get("op", ""))
            checks.append(OpCheck(index, path, op_name, allowed=False, reason=parsed))
            continue
        reason = _check(parsed, body)
        checks.append(OpCheck(index, parsed.path, parsed.op, allowed=not reason, reason=reason))
    return tuple(checks), body


def validate_patch(recipe: Recipe, ops: Sequence[PatchInput]) -> tuple[OpCheck, ...]:
    """Every op's verdict under the contract, ops applied in order to a scratch copy."""
    return _run(recipe, ops)[0]


def classify_patch(ops: Sequence[PatchInput]) -> Severity:
    """``major`` if any op touches ``workflow`` or removes, else ``minor``."""
    for raw in ops:
        path = raw.path if isinstance(raw, PatchOp) else str(raw.get("path", ""))
        op = raw.op if isinstance(raw, PatchOp) else raw.get("op")
        if path == "workflow" or path.startswith("workflow.") or op == "remove":
            return Severity.MAJOR
    return Severity.MINOR


def apply_patch(
    recipe: Recipe, ops: Sequence[PatchInput], *, proposal_id: str | None = None
) -> Recipe:
    """The recipe's next version with ``ops`` applied; ``recipe`` itself never changes.

    The new version is ``next_version(recipe.version)`` with ``parent_version`` set to
    ``recipe.version``. Raises :class:`PatchRejected` if any op breaks the contract (then
    nothing is applied) or if there are no ops.
    """
    if not ops:
        raise PatchRejected((), "an empty patch makes no new recipe version")
    checks, body = _run(recipe, ops)
    if any(not check.allowed for check in checks):
        raise PatchRejected(checks)
    body.update(
        version=next_version(recipe.version),
        parent_version=recipe.version,
        proposal_id=proposal_id,
    )
    return Recipe.model_validate(body)


def recipe_json(recipe: Recipe) -> str:
    """The recipe as pretty-printed JSON with sorted keys (the form diffs are taken of)."""
    data = recipe.model_dump(mode="json")
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def recipe_diff(old: Recipe, new: Recipe) -> str:
    """A unified diff from ``old`` to ``new`` (the proposal's ``suggested_diff``)."""
    return "".join(
        difflib.unified_diff(
            recipe_json(old).splitlines(keepends=True),
            recipe_json(new).splitlines(keepends=True),
            fromfile=f"recipes/{old.req_id}/{old.version}",
            tofile=f"recipes/{new.req_id}/{new.version}",
        )
    )
