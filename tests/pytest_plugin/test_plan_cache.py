"""A warm ``pytest --collect-only`` builds its items from the plan cache
(``<rootdir>/.pacts/cache/plans``, ``planner/plan_cache.py``) and imports neither pydantic,
the loader, the readers nor the schema validator; a run from a warm cache builds each plan
when its requirement runs; what collection decides every time (tags against the registered
markers) is still decided, and a changed shared blocks file or a bad sheet is planned again
with its errors located as always.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from pytest_pacts.scaffold.workbook import SheetRequirement, WorkbookSpec, write_workbook

# What planning imports; a collection served by the plan cache imports none of it.
PLANNING = (
    "pydantic",
    "pytest_pacts.models.requirement",
    "pytest_pacts.planner.loader",
    "pytest_pacts.planner.readers.textfile",
    "pytest_pacts.planner.readers.xlsx",
    "pytest_pacts.planner.schema",
    "fastjsonschema",
    "yaml",
    "openpyxl",
)

# Records, once collection is done, which of them were imported (one JSON line per run).
CONFTEST = f"""
import json, sys

PLANNING = {PLANNING!r}

def pytest_collection_finish(session):
    with open(session.config.rootpath / "imports.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps([m for m in PLANNING if m in sys.modules]) + "\\n")
"""

INI = """
[pytest]
pacts_blocks_files = common.blocks.yaml
pacts_markers = smoke
strict_markers = true
"""

BLOCKS = """
blocks:
  SignIn:
    params: [user]
    steps:
      - "Username@LoginForm | fill | {{params.user}} |"
      - "Login | click | |"
"""

YAML = """
requirements:
  - req_id: REQ-YAML-001
    title: Sign in
    url: "{{env.PACTS_PC_BASE:http://localhost}}/login"
    tags: [smoke]
    steps:
      - "use | SignIn | user=alice"
      - "Menu | click | | navigates_to:Products"
"""


def _project(pytester: pytest.Pytester) -> Path:
    pytester.makeconftest(CONFTEST)
    pytester.makeini(INI)
    (pytester.path / "common.blocks.yaml").write_text(BLOCKS, encoding="utf-8")
    (pytester.path / "signin.req.yaml").write_text(YAML, encoding="utf-8")
    sheet = pytester.path / "login.xlsx"
    write_workbook(
        sheet,
        WorkbookSpec(
            title_rows=("Title",),
            requirements=[SheetRequirement("REQ-X-001", "/", [("Login", "click", "", "")])],
        ),
    )
    return sheet


def _collect(pytester: pytest.Pytester, *args: str, fresh: bool = True) -> pytest.RunResult:
    """``pytest --collect-only -q ARGS .`` in a fresh interpreter: the suite's warm
    ``python -m pytest`` sessions (tests/forked_sessions.py) have imported pydantic before
    they start. ``fresh=False``: such a warm session (about 0.2 s of CPU against 1.1 s), for
    a test that reads only what the collection said, not what it imported: the plan cache
    is the project's files, read the same way by either."""
    argv = ["--collect-only", "-q", "-p", "no:cacheprovider", *args, "."]
    if not fresh:
        return pytester.runpytest_subprocess(*argv)
    code = f"import sys, pytest; sys.exit(pytest.main({argv!r}))"
    return pytester.run(sys.executable, "-c", code)


def _imported(pytester: pytest.Pytester) -> list[list[str]]:
    lines = (pytester.path / "imports.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _ids(result: pytest.RunResult) -> list[str]:
    return [line.strip() for line in result.outlines if "::" in line and " " not in line.strip()]


def test_a_warm_collection_imports_no_pydantic_and_a_run_builds_the_plans(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester)
    expected = ["login.xlsx::REQ-X-001", "signin.req.yaml::REQ-YAML-001"]
    cold = _collect(pytester)
    warm = _collect(pytester)
    assert _ids(cold) == _ids(warm) == expected
    first, second = _imported(pytester)
    assert "pydantic" in first and "pytest_pacts.planner.loader" in first
    assert second == []
    assert len(list((pytester.path / ".pacts" / "cache" / "plans").glob("*.plans"))) == 2
    # marks and the plan hash come from the cached plans as from fresh ones
    marked = _collect(pytester, "-m", "smoke")
    assert _ids(marked) == ["signin.req.yaml::REQ-YAML-001"]
    # a run from the warm cache builds each plan from its data (the block expanded)
    ran = pytester.runpytest_subprocess("--pacts-dry-run", "-v", ".")
    ran.assert_outcomes(passed=2)


def test_tags_are_checked_against_the_markers_of_each_collection(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester)
    assert _collect(pytester).ret == pytest.ExitCode.OK
    pytester.makeini(INI.replace("pacts_markers = smoke", "pacts_markers = other"))
    refused = _collect(pytester)
    assert refused.ret == pytest.ExitCode.INTERRUPTED
    assert _imported(pytester)[-1] == []  # served from the cache, and still checked
    refused.stdout.fnmatch_lines(
        ["signin.req.yaml:3:5: tag(s) 'smoke' of REQ-YAML-001 are not registered markers*"]
    )


def test_a_changed_blocks_file_plans_again(pytester: pytest.Pytester) -> None:
    _project(pytester)
    assert _collect(pytester, fresh=False).ret == pytest.ExitCode.OK
    assert list((pytester.path / ".pacts" / "cache" / "plans").glob("*.plans"))
    (pytester.path / "common.blocks.yaml").write_text(
        BLOCKS.replace('"Login | click | |"', '"Login | jump | |"'), encoding="utf-8"
    )
    broken = _collect(pytester, fresh=False)
    assert broken.ret == pytest.ExitCode.INTERRUPTED
    broken.stdout.fnmatch_lines(["*unknown action 'jump'*(in block 'SignIn'*"])


def test_a_bad_sheet_after_a_good_one_fails_at_its_cell(pytester: pytest.Pytester) -> None:
    sheet = _project(pytester)
    assert _collect(pytester, fresh=False).ret == pytest.ExitCode.OK
    write_workbook(
        sheet,
        WorkbookSpec(
            title_rows=("Title",),
            requirements=[SheetRequirement("REQ-X-001", "/", [("Login", "jump", "", "")])],
        ),
    )
    errors = []
    for _ in range(2):
        result = _collect(pytester, fresh=False)
        assert result.ret == pytest.ExitCode.INTERRUPTED
        errors.append([line for line in result.outlines if line.startswith("login.xlsx:")])
    assert errors[0] == errors[1]
    assert [line.split("; ")[0] for line in errors[0]] == [
        "login.xlsx:Requirements:3:F: unknown action 'jump'"
    ]
