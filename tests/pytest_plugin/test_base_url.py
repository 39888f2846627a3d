"""The project's base URL from where users put it (issue 14 item 1): the ``base_url`` ini key
(pytest.ini or pyproject.toml) and a ``base_url`` fixture override in a conftest, for a
single requirement run by node id as an IDE does, without pytest-playwright's deprecation
warning in the output."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from pytest_pacts.demo_app import DemoServer

LOGIN = """
req_id: REQ-LOGIN
url: /
steps:
  - Username@LoginForm | fill | standard_user | field_populated
  - Password@LoginForm | fill | secret_sauce | field_populated
  - Login@LoginForm | click | | navigates_to:Products
"""


@pytest.fixture(scope="module")
def demo() -> Iterator[str]:
    with DemoServer("v1") as server:
        yield server.url


def _check(result: pytest.RunResult) -> None:
    result.assert_outcomes(passed=1)
    text = result.stdout.str() + result.stderr.str()
    assert "PytestRemovedIn10Warning" not in text, text
    assert "no base URL is set" not in text


@pytest.mark.parametrize("where", ["pytest.ini", "pyproject.toml"])
def test_base_url_ini_key_serves_collection_and_run(
    pytester: pytest.Pytester, demo: str, where: str
) -> None:
    pytester.makefile(".req.yaml", login=LOGIN)
    if where == "pytest.ini":
        pytester.makeini(f"[pytest]\nbase_url = {demo}\npacts_store = store.db\n")
    else:
        pytester.makepyprojecttoml(
            f'[tool.pytest.ini_options]\nbase_url = "{demo}"\npacts_store = "store.db"\n'
        )
    result = pytester.runpytest_subprocess("login.req.yaml::REQ-LOGIN", "-q")
    _check(result)
    assert "discovering REQ-LOGIN" in result.stdout.str()  # discovery before the tests ran


def test_base_url_fixture_override_serves_the_run(pytester: pytest.Pytester, demo: str) -> None:
    pytester.makefile(".req.yaml", login=LOGIN)
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    pytester.makeconftest(
        f"""
import pytest

@pytest.fixture(scope="session")
def base_url():
    return {demo!r}
"""
    )
    result = pytester.runpytest_subprocess("login.req.yaml::REQ-LOGIN", "-q")
    _check(result)
    # discovery before the tests is a fixture too: it used the override
    assert re.search(
        r"pacts: discovery: 1 requirement\(s\) discovered \([1-9] step locator", result.stdout.str()
    ), result.stdout.str()
