"""``pacts plan`` and pytest judge the same files the same way (one validation function).

Each case runs pytest's collection in a subprocess (pytester) and ``pacts plan`` in another,
in the same project folder, and compares what both say.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

TAGGED = """\
requirements:
  - req_id: REQ-A
    url: /
    tags: [smoke]
    steps: ["Login | click"]
  - req_id: REQ-B
    url: /
    tags: [smoke, nightly]
    steps: ["Login | click"]
"""
MESSAGE = (
    "tagged.req.yaml:6:5: tag(s) 'nightly' of REQ-B are not registered markers and strict "
    "markers are on; expected them under `markers` or `pacts_markers` in your ini file"
)


def plan(pytester: pytest.Pytester, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", "plan", *args],
        cwd=pytester.path,
        capture_output=True,
        text=True,
        timeout=120,
    )


def collected(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("--collect-only", "-q", "-p", "no:cacheprovider", *args)


def _ids(result: pytest.RunResult) -> list[str]:
    return [line.strip() for line in result.outlines if "::" in line and " " not in line.strip()]


@pytest.mark.parametrize(
    "ini",
    [
        "[pytest]\nstrict_markers = true\nmarkers =\n    smoke: smoke tests\n",
        "[pytest]\naddopts = --strict-markers\nmarkers =\n    smoke: smoke tests\n",
        "[pytest]\nstrict = true\nmarkers =\n    smoke: smoke tests\n",
    ],
    ids=["strict_markers", "addopts", "strict"],
)
def test_unregistered_tags_both_refuse_the_file(pytester: pytest.Pytester, ini: str) -> None:
    pytester.makeini(ini)
    pytester.makefile(".req.yaml", tagged=TAGGED)
    by_pytest = collected(pytester)
    assert by_pytest.ret == pytest.ExitCode.INTERRUPTED
    assert MESSAGE in by_pytest.stdout.str()
    by_plan = plan(pytester, ".")
    assert by_plan.returncode == 1, by_plan.stdout + by_plan.stderr
    assert by_plan.stderr.splitlines() == [MESSAGE]
    assert "0 requirement(s) planned, 1 file(s) with problems" in by_plan.stdout


def test_registered_or_not_strict_both_accept(pytester: pytest.Pytester) -> None:
    pytester.makefile(".req.yaml", tagged=TAGGED)
    pytester.makeini("[pytest]\nstrict_markers = true\npacts_markers =\n    smoke\n    nightly\n")
    assert _ids(collected(pytester)) == ["tagged.req.yaml::REQ-A", "tagged.req.yaml::REQ-B"]
    by_plan = plan(pytester, ".", "--json")
    assert by_plan.returncode == 0, by_plan.stderr
    assert [p["req_id"] for p in json.loads(by_plan.stdout)] == ["REQ-A", "REQ-B"]
    pytester.makeini("[pytest]\n")  # not strict: pytest registers tags as it meets them
    assert len(_ids(collected(pytester))) == 2
    assert plan(pytester, ".").returncode == 0


def test_project_settings_are_the_ones_pytest_uses(pytester: pytest.Pytester) -> None:
    """``pacts_blocks_files`` and ``pacts_files`` from the ini file, no flags needed."""
    (pytester.path / "shared.blocks.yaml").write_text(
        "blocks:\n  SignIn:\n    steps:\n      - Username | fill | u\n      - Login | click\n"
    )
    pytester.makefile(
        ".flow.yaml", login="req_id: R1\nurl: /\nsteps: ['use | SignIn', 'Logout | click']\n"
    )
    pytester.makefile(".req.yaml", ignored="req_id: R2\nurl: /\nsteps: ['Login | click']\n")
    pytester.makeini(
        "[pytest]\npacts_blocks_files = shared.blocks.yaml\npacts_files = *.flow.yaml\n"
    )
    assert _ids(collected(pytester)) == ["login.flow.yaml::R1"]
    by_plan = plan(pytester, ".", "--json")
    assert by_plan.returncode == 0, by_plan.stderr
    plans = json.loads(by_plan.stdout)
    assert [p["req_id"] for p in plans] == ["R1"]
    assert [s["text"] for s in plans[0]["steps"]] == [
        'fill "Username" with "u"',
        'click "Login"',
        'click "Logout"',
    ]


def test_a_limit_from_the_ini_file_applies_to_both(pytester: pytest.Pytester) -> None:
    pytester.makefile(".req.yaml", tagged=TAGGED)
    pytester.makeini("[pytest]\npacts_max_nesting = 2\n")
    by_pytest = collected(pytester)
    by_plan = plan(pytester, ".")
    assert by_pytest.ret == pytest.ExitCode.INTERRUPTED
    assert by_plan.returncode == 1
    problem = by_plan.stderr.strip()
    assert problem.startswith("tagged.req.yaml") and "nest" in problem, problem
    assert problem in by_pytest.stdout.str()


def test_a_bad_setting_is_a_usage_error_for_both(pytester: pytest.Pytester) -> None:
    pytester.makefile(".req.yaml", tagged=TAGGED)
    pytester.makeini("[pytest]\npacts_discover = sometimes\n")
    assert collected(pytester).ret == pytest.ExitCode.USAGE_ERROR
    by_plan = plan(pytester, ".")
    assert by_plan.returncode == 2
    assert "pacts_discover" in by_plan.stderr and "Traceback" not in by_plan.stderr


def test_a_conftest_that_fails_is_one_message(pytester: pytest.Pytester) -> None:
    pytester.makefile(".req.yaml", tagged=TAGGED)
    pytester.makeconftest("import not_a_module_anywhere\n")
    assert collected(pytester).ret != pytest.ExitCode.OK
    by_plan = plan(pytester, ".")
    assert by_plan.returncode == 2, by_plan.stderr
    assert "pytest could not load the project" in by_plan.stderr
    assert "not_a_module_anywhere" in by_plan.stderr and "Traceback" not in by_plan.stderr


def test_a_file_outside_the_working_folder_is_named_as_pytest_names_it(
    pytester: pytest.Pytester,
) -> None:
    """Run from one folder on a file in another, with no ini file: pytest roots at the
    folders' common ancestor, so the name depends on where both live (a checkout under
    ``/tmp`` named the suite's temp files ``pytest-of-root/...``); ``pacts plan`` names it
    as pytest does from the same folder, wherever that is."""
    work, data = pytester.mkdir("work"), pytester.mkdir("data")
    (data / "bad.req.yaml").write_text("req_id: R1\nurl: /\nsteps: [Login | tap]\n")
    args = ["--collect-only", "-q", "-p", "no:cacheprovider", str(data / "bad.req.yaml")]
    by_pytest = subprocess.run(
        [sys.executable, "-m", "pytest", *args], cwd=work, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    by_plan = subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", "plan", str(data / "bad.req.yaml")],
        cwd=work, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert by_plan.returncode == 1, by_plan.stderr
    problem = by_plan.stderr.strip()
    name = problem.partition(":")[0]
    assert name.endswith("data/bad.req.yaml") and ":3:9: unknown action 'tap'" in problem
    assert problem in by_pytest.stdout, by_pytest.stdout
