"""The application layer concludes a run, whoever started it (``application.finish_run``):
the plain test of a passing run is written into the run's ``generate_dir`` (what the pytest
layer's report hook used to do), a failing run writes none, and a run without a folder
writes nothing. Real runs of the sample login requirement against the bundled demo app,
with a real SQLite store; no pytest session involved."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from pytest_pacts.application import finish_run, prepare_run, run_settings
from pytest_pacts.demo_app import DemoServer
from pytest_pacts.engine.api import run_requirement
from pytest_pacts.models import Plan, SourceRef
from pytest_pacts.planner import LoaderOptions, load_file
from pytest_pacts.planner.inline import inline_plan, inline_step
from pytest_pacts.planner.loader import load_blocks_file
from pytest_pacts.settings import PactsSettings
from pytest_pacts.store import open_store

SAMPLES = Path(__file__).resolve().parents[2] / "sample_requirements"


def _plan(req_id: str) -> Plan:
    blocks = load_blocks_file(SAMPLES / "blocks" / "common.blocks.yaml", LoaderOptions(env={}))
    plans = load_file(SAMPLES / "login.xlsx", LoaderOptions(env={}, shared_blocks=blocks)).plans
    return next(p for p in plans if p.req_id == req_id)


def _finish(
    browser: Browser, server: DemoServer, tmp_path: Path, plan: Plan, generate: Path | None
) -> tuple[str, str | None, tuple[str, ...]]:
    settings = PactsSettings(step_timeout=8.0, base_url=server.url)
    with open_store(str(tmp_path / "pacts.db")) as store:
        prepared = prepare_run(store, plan, run_settings(settings, env={}, generate_dir=generate))
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        try:
            record = run_requirement(plan, context.new_page(), prepared.runtime)
        finally:
            context.close()
        done = finish_run(prepared, record)
    return done.record.verdict, done.generated, done.accepted


def test_a_passing_run_writes_its_plain_test_as_it_concludes(
    engine_browser: Browser, demo_v1: DemoServer, tmp_path: Path
) -> None:
    plan = _plan("REQ-LOGIN-001")
    out = tmp_path / "generated"
    verdict, generated, accepted = _finish(engine_browser, demo_v1, tmp_path, plan, out)
    assert verdict == "pass"
    assert generated == str(out / "test_req_login_001.py")
    text = Path(generated).read_text(encoding="utf-8")
    assert "def test_req_login_001" in text and "get_by_" in text
    assert accepted == ()  # pacts_accept_heals = none

    # without a folder (no --pacts-generate, or the pacts fixture's steps) nothing is written
    again = tmp_path / "again"
    again.mkdir()
    _verdict, generated, _ = _finish(engine_browser, demo_v1, again, plan, None)
    assert generated is None
    assert not list(again.rglob("test_*.py"))


def test_a_failing_run_writes_no_test(
    engine_browser: Browser, demo_v1: DemoServer, tmp_path: Path
) -> None:
    # Login without credentials: the demo stays on the login page, the expectation fails
    source = SourceRef(path="inline", line=1)
    step = inline_step(0, "Login@LoginForm", "click", None, "navigates_to:Products", "abort",
                       source, env={})  # fmt: skip
    plan = inline_plan("REQ-NO-CREDENTIALS", "/", (step,), source)
    out = tmp_path / "generated"
    verdict, generated, _ = _finish(engine_browser, demo_v1, tmp_path, plan, out)
    assert verdict == "fail"
    assert generated is None
    assert not out.exists() or not list(out.iterdir())
