"""The malformed-input corpus (issue 2 item 9): one clean, located message each.

Messages are asserted exactly: they are the product for the person fixing the sheet.
"""

from __future__ import annotations

import base64
import os
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import Workbook

from tests.planner.conftest import load, problems

H: list[object] = ["Req ID", "URL", "Element@Region", "Action", "Value", "Expected Outcome"]
OUTCOMES = (
    "field_populated, navigates_to:<text>, text_visible:<text>, text_hidden:<text>, "
    "url_contains:<text>, title_contains:<text>, element_visible:<Element@Region>, "
    "element_hidden:<Element@Region>, checked, unchecked, value:<text>, enabled, "
    "disabled, count:<Element@Region>=<N>, response:<url pattern> <json path> = <value>"
)
XLSX_CASES: dict[str, tuple[list[list[object]], list[str]]] = {
    "missing_columns": (
        [["Title row"], ["Req ID", "Element@Region", "Action", "Value"], ["R1", "Login", "click"]],
        [
            "reqs.xlsx:Reqs:2: the header row is missing the column(s) 'URL'; expected Req ID, URL, "
            "Element@Region (or Element and Region), Action, Value, Expected Outcome"
        ],
    ),
    "empty_element": (
        [H, ["R1", "/", None, "click", None, None]],
        [
            "reqs.xlsx:Reqs:2: the 'click' step has no element; expected the element to act on in "
            "the Element@Region column"
        ],
    ),
    "unknown_action": (
        [H, ["R1", "/", "Login", "tap", None, None]],
        [
            "reqs.xlsx:Reqs:2:D: unknown action 'tap'; expected one of click, fill, type, press, "
            "select, check, uncheck, hover, focus, goto, wait, extract, use"
        ],
    ),
    "bad_ordinal": (
        [H, ["R1", "/", "Delete[0]@Cart", "click", None, None]],
        [
            "reqs.xlsx:Reqs:2:C: the ordinal [0] of 'Delete' counts from 1 (the first is [1]); "
            "expected Element[N]@Region with N a whole number from 1, e.g. Delete[2]@Cart"
        ],
    ),
    "bad_outcomes": (
        [
            H,
            ["R1", "/", "Login", "click", None, "navigate:Products"],
            [None, None, "Login", "click", None, "count:Item"],
        ],
        [
            "reqs.xlsx:Reqs:2:F: unknown expected outcome 'navigate:Products' (did you mean "
            f"'navigates_to'?); expected one of {OUTCOMES}",
            "reqs.xlsx:Reqs:3:F: ill-formed count 'count:Item'; expected "
            "count:<Element@Region>=<N>",
        ],
    ),
    "formula": (
        [H, ["R1", "/", "Login", "fill", "=cmd|' /c calc'!A0", None]],
        [
            "reqs.xlsx:Reqs:2:E: cell holds a formula \"=cmd|' /c calc'!A0\"; formulas are never "
            "evaluated; expected a plain value (to keep text starting with '=', type it with a "
            "leading ')"
        ],
    ),
    "duplicate_req_id": (
        [
            H,
            ["R1", "/", "Login", "click", None, None],
            ["R2", "/", "Login", "click", None, None],
            ["R1", "/", "Login", "click", None, None],
        ],
        [
            "reqs.xlsx:Reqs:4:A: duplicate req_id 'R1' (first at reqs.xlsx:Reqs:2:A); expected "
            "each req_id once per file"
        ],
    ),
    "bad_templates": (
        [
            H,
            ["R1", "/", "Login", "fill", "{{vars.nope}}", None],
            [None, None, "Pw", "fill", "{{env.__class__}}", None],
            [None, None, "X", "fill", "{{env.NOPE}}", None],
        ],
        [
            "reqs.xlsx:Reqs:2:E: {{vars.nope}} cannot be resolved: no var 'nope' is defined and "
            "no earlier step extracts it; expected a var 'nope' in vars (or the Config sheet), "
            "or an earlier step that stores it: <Element> | extract | nope",
            "reqs.xlsx:Reqs:3:E: template '{{env.__class__}}' uses a path segment starting with "
            "'__', which is blocked for safety; expected {{env.NAME}}, {{env.NAME:default}}, "
            "{{vars.name}} or {{params.name}} inside a block",
            "reqs.xlsx:Reqs:4:E: {{env.NOPE}} cannot be resolved; expected set the environment "
            "variable NOPE or write {{env.NOPE:default}}",
        ],
    ),
    "invisible_unicode": (
        [H, ["R\u200b1", "/", "Log\u200bin", "click", None, None]],
        [
            "reqs.xlsx:Reqs:2:A: req_id 'R\\u200b1' contains an invisible character U+200B (ZERO "
            "WIDTH SPACE) at position 2; expected visible characters only; delete the hidden "
            "character",
            "reqs.xlsx:Reqs:2:C: element 'Log\\u200bin' contains an invisible character U+200B "
            "(ZERO WIDTH SPACE) at position 4; expected visible characters only; delete the "
            "hidden character",
        ],
    ),
    "url_changes": (
        [H, ["R1", "/a", "Login", "click", None, None], ["R1", "/b", "Go", "click", None, None]],
        [
            "reqs.xlsx:Reqs:3:B: URL changes within R1 ('/a' then '/b'); expected the url on the "
            "requirement's first row only"
        ],
    ),
    "step_before_req_id": (
        [H, [None, None, "Login", "click", None, None]],
        [
            "reqs.xlsx:Reqs:2: a step row comes before any Req ID; expected a Req ID on the first "
            "row of each requirement"
        ],
    ),
    "no_header": (
        [["just", "some"], ["notes"]],
        [
            "reqs.xlsx: no sheet has a header row with the step columns; expected Req ID, URL, "
            "Element@Region (or Element and Region), Action, Value, Expected Outcome (title rows "
            "above it are fine); a workbook that is not a requirement sheet is kept out with "
            "--ignore or collect_ignore"
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(XLSX_CASES))
def test_xlsx_corpus(case: str, xlsx: Callable[..., Path]) -> None:
    rows, expected = XLSX_CASES[case]
    assert problems(xlsx({"Reqs": rows})) == expected


def test_odd_unicode_that_people_write_is_accepted(xlsx: Callable[..., Path]) -> None:
    path = xlsx(
        {"Reqs": [H, ["R-עברית-1", "/", "שם משתמש@טופס 😀", "click", None, "text_visible:مرحبا"]]}
    )
    plan = load(path).plans[0]
    assert plan.req_id == "R-עברית-1"
    assert plan.steps[0].target is not None and plan.steps[0].target.region == "טופס 😀"


def test_broken_workbooks(tmp_path: Path, xlsx: Callable[..., Path]) -> None:
    good = xlsx({"Reqs": [H, ["R1", "/", "Login", "click", None, None]]})
    truncated = tmp_path / "truncated.xlsx"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    csv = tmp_path / "csv.xlsx"
    csv.write_text("Req ID,URL\nR1,/\n")
    expected = (
        "not a readable .xlsx workbook (it is not a zip archive); expected an Excel "
        "2007+ workbook saved as .xlsx"
    )
    assert problems(truncated) == [f"truncated.xlsx: {expected}"]
    assert problems(csv) == [f"csv.xlsx: {expected}"]


TEXT_CASES: dict[str, tuple[str, list[str]]] = {
    "cycle.req.yaml": (
        "blocks:\n  A:\n    steps: ['use | B']\n  B:\n    steps: ['use | A']\n"
        "requirements:\n  - {req_id: R1, url: /, steps: ['use | A']}\n",
        [
            "cycle.req.yaml:5:13: block cycle: A -> B -> A; expected blocks that do not use "
            "themselves, directly or indirectly"
        ],
    ),
    "unknown_block.req.yaml": (
        "req_id: R1\nurl: /\nsteps:\n  - use | Nope\n",
        [
            "unknown_block.req.yaml:4:5: unknown block 'Nope'; expected one of 'action', "
            "'extract', 'navigation', 'validation'"
        ],
    ),
    "block_params.req.yaml": (
        "blocks:\n  L:\n    params: [user]\n    steps: ['U | fill | {{params.user}}']\n"
        "requirements:\n  - {req_id: R1, url: /, steps: ['use | L', 'use | L | user=a; x=1']}\n",
        [
            "block_params.req.yaml:6:34: block 'L' needs parameter 'user'; expected user=... in the "
            "use step",
            "block_params.req.yaml:6:45: block 'L' has no parameter(s) 'x'; expected parameters "
            "user",
        ],
    ),
    "types.req.json": (
        '{"requirements": [{"req_id": 5, "url": "/", "steps": [42, '
        '{"action": "click", "elemnt": "x"}]}]}',
        [
            "types.req.json:1:30: field 'req_id' is a number; expected text",
            "types.req.json:1:55: a step is a number; expected a 'Element@Region | action | value "
            "| expected' string or a step mapping",
            "types.req.json:1:59: unknown field 'elemnt' (did you mean 'element'?); expected one "
            "of action, block, element, expected, note, on_fail, params, region, value",
        ],
    ),
    "invalid.req.yaml": (
        "req_id: R1\nurl: /\nsteps:\n  - [unclosed\n  - x: : y\n",
        [
            "invalid.req.yaml:5:6: not valid YAML: expected ',' or ']', but got ':'; expected YAML "
            "mapping syntax (check indentation and quotes)"
        ],
    ),
    "invalid.req.json": (
        '{"req_id": "R1",\n "url": "/",\n "steps": [,]}',
        [
            "invalid.req.json:3:12: not valid JSON: Expecting value; expected a JSON object (see "
            "docs/requirements.schema.json)"
        ],
    ),
    "dupkey.req.yaml": (
        "req_id: R1\nurl: /\nreq_id: R2\nsteps: [Login | click]\n",
        ["dupkey.req.yaml:3:1: duplicate key 'req_id'; expected each key once per mapping"],
    ),
    "python_tag.req.yaml": (
        "req_id: !!python/object/apply:os.system ['echo pwned']\nurl: /\nsteps: [Login | click]\n",
        [
            "python_tag.req.yaml:1:9: the YAML tag 'tag:yaml.org,2002:python/object/apply:os.system'"
            " is not allowed; expected plain mappings, lists and scalars (no language-specific "
            "tags)"
        ],
    ),
    "missing.req.yaml": (
        "url: /\nsteps: [Login | click]\n",
        ["missing.req.yaml:1:1: missing required field 'req_id'"],
    ),
    "empty_steps.req.yaml": (
        "req_id: R1\nurl: /\nsteps: []\n",
        ["empty_steps.req.yaml:3:8: field 'steps' is empty; expected at least one item"],
    ),
    "empty.req.yaml": (
        "  \n",
        ["empty.req.yaml:1: the file is empty; expected a requirement or {requirements: [...]}"],
    ),
    "values.req.yaml": (
        "req_id: R1\nurl: /\nsteps:\n  - Username | fill\n  - Key | press\n  - '| goto'\n"
        "  - '| wait'\n  - Login | click | | checked:yes\n  - a|b|c|d|e\n",
        [
            "values.req.yaml:4:5: the 'fill' step has no value; expected the text to enter",
            "values.req.yaml:5:5: the 'press' step has no value; expected a key such as Enter",
            "values.req.yaml:6:5: the 'goto' step has no URL; expected an absolute URL or a path "
            "like /cart.html",
            "values.req.yaml:7:5: the 'wait' step has no expected outcome; expected what to wait "
            "for, e.g. text_visible:Products",
            "values.req.yaml:8:5: expected outcome 'checked' takes no argument, got 'yes'; "
            "expected checked",
            "values.req.yaml:9:5: a step string has 5 fields; expected at most 4: Element@Region "
            "| action | value | expected (escape a literal pipe as \\|)",
        ],
    ),
    "bad_tag.req.yaml": (
        "req_id: R1\nurl: /\ntags: [smoke, high-priority]\nsteps: [Login | click]\n",
        [
            "bad_tag.req.yaml:3:7: tag 'high-priority' cannot be used as a pytest marker; expected "
            "letters, digits and _, starting with a letter, e.g. smoke"
        ],
    ),
    "underscore_tag.req.yaml": (
        "req_id: R1\nurl: /\ntags: [_private]\nsteps: [Login | click]\n",
        [
            "underscore_tag.req.yaml:3:7: tag '_private' cannot be used as a pytest marker; "
            "expected letters, digits and _, starting with a letter, e.g. smoke"
        ],
    ),
    "params_outside.req.yaml": (
        "req_id: R1\nurl: /\nsteps: ['X | fill | {{params.a}}']\n",
        [
            "params_outside.req.yaml:3:9: {{params.a}} cannot be resolved; expected {{params.*}} "
            "only inside a block's steps"
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(TEXT_CASES))
def test_text_corpus(name: str, write: Callable[[str, str], Path]) -> None:
    text, expected = TEXT_CASES[name]
    assert problems(write(name, text)) == expected


def test_on_fail_schema_error_is_located(write: Callable[[str, str], Path]) -> None:
    # on_fail is an enum in the schema too; one message, at the value
    out = problems(
        write(
            "x.req.json",
            '{"req_id": "R", "url": "/", "steps": '
            '[{"action": "click", "element": "X", "on_fail": 1}]}',
        )
    )
    assert out == ["x.req.json:1:86: field 'on_fail' is 1; expected one of 'abort', 'skip'"]


def test_unsupported_and_oversized(tmp_path: Path, write: Callable[[str, str], Path]) -> None:
    big = write("big.req.yaml", "req_id: R1\nurl: /\nsteps: [Login | click]\n" + "#" * 2_000_000)
    assert problems(big, max_file_bytes=1_000_000) == [
        "big.req.yaml: the file is 2.0 MB, over the 1 MB limit; expected a smaller file, or "
        "raise the ini key pacts_max_file_mb"
    ]


def _big_workbook(path: Path, rows: int) -> None:
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Reqs")
    ws.append(H)
    rnd = random.Random(7)
    for i in range(rows):
        # 1,400 characters that do not compress (the file stays over 10 MB zipped): base64 of
        # random bytes, 20 times cheaper to make than as many random.choices
        noise = base64.b64encode(rnd.randbytes(1050)).decode()
        ws.append([f"R{i // 10}", "/", f"Field {i}", "fill", noise, "field_populated"])
    ws.append(["R-LAST", "/", "Login", "tap", None, None])
    wb.save(path)


def test_ten_megabyte_sheet_is_read_and_its_error_located(tmp_path: Path) -> None:
    path = tmp_path / "big.xlsx"
    _big_workbook(path, 10_000)
    assert path.stat().st_size > 10_000_000
    started = time.perf_counter()
    out = problems(path)
    assert out == [
        "big.xlsx:Reqs:10002:D: unknown action 'tap'; expected one of click, fill, "
        "type, press, select, check, uncheck, hover, focus, goto, wait, extract, use"
    ]
    # generous bound: catches a pathological slowdown, not a benchmark (bench/ has figures)
    assert time.perf_counter() - started < 120 or os.environ.get("CI_SLOW")
