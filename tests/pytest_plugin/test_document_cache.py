"""A warm ``pytest --collect-only`` takes an unchanged workbook from the document cache
(``<rootdir>/.pacts/cache/documents``) and imports no openpyxl (nor numpy, which openpyxl
imports when it is installed); a changed workbook is read again, and an error in a workbook
is reported at the same cell from the cache as from a fresh read.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_pacts.scaffold.workbook import SheetRequirement, WorkbookSpec, write_workbook

# Records, once collection is done, whether openpyxl was imported (one JSON line per run).
CONFTEST = """
import json, sys

def pytest_collection_finish(session):
    with open(session.config.rootpath / "imports.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps("openpyxl" in sys.modules) + "\\n")
"""


def _workbook(path: Path, *steps: tuple[str, str, str, str]) -> None:
    write_workbook(
        path,
        WorkbookSpec(
            title_rows=("Title",),
            requirements=[
                SheetRequirement("REQ-X-001", "/", [("Login", "click", "", "")]),
                SheetRequirement("REQ-X-002", "/", list(steps)),
            ],
        ),
    )


def _imported(pytester: pytest.Pytester) -> list[bool]:
    lines = (pytester.path / "imports.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _ids(result: pytest.RunResult) -> list[str]:
    return [line.strip() for line in result.outlines if "::" in line and " " not in line.strip()]


def test_a_warm_collection_of_an_unchanged_workbook_imports_no_openpyxl(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(CONFTEST)
    sheet = pytester.path / "sheets" / "login.xlsx"
    sheet.parent.mkdir()
    _workbook(sheet, ("Logout", "click", "", ""))
    expected = ["sheets/login.xlsx::REQ-X-001", "sheets/login.xlsx::REQ-X-002"]

    cold = pytester.runpytest_subprocess("--collect-only", "-q", ".")
    warm = pytester.runpytest_subprocess("--collect-only", "-q", ".")
    assert _ids(cold) == _ids(warm) == expected
    assert _imported(pytester) == [True, False]
    assert len(list((pytester.path / ".pacts" / "cache" / "documents").glob("*.json"))) == 1

    # a changed workbook is read again (openpyxl imported), and cached in its turn
    _workbook(sheet, ("Logout", "click", "", ""), ("Menu", "click", "", ""))
    changed = pytester.runpytest_subprocess("--pacts-dry-run", "-q", ".")
    changed.assert_outcomes(passed=2)
    again = pytester.runpytest_subprocess("--pacts-dry-run", "-q", ".")
    again.assert_outcomes(passed=2)
    assert _imported(pytester) == [True, False, True, False]


def test_an_error_in_a_cached_workbook_is_reported_at_the_same_cell(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(CONFTEST)
    sheet = pytester.path / "login.xlsx"
    _workbook(sheet, ("Logout", "jump", "", ""))
    errors = []
    for _ in range(2):
        result = pytester.runpytest_subprocess("--collect-only", "-q", ".")
        assert result.ret == pytest.ExitCode.INTERRUPTED
        errors.append([line for line in result.outlines if line.startswith("login.xlsx:")])
    assert _imported(pytester) == [True, False]
    assert errors[0] == errors[1]
    assert [line.split("; ")[0] for line in errors[0]] == [
        "login.xlsx:Requirements:4:F: unknown action 'jump'"
    ]
