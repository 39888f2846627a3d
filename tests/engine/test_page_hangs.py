"""A page whose main thread hangs fails the step as ``env_fault`` ``page_unresponsive`` within
the step timeout plus a small margin, instead of stopping the run forever
(``runtime/bounded.py``)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models.outcome import RcaClass, RunRecord
from pytest_pacts.runtime import bounded
from tests.hostile_pages import BLOCK_MAIN_THREAD

from .helpers import Site, plan, run

STEP_MS = 2_000
OPTS = EngineOptions(step_timeout_ms=STEP_MS, settle_timeout_ms=300, navigation_timeout_ms=8_000)
# the step's own timeout, the margin of the bounded call, the probe's margin, and slack
# for a loaded machine
LIMIT_S = (STEP_MS + 2 * bounded.MARGIN_MS) / 1000 + 4


@pytest.fixture
def fresh(engine_browser: Browser, site: Site) -> Iterator[Page]:
    from .conftest import open_tab

    page = open_tab(engine_browser, site)
    yield page
    page.context.close()  # closing a context a deadline already closed is a no-op


def _unresponsive(record: RunRecord) -> str:
    assert record.verdict == "fail"
    assert record.rca.rca_class is RcaClass.ENV_FAULT, record.rca
    assert bounded.MESSAGE in record.rca.message, record.rca
    step = record.failed_step
    if step is None:  # the hang escaped a stage (e.g. the readiness wait): a failed start
        return " | ".join(record.rca.evidence)
    assert step.failure is not None
    assert step.failure.cause == "page_unresponsive", step.failure
    assert step.failure.message.startswith(bounded.MESSAGE), step.failure.message
    return " | ".join((*step.failure.evidence, *record.rca.evidence))


def test_a_click_handler_that_hangs(fresh: Page, site: Site) -> None:
    url = site.add(
        "hang-click",
        "<button onclick='while (true) {}'>Go</button><p>Done</p>",
    )
    p = plan(url, ("click", "Go", "", "text_visible:Done"), ("click", "Go"))
    started = time.monotonic()
    record = run(fresh, p, options=OPTS, healer=HealingLadder())
    took = time.monotonic() - started
    evidence = _unresponsive(record)
    assert "got no answer within" in evidence, evidence
    assert took < LIMIT_S, took
    assert [s.status for s in record.steps] == ["failed", "not_run"]
    assert fresh.is_closed()


def test_a_page_that_hangs_after_the_first_action_heals_nothing(fresh: Page, site: Site) -> None:
    """The first click starts a hang a moment later; the second step's element is not on the
    page, so its discovery and the healing ladder's in-page calls meet the hung page."""
    url = site.add(
        "hang-later",
        "<button onclick='setTimeout(() => { while (true) {} }, 50)'>Start</button>",
    )
    p = plan(url, ("click", "Start"), ("click", "Missing button"))
    started = time.monotonic()
    record = run(fresh, p, options=OPTS, healer=HealingLadder())
    took = time.monotonic() - started
    assert "got no answer within" in _unresponsive(record)
    assert record.steps[1].status in ("failed", "not_run")
    assert took < LIMIT_S + STEP_MS / 1000, took


def test_a_bounded_call_costs_no_round_trip_and_passes_answers_through(
    fresh: Page, site: Site
) -> None:
    fresh.goto(site.add("calm", "<p>calm</p>"))
    with bounded.budget(1_000):
        assert bounded.call(fresh, "adding", fresh.evaluate, "1 + 1") == 2
    assert bounded.hang_of(fresh) is None and not fresh.is_closed()


def test_calls_sent_ahead_answer_in_any_order_and_can_be_dropped(fresh: Page, site: Site) -> None:
    fresh.goto(site.add("sent", "<p>one</p><p>two</p><b>three</b>"))
    paragraphs = bounded.send(fresh.locator("p"), "counting p", "(els) => els.length")
    bold = bounded.send(fresh.locator("b"), "reading b", "(els, x) => els[0].textContent + x", "!")
    dropped = bounded.send(fresh.locator("p"), "never read", "(els) => els.length")
    dropped.drop()
    assert fresh.evaluate("1 + 1") == 2  # a call made meanwhile
    assert bold.result() == "three!"
    assert paragraphs.result() == 2
    assert paragraphs.result() == 2  # read twice: the same answer
    marker = bounded.send(
        fresh.locator("p"), "missing", "() => 'absent'", again=("absent", lambda: "asked again")
    )
    assert marker.result() == "asked again"
    with pytest.raises(PlaywrightError, match="boom"):
        bounded.send(fresh.locator("p"), "throwing", "() => { throw new Error('boom'); }").result()


def test_a_call_sent_ahead_to_a_hung_page_is_bounded_when_read(fresh: Page, site: Site) -> None:
    fresh.goto(site.add("sent-hang", "<p>calm</p>"))
    fresh.evaluate(BLOCK_MAIN_THREAD)
    time.sleep(0.1)
    sent = bounded.send(fresh.locator("p"), "counting", "(els) => els.length")
    started = time.monotonic()
    with bounded.budget(500), pytest.raises(bounded.PageUnresponsive, match="stopped responding"):
        sent.result()
    assert time.monotonic() - started < 0.5 + bounded.MARGIN_MS / 1000 + 2
    assert fresh.is_closed()


def test_a_hang_in_a_bare_evaluate_closes_the_context(fresh: Page, site: Site) -> None:
    fresh.goto(site.add("calm2", "<p>calm</p>"))
    fresh.evaluate(BLOCK_MAIN_THREAD)
    time.sleep(0.1)
    started = time.monotonic()
    with bounded.budget(500), pytest.raises(bounded.PageUnresponsive, match="stopped responding"):
        bounded.call(fresh, "reading", fresh.evaluate, "1")
    assert time.monotonic() - started < 0.5 + bounded.MARGIN_MS / 1000 + 2
    hang = bounded.hang_of(fresh)
    assert hang is not None and hang.call == "reading"
    assert fresh.is_closed()


def test_an_answer_due_with_the_deadline_keeps_the_page_open(fresh: Page, site: Site) -> None:
    """The test process itself starved of CPU past a call's deadline (two Chromiums and
    their pytest workers on two cores): when it runs again, the page's answer and the
    deadline are due in the same turn of the loop. That is an answer: the page stays open.
    (Seen in CI: the page was closed, and the next check failed with "the browser page
    crashed or was closed".) The call is sent only when the process runs again, and its
    answer takes 200 ms, as one round trip did on a loaded 2-core CI machine: it is still
    an answer (the grace was 50 ms, and that closed a calm page)."""
    fresh.goto(site.add("starved", "<p>calm</p>"))

    def starved_then_asked() -> object:
        time.sleep((500 + bounded.MARGIN_MS) / 1000 + 0.2)  # Playwright's loop does not run
        return fresh.evaluate("new Promise((answer) => setTimeout(() => answer(1), 200))")

    with bounded.budget(500):
        assert bounded.call(fresh, "reading", starved_then_asked) == 1
    time.sleep(bounded.GRACE_S * 2)
    assert fresh.evaluate("2") == 2
    assert not fresh.is_closed() and bounded.hang_of(fresh) is None


def test_a_short_cap_of_its_own_keeps_the_steps_patience(fresh: Page, site: Site) -> None:
    """A DOM-change wait caps itself at 100 ms in the page, but a page whose main thread is
    busy for 3 s (a document loading on a loaded machine) is slow, not hung: the wait gets
    the step's budget before the page is closed. (It used to be closed after the cap + 2 s.)"""
    from pytest_pacts.engine.waiting import wait_for_change

    fresh.goto(site.add("busy", "<p>busy</p>"))
    fresh.evaluate(
        "setTimeout(() => { const t = Date.now(); while (Date.now() - t < 3000) {} }, 20)"
    )
    time.sleep(0.1)
    with bounded.budget(5_000):
        wait_for_change(fresh)
    assert fresh.evaluate("1") == 1
    assert not fresh.is_closed() and bounded.hang_of(fresh) is None


@pytest.mark.parametrize("stage", ["gate", "repair", "region", "region sent ahead"])
def test_region_and_count_calls_of_gate_and_healing_are_bounded(
    fresh: Page, site: Site, stage: str
) -> None:
    """The gate's region lookup and the healing rungs' counts were plain Playwright calls
    without a deadline: on a hung page they waited forever. Now the deadline closes the page
    (the rung that reads "region gone?" takes the closed page as an answer and goes on)."""
    from types import SimpleNamespace
    from typing import Any, cast

    from pytest_pacts.discovery import check_locator
    from pytest_pacts.engine.healing.region import _region_gone
    from pytest_pacts.engine.healing.repair import RepairRung
    from pytest_pacts.models.locator import Locator, Region, RegionMatch, Strategy
    from pytest_pacts.runtime.healing import count_sent

    fresh.goto(site.add(f"calm-{stage}", "<nav id='bar'><button>Go</button></nav>"))
    region = Region(description="Bar", css="#bar", matched_by=RegionMatch.ID_TOKEN)
    locator = Locator(
        strategy=Strategy.ROLE_NAME, confidence=0.9, role="button", name="Go", region=region
    )
    ctx = cast(Any, SimpleNamespace(page=fresh))
    fresh.evaluate(BLOCK_MAIN_THREAD)
    time.sleep(0.1)
    started = time.monotonic()
    with bounded.budget(500):
        if stage == "gate":
            with pytest.raises(bounded.PageUnresponsive):
                check_locator(fresh, locator, "click")
        elif stage == "repair":
            with pytest.raises(bounded.PageUnresponsive):
                RepairRung()._reveal(ctx, locator)
        elif stage == "region":
            assert _region_gone(ctx, locator, None) is False
        else:
            asked = count_sent(fresh.locator("#bar"), "looking for the region")
            assert _region_gone(ctx, locator, asked) is False
    assert time.monotonic() - started < 0.5 + bounded.MARGIN_MS / 1000 + 3
    assert bounded.hang_of(fresh) is not None and fresh.is_closed()


def test_a_page_a_deadline_closed_is_reported_as_unresponsive_not_crashed(
    fresh: Page, site: Site
) -> None:
    """A call that takes a closed page as an answer (a trace's document hash, "is the region
    gone?") may have been the one whose deadline closed it: the next call then finds the page
    closed. The failure says the page stopped responding, with the call that waited, and
    keeps the closed page as the symptom (it used to say "the browser page crashed or was
    closed"). Here the next call is the run's opening navigation."""
    url = site.add("closed-by-hang", "<button>Go</button>")
    fresh.goto(url)
    fresh.evaluate(BLOCK_MAIN_THREAD)
    time.sleep(0.1)
    with bounded.budget(500), pytest.raises(bounded.PageUnresponsive):
        bounded.call(fresh, "hashing the document", fresh.evaluate, "1")
    record = run(fresh, plan(url, ("click", "Go")), options=OPTS)
    evidence = _unresponsive(record)  # the opening navigation is the run's first call
    assert "hashing the document got no answer within" in evidence, evidence
    assert "symptom: " in evidence and "closed" in evidence, evidence
