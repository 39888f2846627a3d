"""Similarity scores only a settled page, observed rather than waited for: loaded, no request
the page waits on in flight, and no DOM change for two animation frames (counted in the page
from the moment healing's script arrives). No timings are asserted: the tests count the
timer ticks the page spent waiting and the network checks made."""

from __future__ import annotations

from dataclasses import replace

from playwright.sync_api import Page

from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.engine.healing.scoring import settle
from pytest_pacts.engine.healing.similarity import SimilarityRung
from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.runtime.healing import call_in_frame

from .helpers import discovered, failing_context

STILL = "<h1>Orders</h1><button id='go'>Go</button><button id='back'>Back</button>"

# Counts the short timers the page sets from now on: the in-page wait polls on one (the
# long safety timer of an animation-frame wait is not counted).
COUNT_TIMERS = """() => { window.__timers = 0; const real = window.setTimeout;
    window.setTimeout = (fn, ms, ...rest) => {
        if ((ms || 0) < 1000) window.__timers += 1; return real(fn, ms, ...rest); }; }"""
FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def test_a_page_still_since_healing_arrived_is_settled_at_once(tab: Page) -> None:
    tab.set_content(STILL)
    call_in_frame(tab.main_frame, "settled", {"timeout_ms": 0})  # healing arrives
    tab.evaluate(FRAMES)
    tab.evaluate(FRAMES)  # the page stays still for more than two frames
    tab.evaluate(COUNT_TIMERS)
    assert settle(tab, 2_000)
    # before: the DOM had to stay quiet for another 100 ms, polled every 25 ms; now one
    # animation frame is let through and the page is seen still
    assert tab.evaluate("window.__timers") == 0


def test_a_page_that_keeps_changing_is_waited_for_until_it_stops(tab: Page) -> None:
    tab.set_content(STILL + "<p id='out'></p>")
    call_in_frame(tab.main_frame, "settled", {"timeout_ms": 0})
    tab.evaluate("""() => { window.__n = 0; const tick = () => {
        window.__n += 1; document.getElementById('out').textContent = 'frame ' + window.__n;
        if (window.__n < 20) requestAnimationFrame(tick); }; requestAnimationFrame(tick); }""")
    assert settle(tab, 5_000)
    assert tab.evaluate("window.__n") == 20  # not before the last change


def test_a_page_waiting_on_a_request_is_never_settled(tab: Page) -> None:
    tab.set_content(STILL)
    asked: list[bool] = []

    def busy() -> bool:
        asked.append(True)
        return True

    assert not settle(tab, 300, busy)
    assert len(asked) >= 2  # asked again while it waited, not once and given up
    answers = iter([True, True, False])
    assert settle(tab, 2_000, lambda: next(answers, False))


def test_no_similarity_heal_while_a_request_is_in_flight(tab: Page) -> None:
    tab.set_content(STILL)
    plan, state = discovered(tab, "Go")
    tab.evaluate("() => { document.getElementById('go').id = 'went'; }")
    gone = Locator(strategy=Strategy.CSS, css="#go", confidence=0.7)
    ctx = failing_context(tab, plan, state, locator=gone,
                          options=EngineOptions(settle_timeout_ms=300))  # fmt: skip
    result = SimilarityRung().attempt(replace(ctx, busy=lambda: True))
    assert result is not None and not result.accepted
    assert "did not settle" in result.reason
    # the same page once nothing is in flight: healed
    healed = SimilarityRung().attempt(replace(ctx, busy=lambda: False))
    assert healed is not None and healed.accepted, healed and healed.reason


def test_a_page_that_gets_no_animation_frame_is_not_taken_for_settled(tab: Page) -> None:
    # a starved renderer: no animation frame comes, a timer stands in for each; that saw
    # nothing, so it is no quiet frame (as the gate's check counts them)
    tab.set_content(STILL)
    tab.evaluate("() => { window.requestAnimationFrame = () => 0; }")
    call_in_frame(tab.main_frame, "settled", {"timeout_ms": 0})
    # before: two stand-in timers (2 s each) counted as two quiet frames
    assert not settle(tab, 6_000)
