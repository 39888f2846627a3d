"""The patch contract: every allowed and rejected path/op."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from pytest_pacts.governance import (
    PatchRejected,
    apply_patch,
    classify_patch,
    recipe_diff,
    recipe_json,
    validate_patch,
)
from pytest_pacts.models.heal import Severity
from pytest_pacts.models.recipe import PatchOp, Recipe, next_version, version_label

from .conftest import LOGIN, ROLE_LOCATOR, USER

NEW_ENTRY = {"primary": ROLE_LOCATOR, "fallbacks": [{"strategy": "label", "label": "Username"}]}
FILL_ACTION = {"method": "fill", "target": USER, "options": {"timeout": 5000}}

ALLOWED = [
    pytest.param(
        {"path": f"selectors.{USER}", "op": "replace", "value": NEW_ENTRY}, id="sel-replace"
    ),
    pytest.param(
        {"path": "selectors.Password@LoginForm", "op": "add", "value": NEW_ENTRY}, id="sel-add"
    ),
    pytest.param(
        {"path": "selectors.v1.2 Save@Form", "op": "add", "value": NEW_ENTRY}, id="sel-dotted-key"
    ),
    pytest.param({"path": "actions.s002", "op": "replace", "value": FILL_ACTION}, id="act-replace"),
    pytest.param(
        {"path": "workflow.s002.expect", "op": "replace", "value": "value:alice"}, id="expect"
    ),
    pytest.param(
        {"path": "workflow.s003.expect", "op": "replace", "value": None}, id="expect-null"
    ),
    pytest.param(
        {"path": "policies.global", "op": "replace", "value": {"min_score": 0.9}}, id="policy"
    ),
]

REJECTED = [
    # remove, anywhere
    ({"path": f"selectors.{USER}", "op": "remove"}, "remove is not allowed anywhere"),
    ({"path": "actions.s002", "op": "remove"}, "remove is not allowed anywhere"),
    ({"path": "policies.global", "op": "remove"}, "remove is not allowed anywhere"),
    ({"path": "workflow.s002", "op": "remove"}, "remove is not allowed anywhere"),
    # workflow structure and actions
    ({"path": "workflow", "op": "replace", "value": []}, "replacing workflow steps"),
    ({"path": "workflow.s004", "op": "add", "value": {}}, "adding workflow steps"),
    ({"path": "workflow.s002", "op": "replace", "value": {}}, "replacing workflow steps"),
    ({"path": "workflow.s002.op", "op": "replace", "value": "type"}, "changing a step's action"),
    (
        {"path": "workflow.s002.action", "op": "replace", "value": "type"},
        "changing a step's action",
    ),
    (
        {"path": "workflow.s002.target", "op": "replace", "value": LOGIN},
        "may not change (only expect)",
    ),
    (
        {"path": "workflow.s002.value", "op": "replace", "value": "x"},
        "may not change (only expect)",
    ),
    ({"path": "workflow.s002.expect", "op": "add", "value": "checked"}, "may only be replaced"),
    ({"path": "workflow.s002.expect", "op": "replace", "value": 3}, "not an expectation"),
    (
        {"path": "workflow.s009.expect", "op": "replace", "value": "checked"},
        "no workflow step 's009'",
    ),
    (
        {"path": "actions.s002", "op": "replace", "value": {**FILL_ACTION, "method": "type"}},
        "changing a step's action",
    ),
    (
        {"path": "actions.s002", "op": "replace", "value": {**FILL_ACTION, "target": LOGIN}},
        "keep its step's target",
    ),
    ({"path": "actions.s002", "op": "add", "value": FILL_ACTION}, "entry exists; use replace"),
    ({"path": "actions.s009", "op": "add", "value": FILL_ACTION}, "no step 's009'"),
    ({"path": "actions.s002", "op": "replace", "value": {"method": "fly"}}, "not an action entry"),
    # selectors
    ({"path": f"selectors.{USER}", "op": "add", "value": NEW_ENTRY}, "entry exists; use replace"),
    (
        {"path": "selectors.Nope", "op": "replace", "value": NEW_ENTRY},
        "no selectors entry to replace",
    ),
    ({"path": f"selectors.{USER}", "op": "replace", "value": "#user"}, "not a selector entry"),
    ({"path": f"selectors.{USER}", "op": "replace", "value": {"fallbacks": []}}, "primary"),
    ({"path": "selectors", "op": "replace", "value": {}}, "name one entry"),
    # policies
    ({"path": "policies.global", "op": "add", "value": {}}, "policies may only be replaced"),
    ({"path": f"policies.{USER}", "op": "replace", "value": {}}, "no policies entry"),
    ({"path": "policies.global", "op": "replace", "value": 0.9}, "not a policy"),
    # fingerprints, metadata, outside the recipe, bad ops
    (
        {"path": f"fingerprints.{USER}", "op": "replace", "value": {}},
        "fingerprints are never modified",
    ),
    ({"path": "fingerprints.New", "op": "add", "value": {}}, "fingerprints are never modified"),
    ({"path": "version", "op": "replace", "value": "v009"}, "recipe metadata"),
    ({"path": "plan_hash", "op": "replace", "value": "x"}, "recipe metadata"),
    ({"path": "req_id", "op": "replace", "value": "x"}, "recipe metadata"),
    ({"path": "requirements.xlsx", "op": "replace", "value": "x"}, "outside the recipe"),
    ({"path": "../etc/passwd", "op": "add", "value": "x"}, "outside the recipe"),
    ({"path": "", "op": "add", "value": "x"}, "outside the recipe"),
    ({"path": f"selectors.{USER}", "op": "move", "value": NEW_ENTRY}, "unknown op 'move'"),
    ({"path": f"selectors.{USER}"}, "unknown op None"),
    ({"op": "add", "value": 1}, "not a patch operation"),
]


@pytest.mark.parametrize("op", ALLOWED)
def test_allowed(recipe: Recipe, op: dict[str, object]) -> None:
    (check,) = validate_patch(recipe, [op])
    assert check.allowed, check.reason
    assert check.reason == ""


@pytest.mark.parametrize(("op", "reason"), REJECTED)
def test_rejected_with_a_reason(recipe: Recipe, op: dict[str, object], reason: str) -> None:
    (check,) = validate_patch(recipe, [op])
    assert not check.allowed
    assert reason in check.reason


def test_each_op_gets_its_own_verdict(recipe: Recipe) -> None:
    ops = [
        {"path": f"selectors.{USER}", "op": "replace", "value": NEW_ENTRY},
        {"path": "fingerprints.x", "op": "add", "value": {}},
        {"path": "policies.global", "op": "replace", "value": {"min_score": 0.9}},
    ]
    assert [c.allowed for c in validate_patch(recipe, ops)] == [True, False, True]
    with pytest.raises(PatchRejected) as info:
        apply_patch(recipe, ops)
    assert [c.index for c in info.value.rejected] == [1]
    assert "op 1 add 'fingerprints.x': fingerprints are never modified" in str(info.value)


def test_ops_apply_in_order(recipe: Recipe) -> None:
    ops = [
        {"path": "selectors.New@X", "op": "add", "value": NEW_ENTRY},
        {"path": "selectors.New@X", "op": "replace", "value": {"primary": {"text": "x"}}},
    ]
    assert all(c.allowed for c in validate_patch(recipe, ops))
    assert apply_patch(recipe, ops).selectors["New@X"].primary == {"text": "x"}


def test_model_ops_are_accepted(recipe: Recipe) -> None:
    op = PatchOp(path=f"selectors.{USER}", op="replace", value=NEW_ENTRY)
    assert apply_patch(recipe, [op]).selectors[USER].primary == ROLE_LOCATOR


@pytest.mark.parametrize(
    ("ops", "severity"),
    [
        ([{"path": f"selectors.{USER}", "op": "replace"}], Severity.MINOR),
        ([{"path": "actions.s002", "op": "add"}], Severity.MINOR),
        ([{"path": "policies.global", "op": "replace"}], Severity.MINOR),
        ([{"path": "workflow.s002.expect", "op": "replace"}], Severity.MAJOR),
        ([{"path": f"selectors.{USER}", "op": "remove"}], Severity.MAJOR),
        ([{"path": "selectors.a", "op": "add"}, {"path": "workflow", "op": "add"}], Severity.MAJOR),
        ([PatchOp(path="workflow.s001.expect", op="replace")], Severity.MAJOR),
        ([], Severity.MINOR),
    ],
)
def test_severity(ops: list[dict[str, object]], severity: Severity) -> None:
    assert classify_patch(ops) is severity


def test_apply_writes_a_new_version_and_never_touches_the_old(recipe: Recipe) -> None:
    before = recipe_json(recipe)
    ops: list[Mapping[str, object]] = [
        {"path": f"selectors.{USER}", "op": "replace", "value": NEW_ENTRY},
        {"path": "workflow.s002.expect", "op": "replace", "value": "value:alice"},
        {"path": "policies.global", "op": "replace", "value": {"min_score": 0.9}},
    ]
    v2 = apply_patch(recipe, ops, proposal_id="hp_1")
    assert recipe_json(recipe) == before
    assert (v2.version, v2.parent_version, v2.proposal_id) == ("v002", "v001", "hp_1")
    assert (v2.req_id, v2.plan_hash) == (recipe.req_id, recipe.plan_hash)
    assert v2.selectors[USER].primary == ROLE_LOCATOR
    assert v2.step("s002") is not None and v2.step("s002").expect == "value:alice"  # type: ignore[union-attr]
    assert v2.policies["global"] == {"min_score": 0.9}
    assert v2.fingerprints == recipe.fingerprints
    v3 = apply_patch(v2, [{"path": "policies.global", "op": "replace", "value": {}}])
    assert (v3.version, v3.parent_version, v3.proposal_id) == ("v003", "v002", None)


def test_rejected_patch_changes_nothing(recipe: Recipe) -> None:
    before = recipe_json(recipe)
    with pytest.raises(PatchRejected):
        apply_patch(recipe, [{"path": f"selectors.{USER}", "op": "remove"}])
    assert recipe_json(recipe) == before


def test_empty_patch_is_refused(recipe: Recipe) -> None:
    with pytest.raises(PatchRejected, match="empty patch"):
        apply_patch(recipe, [])


@pytest.mark.parametrize(
    ("label", "following"),
    [("v001", "v002"), ("v009", "v010"), ("v099", "v100"), ("v999", "v1000")],
)
def test_version_numbering(label: str, following: str) -> None:
    assert next_version(label) == following


@pytest.mark.parametrize("bad", ["1", "v1", "v000", "V001", "v01a", ""])
def test_bad_version_labels(bad: str) -> None:
    with pytest.raises(ValueError, match="v001"):
        next_version(bad)


def test_version_label_starts_at_one() -> None:
    assert version_label(1) == "v001"
    with pytest.raises(ValueError):
        version_label(0)


def test_diff_is_unified_over_sorted_json(recipe: Recipe) -> None:
    v2 = apply_patch(recipe, [{"path": "workflow.s002.expect", "op": "replace", "value": "x"}])
    diff = recipe_diff(recipe, v2)
    lines = diff.splitlines()
    assert lines[:2] == ["--- recipes/REQ-LOGIN-001/v001", "+++ recipes/REQ-LOGIN-001/v002"]
    assert '-      "expect": "field_populated",' in lines
    assert '+      "expect": "x",' in lines
    assert '-  "version": "v001",' in lines and '+  "version": "v002",' in lines
    assert recipe_diff(recipe, recipe) == ""
    assert recipe_json(recipe).index('"actions"') < recipe_json(recipe).index('"workflow"')
