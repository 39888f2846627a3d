"""The ``pacts`` console script: help, exit codes, errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_pacts.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def pacts(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_help_lists_commands() -> None:
    result = pacts("--help")
    assert result.returncode == 0
    assert "plan" in result.stdout


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """In this process (answered by the parser; the console script is the test above's)."""
    capsys.readouterr()
    assert main([]) == 2 and "usage: pacts" in capsys.readouterr().out


def test_plan_samples_json() -> None:
    result = pacts(
        "plan",
        "sample_requirements/",
        "--json",
        "--blocks",
        "sample_requirements/blocks/common.blocks.yaml",
    )
    assert result.returncode == 0, result.stderr
    plans = json.loads(result.stdout)
    ids = [p["req_id"] for p in plans]
    assert ids == [
        "REQ-SORT-001",
        "REQ-RESET-001",
        "REQ-LOGIN-001",
        "REQ-LOGIN-002",
        "REQ-LOGIN-003",
        "REQ-CART-001",
        "REQ-CHECKOUT-001",
        "REQ-WIDGETS-001",
        "REQ-WIDGETS-002",
    ]
    actions = {s["action"] for p in plans for s in p["steps"]}
    # every action kind appears in the samples (use steps are expanded away)
    assert actions == {
        "click",
        "fill",
        "type",
        "press",
        "select",
        "check",
        "uncheck",
        "hover",
        "focus",
        "goto",
        "wait",
        "extract",
    }
    assert all(p["plan_hash"].startswith("sha256:") for p in plans)


def _project(folder: Path) -> Path:
    """``folder`` as a project of its own: its ``pytest.ini`` makes it the rootdir whatever
    folder holds it (without one, pytest roots at the common ancestor of the working folder and
    the paths named, which depends on where the checkout and the temp folder are)."""
    (folder / "pytest.ini").write_text("[pytest]\n")
    return folder


@dataclass(frozen=True)
class Planned:
    folder: Path
    result: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def planned(tmp_path_factory: pytest.TempPathFactory) -> Planned:
    """One ``pacts plan --json`` of two files of a project (a command's interpreter and
    pytest's configuration cost about a second of CPU): one with a problem, one with a
    secret variable; the tests below each read their file's part."""
    folder = _project(tmp_path_factory.mktemp("plan"))
    (folder / "bad.req.yaml").write_text("req_id: R1\nurl: /\nsteps: [Login | tap]\n")
    (folder / "s.req.yaml").write_text(
        "req_id: R1\nurl: /\nvars: {password: pw-canary-1}\n"
        "steps: ['Password | fill | {{vars.password}}']\n"
    )
    result = pacts("plan", str(folder / "bad.req.yaml"), str(folder / "s.req.yaml"), "--json")
    return Planned(folder, result)


def test_plan_reports_problems_with_exit_1(planned: Planned) -> None:
    result = planned.result
    assert result.returncode == 1
    # named as pytest names it: relative to the rootdir (the project's folder)
    assert result.stderr.startswith("bad.req.yaml:3:9: unknown action 'tap'")
    assert "Traceback" not in result.stderr


def test_plan_missing_path_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """In this process: answered before pytest's configuration is read."""
    capsys.readouterr()
    assert main(["plan", str(tmp_path / "nope.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and "Traceback" not in err


def test_plan_masks_secret_vars(planned: Planned) -> None:
    result = planned.result
    assert "pw-canary-1" not in result.stdout
    (plan,) = json.loads(result.stdout)  # the other file has a problem: no plan
    assert plan["source"].startswith("s.req.yaml:"), plan["source"]
    assert plan["vars"] == {"password": "***"}
    # the command writes nothing: no document cache under the rootdir (the project's folder)
    assert not (planned.folder / ".pacts").exists()


def test_discover_against_the_demo_app(tmp_path: Path) -> None:
    req = tmp_path / "login.req.yaml"
    req.write_text(
        "req_id: R-LOGIN\nurl: /\nsteps:\n"
        "  - Username@LoginForm | fill | standard_user\n"
        "  - Password@LoginForm | fill | secret_sauce\n"
        "  - Login@LoginForm | click | | navigates_to:Products\n"
        "  - Open Menu | click\n"
    )
    result = pacts("discover", str(req), "--demo", "v1", "--json")
    assert result.returncode == 0, result.stderr
    (report,) = json.loads(result.stdout)
    steps = report["steps"]
    # the walk logs in, so the menu button of the next page is found too
    assert [s["status"] for s in steps] == ["resolved"] * 4
    assert steps[0]["strategy"] == "test_id" and steps[0]["confidence"] == 0.98
    assert steps[0]["code"] == 'page.locator("#login_form").locator(\'[data-test="username"]\')'
    assert all(p["ok"] for p in steps[2]["gate"].values())
    assert steps[2]["alternates"]
    assert "inventory" in steps[3]["url"]


def test_discover_reports_unresolved_with_candidates(tmp_path: Path) -> None:
    req = tmp_path / "w.req.yaml"
    req.write_text(
        "req_id: R-W\nurl: /widgets.html\nsteps:\n  - Delete | click\n  - Frobnicate | click\n"
    )
    result = pacts("discover", str(req), "--demo", "v1")
    assert result.returncode == 1
    out = result.stdout
    assert "NOT RESOLVED" in out and "is ambiguous" in out and "candidate: " in out
    assert "Draft A" in out and "why: step 1 did not pass" in out
    assert 'w.req.yaml:4:5: R-W: step 1 (click "Delete")' in out
    assert "Traceback" not in result.stderr
