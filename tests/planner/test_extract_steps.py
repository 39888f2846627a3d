"""``extract`` steps and ``response:`` outcomes as the planner reads them (no browser)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from pytest_pacts.models import Action, Capture, ExpectationKind, ResponseRef, SourceRef
from pytest_pacts.planner import LoaderOptions, RequirementFileError, load_file
from pytest_pacts.planner.inline import inline_step
from pytest_pacts.planner.steps import (
    StepSyntaxError,
    parse_capture,
    parse_expectation,
    parse_json_path,
)
from pytest_pacts.planner.templating import MASK, Resolver, Secret


def test_capture_options() -> None:
    assert parse_capture("Order number", "order_id") == (Capture(var="order_id"), False)
    capture, _ = parse_capture("Order number", r"num; regex=ORD-(\d+)\;x; attr=data-id; secret")
    assert capture == Capture(var="num", attribute="data-id", regex=r"ORD-(\d+);x", secret=True)
    capture, reads = parse_capture("response:**/api/order* order.items[0].id", "first")
    assert reads and capture.response == ResponseRef(url="**/api/order*", path="order.items[0].id")


@pytest.mark.parametrize(
    ("element", "value", "message"),
    [
        ("X", "1abc", "the extract step's value starts with '1abc', not a var name"),
        ("X", "v; regx=a", "unknown extract option 'regx=a' (did you mean 'regex'?)"),
        ("X", "v; regex=(", "regex=( is not a valid regular expression"),
        ("X", "v; attribute=a b", "attribute=a b is not an attribute name"),
        ("X", "v; secret; secret", "extract option 'secret' is given twice"),
        ("response:/api/order", "v", "response:/api/order needs a URL pattern and a JSON path"),
        ("response:/api/order order..id", "v", "the JSON path 'order..id' is ill-formed"),
        ("response:/api/o o.id", "v; attribute=href", "attribute= takes an element's attribute"),
    ],
)
def test_capture_errors(element: str, value: str, message: str) -> None:
    with pytest.raises(StepSyntaxError) as info:
        parse_capture(element, value)
    assert str(info.value).startswith(message), str(info.value)


def test_json_paths_and_response_outcomes() -> None:
    assert parse_json_path("$.order.items[2].name") == ("order", "items", 2, "name")
    assert parse_json_path("items.0") == ("items", "0")
    exp = parse_expectation("response:/api/order order.status = confirmed")
    assert exp.kind is ExpectationKind.RESPONSE and exp.text == "confirmed"
    assert exp.response == ResponseRef(url="/api/order", path="order.status")
    assert str(exp) == "response:/api/order order.status = confirmed"
    present = parse_expectation("response:/api/order order.id")
    assert present.text is None and str(present) == "response:/api/order order.id"


def test_extracted_vars_resolve_literally_and_secret_ones_mask() -> None:
    resolver = Resolver({}, {"greeting": "Order {{vars.order_id}}"})
    assert resolver.bind("order_id", "ORD-1 {{x}}") == "ORD-1 {{x}}"  # literal, never a template
    assert resolver.resolve("{{vars.greeting}}") == "Order ORD-1 {{x}}"
    assert resolver.bind("code", "s3cr3t", secret=True) == MASK
    assert resolver.bind("api_token", "t0k") == MASK  # a secret-looking name
    shown = resolver.resolve("x-{{vars.code}}")
    assert isinstance(shown, Secret) and shown.reveal() == "x-s3cr3t" and str(shown) == MASK
    assert sorted(resolver.secret_values()) == ["s3cr3t", "t0k"]
    # a secret typed into the page and read back is still a secret, whatever the var's name
    typed = Resolver({"PW": "hunter22"}, {})
    assert str(typed.resolve("{{env.PW}}")) == MASK
    assert typed.bind("shown", "value: hunter22") == MASK
    assert typed.bind("other", "hunter") == "hunter"


def _load(tmp_path: Path, steps: Sequence[object]) -> list[str]:
    path = tmp_path / "r.req.json"
    path.write_text(json.dumps({"req_id": "R1", "url": "/", "steps": steps}))
    try:
        load_file(path, LoaderOptions(env={}))
    except RequirementFileError as exc:
        return str(exc).splitlines()
    return []


def test_plan_checks_the_order_of_extract_and_use(tmp_path: Path) -> None:
    ok = [
        "Order number | extract | order_id | text_visible:{{vars.order_id}}",
        "| goto | /orders/{{vars.order_id}}",
        {"action": "use", "block": "extract",
         "params": {"target": "Total", "var": "total", "regex": "\\d+;x"}},
    ]  # fmt: skip
    assert _load(tmp_path, ok) == []
    plan = load_file(tmp_path / "r.req.json", LoaderOptions(env={})).plans[0]
    assert plan.steps[0].action is Action.EXTRACT
    assert plan.steps[2].capture == Capture(var="total", regex="\\d+;x")
    assert plan.steps[0].describe() == (
        'store "Order number" in {{vars.order_id}}, expect text_visible:{{vars.order_id}}'
    )
    bad = _load(
        tmp_path,
        [
            "| extract | x",
            "response:/a b | extract | y",  # fine: URL pattern /a, path b
            "X | extract |",
            {"element": "response:/a b", "region": "R", "action": "extract", "value": "z"},
        ],
    )
    assert [line.split(": ", 1)[1] for line in bad] == [
        "the 'extract' step has no element; expected the element whose text to store "
        "(Element@Region), or response:<url pattern> <json path>",
        "the 'extract' step has no value; expected the name of the var to store the value in, "
        "e.g. order_id",
        "a response: step has no region; expected response:<url pattern> <json path> in the "
        "Element column alone",
    ]


def test_pacts_step_extracts_an_element_but_not_a_response() -> None:
    at = SourceRef(path="test_x.py", line=3)
    step = inline_step(0, "Order number", "extract", "oid; secret", None, "abort", at, env={})
    assert step.capture == Capture(var="oid", secret=True)
    with pytest.raises(StepSyntaxError, match=r"each pacts\.step runs on its own"):
        inline_step(0, "response:/api/o o.id", "extract", "oid", None, "abort", at, env={})


def test_an_extracted_var_cannot_name_an_element(tmp_path: Path) -> None:
    bad = _load(
        tmp_path,
        [
            "Order number | extract | order_id",
            "Cancel@{{vars.order_id}} | click",
            "| wait | | element_visible:{{vars.order_id}}",
        ],
    )
    assert len(bad) == 2 and all(
        "{{vars.order_id}} names an element by a value an extract step stores while the "
        "requirement runs; elements are found before the run; expected a fixed name in the "
        "Element column" in line
        for line in bad
    ), bad
