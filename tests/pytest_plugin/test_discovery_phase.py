"""Find first, at collection (issue 4 items 3, 4, 6): real sessions against the demo app."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFTEST = (ROOT / "sample_requirements" / "conftest.py").read_text()

LOGIN = """
requirements:
  - req_id: REQ-LOGIN
    url: /
    steps:
      - Username@LoginForm | fill | standard_user
      - Password@LoginForm | fill | secret_sauce
      - Login@LoginForm | click | | navigates_to:Products
      - Open Menu | click
  - req_id: REQ-WIDGETS
    url: /widgets.html
    steps:
      - Shipping method | select | Express
      - Delete | click
      - Frobnicate the widget | click
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    pytester.makefile(".req.yaml", login=LOGIN)
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    return pytester


def _pacts_lines(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if line.startswith("pacts:")]


def test_cold_then_warm_then_changed(project: pytest.Pytester) -> None:
    cold = project.runpytest_subprocess("-q", "--pacts-dry-run", "--pacts-discover=always")
    lines = _pacts_lines(cold)
    assert "pacts: discovering REQ-LOGIN (1/2) [login.req.yaml:2:5]" in lines
    assert "pacts: discovering REQ-WIDGETS (2/2) [login.req.yaml:9:5]" in lines
    # the start page holds steps 1-3 of REQ-LOGIN (the click may leave the page) and
    # steps 1-2 of REQ-WIDGETS (step 2 is a click); "Delete" is on the page twice
    text = "\n".join(lines)
    assert re.search(
        r"login\.req\.yaml:13:9: REQ-WIDGETS: step 2 \(click \"Delete\"\): "
        r"\"Delete\" matches 2 elements .*candidates: .*Draft A.*Draft B",
        text,
    ), text
    assert (
        "discovery: 2 requirement(s) discovered (4 step locator(s) verified), 0 cached; "
        "in the tests' browser" in lines[-1]
    )
    warm = project.runpytest_subprocess("-q", "--pacts-discover=auto", "--pacts-dry-run")
    assert _pacts_lines(warm)[-1] == (
        "pacts: discovery: 2 requirement(s) cached, none to discover (no browser launched)"
    )
    # changing a step changes the plan hash: that requirement alone is discovered again
    project.makefile(
        ".req.yaml", login=LOGIN.replace("| fill | standard_user", "| fill | problem_user")
    )
    changed = project.runpytest_subprocess("-q", "--pacts-discover=auto", "--pacts-dry-run")
    lines = _pacts_lines(changed)
    assert [line for line in lines if "discovering" in line] == [
        "pacts: discovering REQ-LOGIN (1/1) [login.req.yaml:2:5]"
    ]
    assert "1 cached" in lines[-1]


def test_collect_only_discovers_nothing(project: pytest.Pytester) -> None:
    # no fixture runs under --collect-only (IDE discovery): no browser, even under always
    result = project.runpytest_subprocess("-q", "--collect-only", "--pacts-discover=always")
    assert _pacts_lines(result) == []


def test_off_discovers_nothing(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess("-q", "--pacts-discover=off", "--pacts-dry-run")
    assert _pacts_lines(result) == []
    result.assert_outcomes(passed=2)


def test_xdist_workers_discover_each_requirement_once(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess("-q", "-n", "2", "--pacts-dry-run")
    result.assert_outcomes(passed=2)
    lines = _pacts_lines(result)
    # each worker discovers before its first test; the leases split the two requirements
    # between them (or one waits and reuses the other's); the controller prints it all
    discovering = sorted(
        re.sub(r"\[gw\d\] | \(\d/\d\)", "", line) for line in lines if "discovering" in line
    )
    assert discovering == [
        "pacts: discovering REQ-LOGIN [login.req.yaml:2:5]",
        "pacts: discovering REQ-WIDGETS [login.req.yaml:9:5]",
    ], lines
    assert len([line for line in lines if "discovery:" in line]) == 2, lines
    again = project.runpytest_subprocess("-q", "-n", "2", "--pacts-dry-run")
    assert [re.sub(r"\[gw\d\] ", "", line) for line in _pacts_lines(again)] == [
        "pacts: discovery: 2 requirement(s) cached, none to discover (no browser launched)"
    ] * 2


def test_faults_are_located_and_others_continue(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    dead = _free_port()
    pytester.makefile(
        ".req.yaml",
        faults=f"""
requirements:
  - {{req_id: R-DOWN, url: "http://127.0.0.1:{dead}/", steps: ["Login | fill | x"]}}
  - {{req_id: R-500, url: /__faults/status/500, steps: ["Login | fill | x"]}}
  - {{req_id: R-BUSY, url: /__faults/never-settles, steps: ["Click me | hover"]}}
  - {{req_id: R-OK, url: /, steps: ["Username | fill | x"]}}
""",
    )
    result = pytester.runpytest_subprocess(
        "-q", "--pacts-dry-run", "--pacts-discover=always", "-o", "pacts_store=s.db"
    )
    text = "\n".join(_pacts_lines(result))
    assert re.search(
        rf"faults\.req\.yaml:2:5: R-DOWN: could not load http://127\.0\.0\.1:{dead}/"
        r": .*ERR_CONNECTION_REFUSED",
        text,
    ), text
    assert re.search(
        r"faults\.req\.yaml:3:5: R-500: http://127\.0\.0\.1:\d+/__faults/status/500 "
        r"answered HTTP 500; nothing was discovered on it",
        text,
    ), text
    assert re.search(r"faults\.req\.yaml:4:5: R-BUSY: .* did not settle within 3 s", text), text
    assert "4 requirement(s) discovered (2 step locator(s) verified)" in text, text


def test_plans_that_need_no_page_launch_no_browser(pytester: pytest.Pytester) -> None:
    """A start URL that cannot be opened (relative, no base URL) and a plan with nothing to
    discover on its start page are settled before Playwright is started: the run starts
    neither Playwright nor a browser (it used to start both only to find there was nothing
    to open)."""
    pytester.makeconftest("""
import pytest
@pytest.fixture(scope="session")
def playwright():  # pytest-playwright's, which every browser and context fixture asks for
    raise AssertionError("Playwright was started")
""")
    pytester.makefile(
        ".req.yaml",
        plans="""
requirements:
  - {req_id: R-RELATIVE, url: /, steps: ["Username | fill | ada"]}
  - {req_id: R-NOTHING, url: "http://127.0.0.1:9/", steps: ["| wait | | title_contains:x"]}
""",
    )
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider", "--pacts-dry-run")
    result.assert_outcomes(passed=2)
    lines = _pacts_lines(result)
    assert (
        "pacts:   plans.req.yaml:2:5: R-RELATIVE: the url '/' is relative and no --base-url is "
        "set; discovery waits until the test runs" in lines
    )
    assert lines[-1] == (
        "pacts: discovery: 2 requirement(s) discovered (0 step locator(s) verified), 0 cached; "
        "no browser used"
    )
