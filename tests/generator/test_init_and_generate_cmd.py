"""``pacts init`` and ``pacts generate`` through the command line's front door."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook

from pytest_pacts.cli.main import main
from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.planner import LoaderOptions, load_file
from pytest_pacts.store import open_store

REPO = Path(__file__).resolve().parents[2]


def test_init_scaffolds_and_refuses_to_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    assert main(["init", str(target)]) == 0
    ini = (target / "pytest.ini").read_text()
    assert "junit_family = xunit1" in ini and "testpaths = requirements" in ini
    assert "base_url" in (target / "conftest.py").read_text()
    assert "DemoServer" not in (target / "conftest.py").read_text()
    plans = load_file(target / "requirements" / "example.req.yaml", LoaderOptions(env={})).plans
    assert [p.req_id for p in plans] == ["REQ-EXAMPLE-001"]
    book = target / "requirements" / "requirements.req.xlsx"
    assert [p.req_id for p in load_file(book, LoaderOptions(env={})).plans] == ["REQ-EXAMPLE-002"]
    ws = load_workbook(book)["Requirements"]
    ranges = {str(dv.sqref).split(":")[0][0]: dv for dv in ws.data_validations.dataValidation}
    assert set(ranges) == {"F", "H", "I"}  # Action, Expected Outcome, On Fail are dropdowns
    assert ranges["F"].type == "list" and "fill" in str(ranges["F"].formula1)
    capsys.readouterr()

    before = (target / "pytest.ini").read_text()
    (target / "pytest.ini").write_text("# mine\n")
    assert main(["init", str(target)]) == 1
    err = capsys.readouterr().err
    assert "pytest.ini" in err and "--force" in err and "nothing was written" in err
    assert (target / "pytest.ini").read_text() == "# mine\n"
    assert main(["init", str(target), "--force", "--demo"]) == 0
    assert (target / "pytest.ini").read_text() == before
    demo = (target / "conftest.py").read_text()
    assert demo == (REPO / "conftest_templates" / "conftest.py").read_text()
    assert "DemoServer" in demo


def test_the_excel_template_has_every_column_the_reader_takes(tmp_path: Path) -> None:
    """The template ``pacts init`` writes, opened with openpyxl, against the Excel reader's
    own columns (issue 39: it had no Auth column); fixed values are dropdowns that refuse
    anything else (actions, on_fail), checked against the models' enums."""
    from pytest_pacts.models import Action, OnFail
    from pytest_pacts.planner.readers import xlsx

    assert main(["init", str(tmp_path / "proj")]) == 0
    book = load_workbook(tmp_path / "proj" / "requirements" / "requirements.req.xlsx")
    ws = book["Requirements"]
    header = [c.value for c in ws[1] if c.value is not None]
    columns = xlsx.header_columns((getattr(c, "column_letter", ""), c.value) for c in ws[1])
    assert columns is not None
    # every field a step sheet can hold is a column (Element and Region only stand for
    # Element@Region), each header read back by the reader as its field
    every = {*xlsx._REQUIREMENT_FIELDS, *xlsx._STEP_FIELDS} - set(xlsx.ALTERNATIVE_COLUMNS)
    assert set(columns) == every == set(xlsx.STEP_SHEET_COLUMNS)
    assert "Auth" in header and "On Fail" in header
    letter = {field: col for field, col in columns.items()}
    lists = {str(dv.sqref).split(":")[0].rstrip("0123456789"): dv
             for dv in ws.data_validations.dataValidation}  # fmt: skip
    for field, values in (("action", Action), ("on_fail", OnFail)):
        dv = lists[letter[field]]
        assert dv.type == "list" and dv.showErrorMessage, field
        assert str(dv.formula1).strip('"').split(",") == [v.value for v in values], field
        assert str(dv.sqref).startswith(f"{letter[field]}2:"), field
    assert lists[letter["expected"]].type == "list"  # outcome kinds, free text allowed
    # the example requirement still loads, and an Auth cell is read as the requirement's auth
    ws.cell(row=2, column=header.index("Auth") + 1, value="shopper")
    book.save(tmp_path / "auth.xlsx")
    (plan,) = load_file(tmp_path / "auth.xlsx", LoaderOptions(env={})).plans
    assert plan.requirement.auth == "shopper"


def _requirement(tmp_path: Path) -> Path:
    path = tmp_path / "login.req.json"
    doc = {
        "req_id": "REQ-GEN-001",
        "url": "/",
        "steps": [
            "Username@LoginForm | fill | standard_user | field_populated",
            "Login@LoginForm | click | | navigates_to:Products",
        ],
    }
    path.write_text(json.dumps(doc))
    return path


def test_generate_from_the_stores_recipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    req = _requirement(tmp_path)
    plan = load_file(req, LoaderOptions(env={})).plans[0]
    user = Locator(strategy=Strategy.PLACEHOLDER, confidence=0.88, placeholder="Username")
    login = Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Login")
    body = {
        "selectors": {
            "Username@LoginForm": {"primary": user.model_dump(mode="json"), "fallbacks": []},
            "Login@LoginForm": {"primary": login.model_dump(mode="json"), "fallbacks": []},
        }
    }
    db = tmp_path / "pacts.db"
    with open_store(db) as store:
        store.recipes.add_version(plan.req_id, body, plan_hash=plan.plan_hash)
    out = tmp_path / "gen"
    args = ["generate", str(req), "--store", str(db), "--out", str(out)]
    assert main(args) == 0
    assert "REQ-GEN-001: wrote" in capsys.readouterr().out
    source = (out / "test_req_gen_001.py").read_text()
    ast.parse(source)
    assert 'page.get_by_placeholder("Username", exact=True)' in source
    assert "# Locator: placeholder, confidence 0.88" in source
    assert 'expect_navigated_to(page, "Products", url_before_step2)' in source
    assert main(args) == 0
    again = capsys.readouterr().out
    assert "REQ-GEN-001: kept" in again and "(unchanged)" in again


def test_generate_without_locators_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    req = _requirement(tmp_path)
    assert main(["generate", str(req), "--out", str(tmp_path / "gen")]) == 1
    out = capsys.readouterr().out
    assert "REQ-GEN-001: not generated" in out and "--discover" in out


def test_generate_discover_walks_the_demo_app_in_its_own_browser(tmp_path: Path) -> None:
    """Through the console script in its own process: the command starts its own Playwright,
    which a test process whose pytest-playwright has started one cannot do a second time."""
    from pytest_pacts.demo_app import DemoServer

    req = _requirement(tmp_path)
    out = tmp_path / "gen"
    with DemoServer("v1") as demo:
        args = ["generate", str(req), "--out", str(out), "--discover", "--base-url", demo.url]
        done = subprocess.run(
            [sys.executable, "-m", "pytest_pacts.cli", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "REQ-GEN-001: wrote" in done.stdout
    source = (out / "test_req_gen_001.py").read_text()
    ast.parse(source)
    assert """.locator('[data-test="username"]')""" in source  # found on the page
    assert 'get_by_role("button", name="Login", exact=True)' in source
