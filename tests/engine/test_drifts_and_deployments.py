"""One drift, one proposal; several verified locators per element, one per deployment.

Real runs through the application layer (``prepare_run`` → ``run_requirement`` →
``conclude_run``) of the sample login requirements against the bundled demo app, release
v1 then release v2 (ids renamed, texts reworded), with a real SQLite store: the same drift
healed by two requirements and by two runs is one proposal with its occurrences; accepting
it patches both recipes. Then two deployments in use at once (v1 and v2 at two base URLs),
run in turn after the heals were accepted: neither heals again, no recipe version is
written, and the locator verified on v1 stays in the recipe (the primary, when the healed
one is weaker).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from pytest_pacts.application import RunSettings, conclude_run, prepare_run
from pytest_pacts.demo_app import DemoServer
from pytest_pacts.engine.api import run_requirement
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.governance import locator_strength, review
from pytest_pacts.governance.drift import same
from pytest_pacts.governance.recipes import recipe_of
from pytest_pacts.models import Plan
from pytest_pacts.models.outcome import RunRecord
from pytest_pacts.planner import LoaderOptions, load_file
from pytest_pacts.planner.loader import load_blocks_file
from pytest_pacts.store import Store, open_store

SAMPLES = Path(__file__).resolve().parents[2] / "sample_requirements"
OPTIONS = EngineOptions(step_timeout_ms=8_000, navigation_timeout_ms=15_000)


def _login_plans() -> dict[str, Plan]:
    blocks = load_blocks_file(SAMPLES / "blocks" / "common.blocks.yaml", LoaderOptions(env={}))
    plans = load_file(SAMPLES / "login.xlsx", LoaderOptions(env={}, shared_blocks=blocks)).plans
    return {p.req_id: p for p in plans}


PLANS = _login_plans()
# Both sign in through Username, Password and Login@LoginForm, which release v2 renames.
BOTH = (PLANS["REQ-LOGIN-001"], PLANS["REQ-LOGIN-002"])


@pytest.fixture(scope="module")
def demo_v2() -> Iterator[DemoServer]:
    server = DemoServer("v2").start()
    yield server
    server.stop()


def _run(
    browser: Browser,
    store: Store,
    plan: Plan,
    server: DemoServer,
    options: EngineOptions = OPTIONS,
) -> RunRecord:
    prepared = prepare_run(store, plan, RunSettings(options=options, base_url=server.url, env={}))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        record = run_requirement(plan, context.new_page(), prepared.runtime)
    finally:
        context.close()
    conclude_run(prepared, record)
    return record


def _accept_all(store: Store) -> None:
    for record in store.proposals.query(status="pending"):
        review.accept(store, record.id, by="test", approved_major=False)


def test_the_same_drift_in_two_requirements_and_two_runs_is_one_proposal(
    engine_browser: Browser, demo_v1: DemoServer, demo_v2: DemoServer, tmp_path: Path
) -> None:
    shots = EngineOptions(
        step_timeout_ms=8_000, navigation_timeout_ms=15_000, artifacts_dir=str(tmp_path / "shots")
    )
    with open_store(tmp_path / "pacts.db") as store:
        for plan in BOTH:
            assert _run(engine_browser, store, plan, demo_v1).verdict == "pass"
        first = [_run(engine_browser, store, plan, demo_v2, shots) for plan in BOTH]
        assert all(r.healed for r in first), [r.rca.message for r in first]
        proposals = store.proposals.query()
        # one proposal per drift: no two share the page, the element and the new locator
        keys = [p.drift_key for p in proposals]
        assert None not in keys and len(set(keys)) == len(keys)
        heals = sum(r.heal_count for r in first)
        assert len(proposals) < heals, "two requirements heal the same sign-in drifts"
        shared = {
            p.element_key
            for p in proposals
            if {o.req_id for o in store.proposals.occurrences(p.id)} == set(PLANS) & {
                "REQ-LOGIN-001", "REQ-LOGIN-002"
            }
        }  # fmt: skip
        assert {"Username@LoginForm", "Password@LoginForm"} <= shared
        # the page is where the element was healed, before the click navigated away
        pages = {p.element_key: p.page for p in proposals}
        assert pages["Username@LoginForm"] == pages["Login@LoginForm"] == "/"
        # every heal of the run names its drift's proposal, except a heal to a locator the
        # recipe already holds (a fallback): accepting it would change nothing
        named = {h.proposal_id for r in first for s in r.steps for h in s.heals if h.accepted}
        assert named - {None} == {str(p.id) for p in proposals}

        # the next run heals the same drifts again: occurrences, not proposals
        before = {p.id: len(store.proposals.occurrences(p.id)) for p in proposals}
        again = _run(engine_browser, store, BOTH[0], demo_v2, shots)
        assert again.healed
        after = store.proposals.query()
        assert [p.id for p in after] == [p.id for p in proposals]
        grown = [p.id for p in after if len(store.proposals.occurrences(p.id)) > before[p.id]]
        assert grown, "the second run's heals were added to the existing proposals"
        last = store.proposals.occurrences(grown[0])[-1]
        assert last.deployment == demo_v2.url.rstrip("/") and last.req_id == "REQ-LOGIN-001"
        assert last.evidence and all(Path(str(p)).is_file() for p in last.evidence.values())

        # accepting each drift once patches both requirements; then neither heals on v2
        _accept_all(store)
        for plan in BOTH:
            latest = store.recipes.latest(plan.req_id)
            assert latest is not None and latest.proposal_id is not None
            record = _run(engine_browser, store, plan, demo_v2)
            assert record.verdict == "pass" and not record.healed, record.rca.message
        assert store.proposals.count_by_status()["pending"] == 0


def test_alternating_deployments_neither_bounce_nor_lose_the_strong_locator(
    engine_browser: Browser, demo_v1: DemoServer, demo_v2: DemoServer, tmp_path: Path
) -> None:
    plan = PLANS["REQ-LOGIN-001"]
    with open_store(tmp_path / "pacts.db") as store:
        assert _run(engine_browser, store, plan, demo_v1).verdict == "pass"
        v1_recipe = recipe_of(store.recipes.latest(plan.req_id))  # type: ignore[arg-type]
        healed = _run(engine_browser, store, plan, demo_v2)
        assert healed.healed and healed.verdict == "pass", healed.rca.message
        _accept_all(store)
        accepted = store.recipes.latest(plan.req_id)
        assert accepted is not None
        recipe = recipe_of(accepted)

        # every element keeps the locator verified on v1; a weaker heal never displaces it
        for key, entry in v1_recipe.selectors.items():
            now = recipe.selectors[key]
            held = [now.primary, *now.fallbacks]
            assert any(same(entry.primary, h) for h in held), key
            if not same(now.primary, entry.primary):
                assert locator_strength(now.primary) >= locator_strength(entry.primary), key

        # v1 and v2 in turn: each uses the locator verified on it, none heals or proposes
        for server in (demo_v1, demo_v2, demo_v1, demo_v2):
            record = _run(engine_browser, store, plan, server)
            assert record.verdict == "pass" and not record.healed, (server.url, record.rca)
        assert store.recipes.latest(plan.req_id) == accepted, "no version bounced back"
        assert store.proposals.count_by_status()["pending"] == 0
        deployments = {v.deployment for v in store.locators.for_requirement(plan.req_id)}
        assert deployments == {demo_v1.url.rstrip("/"), demo_v2.url.rstrip("/")}
