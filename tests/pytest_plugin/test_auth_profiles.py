"""Auth profiles in real Chromium (docs/user-guide.md, "Log in once").

The demo shop is behind a server-side session that the server counts logins of. A project
declares a profile in ``pacts-auth.yaml``; its requirements start signed in on shop pages.
Each pytest run is a subprocess (pytester), as a user runs it.
"""

from __future__ import annotations

import json
import stat
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_pacts.demo_app import DemoServer

BLOCKS = """
blocks:
  SignIn:
    params: [user=standard_user, password]
    steps:
      - "Username@LoginForm | fill | {{params.user}} | field_populated"
      - "Password@LoginForm | fill | {{params.password}} | field_populated"
      - "Login@LoginForm | click | | navigates_to:Products"
requirements: []
"""

AUTH = """
profiles:
  shopper:
    url: /
    steps:
      - "use | SignIn | user={{vars.user}}; password={{vars.password}}"
    vars: {user: standard_user, password: "{{env.SHOP_PASSWORD}}"}
    verify: {url: /inventory.html, expect: "text_visible:Products"}
    max_age: 30m
"""

ROTATING = AUTH.replace(
    "    max_age: 30m\n",
    "    max_age: 30m\n    accounts: [{user: standard_user}, {user: problem_user}]\n",
)

_HEAD = "\nauth: shopper\nrequirements:\n"
# two requirements on two shop pages: enough to show one login serving several requirements
# (each run of the lifecycle tests below is a whole browser session)
_TWO = """\
  - req_id: R-CART
    url: /inventory.html
    steps: ["Shopping cart | click | | navigates_to:Your Cart"]
  - req_id: R-BACK
    url: /cart.html
    steps: ["Continue Shopping | click | | navigates_to:Products"]
"""
SHOP_TWO = _HEAD + _TWO
SHOP = (
    _HEAD
    + """\
  - req_id: R-ADD
    url: /inventory.html
    steps: ["Add to cart@Sauce Labs Backpack | click | | text_visible:Remove"]
"""
    + _TWO
    + """\
  - req_id: R-SORT
    url: /inventory.html
    steps: ["Sort products | select | Price (low to high) | value:lohi"]
"""
)


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    pytester.makeini("[pytest]\npacts_blocks_files = blocks.yaml\n")
    (pytester.path / "blocks.yaml").write_text(BLOCKS)
    (pytester.path / "pacts-auth.yaml").write_text(AUTH)
    (pytester.path / "shop.req.yaml").write_text(SHOP)
    monkeypatch.setenv("SHOP_PASSWORD", "secret_sauce")
    return pytester


def _run(project: pytest.Pytester, app: DemoServer, *args: str) -> pytest.RunResult:
    return project.runpytest_subprocess(
        "shop.req.yaml", "-p", "no:cacheprovider", "--base-url", app.url, "-rA", *args
    )


def _junit_rca(path: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        found[str(case.get("name"))] = str(props.get("pacts_rca_class"))
    return found


def test_a_failed_login_then_one_login_for_every_requirement_reused_expired_and_refreshed(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One project's runs in turn (each run is a whole browser session, so the failed login
    and the lifecycle after it share the project: the run that logs in after the failure
    is the lifecycle's cold start; a session the app ends during a requirement's test is
    renewed in the run whose verify fails, and the one that ends again at once is the last
    run)."""
    auth = project.path / ".pacts" / "auth"
    (project.path / "shop.req.yaml").write_text(SHOP_TWO)
    with DemoServer("v1") as app:
        # 0. a failed login is reported once with its root cause
        monkeypatch.setenv("SHOP_PASSWORD", "not-the-password")
        # the login's last step waits out its step timeout: 3 s instead of the default 10
        failed = _run(
            project, app, "--junitxml=junit.xml", "--pacts-discover=off", "--pacts-step-timeout=3"
        )
        assert app.logins == []
        _assert_failed_login(project, failed)
        # 1. the next run tries again (a fixed password logs in), cold: discovery at
        # collection logs in once, behind the login, for both
        monkeypatch.setenv("SHOP_PASSWORD", "secret_sauce")
        first = _run(project, app)
        first.assert_outcomes(passed=2)
        out = first.stdout.str()
        assert app.logins == ["standard_user"]
        assert "auth profile 'shopper': logging in (no saved session)" in out
        # discovered on the shop pages, not on the login page they redirect to
        assert "discovery: 2 requirement(s) discovered (2 step locator(s) verified)" in out
        # 2. the next run reuses the saved session once its verify check passes
        _run(project, app).assert_outcomes(passed=2)
        assert app.logins == ["standard_user"]
        # 3. a session older than max_age logs in again
        (meta_path,) = auth.glob("*.meta.json")
        meta = json.loads(meta_path.read_text())
        meta["created"] -= 2 * 3600
        meta_path.write_text(json.dumps(meta))
        third = _run(project, app)
        third.assert_outcomes(passed=2)
        assert "over max_age" in third.stdout.str()
        assert app.logins == ["standard_user"] * 2
        # 4. the server ended every session: verify fails, the login runs once more; beside
        # the two, a requirement whose session the app ends during its test (EXPIRING) logs
        # in once more too (test_a_session_that_expires_mid_run_..., below)
        app.end_sessions()
        project.makeconftest(EXPIRING)
        (project.path / "expire.req.yaml").write_text(EXPIRE)
        monkeypatch.setenv("APP_URL", app.url)
        fourth = _run(project, app, "expire.req.yaml")
        fourth.assert_outcomes(passed=3)
        out = fourth.stdout.str()
        assert "did not pass verify" in out
        _assert_renewed_mid_run(fourth)
        # the login after the failed verify, and the one after R-EXPIRE's session ended
        assert app.logins == ["standard_user"] * 4
        # 5. the session ends again at once after that login: R-EXPIRE fails, logged in once
        gone = _assert_expired_again(project, app, monkeypatch)
        assert app.logins == ["standard_user"] * 5  # verify failed, so one login; no second
    # saved sessions are private, and their values are nowhere else
    assert stat.S_IMODE(auth.stat().st_mode) == 0o700
    (state_path,) = auth.glob("*.state.json")
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in auth.glob("*.json"))
    values = [c["value"] for c in json.loads(state_path.read_text())["cookies"]]
    assert values and all(len(v) >= 20 for v in values)
    for path in project.path.rglob("*"):
        if not path.is_file() or path.parent == auth or path.suffix in (".db-wal", ".db-shm"):
            continue
        data = path.read_bytes()
        assert not any(v.encode() in data for v in values), f"a session value leaked into {path}"
    for result in (first, third, fourth, gone):
        assert not any(v in result.stdout.str() + result.stderr.str() for v in values)


def _assert_failed_login(project: pytest.Pytester, result: pytest.RunResult) -> None:
    """A failed login is reported once with its root cause."""
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    assert out.count("the login failed, so no requirement of this profile") == 1
    assert out.count("the login failed earlier in this run") == 1
    assert "Username and password do not match" in out
    assert "not-the-password" not in out
    assert set(_junit_rca(project.path / "junit.xml").values()) == {"data_issue"}
    assert "selector_drift" not in out
    # one root cause on every line: the login's own, the page's refusal quoted (issue 39)
    assert "root cause: data_issue" in out and "assertion_mismatch" not in out
    assert 'the page refused the input, saying "Epic sadface: Username and password' in out


def test_accounts_rotate_across_xdist_workers(project: pytest.Pytester) -> None:
    """Two workers, two accounts: each worker logs in with its own account, once; an app
    that ends a user's older session at a new login does not log the other worker out."""
    (project.path / "pacts-auth.yaml").write_text(ROTATING)
    with DemoServer("v1", single_session=True) as app:
        result = _run(project, app, "-n", "2", "--pacts-discover=off")
        result.assert_outcomes(passed=4)
        assert sorted(app.logins) == ["problem_user", "standard_user"]


# The project's hook signs the session out (the server's own logout, as an administrator or
# a session lifetime would end it) when the test's context of R-EXPIRE is made, after the
# context took the saved session; with PACTS_TEST_KEEP_OUT set, the shop page also keeps
# answering with the login page (a session that ends again at once).
EXPIRING = """
import os


def pytest_pacts_configure_context(context, requirement):
    if requirement.req_id != "R-EXPIRE" or "R-EXPIRE" not in os.environ.get("PYTEST_CURRENT_TEST", ""):
        return  # collection-time discovery opens a context too
    base = os.environ["APP_URL"]
    assert context.request.post(base + "/api/logout").ok
    if os.environ.get("PACTS_TEST_KEEP_OUT"):
        context.route(
            "**/inventory.html",
            lambda route: route.fulfill(status=302, headers={"location": "/index.html?expired=1"}),
        )
"""
EXPIRE = (
    _HEAD
    + """\
  - req_id: R-EXPIRE
    url: /inventory.html
    steps: ["Add to cart@Sauce Labs Backpack | click | | text_visible:Remove"]
"""
)


def _assert_renewed_mid_run(result: pytest.RunResult) -> None:
    """A saved session the app ended during the run failed every requirement as
    ``selector_drift``/``data_issue`` with heal advice (8 of 8 in the audit), and nothing
    logged in again. Sessions end server-side on any app with one (an HttpOnly cookie the app
    stops honouring: the demo's, the real apps' of docs/real-apps.md); the profile's verify
    tells it, as it does before reusing a saved session. (The lifecycle's fourth run above:
    one whole browser session for it and for a failed verify, each of which ran its own.)"""
    out = result.stdout.str()
    assert "logging in (the session expired during R-EXPIRE" in out, out


def _assert_expired_again(
    project: pytest.Pytester, app: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> pytest.RunResult:
    """A session that ends again at once after logging in once more fails the requirement
    as ``env_fault``, saying so, with no second login (the caller counts the logins)."""
    monkeypatch.setenv("PACTS_TEST_KEEP_OUT", "1")
    before = len(app.logins)
    gone = project.runpytest_subprocess(
        "expire.req.yaml", "-p", "no:cacheprovider", "--base-url", app.url, "-rA",
        "--junitxml=out/junit2.xml",
    )  # fmt: skip
    gone.assert_outcomes(failed=1)
    out = gone.stdout.str()
    assert "session expired: the saved session of auth profile 'shopper' no longer holds" in (
        out
    ), out
    assert "it expired again after logging in once more" in out
    assert _junit_rca(project.path / "out" / "junit2.xml") == {"R-EXPIRE": "env_fault"}
    assert len(app.logins) == before + 1
    monkeypatch.delenv("PACTS_TEST_KEEP_OUT")
    return gone
