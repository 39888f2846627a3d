"""Auth profiles without a browser: the file's errors, the login plan, the private folder,
``pacts auth list`` / ``clear`` (the browser side is tests/pytest_plugin/test_auth_profiles.py)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page

from pytest_pacts.auth import AuthConfigError, AuthFailed, SessionMeta, Sessions, Vault
from pytest_pacts.auth import load_profiles as load
from pytest_pacts.models import Plan
from pytest_pacts.models.outcome import RcaClass, RunRecord
from pytest_pacts.planner import LoaderOptions, load_file

AUTH = """\
profiles:
  shopper:
    url: /
    steps:
      - "Username | fill | {{vars.user}}"
      - "Password | fill | {{vars.password}}"
      - "Login | click | | navigates_to:Products"
    vars: {password: "{{env.SHOP_PASSWORD}}"}
    accounts: [{user: ada}, {user: grace}]
    max_age: 30m
  admin:
    login: login.req.yaml::REQ-LOGIN
"""

LOGIN = """\
requirements:
  - req_id: REQ-LOGIN
    url: /admin/
    steps: ["Username | fill | {{vars.user}}", "Log in | click"]
    vars: {user: root}
"""


def test_profiles_become_login_plans_with_secrets_kept_as_templates(tmp_path: Path) -> None:
    (tmp_path / "pacts-auth.yaml").write_text(AUTH)
    (tmp_path / "login.req.yaml").write_text(LOGIN)
    config = load(tmp_path / "pacts-auth.yaml")
    shopper = config.profile("shopper")
    assert shopper.max_age == 1800 and [a.values["user"] for a in shopper.accounts] == [
        "ada",
        "grace",
    ]
    assert shopper.account(0).number == 1 and shopper.account(3).number == 2  # round the list
    options = LoaderOptions(env={"SHOP_PASSWORD": "pw-1"})
    plan = config.login_plan(shopper, shopper.account(1), options)
    assert plan.req_id == "AUTH-shopper" and plan.requirement.vars["user"] == "grace"
    assert "password" in plan.secret_vars
    assert plan.steps[1].value == "{{vars.password}}"  # resolved only when typed
    rotated = config.login_plan(
        shopper, shopper.account(1), LoaderOptions(env={"SHOP_PASSWORD": "x"})
    )
    assert rotated.plan_hash == plan.plan_hash  # a new password keeps the cached locators
    admin = config.profile("admin")
    referenced = config.login_plan(admin, admin.account(0), LoaderOptions(env={}))
    assert referenced.req_id == "REQ-LOGIN" and referenced.requirement.url == "/admin/"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "profiles:\n  a:\n    url: /\n    step: ['x | click']\n",
            "unknown key 'step' (did you mean 'steps'?)",
        ),
        ("profiles:\n  a:\n    url: /\n", "profile 'a' has no login flow"),
        ("profiles:\n  a:\n    login: x.yaml::R\n    max_age: soon\n", "max_age 'soon'"),
        ("profiles:\n  a:\n    login: x.yaml\n", "expected FILE::REQ-ID"),
        ("profiles: {}\n", "declares no profiles"),
    ],
)
def test_a_wrong_auth_file_names_its_line(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "pacts-auth.yaml").write_text(text)
    with pytest.raises(AuthConfigError) as info:
        load(tmp_path / "pacts-auth.yaml", "pacts-auth.yaml")
    assert message in str(info.value) and "pacts-auth.yaml:" in str(info.value)


def test_an_unknown_profile_fails_the_requirement_naming_it(tmp_path: Path) -> None:
    (tmp_path / "pacts-auth.yaml").write_text(AUTH)
    (tmp_path / "r.req.yaml").write_text(
        "requirements:\n  - {req_id: R, url: /, auth: shoper, steps: ['Go | click']}\n"
    )
    (plan,) = load_file(tmp_path / "r.req.yaml", display="r.req.yaml").plans
    sessions = Sessions(load(tmp_path / "pacts-auth.yaml"), Vault(tmp_path / "v"), run=_no_run)
    with pytest.raises(AuthFailed) as info:
        sessions.storage_state(plan.requirement, None)
    assert "r.req.yaml:2" in info.value.text and "did you mean 'shopper'?" in info.value.text
    assert info.value.rca is RcaClass.DATA_ISSUE


def _no_run(plan: Plan, page: Page, verify: bool) -> RunRecord:
    raise AssertionError("no login expected")


def test_the_vault_is_private_and_clears(tmp_path: Path) -> None:
    root = tmp_path / ".pacts" / "auth"
    root.mkdir(parents=True, mode=0o755)
    vault = Vault(root)
    meta = SessionMeta("shopper", 1, "http://127.0.0.1:1", 1.0, "run-1")
    path = vault.save("shopper.1.x", {"cookies": [{"name": "sid", "value": "v"}]}, meta)
    vault.save("admin.1.x", {"cookies": []}, SessionMeta("admin", 1, "", 1.0))
    assert stat.S_IMODE(root.stat().st_mode) == 0o700  # made private though it existed
    assert {stat.S_IMODE(p.stat().st_mode) for p in root.iterdir()} == {0o600}
    assert json.loads(path.read_text())["cookies"][0]["value"] == "v"
    assert vault.claim_report("shopper.1.x", "run-1") and not vault.claim_report(
        "shopper.1.x", "run-1"
    )
    assert [k for k, _ in vault.entries()] == ["admin.1.x", "shopper.1.x"]
    listed = subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", "auth", "list", "--dir", str(root)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    assert "2 saved session(s)" in listed.stdout and "shopper" in listed.stdout
    assert '"v"' not in listed.stdout and "sid" not in listed.stdout
    assert vault.clear("admin") == 1 and [k for k, _ in vault.entries()] == ["shopper.1.x"]
    cleared = subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", "auth", "clear", "--dir", str(root)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert cleared.returncode == 0 and "1 saved session(s) deleted" in cleared.stdout
    assert list(root.iterdir()) == []
