"""The healing loop end to end (issue 5 item 6): v1 run → v2 run heals and proposes →
proposals accepted → the next v2 run needs no healing (the recipe carries the fix)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_v2_heals_then_accepted_proposals_need_no_healing(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makefile(".req.yaml", login=LOGIN)
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v1")
    first = pytester.runpytest_subprocess("-q", "-W", "always")
    first.assert_outcomes(passed=1)
    assert not _heals(first)

    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v2")  # the form, ids, texts and wrappers drift
    healed = pytester.runpytest_subprocess("-q", "-W", "always")
    healed.assert_outcomes(passed=1)
    text = healed.stdout.str()
    assert "REQ-LOGIN passed after 3 heal(s); review the proposal(s)" in text, text
    assert "proposal #1, contract track)" in text  # each heal names its proposal
    # the warning points at the first healed step's line, not the plugin's source (issue 39)
    healed.stdout.fnmatch_lines(["*login.req.yaml:4: PactsHealWarning: REQ-LOGIN passed*"])
    assert "execution.py" not in text
    listing = subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", "heals", "list", "--json", "--store",
         str(pytester.path / "store.db")],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    pending = json.loads(listing.stdout)
    assert len(pending) == 3 and {p["severity"] for p in pending} == {"minor"}
    for proposal in pending:
        accepted = subprocess.run(
            [sys.executable, "-m", "pytest_pacts.cli", "heals", "accept", str(proposal["id"]),
             "--store", str(pytester.path / "store.db")],
            capture_output=True, text=True,
        )  # fmt: skip
        assert accepted.returncode == 0, accepted.stderr

    again = pytester.runpytest_subprocess("-q", "-W", "always")
    again.assert_outcomes(passed=1)
    assert not _heals(again), again.stdout.str()


def test_accept_heals_option_writes_the_recipe_in_the_run(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makefile(".req.yaml", login=LOGIN)
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v1")
    pytester.runpytest_subprocess("-q").assert_outcomes(passed=1)

    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v2")
    healed = pytester.runpytest_subprocess("-q", "-W", "always", "--pacts-accept-heals=minor")
    healed.assert_outcomes(passed=1)
    text = healed.stdout.str()
    # each drift's proposal is accepted once, naming the versions it wrote
    accepted = [line for line in healed.outlines if "accepted: recipe REQ-LOGIN v" in line]
    assert len(accepted) == 3, text
    listing = subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", "heals", "list", "--status", "accepted",
         "--json", "--store", str(pytester.path / "store.db")],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert len(json.loads(listing.stdout)) == 3

    again = pytester.runpytest_subprocess("-q", "-W", "always")
    again.assert_outcomes(passed=1)
    assert not _heals(again), again.stdout.str()
