"""The healing loop end to end (issue 5 item 6): v1 run → v2 run heals and proposes →
proposals accepted → the next v2 run needs no healing (the recipe carries the fix).

The v1 run that fills the store is made once for the module (``module_pytester``); each test
starts from a copy of its project (docs/testing.md, "One session, several tests")."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_pacts.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
CONFTEST = (ROOT / "sample_requirements" / "conftest.py").read_text()
LOGIN = """
req_id: REQ-LOGIN
url: /
steps:
  - Username@LoginForm | fill | standard_user | field_populated
  - Password@LoginForm | fill | secret_sauce | field_populated
  - Login@LoginForm | click | | navigates_to:Products
"""


def _heals(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if "PactsHealWarning" in line]


@pytest.fixture(scope="module")
def after_v1(module_pytester: Callable[[], pytest.Pytester]) -> Path:
    """The project after its v1 run: the store holds the v1 recipe, no heal."""
    pytester = module_pytester()
    pytester.makeconftest(CONFTEST)
    pytester.makefile(".req.yaml", login=LOGIN)
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PACTS_DEMO_RELEASE", "v1")
        first = pytester.runpytest_subprocess("-q", "-W", "always")
    first.assert_outcomes(passed=1)
    assert not _heals(first)
    return pytester.path


@pytest.fixture
def project(
    pytester: pytest.Pytester, after_v1: Path, monkeypatch: pytest.MonkeyPatch
) -> pytest.Pytester:
    """A copy of the project after v1, with the demo app at v2 (the form, ids, texts and
    wrappers drift)."""
    shutil.copytree(after_v1, pytester.path, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("runpytest-*", "stdout", "stderr"))  # fmt: skip
    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v2")
    return pytester


def test_v2_heals_then_accepted_proposals_need_no_healing(
    project: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    healed = project.runpytest_subprocess("-q", "-W", "always")
    healed.assert_outcomes(passed=1)
    text = healed.stdout.str()
    assert "REQ-LOGIN passed after 3 heal(s); review the proposal(s)" in text, text
    assert "proposal #1, contract track)" in text  # each heal names its proposal
    # the warning points at the first healed step's line, not the plugin's source (issue 39)
    healed.stdout.fnmatch_lines(["*login.req.yaml:4: PactsHealWarning: REQ-LOGIN passed*"])
    assert "execution.py" not in text
    listing = subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", "heals", "list", "--json", "--store",
         str(project.path / "store.db")],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    pending = json.loads(listing.stdout)
    assert len(pending) == 3 and {p["severity"] for p in pending} == {"minor"}
    # accepted in this process (the console script is the listing's above): the store is
    # what the next run reads
    for proposal in pending:
        store = str(project.path / "store.db")
        assert main(["heals", "accept", str(proposal["id"]), "--store", store]) == 0, (
            capsys.readouterr().err
        )

    again = project.runpytest_subprocess("-q", "-W", "always")
    again.assert_outcomes(passed=1)
    assert not _heals(again), again.stdout.str()


def test_accept_heals_option_writes_the_recipe_in_the_run(
    project: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    healed = project.runpytest_subprocess("-q", "-W", "always", "--pacts-accept-heals=minor")
    healed.assert_outcomes(passed=1)
    text = healed.stdout.str()
    # each drift's proposal is accepted once, naming the versions it wrote
    accepted = [line for line in healed.outlines if "accepted: recipe REQ-LOGIN v" in line]
    assert len(accepted) == 3, text
    capsys.readouterr()
    store = str(project.path / "store.db")
    assert main(["heals", "list", "--status", "accepted", "--json", "--store", store]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 3

    again = project.runpytest_subprocess("-q", "-W", "always")
    again.assert_outcomes(passed=1)
    assert not _heals(again), again.stdout.str()
