"""Results back to the sheet: real sessions against the demo app write a results copy of a
real .xlsx (and a CSV for a JSON file) into the run folder; the test opens the workbook and
reads the cells. pytester in subprocess mode, once with ``-n 2``."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.styles import Font, PatternFill

ROOT = Path(__file__).resolve().parents[2]
CONFTEST = (ROOT / "sample_requirements" / "conftest.py").read_text()
HEADER = ("Req ID", "URL", "Title", "Element@Region", "Action", "Value", "Expected Outcome",
          "On Fail", "Notes")  # fmt: skip
ROWS = [
    ("REQ-LOGIN", "/", "Log in", "Username@LoginForm", "fill", "standard_user",
     "field_populated", None, "=SUM(1,2)"),
    (None, None, None, "Password@LoginForm", "fill", "secret_sauce", "field_populated", None,
     None),
    (None, None, None, "Login@LoginForm", "click", None, "navigates_to:Products", None, None),
    ("REQ-PARTIAL", "/", "An optional step", "Username@LoginForm", "fill", "standard_user",
     "field_populated", None, None),
    (None, None, None, "Remember me@LoginForm", "check", None, "checked", "skip", None),
    (None, None, None, "Password@LoginForm", "fill", "secret_sauce", "field_populated", None,
     None),
    ("REQ-WRONG", "/", "Expects what is not there", "Username@LoginForm", "fill",
     "standard_user", "value:someone else", None, None),
]  # fmt: skip
JSON_REQS = {
    "requirements": [
        {
            "req_id": "REQ-JSON",
            "url": "/",
            "steps": [
                "Username@LoginForm | fill | =1+2 | field_populated",
                "Password@LoginForm | fill | secret_sauce | field_populated",
            ],
        }
    ]
}
HEADER_FILL = "FFDDEBF7"


def _workbook(path: Path) -> str:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Login"
    ws["A1"] = "Login requirements (owner: QA)"
    ws["A1"].font = Font(bold=True, size=14)
    for col, name in enumerate(HEADER, start=1):
        cell = ws.cell(row=3, column=col, value=name)
        cell.font = Font(bold=True, color="FF1F3864")
        cell.fill = PatternFill("solid", fgColor=HEADER_FILL)
    for r, row in enumerate(ROWS, start=4):
        for col, value in enumerate(row, start=1):
            if value is not None:
                ws.cell(row=r, column=col, value=value)
    ws.column_dimensions["D"].width = 31
    wb.save(path)
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _run_dir(root: Path) -> Path:
    return root / "out" / (root / "out" / "LATEST").read_text().strip()


def _columns(ws: object, header_row: int) -> dict[str, int]:
    return {
        str(c.value): c.column
        for c in ws[header_row]  # type: ignore[index]
        if c.value is not None
    }


def test_results_workbook_and_csv_under_xdist_then_a_heal(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = pytester.path
    pytester.makeconftest(CONFTEST)
    (root / "reqs").mkdir()
    source = root / "reqs" / "login.req.xlsx"
    digest = _workbook(source)
    (root / "reqs" / "api.req.json").write_text(json.dumps(JSON_REQS))
    pytester.makeini(
        "[pytest]\npacts_store = store.db\npacts_report_dir = out\npacts_step_timeout = 3\n"
        "pacts_max_heal_rounds = 1\n"
    )
    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v1")
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider", "--html=r.html")
    outcomes = result.parseoutcomes()
    assert (outcomes["passed"], outcomes["partial"], outcomes["failed"]) == (2, 1, 1), outcomes
    assert hashlib.sha256(source.read_bytes()).hexdigest() == digest, "the original changed"
    run = _run_dir(root)
    book = run / "results" / "reqs" / "login.req.results.xlsx"
    table = run / "results" / "reqs" / "api.req.json.results.csv"
    result.stdout.fnmatch_lines([f"results: {table}", f"results: {book}"])

    wb = load_workbook(book)
    ws = wb["Login"]
    cols = _columns(ws, 3)
    assert list(cols)[-5:] == ["Verdict", "Step result", "Root cause", "Heal", "Duration (s)"]
    assert cols["Verdict"] == len(HEADER) + 1, "beside the last used column"
    v, s, rca = cols["Verdict"], cols["Step result"], cols["Root cause"]
    verdicts = [ws.cell(row=r, column=v).value for r in range(4, 11)]
    assert verdicts == ["pass"] * 3 + ["partial"] * 3 + ["fail"]
    steps = [ws.cell(row=r, column=s).value for r in range(4, 11)]
    assert steps == ["passed"] * 3 + ["passed", "skipped", "passed", "failed"]
    assert str(ws.cell(row=4, column=rca).value).startswith("success (1.00)")
    assert ws.cell(row=5, column=rca).value is None
    assert "skipped" in str(ws.cell(row=8, column=rca).value)  # on the skipped row
    assert ws.cell(row=7, column=rca).value is None
    wrong = str(ws.cell(row=10, column=rca).value)
    assert wrong.startswith("assertion_mismatch"), wrong
    durations = [ws.cell(row=r, column=cols["Duration (s)"]).value for r in range(4, 11)]
    assert all(isinstance(d, float | int) and d >= 0 for d in durations)
    assert any(isinstance(d, float) and d > 0 for d in durations)
    assert ws.cell(row=4, column=v).fill.fgColor.rgb == "00C6EFCE"  # green for pass
    # the original formatting and data stay
    header = ws.cell(row=3, column=1)
    assert header.font.bold and header.fill.fgColor.rgb == HEADER_FILL
    assert ws.cell(row=3, column=v).font.bold, "the new headers look like the old ones"
    assert ws["A1"].font.size == 14 and ws.column_dimensions["D"].width == 31
    assert ws["I4"].value == "=SUM(1,2)" and ws["I4"].data_type == "f"  # kept as written
    summary = wb["pacts results"]
    assert summary["B1"].value == f"run {run.name}"
    by_req = {summary.cell(row=r, column=1).value: r for r in range(4, 7)}
    assert set(by_req) == {"REQ-LOGIN", "REQ-PARTIAL", "REQ-WRONG"}
    assert summary.cell(row=by_req["REQ-WRONG"], column=2).value == "fail"
    assert summary.cell(row=by_req["REQ-LOGIN"], column=7).value == "Login:4"
    assert summary.cell(row=by_req["REQ-LOGIN"], column=8).value == "reqs/login.req.xlsx::REQ-LOGIN"

    rows = list(csv.DictReader(table.read_text(encoding="utf-8-sig").splitlines()))
    assert [(r["Req ID"], r["Step"], r["Verdict"], r["Step result"]) for r in rows] == [
        ("REQ-JSON", "1", "pass", "passed"),
        ("REQ-JSON", "2", "pass", "passed"),
    ]
    assert rows[0]["Root cause"].startswith("success") and rows[1]["Root cause"] == ""
    assert rows[0]["File"] == "reqs/api.req.json" and rows[0]["Line"].isdigit()
    assert f"<code>{book}</code>" in (root / "r.html").read_text(), "the HTML report names it"
    index = json.loads((run / "index.json").read_text())
    assert index["summary"]["results"] == [str(table), str(book)]

    # the next build drifts: the heal shows beside the rows it healed
    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v2")
    healed = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "reqs/login.req.xlsx::REQ-LOGIN"
    )
    healed.assert_outcomes(passed=1)
    ws2 = load_workbook(_run_dir(root) / "results" / "reqs" / "login.req.results.xlsx")["Login"]
    cols2 = _columns(ws2, 3)
    assert [ws2.cell(row=r, column=cols2["Verdict"]).value for r in range(4, 11)] == [
        "pass (healed)"
    ] * 3 + [None] * 4, "requirements not run stay blank"
    heals = [str(ws2.cell(row=r, column=cols2["Heal"]).value) for r in range(4, 7)]
    assert all(h.startswith(f"step {i}: ") and " -> " in h for i, h in enumerate(heals, 1)), heals
    assert [ws2.cell(row=r, column=cols2["Step result"]).value for r in range(4, 7)] == [
        "healed"
    ] * 3


def test_results_off(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makeconftest(CONFTEST)
    (pytester.path / "api.req.json").write_text(json.dumps(JSON_REQS))
    pytester.makeini("[pytest]\npacts_store = store.db\npacts_report_dir = out\n")
    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v1")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--pacts-results=off")
    result.assert_outcomes(passed=1)
    assert not (_run_dir(pytester.path) / "results").exists()
    assert "results:" not in result.stdout.str()
