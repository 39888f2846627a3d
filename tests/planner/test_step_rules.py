"""The step rules are written once (``planner/step_rules.py``): a sheet row and a
``pacts.step(...)`` call that break the same rule get the same message and the same hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_pacts.models import Action, OnFail, SourceRef
from pytest_pacts.planner import LoaderOptions, RequirementFileError, load_file
from pytest_pacts.planner.inline import inline_step
from pytest_pacts.planner.step_rules import check_step
from pytest_pacts.planner.steps import StepSyntaxError

# (element, action, value, expected outcome, on_fail) -> the rule broken, in words
BROKEN = [
    ((None, "click", None, None, "abort"), "the 'click' step has no element"),
    (("Username", "fill", None, None, "abort"), "the 'fill' step has no value"),
    (("Key", "press", None, None, "abort"), "the 'press' step has no value"),
    ((None, "goto", None, None, "abort"), "the 'goto' step has no URL"),
    ((None, "wait", None, None, "abort"), "the 'wait' step has no expected outcome"),
    (("Login", "tap", None, None, "abort"), "unknown action 'tap'"),
    (("Login", "click", None, "checked:yes", "abort"), "expected outcome 'checked' takes no"),
    ((None, "extract", "oid", None, "abort"), "the 'extract' step has no element"),
]


def _sheet_problem(tmp_path: Path, fields: tuple[str | None, ...]) -> tuple[str, str | None]:
    element, action, value, expected, on_fail = fields
    step = {"element": element, "action": action, "value": value, "expected": expected}
    step["on_fail"] = on_fail
    lines = [f"    {k}: {v!r}" for k, v in step.items() if v is not None]
    path = tmp_path / "r.req.yaml"
    path.write_text("req_id: R1\nurl: /\nsteps:\n  - " + "\n".join(lines).lstrip() + "\n")
    with pytest.raises(RequirementFileError) as info:
        load_file(path, LoaderOptions(env={}))
    (problem,) = info.value.problems
    return problem.message, problem.expected


def _call_problem(fields: tuple[str | None, ...]) -> tuple[str, str | None]:
    element, action, value, expected, on_fail = fields
    at = SourceRef(path="test_x.py", line=3)
    with pytest.raises(StepSyntaxError) as info:
        inline_step(0, element, str(action), value, expected, str(on_fail), at, env={})
    return str(info.value), info.value.expected


@pytest.mark.parametrize(("fields", "words"), BROKEN, ids=[w for _, w in BROKEN])
def test_a_sheet_row_and_a_step_call_break_a_rule_in_the_same_words(
    tmp_path: Path, fields: tuple[str | None, ...], words: str
) -> None:
    in_sheet = _sheet_problem(tmp_path, fields)
    assert in_sheet[0].startswith(words), in_sheet
    assert _call_problem(fields) == in_sheet


def test_a_step_call_that_breaks_several_rules_names_each_with_its_hint() -> None:
    at = SourceRef(path="test_x.py", line=3)
    with pytest.raises(StepSyntaxError) as info:
        inline_step(0, None, "wait", None, None, "never", at, env={})
    assert str(info.value) == (
        "the 'wait' step has no expected outcome (expected what to wait for, e.g. "
        "text_visible:Products); on_fail is 'never' (expected 'abort' or 'skip')"
    )


def test_the_rules_parse_a_valid_step() -> None:
    parts, broken = check_step(
        "Fill", element="Username", region="LoginForm", value="bob", on_fail="SKIP"
    )
    assert broken == [] and parts is not None
    assert parts.action is Action.FILL and parts.on_fail is OnFail.SKIP
    assert parts.target is not None and str(parts.target) == "Username@LoginForm"
