"""Every sample requirement runs green against demo v1 through ``run_requirement``, with the
find-first discovery of a cold run, and again from the POM it cached (SPEC.md §2.1: a
requirement that passed once passes again with no discovery)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from pytest_pacts.demo_app import DemoServer
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.models import Plan
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.outcome import RunRecord
from pytest_pacts.planner import LoaderOptions, load_file
from pytest_pacts.planner.loader import load_blocks_file

from .helpers import run

SAMPLES = Path(__file__).resolve().parents[2] / "sample_requirements"


def _plans() -> list[Plan]:
    options = LoaderOptions(env={})
    blocks = load_blocks_file(SAMPLES / "blocks" / "common.blocks.yaml", options)
    shared = LoaderOptions(env={}, shared_blocks=blocks)
    files = sorted(SAMPLES.glob("*.xlsx")) + sorted(SAMPLES.glob("*.req.*"))
    return [plan for f in files for plan in load_file(f, shared).plans]


PLANS = _plans()
OPTIONS = EngineOptions(step_timeout_ms=8_000, navigation_timeout_ms=15_000)


def test_every_sample_file_is_covered() -> None:
    assert len(PLANS) >= 6


@pytest.mark.parametrize("plan", PLANS, ids=lambda p: p.req_id)
def test_sample_runs_green_on_demo_v1(
    engine_browser: Browser, demo_v1: DemoServer, plan: Plan
) -> None:
    pom: dict[int, DiscoveryResult] = {}
    record = _run(engine_browser, demo_v1, plan, pom)
    failed = record.failed_step
    assert record.verdict == "pass", failed and failed.failure
    assert all(s.status == "passed" for s in record.steps)
    targets = {s.index for s in plan.steps if s.target is not None}
    assert targets <= set(pom), "every element step was discovered and handed to the cache"


def test_a_warm_run_discovers_nothing(engine_browser: Browser, demo_v1: DemoServer) -> None:
    plan = next(p for p in PLANS if p.req_id == "REQ-LOGIN-001")
    pom: dict[int, DiscoveryResult] = {}
    _run(engine_browser, demo_v1, plan, pom)
    fresh: dict[int, DiscoveryResult] = {}
    record = _run(engine_browser, demo_v1, plan, fresh, cached=pom)
    assert record.verdict == "pass"
    assert fresh == {}, "every locator came from the cached POM"
    assert [s.locator for s in record.steps] == [pom[s.index].locator for s in record.steps]


def _run(
    browser: Browser,
    server: DemoServer,
    plan: Plan,
    found: dict[int, DiscoveryResult],
    cached: dict[int, DiscoveryResult] | None = None,
) -> RunRecord:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        return run(
            context.new_page(), plan, base_url=server.url, options=OPTIONS,
            pom=dict(cached or {}), on_discovered=found.__setitem__,
        )  # fmt: skip
    finally:
        context.close()
