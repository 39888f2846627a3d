"""The ``pacts`` fixture: gated, healing steps in hand-written tests (issue 5 item 7).

Real pytest sessions (pytester, subprocess) against the bundled demo app in Chromium.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "secret_sauce"  # the demo app's password, handed over with secret=True

INI = """\
[pytest]
junit_family = xunit1
pacts_step_timeout = 3
pacts_max_heal_rounds = 2
filterwarnings =
    ignore:Session-scoped fixtures defined as instance methods:pytest.PytestRemovedIn10Warning
"""

SHOP = """\
import os


def test_checkout(page, pacts, base_url):
    page.goto(base_url + "/")
    pacts.step("Username@LoginForm", "fill", "standard_user")
    pacts.step("Password@LoginForm", "fill", os.environ["DEMO_PASSWORD"], secret=True)
    pacts.step("Login@LoginForm", "click", expected="navigates_to:Products")
    pacts.step("Add to cart@Sauce Labs Backpack", "click", expected="text_visible:Remove")


def test_wrong_expectation(page, pacts, base_url):
    page.goto(base_url + "/")
    pacts.step("Password@LoginForm", "fill", os.environ["DEMO_PASSWORD"], secret=True)
    pacts.step("Username@LoginForm", "fill", "standard_user", expected="value:someone else")
    raise AssertionError("never reached: the failing step ends the test")


def test_bad_arguments(page, pacts):
    pacts.step("Login@LoginForm", "clik")
"""

# No region: the v2 login form has another name, and the button says "Log in".
LOGIN = """\
import os


def test_login(page, pacts, base_url):
    page.goto(base_url + "/")
    pacts.step("Username", "fill", "standard_user")
    pacts.step("Password", "fill", os.environ["DEMO_PASSWORD"], secret=True)
    pacts.step("Login", "click", expected="navigates_to:Products")
"""


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.fixture(scope="module")
def v1_run(
    module_pytester: Callable[[], pytest.Pytester],
) -> tuple[pytest.Pytester, pytest.RunResult]:
    """One session on release v1 of both test files, shared by the tests below (a whole
    session with Chromium costs several seconds of CPU; each test ran its own): the gated
    steps are read from it, and the heal test starts from a copy of its store."""
    project = module_pytester()
    shutil.copyfile(REPO / "sample_requirements" / "conftest.py", project.path / "conftest.py")
    (project.path / "pytest.ini").write_text(INI)
    (project.path / "test_shop.py").write_text(SHOP)
    (project.path / "test_login.py").write_text(LOGIN)
    with pytest.MonkeyPatch.context() as mp:
        for name in ("PACTS_DEMO_URL", "PACTS_DEMO_RELEASE", "PACTS_STORE"):
            mp.delenv(name, raising=False)
        mp.setenv("DEMO_PASSWORD", PASSWORD)
        result = project.runpytest_subprocess("--junitxml=junit.xml")
    return project, result


def _properties(junit: Path) -> dict[str, dict[str, str | None]]:
    cases = ET.parse(junit).iter("testcase")
    return {
        str(c.get("name")): {p.get("name") or "": p.get("value") for p in c.iter("property")}
        for c in cases
    }


def test_gated_steps_pass_fail_readably_and_report_like_requirements(
    v1_run: tuple[pytest.Pytester, pytest.RunResult],
) -> None:
    project, result = v1_run
    result.assert_outcomes(passed=2, failed=2)  # test_shop.py's three, and test_login
    out = result.stdout.str()

    # the failing step reads like a requirement item's failure, with no plugin traceback
    failure = out.split("test_wrong_expectation", 1)[1].split("test_bad_arguments", 1)[0]
    assert "test_shop.test_wrong_expectation_chromium: FAIL" in failure
    at = _line(SHOP, "value:someone else")
    assert f"at step 2 of 2: test_shop.py:{at}" in failure
    assert "root cause: assertion_mismatch" in failure
    assert "gate (1 match)" in failure
    assert "Traceback" not in failure and "pytest_pacts" not in failure
    assert "never reached" not in out
    # bad arguments: a clear error naming the call, before anything ran
    result.stdout.fnmatch_lines(
        [f"*PactsStepError: pacts.step('Login@LoginForm', 'clik') at test_shop.py:"
         f"{_line(SHOP, 'clik')}: unknown action 'clik' (did you mean 'click'?)*"]
    )  # fmt: skip

    props = _properties(project.path / "junit.xml")
    passed = props["test_checkout[chromium]"]
    assert passed["pacts_verdict"] == "pass" and passed["pacts_rca_class"] == "success"
    assert passed["pacts_healed"] == "false"
    record = json.loads(Path(str(passed["pacts_record"])).read_text())
    assert len(record["steps"]) == 4
    assert all(s["strategy"] for s in record["steps"])
    failed = props["test_wrong_expectation[chromium]"]
    assert failed["pacts_verdict"] == "fail"
    assert failed["pacts_rca_class"] == "assertion_mismatch"

    # the store's run history has one run per test, with its steps (not one run per step)
    with sqlite3.connect(project.path / ".pacts" / "pacts.db") as db:
        runs = db.execute(
            "SELECT req_id, verdict, status, (SELECT count(*) FROM run_steps s"
            " WHERE s.run_id = r.id) FROM runs r ORDER BY req_id"
        ).fetchall()
    assert runs == [
        ("test_login.test_login_chromium", "pass", "finished", 3),
        ("test_shop.test_checkout_chromium", "pass", "finished", 4),
        ("test_shop.test_wrong_expectation_chromium", "fail", "finished", 2),
    ]

    # Secrets never leak: the secret value is in nothing the run printed or wrote
    assert PASSWORD not in out
    for path in project.path.rglob("*"):
        if path.is_file() and path.suffix != ".py":
            assert PASSWORD.encode() not in path.read_bytes(), f"the secret leaked into {path}"


def test_a_heal_on_release_v2_warns_and_fails_under_strict_heal(
    v1_run: tuple[pytest.Pytester, pytest.RunResult],
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # v1: locators are cached (the shared v1 run); this test works on a copy of its project
    after_v1, _ = v1_run
    v1 = _properties(after_v1.path / "junit.xml")["test_login[chromium]"]
    assert v1["pacts_verdict"] == "pass" and v1["pacts_healed"] == "false"
    shutil.copytree(after_v1.path, pytester.path, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("runpytest-*", "stdout", "stderr", "junit.xml",
                                                  "test_shop.py"))  # fmt: skip
    project = pytester
    for name in ("PACTS_DEMO_URL", "PACTS_STORE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DEMO_PASSWORD", PASSWORD)

    # the store as release v1 left it: every later run below starts from it
    pacts = project.path / ".pacts"
    shutil.copytree(pacts, project.path / "after-v1")

    monkeypatch.setenv("PACTS_DEMO_RELEASE", "v2")
    healed = project.runpytest_subprocess("--junitxml=junit.xml")
    healed.assert_outcomes(passed=1, warnings=1)
    healed.stdout.fnmatch_lines(
        [
            "*PactsHealWarning: test_login.test_login_chromium passed after 1 heal(s)*",
            # the v2 button kept its id but not its name: the recorded alternate alone is
            # no evidence (docs/healing.md: its identity is below the rule), so re-discovery
            # by the step's words heals it
            '*rediscovery: role_name button "Login" -> role_name button "Log in"*',
        ]
    )
    props = _properties(project.path / "junit.xml")["test_login[chromium]"]
    assert props["pacts_verdict"] == "pass" and props["pacts_healed"] == "true"

    # A re-discovered locator for a renamed element is a proposal for review (contract
    # track), not applied by itself: the next run heals again, the same way, and says so.
    again = project.runpytest_subprocess()
    again.assert_outcomes(passed=1, warnings=1)
    again.stdout.fnmatch_lines(
        ['*rediscovery: role_name button "Login" -> role_name button "Log in"*']
    )
    shutil.rmtree(pacts)
    shutil.copytree(project.path / "after-v1", pacts)
    strict = project.runpytest_subprocess("--pacts-strict-heal")
    strict.assert_outcomes(failed=1)
    strict.stdout.fnmatch_lines(["*--pacts-strict-heal: a healed run fails*"])
    assert "Traceback" not in strict.stdout.str()
