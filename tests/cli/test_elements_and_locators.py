"""``pacts elements`` (authoring help) and ``pacts locators`` (what the store holds), through
the console script, against the demo app in real Chromium and a real SQLite store."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from pytest_pacts.application import RunSettings, conclude_run, prepare_run
from pytest_pacts.cli.main import main
from pytest_pacts.demo_app import DemoServer
from pytest_pacts.engine.api import run_requirement
from pytest_pacts.planner import LoaderOptions, load_file
from pytest_pacts.store import open_store

LOGIN = """\
req_id: R-LOGIN
url: /
steps:
  - Username | fill | standard_user
  - Password | fill | secret_sauce
  - Login | click | | navigates_to:Products
"""


def pacts(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=170,
    )


def test_elements_of_a_page_as_json_with_the_screenshot(tmp_path: Path) -> None:
    result = pacts(
        "elements", "/widgets.html", "--demo", "v1", "--json", "--screenshot", "w.png",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["url"].endswith("/widgets.html") and report["screenshot"] == "w.png"
    assert (tmp_path / "w.png").read_bytes()[:4] == b"\x89PNG"
    by_text = {e["text"]: e for e in report["elements"]}
    assert by_text["Delete@Draft A"]["group"] == "Draft A"
    assert by_text["Delete@Draft B"]["locator"].startswith("page.")
    assert by_text["Buy milk"]["action"] == "check"
    assert [e["number"] for e in report["elements"]] == list(range(1, len(report["elements"]) + 1))


def test_elements_after_a_login_flow_grouped_by_region(tmp_path: Path) -> None:
    (tmp_path / "login.req.yaml").write_text(LOGIN)
    result = pacts("elements", "--after", "login.req.yaml::R-LOGIN", "--demo", "v1", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].endswith("/inventory.html")
    assert "screenshot: elements-inventory.png" in lines[1]
    assert (tmp_path / "elements-inventory.png").is_file()
    # grouped by the part of the page (here the product list's landmark); each card's
    # button is told apart by the card's title as its region
    at = lines.index("inventory container")
    assert "click   Add to cart@Sauce Labs Backpack" in lines[at + 1]
    assert "click   Add to cart@Sauce Labs Onesie" in lines[at + 5]


def test_elements_usage_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Answered before any browser starts: in this process (the console script is the
    tests' above), where a subprocess cost a fresh interpreter per call."""
    (tmp_path / "login.req.yaml").write_text(LOGIN)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["elements"]) == 2 and "give a URL" in capsys.readouterr().err
    assert main(["elements", "/cart.html", "--no-screenshot"]) == 2
    assert "is relative and no base URL is set" in capsys.readouterr().err
    assert main(["elements", "/", "--until", "2"]) == 2
    assert "--until STEP goes with --after" in capsys.readouterr().err
    assert main(["elements", "--after", "login.req.yaml::R-NOPE", "--demo", "v1"]) == 2
    assert "login.req.yaml has no requirement R-NOPE (it has: R-LOGIN)" in (capsys.readouterr().err)


def _run_on(browser: Browser, store_path: Path, base_url: str, plan_file: Path) -> None:
    """One run as pytest makes it (application layer), so the store holds what it would.
    The browser is the session's (pytest-playwright's ``playwright``): a second sync
    Playwright in this process would fail once that one has started."""
    (plan,) = load_file(plan_file, LoaderOptions()).plans
    with open_store(store_path) as store:
        prepared = prepare_run(store, plan, RunSettings(base_url=base_url))
        context = browser.new_context()
        try:
            record = run_requirement(plan, context.new_page(), prepared.runtime)
        finally:
            context.close()
        assert record.verdict == "pass", record.rca
        conclude_run(prepared, record)


@dataclass(frozen=True)
class Recorded:
    folder: Path
    store: Path
    first: str
    second: str


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory, module_browser: Browser) -> Recorded:
    """A store after R-LOGIN ran twice on one demo deployment and once on another, read by
    both ``pacts locators`` tests (a demo server and a browser run less for the second)."""
    folder = tmp_path_factory.mktemp("locators")
    (folder / "login.req.yaml").write_text(LOGIN)
    store = folder / "pacts.db"
    with DemoServer("v1") as one, DemoServer("v1") as two:
        first, second = one.url.rstrip("/"), two.url.rstrip("/")
        _run_on(module_browser, store, first, folder / "login.req.yaml")
        _run_on(module_browser, store, first, folder / "login.req.yaml")
        _run_on(module_browser, store, second, folder / "login.req.yaml")
    return Recorded(folder, store, first, second)


def test_locators_shows_the_recipe_and_where_each_was_verified(
    recorded: Recorded, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store, first, second = recorded.store, recorded.first, recorded.second
    result = pacts("locators", "R-LOGIN", "--store", str(store), "--json", cwd=recorded.folder)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["recipe"]["version"] == "v001"
    assert [s["element"] for s in report["steps"]] == ["Username", "Password", "Login"]
    primary = report["steps"][0]["locators"][0]
    assert primary["role"] == "primary" and primary["locator"].startswith("page.")
    assert primary["strategy"] == "test_id" and primary["confidence"] == "0.98"
    times = {v["deployment"].rstrip("/"): v["times"] for v in primary["verified"]}
    assert times == {first: 2, second: 1}
    # the text form in this process (the console script is the call above)
    monkeypatch.chdir(recorded.folder)
    capsys.readouterr()
    assert main(["locators", "R-LOGIN", "--store", str(store)]) == 0
    text = capsys.readouterr().out
    assert "step 1: fill Username" in text and "recipe v001" in text
    assert f"{first} x2 (last " in text and f"{second} x1 (last " in text


def test_locators_for_an_unknown_requirement(
    recorded: Recorded, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In this process: the command reads the store only."""
    monkeypatch.chdir(recorded.folder)
    capsys.readouterr()
    assert main(["locators", "R-OTHER", "--store", str(recorded.store)]) == 1
    assert "holds no locators for R-OTHER" in capsys.readouterr().out
    missing = main(["locators", "R-LOGIN", "--store", str(recorded.folder / "none.db")])
    assert missing == 3 and "no store at" in capsys.readouterr().err
