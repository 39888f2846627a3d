"""Collection through the front door: real pytest sessions in a subprocess.

These requirements are not written for any app: runs use ``--pacts-dry-run`` (values
resolved at the moment of use, no browser); the engine is tested against the demo app in
tests/engine/ and end to end in tests/pytest_plugin/test_run_demo.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

LOGIN_YAML = """
requirements:
  - req_id: REQ-LOGIN-001
    title: Log in
    url: /
    tags: [smoke]
    steps:
      - Username@LoginForm | fill | standard_user | field_populated
      - Login@LoginForm | click | | navigates_to:Products
  - req_id: REQ-LOGIN-002
    url: /
    tags: [slow]
    steps: ["Login | click"]
"""
CART_JSON = """{"req_id": "REQ-CART-001", "url": "/inventory.html",
  "steps": ["Add to cart@Sauce Labs Backpack | click"]}"""


def _xlsx(pytester: pytest.Pytester, name: str = "sheets/login.xlsx") -> None:
    from pytest_pacts.scaffold.workbook import SheetRequirement, WorkbookSpec, write_workbook

    write_workbook(
        pytester.path / name,
        WorkbookSpec(
            title_rows=("Title",),
            requirements=[
                SheetRequirement("REQ-X-001", "/", [("Login", "click", "", "")]),
                SheetRequirement("REQ-X-002", "/", [("Logout", "click", "", "")]),
            ],
        ),
    )


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    return _lay_out(pytester)


def _lay_out(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makefile(".req.yaml", login=LOGIN_YAML)
    pytester.makefile(".req.json", cart=CART_JSON)
    pytester.makefile(".json", package='{"name": "not-a-requirement"}')
    pytester.makefile(".yaml", config="key: value\n")
    _xlsx(pytester)
    return pytester


@pytest.fixture(scope="module")
def collected_dot(module_pytester: Callable[[], pytest.Pytester]) -> pytest.RunResult:
    """``pytest --collect-only -q -s .`` of the project, shared by the tests that read it:
    its conftest forbids starting a browser and prints each item's location."""
    pytester = _lay_out(module_pytester())
    pytester.makeconftest("""
import playwright.sync_api as api
def _forbidden(*a, **k):
    raise AssertionError("a browser was started during --collect-only")
api.sync_playwright = _forbidden

def pytest_collection_modifyitems(items):
    for item in items:
        print("LOC", item.nodeid, item.location[1], item.location[2])
""")
    return pytester.runpytest_subprocess("--collect-only", "-q", "-s", ".")


def _ids(result: pytest.RunResult) -> list[str]:
    return [line.strip() for line in result.outlines if "::" in line and " " not in line.strip()]


def test_help_shows_the_pacts_group(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("--help")
    result.stdout.fnmatch_lines(
        ["*pytest-pacts: requirement sheets as self-healing tests*", "*--pacts-files=VALUE*"]
    )
    assert "pacts_files" in result.stdout.str()


def test_node_ids_order_and_defaults(
    project: pytest.Pytester, collected_dot: pytest.RunResult
) -> None:
    everything = [
        "cart.req.json::REQ-CART-001",
        "login.req.yaml::REQ-LOGIN-001",
        "login.req.yaml::REQ-LOGIN-002",
        "sheets/login.xlsx::REQ-X-001",
        "sheets/login.xlsx::REQ-X-002",
    ]
    # .xlsx files are collected under a directory named on the command line, and a bare run
    # collects what `pytest .` collects (issue 39: a renamed workbook was silently skipped)
    assert _ids(collected_dot) == everything
    result = project.runpytest_subprocess("--collect-only", "-q")
    assert _ids(result) == everything
    # a JSON/YAML file named explicitly is collected whatever its name
    project.makefile(".json", plain=CART_JSON.replace("REQ-CART-001", "REQ-PLAIN"))
    result = project.runpytest_subprocess("--collect-only", "-q", "plain.json")
    assert _ids(result) == ["plain.json::REQ-PLAIN"]


def test_testpaths_collect_what_naming_the_folder_collects(pytester: pytest.Pytester) -> None:
    """`pacts init` writes ``testpaths = requirements``: plain ``pytest`` must collect a
    workbook not named ``*.req.xlsx`` there, as ``pytest requirements/`` does (issue 39);
    results workbooks in the report folder are never requirements."""
    _xlsx(pytester, "requirements/shop.xlsx")
    pytester.makefile(".req.json", **{"requirements/cart": CART_JSON})
    _xlsx(pytester, "elsewhere/other.xlsx")
    _xlsx(pytester, "reports/run1/results/shop.results.xlsx")
    pytester.makeini("[pytest]\ntestpaths = requirements\npacts_report_dir = reports\n")
    project_ids = _ids(pytester.runpytest_subprocess("--collect-only", "-q", "requirements/"))
    assert project_ids == [
        "requirements/cart.req.json::REQ-CART-001",
        "requirements/shop.xlsx::REQ-X-001",
        "requirements/shop.xlsx::REQ-X-002",
    ]
    assert _ids(pytester.runpytest_subprocess("--collect-only", "-q")) == project_ids
    # bare in a project without testpaths: the rootdir, as `pytest .`, without the report folder
    pytester.makeini("[pytest]\npacts_report_dir = reports\n")
    result = pytester.runpytest_subprocess("--collect-only", "-q")
    assert _ids(result) == [
        "elsewhere/other.xlsx::REQ-X-001",
        "elsewhere/other.xlsx::REQ-X-002",
        *project_ids,
    ]


def test_disable_with_no_pacts(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess("-p", "no:pacts", "--collect-only", "-q", ".")
    assert _ids(result) == []
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_run_select_and_last_failed(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess("--pacts-dry-run", "-v", "-p", "cacheprovider")
    result.assert_outcomes(passed=5)
    result = project.runpytest_subprocess("--pacts-dry-run", "-q", "-k", "LOGIN and not 002")
    result.assert_outcomes(passed=2, deselected=3)  # REQ-LOGIN-001, sheets/login.xlsx::REQ-X-001
    result = project.runpytest_subprocess("--pacts-dry-run", "-q", "-m", "smoke")
    result.assert_outcomes(passed=1, deselected=4)
    # a node id selects its item alone, in a YAML file and in a workbook (one session: each
    # id names one item, and only those two run)
    ids = ("login.req.yaml::REQ-LOGIN-002", "sheets/login.xlsx::REQ-X-002")
    result = project.runpytest_subprocess("--pacts-dry-run", "-v", *ids)
    result.assert_outcomes(passed=2)
    assert sorted(re.findall(r"^(\S+::\S+) PASSED", result.stdout.str(), flags=re.M)) == list(ids)


def test_last_failed_reruns_only_the_failure(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".req.yaml",
        a="""
requirements:
  - {req_id: R-OK, url: /, steps: ["Name | fill | {{env.NAME:x}}"]}
  - {req_id: R-BAD, url: /, steps: ["Token | fill | {{env.PACTS_TOKEN}}"]}
""",
    )
    # the variable exists at collection and disappears before the test runs (a real CI
    # mistake): the item fails at the moment of use with a located, readable message
    pytester.makeconftest("""
import os
def pytest_runtest_setup(item):
    os.environ.pop("PACTS_TOKEN", None)
""")
    env_ok = {"PACTS_TOKEN": "tok-canary-9431"}
    with pytest.MonkeyPatch.context() as mp:
        for k, v in env_ok.items():
            mp.setenv(k, v)
        first = pytester.runpytest_subprocess("--pacts-dry-run", "-p", "cacheprovider")
        first.assert_outcomes(passed=1, failed=1)
        assert (
            'a.req.yaml:3:37: step 1 (fill "Token" with "{{env.PACTS_TOKEN}}"): '
            "{{env.PACTS_TOKEN}} has no value and no default" in first.stdout.str()
        )
        assert "Traceback" not in first.stdout.str()
        assert "tok-canary-9431" not in first.stdout.str()
        second = pytester.runpytest_subprocess(
            "--pacts-dry-run", "-p", "cacheprovider", "--lf", "-v"
        )
        second.assert_outcomes(failed=1)
        second.stdout.fnmatch_lines(
            ["run-last-failure: rerun previous 1 failure*", "*a.req.yaml::R-BAD FAILED*"]
        )
        assert "R-OK" not in second.stdout.str()


def test_reportinfo_points_at_the_first_row(collected_dot: pytest.RunResult) -> None:
    locs = [line for line in collected_dot.outlines if line.startswith("LOC")]
    assert locs == [
        "LOC cart.req.json::REQ-CART-001 0 REQ-CART-001",
        "LOC login.req.yaml::REQ-LOGIN-001 1 REQ-LOGIN-001: Log in",
        "LOC login.req.yaml::REQ-LOGIN-002 8 REQ-LOGIN-002",
        "LOC sheets/login.xlsx::REQ-X-001 2 REQ-X-001",
        "LOC sheets/login.xlsx::REQ-X-002 3 REQ-X-002",
    ]


def test_strict_markers(project: pytest.Pytester) -> None:
    project.makeini("[pytest]\nstrict_markers = true\nmarkers =\n    smoke: smoke tests\n")
    result = project.runpytest_subprocess("--collect-only", "-q")
    result.stdout.fnmatch_lines(
        [
            "*login.req.yaml:9:5: tag(s) 'slow' of REQ-LOGIN-002 are not registered markers and "
            "strict markers are on; expected them under `markers` or `pacts_markers` in your ini "
            "file*"
        ]
    )
    assert "Traceback" not in result.stdout.str()
    assert result.ret == pytest.ExitCode.INTERRUPTED
    project.makeini("[pytest]\nstrict_markers = true\npacts_markers =\n    smoke\n    slow\n")
    result = project.runpytest_subprocess("--pacts-dry-run", "-q", "-m", "slow")
    result.assert_outcomes(passed=1, deselected=4)


SECRET_REQ = """
req_id: R-SECRET
url: /
vars: {api_token: "tok-literal-5521"}
steps:
  - "Password | fill | {{env.PACTS_CANARY}}"
  - "Token | fill | {{vars.api_token}}"
"""


@pytest.fixture(scope="module")
def good_bad_and_secret(
    module_pytester: Callable[[], pytest.Pytester],
) -> tuple[pytest.Pytester, pytest.RunResult]:
    """One dry run of a good file, a bad one and one whose values are secrets, shared by the
    two tests that read it (each used to run its own session)."""
    pytester = module_pytester()
    pytester.makefile(".req.yaml", good="req_id: R1\nurl: /\nsteps: [Login | click]\n")
    pytester.makefile(".req.json", bad='{"req_id": "R2", "url": "/", "steps": ["Login | tap"]}')
    pytester.makefile(".req.yaml", s=SECRET_REQ)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PACTS_CANARY", "canary-7f3a9")
        result = pytester.runpytest_subprocess(
            "--pacts-dry-run", "--continue-on-collection-errors", "-v", "--junitxml=out.xml", "-rA"
        )
    return pytester, result


def test_bad_file_is_one_clean_error_and_others_still_collect(
    good_bad_and_secret: tuple[pytest.Pytester, pytest.RunResult],
) -> None:
    _, result = good_bad_and_secret
    out = result.stdout.str()
    assert "bad.req.json:1:40: unknown action 'tap'; expected one of click, fill" in out
    assert "Traceback" not in out and "raise " not in out
    result.assert_outcomes(passed=2, errors=1)  # good.req.yaml and s.req.yaml
    assert re.search(r"ERROR bad\.req\.json", out)


def test_files_ini_and_cli_precedence(pytester: pytest.Pytester) -> None:
    pytester.makefile(".sheet.yaml", a="req_id: A\nurl: /\nsteps: [Login | click]\n")
    pytester.makefile(".other.yaml", b="req_id: B\nurl: /\nsteps: [Login | click]\n")
    pytester.makeini("[pytest]\npacts_files = *.sheet.yaml\n")
    assert _ids(pytester.runpytest_subprocess("--collect-only", "-q")) == ["a.sheet.yaml::A"]
    result = pytester.runpytest_subprocess("--collect-only", "-q", "--pacts-files=*.other.yaml")
    assert _ids(result) == ["b.other.yaml::B"]


def test_collect_only_launches_no_browser(collected_dot: pytest.RunResult) -> None:
    result = collected_dot
    assert result.ret == pytest.ExitCode.OK
    assert len(_ids(result)) == 5


def test_xdist_collects_identically(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess("--pacts-dry-run", "-n", "2", "-q", ".")
    result.assert_outcomes(passed=5)


def test_secrets_do_not_leak_into_output_or_junit(
    good_bad_and_secret: tuple[pytest.Pytester, pytest.RunResult],
) -> None:
    pytester, result = good_bad_and_secret
    result.assert_outcomes(passed=2, errors=1)
    assert re.search(r"^s\.req\.yaml::R-SECRET PASSED", result.stdout.str(), flags=re.M)
    junit = (pytester.path / "out.xml").read_text()
    for text in (result.stdout.str(), result.stderr.str(), junit):
        assert "canary-7f3a9" not in text
        assert "tok-literal-5521" not in text


@pytest.mark.parametrize(
    ("args", "ini", "message"),
    [
        (
            ["--pacts-step-timeout=abc"],
            "",
            "--pacts-step-timeout / pacts_step_timeout must be a number, got 'abc'",
        ),
        (
            [],
            "pacts_max_heal_rounds = many\n",
            "--pacts-max-heal-rounds / pacts_max_heal_rounds must be a number, got 'many'",
        ),
    ],
)
def test_bad_setting_is_one_usage_error(
    pytester: pytest.Pytester, args: list[str], ini: str, message: str
) -> None:
    pytester.makefile(".req.yaml", a="req_id: R1\nurl: /\nsteps: [Login | click]\n")
    pytester.makeini("[pytest]\n" + ini)
    result = pytester.runpytest_subprocess("--pacts-dry-run", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.str()
    assert "Traceback" not in result.stderr.str() + result.stdout.str()
