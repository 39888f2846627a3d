"""The abstain rule: no heal rather than the wrong element."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import to_playwright
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.engine.healing import HealingLadder, SimilarityRung, judge
from pytest_pacts.models.evidence import EvidenceRule
from pytest_pacts.models.locator import Locator, Strategy

from .helpers import discovered, failing_context

# its tests change the page itself: a new context per test (tests/tabs.py)
FRESH_CONTEXT = True


@pytest.mark.parametrize(
    ("best", "runner_up", "fits", "anchored", "accepted", "why"),
    [
        (0.9, 0.5, True, True, True, "runner-up 0.50"),
        (0.9, None, True, True, True, "runner-up none"),
        (0.7, None, True, True, False, "below the threshold 0.75"),
        (0.75, None, True, True, True, "at least 0.75"),  # inclusive: docs/api.md "at least"
        (0.9, 0.85, True, True, False, "less than the margin"),
        (0.85, 0.75, True, True, True, "runner-up 0.75"),  # a lead of exactly the margin
        (0.9, 0.5, False, True, False, "does not fit click"),
        (0.9, 0.5, True, False, False, "shares none"),
        (None, None, True, True, False, "no visible element"),
    ],
)
def test_judge(
    best: float | None,
    runner_up: float | None,
    fits: bool,
    anchored: bool,
    accepted: bool,
    why: str,
) -> None:
    verdict = judge(best, runner_up, fits=fits, anchored=anchored, rule=EvidenceRule(),
                    action="click")  # fmt: skip
    assert verdict.accepted is accepted
    assert why in verdict.reason


def test_two_look_alikes_after_drift_abstain_and_nothing_is_clicked(tab: Page) -> None:
    tab.set_content("""<script>window.hits = {real: 0, decoy: 0};</script>
      <div class="actions"><button id="buy" class="btn primary"
        onclick="hits.real++">Buy now</button></div>""")
    plan, state = discovered(tab, "Buy now")
    # drift: the id goes, and a near-identical button appears beside it
    tab.evaluate("""() => { const b = document.querySelector('#buy'); b.removeAttribute('id');
        const d = b.cloneNode(true); d.setAttribute('onclick', 'hits.decoy++'); b.after(d); }""")
    ctx = failing_context(tab, plan, state)
    attempt, result = HealingLadder().heal(ctx)
    assert result is None and not attempt.accepted
    assert "two look-alikes" in attempt.reason
    assert len(attempt.candidates) >= 2
    assert attempt.candidates[0].score - attempt.candidates[1].score < 0.1
    assert tab.evaluate("() => hits") == {"real": 0, "decoy": 0}


def test_an_invisible_exact_match_is_never_chosen(tab: Page) -> None:
    tab.set_content("""<div class="toolbar"><button id="buy" class="btn">Buy now</button></div>""")
    plan, state = discovered(tab, "Buy now")
    # drift: the old button stays in the DOM but hidden; a visible one takes its role
    tab.evaluate("""() => { const old = document.querySelector('#buy');
        old.style.visibility = 'hidden';
        const b = document.createElement('button'); b.id = 'purchase'; b.className = 'btn';
        b.textContent = 'Buy now'; b.dataset.mark = 'visible';
        document.body.prepend(b); }""")
    for ladder, must_heal in ((HealingLadder(rungs=[SimilarityRung()]), False),
                              (HealingLadder(), True)):  # fmt: skip
        ctx = failing_context(tab, plan, state, locator=Locator(strategy=Strategy.CSS,
                              confidence=0.7, css="#buy"), options=EngineOptions(
                              step_timeout_ms=1_000, settle_timeout_ms=500))  # fmt: skip
        attempt, result = ladder.heal(ctx)
        assert all("#buy" not in c.description for c in attempt.candidates)
        if result is None:
            assert not must_heal, attempt.reason
            continue
        assert result.locator is not None
        assert to_playwright(tab, result.locator).get_attribute("data-mark") == "visible"


def test_a_neighbour_that_only_sits_where_the_element_was_is_refused(tab: Page) -> None:
    tab.set_content("""<form id="f"><button id="save" class="btn">Save</button>
        <button id="cancel" class="btn">Cancel</button></form>""")
    plan, state = discovered(tab, "Save")
    tab.evaluate("() => document.querySelector('#save').remove()")
    attempt, result = HealingLadder().heal(failing_context(tab, plan, state))
    assert result is None
    assert "similarity: abstained" in attempt.reason


def test_no_similarity_heal_on_a_page_that_never_settles(tab: Page) -> None:
    # a timer and every animation frame change it: a renderer too loaded to run the timer
    # between two frames still draws no frame without a change
    tab.set_content("""<button id="go" class="btn">Go</button><p id="clock"></p>
        <script>setInterval(() => clock.textContent = Date.now(), 5);
        (function tick(t) { clock.dataset.t = t; requestAnimationFrame(tick); })(0);</script>""")
    plan, state = discovered(tab, "Go")
    tab.evaluate("() => { document.querySelector('#go').id = 'went'; }")
    old = Locator(strategy=Strategy.CSS, confidence=0.7, css="#go")
    ctx = failing_context(tab, plan, state, locator=old,
                          options=EngineOptions(settle_timeout_ms=300))  # fmt: skip
    attempt, result = HealingLadder(rungs=[SimilarityRung()]).heal(ctx)
    assert result is None and "did not settle" in attempt.reason


SIGN_UP = """<form id="signup" class="signup-form">
  <div class="form-row"><label for="password">Password</label>
    <input id="password" name="password" type="password" class="input input--password"
      autocomplete="new-password" placeholder="Password"></div>
  <div class="form-row"><label for="password2">Confirm password</label>
    <input id="password2" name="password2" type="password" class="input input--password"
      autocomplete="new-password" placeholder="Confirm password"></div>
</form>"""


def test_a_removed_field_is_not_healed_to_its_look_alike_neighbour(tab: Page) -> None:
    # "Confirm password" also contains the step's words and shares the type, class and
    # autocomplete of the removed "Password": it was on the page as another element when the
    # step was verified, so no rung may take it for the recorded field (found by the
    # healing benchmark: re-discovery did).
    tab.set_content(SIGN_UP)
    plan, state = discovered(tab, "Password", "fill")
    assert state.fingerprint is not None and "confirm password" in state.fingerprint.rivals
    tab.evaluate("() => document.querySelector('#password').closest('.form-row').remove()")
    ctx = failing_context(tab, plan, state)
    attempt, result = HealingLadder().heal(ctx)
    assert result is None, attempt.reason
    assert "was already on the page as another element" in attempt.reason


def test_a_field_renamed_to_a_longer_label_still_heals(tab: Page) -> None:
    # the rival rule names other elements only: the recorded field itself, reworded, heals
    tab.set_content(SIGN_UP)
    plan, state = discovered(tab, "Password", "fill")
    tab.evaluate("""() => { const f = document.querySelector('#password');
        f.id = 'pw-new'; document.querySelector('label[for=password]').htmlFor = 'pw-new';
        document.querySelector('label[for=pw-new]').textContent = 'Your password'; }""")
    ctx = failing_context(tab, plan, state)
    _attempt, result = HealingLadder().heal(ctx)
    assert result is not None and result.locator is not None
    assert to_playwright(tab, result.locator).get_attribute("id") == "pw-new"
