"""The results files on their own: untrusted text stays text, a changed or oversized
workbook is a problem in words and never overwritten, names never collide with the
requirement file. Real .xlsx files written and read with openpyxl; no browser."""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

from openpyxl import Workbook, load_workbook

from pytest_pacts.models.outcome import Rca, RcaClass, RunRecord, StepRecord
from pytest_pacts.planner import LoaderOptions, load_file
from pytest_pacts.planner.readers.limits import ReadLimits
from pytest_pacts.reports.result_rows import RequirementResult, StepResult, requirement_result
from pytest_pacts.reports.results import results_name, write_results

EVIL = '=HYPERLINK("http://evil.test","click")'


def _workbook(path: Path, req_id: str = "REQ-A") -> None:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Reqs"
    ws.append(["Req ID", "URL", "Element@Region", "Action", "Value"])
    ws.append([req_id, "/", "Name@Form", "fill", "x"])
    ws.append([None, None, "Send@Form", "click", None])
    wb.save(path)


def _result(path: Path, display: str, *, sheet: str | None = "Reqs") -> RequirementResult:
    line = None if sheet else 3
    steps = (
        StepResult(1, sheet, 2 if sheet else None, line, EVIL, "passed", 12.0, "", False),
        StepResult(2, sheet, 3 if sheet else None, line, "click", "failed", 30.0, EVIL, True),
    )
    return RequirementResult(
        path=str(path), display=display, req_id="REQ-A", nodeid=f"{display}::REQ-A",
        verdict="fail", rca="selector_drift (0.80): gone", recommendation=EVIL, heals=1,
        duration_ms=42.0, sheet=sheet, row=2 if sheet else None, line=line, steps=steps,
    )  # fmt: skip


def test_untrusted_text_is_never_a_formula(tmp_path: Path) -> None:
    source = tmp_path / "reqs.xlsx"
    _workbook(source)
    (tmp_path / "api.req.json").write_text("{}")
    out = tmp_path / "out"
    written = write_results(
        out,
        [_result(source, "reqs.xlsx"), _result(tmp_path / "api.req.json", "api.req.json",
                                                sheet=None)],
        run_id="r1", limits=ReadLimits(), max_file_bytes=10**7,
    )  # fmt: skip
    assert written.problems == ()
    book, table = out / "reqs.results.xlsx", out / "api.req.json.results.csv"
    assert set(written.paths) == {book, table}
    ws = load_workbook(book)["Reqs"]
    heal = ws.cell(row=3, column=9)
    assert ws.cell(row=1, column=9).value == "Heal"
    assert heal.value == f"step 2: {EVIL}" and heal.data_type == "s"
    rca = ws.cell(row=3, column=8)
    assert rca.value == f"selector_drift (0.80): gone\n{EVIL}" and rca.data_type == "s"
    assert ws.cell(row=2, column=8).value is None, "the root cause sits on the failed row"
    assert ws.cell(row=2, column=10).value == 0.012
    summary = load_workbook(book)["pacts results"]
    assert summary["D4"].value == EVIL and summary["D4"].data_type == "s"
    rows = list(csv.reader(table.read_text(encoding="utf-8-sig").splitlines()))
    assert rows[1][4] == "'" + EVIL, "a spreadsheet opening the CSV sees text"
    assert rows[2][8] == "'" + EVIL


def test_changed_or_oversized_workbook_is_a_problem(tmp_path: Path) -> None:
    source = tmp_path / "reqs.xlsx"
    _workbook(source, req_id="REQ-OTHER")  # the rows moved since collection
    written = write_results(
        tmp_path / "out", [_result(source, "reqs.xlsx")], run_id="r1", limits=ReadLimits(),
        max_file_bytes=10**7,
    )  # fmt: skip
    assert written.problems == (
        "reqs.xlsx:Reqs:2:A: expected 'REQ-A', found 'REQ-OTHER': the file changed during "
        "the run; no results written for REQ-A",
    )
    ws = load_workbook(written.paths[0])["Reqs"]
    assert ws.max_column == 5, "no result columns for rows that are not the requirement's"
    small = write_results(
        tmp_path / "small", [_result(source, "reqs.xlsx")], run_id="r1", limits=ReadLimits(),
        max_file_bytes=100,
    )  # fmt: skip
    assert small.paths == ()
    assert small.problems[0].startswith("reqs.xlsx: the workbook is 0.0 MB, over the")
    assert small.problems[0].endswith("its results workbook was not written")


def test_results_names() -> None:
    assert results_name("reqs/login.req.xlsx", ".xlsx") == "reqs/login.req.results.xlsx"
    assert results_name("a.req.yaml", ".csv") == "a.req.yaml.results.csv"
    outside = results_name("/elsewhere/login.xlsx", ".xlsx")
    assert "/" not in outside and outside.endswith(".results.xlsx")
    assert ".." not in results_name("../up/login.xlsx", ".xlsx")


def test_steps_of_a_blocks_sheet_show_on_their_use_rows(tmp_path: Path) -> None:
    source = tmp_path / "reqs.xlsx"
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Reqs"
    ws.append(["Req ID", "URL", "Element@Region", "Action", "Value"])
    ws.append(["REQ-B", "/", "LoginAs", "use", None])  # row 2: the block's three steps
    ws.append([None, None, "Search", "fill", "shoes"])  # row 3
    ws.append([None, None, "LoginAs", "use", None])  # row 4: the same block again
    ws.append(["REQ-C", "/", "Go", "click", None])  # row 5: another requirement
    blocks = wb.create_sheet("Blocks")
    blocks.append(["Block", "Params", "Element@Region", "Action", "Value"])
    blocks.append(["LoginAs", None, "User", "fill", "ada"])
    blocks.append([None, None, "Password", "fill", "pw"])
    blocks.append([None, None, "Login", "click", None])
    wb.save(source)
    plan = load_file(source, LoaderOptions(), display="reqs.xlsx").plans[0]
    assert [s.source.sheet for s in plan.steps] == ["Blocks"] * 3 + ["Reqs"] + ["Blocks"] * 3
    statuses = ["passed"] * 4 + ["passed", "failed", "not_run"]
    steps = tuple(
        StepRecord(index=s.index, action=s.action.value, description=s.describe(),
                   source=s.source.render(), status=st, duration_ms=100.0)
        for s, st in zip(plan.steps, statuses, strict=True)
    )  # fmt: skip
    record = RunRecord(
        req_id="REQ-B", plan_hash=plan.plan_hash, verdict="fail", steps=steps,
        rca=Rca(rca_class=RcaClass.SELECTOR_DRIFT, confidence=0.8, message="gone"),
        started_at="2026-11-23T00:00:00+00:00", finished_at="2026-11-23T00:00:01+00:00",
    )  # fmt: skip
    result = requirement_result(plan, record, nodeid="reqs.xlsx::REQ-B", path=source)
    written = write_results(
        tmp_path / "out", [result], run_id="r1", limits=ReadLimits(), max_file_bytes=10**7
    )
    assert written.problems == ()
    out = load_workbook(written.paths[0])
    sheet = out["Reqs"]
    table = [[sheet.cell(row=r, column=c).value for c in (6, 7, 10)] for r in range(2, 6)]
    assert table == [
        ["fail", "passed", 0.3],  # the first use: three passed steps
        ["fail", "passed", 0.1],
        ["fail", "failed", 0.3],  # the second use: the worst of its steps
        [None, None, None],  # REQ-C did not run
    ]
    assert str(sheet.cell(row=4, column=8).value).startswith("selector_drift")
    assert out["Blocks"].max_column == 5, "the shared block definition gets no results"


def test_dropdowns_merged_cells_and_conditional_formats_are_kept(tmp_path: Path) -> None:
    from openpyxl.formatting.rule import CellIsRule
    from openpyxl.styles import PatternFill
    from openpyxl.worksheet.datavalidation import DataValidation

    source = tmp_path / "reqs.xlsx"
    _workbook(source)
    wb = load_workbook(source)
    ws = wb["Reqs"]
    ws.insert_rows(1)  # a title row above the header, merged over the columns
    ws["A1"] = "Checkout requirements"
    ws.merge_cells("A1:E1")
    dropdown = DataValidation(type="list", formula1='"fill,click,use"', allow_blank=True)
    ws.add_data_validation(dropdown)
    dropdown.add("D3:D100")
    red = PatternFill("solid", fgColor="FFC7CE")
    ws.conditional_formatting.add(
        "E3:E100",
        CellIsRule(operator="equal", formula=['"x"'], fill=red),  # type: ignore[no-untyped-call]
    )
    wb.save(source)
    result = _result(source, "reqs.xlsx")  # rows 2-3 of the sheet before the title row
    moved = replace(
        result,
        row=3,
        steps=tuple(replace(s, row=(s.row or 0) + 1) for s in result.steps),
    )
    written = write_results(
        tmp_path / "out", [moved], run_id="r1", limits=ReadLimits(), max_file_bytes=10**7
    )
    assert written.problems == ()
    copy = load_workbook(written.paths[0])["Reqs"]
    assert copy.cell(row=2, column=6).value == "Verdict", "the header row under the title"
    assert [str(r) for r in copy.merged_cells.ranges] == ["A1:E1"]
    assert [str(v.sqref) for v in copy.data_validations.dataValidation] == ["D3:D100"]
    assert [str(r.sqref) for r in copy.conditional_formatting] == ["E3:E100"]
    assert copy.cell(row=3, column=6).value == "fail"


def test_results_of_yaml_and_json_files_import_no_openpyxl(tmp_path: Path) -> None:
    """openpyxl (and the numpy it imports) is loaded only to write a workbook: a run of YAML
    and JSON requirements used to import it for one exception class (about 0.5 s a run)."""
    import subprocess
    import sys

    script = f"""
import sys
from pathlib import Path
from pytest_pacts.planner.readers.limits import ReadLimits
from pytest_pacts.reports.result_rows import RequirementResult
from pytest_pacts.reports.results import write_results
out = Path({str(tmp_path)!r})
result = RequirementResult(
    path=str(out / "api.req.json"), display="api.req.json", req_id="R", nodeid="api::R",
    verdict="pass", rca="", recommendation="", heals=0, duration_ms=1.0, sheet=None, row=None,
    line=2, steps=(),
)
written = write_results(out / "out", [result], run_id="r", limits=ReadLimits(),
                        max_file_bytes=10**7)
print(len(written.paths), written.problems, "openpyxl" in sys.modules)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "()", "False"], done.stdout
