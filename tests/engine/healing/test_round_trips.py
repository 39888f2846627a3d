"""A candidate locator is checked in one round trip: what it resolves to, the five-point gate
(its two animation frames awaited in the page) and the ranking that decides whether intent
and fingerprint agree, in one ``evaluate_all`` on its matches. A similarity relocation gates
the rendering in the call that checks it resolves to the ranked element."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from pytest_pacts.engine.contracts import StepState
from pytest_pacts.engine.healing import probing, relocate, resolving
from pytest_pacts.engine.healing.alternate import AlternateRung
from pytest_pacts.engine.healing.intent import try_locators
from pytest_pacts.engine.healing.rediscovery import RediscoveryRung
from pytest_pacts.engine.healing.region import RegionDriftRung
from pytest_pacts.engine.healing.similarity import SimilarityRung
from pytest_pacts.models import Plan
from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.models.outcome import HealRung
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.healing import call_in_frame

from .helpers import discovered, failing_context

PAGE = "<h1>Shop</h1><button id='buy'>Buy</button><button id='back'>Back</button>"
FORM = """<form id="login"><label>Username <input id="user"></label>
<button id="go">Sign in</button></form><button id="help">Help</button>"""


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """What every page round trip made through ``bounded.call`` was for, in order; a call
    sent ahead (``bounded.send``, ``bounded.send_async``) shows as ``sent: ...`` when sent and
    again when read."""
    seen: list[str] = []
    real = bounded.call

    def counting(target: object, what: str, *args: object, **kwargs: object) -> object:
        seen.append(what)
        return real(target, what, *args, **kwargs)  # type: ignore[arg-type]

    def sending(target: object, what: str, *args: object, **kwargs: object) -> object:
        seen.append(f"sent: {what}")
        return real_send(target, what, *args, **kwargs)  # type: ignore[arg-type]

    real_send = bounded.send_async  # bounded.send sends through it
    monkeypatch.setattr(bounded, "call", counting)
    monkeypatch.setattr(bounded, "send_async", sending)
    yield seen


def installed(page: Page, calls: list[str]) -> None:
    """Healing's in-page functions sent to the page (the first call sends them: one more
    round trip, once per document), then nothing counted yet."""
    call_in_frame(page.main_frame, "settled", {"quiet_ms": 0, "timeout_ms": 0})
    calls.clear()


def test_a_unique_candidate_costs_one_round_trip(tab: Page, calls: list[str]) -> None:
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Buy")
    tab.evaluate("document.getElementById('buy').id = 'buy-now'")  # the drift
    gone = Locator(strategy=Strategy.CSS, css="#buy", confidence=0.7)
    ctx = failing_context(tab, plan, state, locator=gone)
    new = Locator(strategy=Strategy.CSS, css="#buy-now", confidence=0.7)
    installed(tab, calls)
    result = try_locators(ctx, HealRung.ALTERNATE, [(new, 0.7, {})], "alternate")
    assert result is not None and result.accepted, result and result.reason
    # before: scoreOf, the gate, the page's ranking and the identity check (4)
    assert calls == ["the in-page healing 'probe' call"]
    assert result.evidence["gate_result"] == {
        "ok": True,
        "points": dict.fromkeys(("unique", "visible", "enabled", "stable", "scoped"), "ok"),
        "count": 1,
    }
    assert result.runner_up_score is not None  # the ranking's second element: "Back"


def test_a_region_is_looked_up_once_for_the_gate_and_the_ranking(
    tab: Page, calls: list[str]
) -> None:
    tab.set_content(FORM)
    plan, state = discovered(tab, "Sign in", region="login")
    assert state.locator is not None and state.locator.region is not None
    tab.evaluate("document.getElementById('go').textContent = 'Log in'")  # reworded
    ctx = failing_context(tab, plan, state)
    new = state.locator.model_copy(
        update={"strategy": Strategy.CSS, "css": "#go", "role": None, "name": None}
    )
    installed(tab, calls)
    result = try_locators(ctx, HealRung.REDISCOVERY, [(new, 0.7, {})], "re-discovered locator")
    assert result is not None and result.accepted, result and result.reason
    # before: scoreOf, the region and the gate, the region again, inside, rank, isSame (7)
    assert calls == ["finding the step's region", "the in-page healing 'probe' call"]


def test_a_regions_handles_are_let_go_without_a_round_trip_waited_for(
    tab: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40: letting go of an element handle is a message to Playwright's driver whose
    answer nothing needs; the containers of a step's region, looked up for a candidate's gate
    and ranking, are released without waiting for it (``bounded.release``): one round trip
    fewer at the end of every candidate loop over a scoped step."""
    from playwright._impl.js_handle import JSHandle as ImplHandle
    from playwright.sync_api import ElementHandle

    tab.set_content(FORM)
    plan, state = discovered(tab, "Sign in", region="login")
    assert state.locator is not None and state.locator.region is not None
    tab.evaluate("document.getElementById('go').textContent = 'Log in'")  # reworded
    ctx = failing_context(tab, plan, state)
    new = state.locator.model_copy(
        update={"strategy": Strategy.CSS, "css": "#go", "role": None, "name": None}
    )
    waited: list[object] = []
    released: list[object] = []
    monkeypatch.setattr(ElementHandle, "dispose", lambda self: waited.append(self))
    real = ImplHandle.dispose

    async def dispose(self: ImplHandle) -> None:
        released.append(self)
        await real(self)

    monkeypatch.setattr(ImplHandle, "dispose", dispose)
    result = try_locators(ctx, HealRung.REDISCOVERY, [(new, 0.7, {})], "re-discovered locator")
    assert result is not None and result.accepted, result and result.reason
    tab.evaluate("1")  # the next call made: the release has gone out with it
    assert waited == [] and len(released) == 1


def test_a_candidate_outside_the_steps_region_is_refused_from_the_probe(tab: Page) -> None:
    tab.set_content(FORM)
    plan, state = discovered(tab, "Sign in", region="login")
    tab.evaluate("document.getElementById('go').remove()")
    ctx = failing_context(tab, plan, state)
    help_button = Locator(strategy=Strategy.CSS, css="#help", confidence=0.7)
    result = try_locators(ctx, HealRung.MEMORY, [(help_button, 0.9, {})], "remembered locator",
                          need_anchor=False)  # fmt: skip
    assert result is not None and not result.accepted
    assert "outside the step's region" in result.reason


def test_a_similarity_relocation_gates_the_rendering_it_checks(tab: Page, calls: list[str]) -> None:
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Buy")
    tab.evaluate("document.getElementById('buy').id = 'purchase'")
    gone = Locator(strategy=Strategy.CSS, css="#buy", confidence=0.7)
    ctx = failing_context(tab, plan, state, locator=gone)
    installed(tab, calls)
    result = SimilarityRung().attempt(ctx)
    assert result is not None and result.accepted, result and result.reason
    assert "the in-page healing 'sameGate' call" in calls
    assert "the in-page healing 'isSame' call" not in calls
    assert "the in-page 'check' call" not in calls


def _gates_probed(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The gate each in-page ``probe`` call is given (``None``: measure it there)."""
    probes: list[object] = []
    real = relocate.call_on_locator

    def spying(page: Page, locator: Locator, name: str, arg: object) -> object:
        if name == "probe":
            assert isinstance(arg, dict)
            probes.append(arg["gate"])
        return real(page, locator, name, arg)

    monkeypatch.setattr(probing, "call_on_locator", spying)
    return probes


def test_rediscovery_does_not_measure_again_the_gate_discovery_just_measured(
    tab: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Buy")
    tab.evaluate("document.getElementById('buy').id = 'buy-now'")
    gone = Locator(strategy=Strategy.CSS, css="#buy", confidence=0.7)
    ctx = failing_context(tab, plan, state, locator=gone)
    probes = _gates_probed(monkeypatch)
    result = RediscoveryRung().attempt(ctx)
    assert result is not None and result.accepted, result and result.reason
    # the passing gate discovery measured on the element, not two more animation frames
    assert probes == [None]
    assert result.evidence["gate_result"]["ok"] is True  # type: ignore[index]


def _sign_in_form(tab: Page) -> tuple[Plan, StepState]:
    """A "Sign in" button in a login form (a test id, an id) beside a "Help" button,
    discovered with its region."""
    tab.set_content("""<form id="login"><button id="go" data-testid="send">Sign in</button>
        </form><button id="help">Help</button>""")
    return discovered(tab, "Sign in", region="login")


def test_region_drift_reuses_the_gate_of_the_element_it_rediscovered(
    tab: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan, state = _sign_in_form(tab)
    # the container renamed, and the button's old id now on another button: the recorded
    # locators disagree, so the rung re-discovers the element by its words
    tab.evaluate("""() => { document.getElementById('login').id = 'auth';
        document.getElementById('go').id = 'submit';
        document.getElementById('help').id = 'go'; }""")
    ctx = failing_context(tab, plan, state)
    probes = _gates_probed(monkeypatch)
    result = RegionDriftRung().attempt(ctx)
    assert result is not None and result.accepted, result and result.reason
    assert "agreeing_sources" in result.evidence, result.evidence
    assert None in probes, probes


def test_on_a_page_with_an_iframe_the_frame_is_ranked_too(tab: Page, calls: list[str]) -> None:
    # the recorded button's look-alike inside a same-origin iframe matches the fingerprint
    # better than the candidate does: intent and fingerprint disagree, as before the probe
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Buy")
    tab.evaluate("""() => { const b = document.getElementById('buy');
        b.id = 'order'; b.textContent = 'Order';
        const f = document.createElement('iframe');
        f.srcdoc = "<button id='buy'>Buy</button><button id='back'>Back</button>";
        document.body.prepend(f); }""")
    tab.wait_for_function("() => document.querySelector('iframe').contentDocument.body")
    tab.wait_for_timeout(100)
    gone = Locator(strategy=Strategy.CSS, css="#buy", confidence=0.7)
    ctx = failing_context(tab, plan, state, locator=gone)
    order = Locator(strategy=Strategy.CSS, css="#order", confidence=0.7)
    installed(tab, calls)
    result = try_locators(ctx, HealRung.MEMORY, [(order, 0.9, {})], "remembered locator",
                          need_anchor=False)  # fmt: skip
    assert result is not None and not result.accepted
    assert "intent and fingerprint disagree" in result.reason, result.reason
    assert calls[0] == "the in-page healing 'probe' call"
    assert "the in-page healing 'rank' call" in calls[1:], calls


def test_alternates_that_all_broke_cost_one_round_trip(tab: Page, calls: list[str]) -> None:
    tab.set_content("""<button id="buy" data-testid="buy" title="Buy it">Buy</button>
        <button id="back">Back</button>""")
    plan, state = discovered(tab, "Buy")
    assert len(state.alternates) >= 2, state.alternates
    # every attribute the locator and its alternates read is gone
    tab.evaluate("""() => { const b = document.getElementById('buy');
        b.id = 'order'; b.removeAttribute('data-testid'); b.removeAttribute('title');
        b.textContent = 'Order'; }""")
    ctx = failing_context(tab, plan, state)
    installed(tab, calls)
    result = AlternateRung().attempt(ctx)
    assert result is not None and not result.accepted
    assert result.reason.count("resolves to 0 elements") == len(
        [a for a in state.alternates if a != state.locator]
    )
    # before: one round trip per alternate
    assert calls == ["counting the candidates"]


def test_region_drift_asks_the_page_about_every_recorded_locator_at_once(
    tab: Page, calls: list[str]
) -> None:
    tab.set_content(FORM)
    plan, state = discovered(tab, "Username", "fill", region="login")
    known = [state.locator, *state.alternates]
    assert len(known) >= 3, known
    tab.evaluate("() => { document.getElementById('login').id = 'auth'; }")  # the form renamed
    ctx = failing_context(tab, plan, state)
    installed(tab, calls)
    result = RegionDriftRung().attempt(ctx)
    assert result is not None and result.accepted, result and result.reason
    assert "agreeing_sources" in result.evidence, result.evidence
    # before: one 'scoreOf' round trip per recorded locator, and the form looked up twice
    assert "the in-page healing 'scoreOf' call" not in calls, calls
    assert calls == [
        "looking for the region",
        "sent: the in-page healing 'resolveAll' call",
        "the in-page healing 'resolveAll' call",
        # Playwright: the other sources find it alone; asked before the agreed locator's
        # probe and read after it, so the two round trips overlap
        "sent: the in-page healing 'isSame' call",
        "the in-page healing 'probe' call",
        "the in-page healing 'isSame' call",
    ]


def test_the_ladder_sends_region_drift_questions_ahead_and_they_answer_for_the_alternates(
    tab: Page, calls: list[str]
) -> None:
    """The region's count and the estimate of the recorded locators without it are sent at
    the start of the round (both are needed when a form was renamed: every recorded locator
    is scoped to it). The region's count answers for the alternates too: inside a region
    found on no element, they match nothing, so they are not counted (before: a count of
    them all, one more round trip). Here the recorded locators agree by themselves, and
    re-discovery's scan is not sent at all (before: sent ahead and dropped unread, after
    the page had run it, the probe sent behind it waiting)."""
    from pytest_pacts.engine.healing import HealingLadder

    tab.set_content(FORM)
    plan, state = discovered(tab, "Username", "fill", region="login")
    tab.evaluate("() => { document.getElementById('login').id = 'auth'; }")  # the form renamed
    ctx = failing_context(tab, plan, state)
    installed(tab, calls)
    attempt, result = HealingLadder().heal(ctx)
    assert result is not None and result.accepted, attempt.reason
    assert state.locator is not None and state.locator.region is not None
    assert state.alternates and all(a.region == state.locator.region for a in state.alternates)
    assert calls[:4] == [
        "sent: looking for the region",
        "sent: the in-page healing 'resolveAll' call",
        "looking for the region",  # read by the alternates: the form is gone, and they in it
        "the in-page healing 'resolveAll' call",  # read
    ], calls
    assert "counting the candidates" not in calls, calls
    assert calls.count("looking for the region") == 1, calls
    assert calls.count("the in-page healing 'resolveAll' call") == 1, calls
    assert not [c for c in calls if "discovery scan" in c], calls


def test_region_drift_reuses_the_rediscovered_gate_for_the_agreed_locator(
    tab: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan, state = _sign_in_form(tab)
    assert state.locator is not None and state.locator.region is not None
    # recorded: the test id first, the name and the id as alternates
    region = state.locator.region
    by_test_id = Locator(strategy=Strategy.TEST_ID, test_id="send", confidence=0.95,
                         test_id_attribute="data-testid", region=region)  # fmt: skip
    by_id = Locator(strategy=Strategy.CSS, css="#go", confidence=0.7, region=region)
    state.alternates = (state.locator, by_id)
    # the form renamed and the button's old id now on another button: the recorded locators
    # disagree, so the element is re-discovered by its words, and discovery gates it
    tab.evaluate("""() => { document.getElementById('login').id = 'auth';
        document.getElementById('go').id = 'submit';
        document.getElementById('help').id = 'go'; }""")
    ctx = failing_context(tab, plan, state, locator=by_test_id)
    probes = _gates_probed(monkeypatch)
    result = RegionDriftRung().attempt(ctx)
    assert result is not None and result.accepted, result and result.reason
    assert result.locator is not None and result.locator.strategy is Strategy.TEST_ID
    assert result.evidence["agreeing_sources"] == "name, test id", result.evidence
    # before: the agreed test id was gated again (two more animation frames in the page);
    # Playwright resolved the re-discovered locator to that element alone, as to the test id
    assert probes == [None], probes


def test_a_probe_refuses_a_locator_that_finds_another_element_than_the_estimate(
    tab: Page,
) -> None:
    tab.set_content(PAGE)
    plan, state = discovered(tab, "Buy")
    ctx = failing_context(tab, plan, state, locator=Locator(strategy=Strategy.CSS, css="#x",
                                                            confidence=0.7))  # fmt: skip
    buy = Locator(strategy=Strategy.CSS, css="#buy", confidence=0.7)
    back = Locator(strategy=Strategy.CSS, css="#back", confidence=0.7)
    estimates = resolving.estimate_all(ctx, [buy])
    element = estimates[buy].element
    assert element is not None and estimates[buy].found.count == 1
    loop = probing.Probing(ctx)
    try:
        assert probing.probe(ctx, back, loop, expect=element).other
        same = probing.probe(ctx, buy, loop, expect=element)
    finally:
        loop.close()
    assert not same.other and same.gate is not None and same.gate[0]


def test_region_drift_does_not_gate_a_candidate_it_refuses_for_its_similarity(
    tab: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    tab.set_content("""<h1>Shop</h1>
        <form id="login_form"><label for="u">Username</label><input id="u">
        <button type="button" id="go">Login</button></form>
        <form id="search"><label for="q">Username</label><input id="q"></form>""")
    plan, state = discovered(tab, "Username", "fill", region="LoginForm")
    # the form and the field are both renamed: the label "Username" now names only the
    # other form's field, unique but not the element (it matches it only weakly)
    tab.evaluate("""() => { document.querySelector('#login_form').id = 'auth-form';
        document.querySelector('#u').id = 'user-2'; }""")
    ctx = failing_context(tab, plan, state)
    probed: list[probing.Probe] = []
    real = probing.probe

    def spying(*args: object, **kwargs: object) -> probing.Probe:
        answer = real(*args, **kwargs)  # type: ignore[arg-type]
        probed.append(answer)
        return answer

    monkeypatch.setattr("pytest_pacts.engine.healing.intent.probe", spying)
    result = RegionDriftRung().attempt(ctx)
    assert result is not None and not result.accepted
    assert "matches the recorded element only at" in result.reason, result.reason
    weak = [p for p in probed if p.found.count == 1 and p.found.fingerprint is not None
            and p.found.fingerprint.id == "q"]  # fmt: skip
    assert weak, probed
    # before: each was gated (two animation frames in the page) and then refused
    assert all(p.below and p.gate is None for p in weak), weak


def test_region_drift_asks_again_when_what_was_sent_was_for_another_round(
    tab: Page, calls: list[str]
) -> None:
    """What ``send_ahead`` sent belongs to its round: a rung attempted in a later round (or
    called without the ladder) asks the page itself, and the earlier answers are dropped."""
    tab.set_content(FORM)
    plan, state = discovered(tab, "Username", "fill", region="login")
    tab.evaluate("() => { document.getElementById('login').id = 'auth'; }")  # the form renamed
    rung = RegionDriftRung()
    rung.send_ahead(failing_context(tab, plan, state))  # an earlier round
    ctx = failing_context(tab, plan, state, round=2)
    installed(tab, calls)
    result = rung.attempt(ctx)
    assert result is not None and result.accepted, result and result.reason
    assert calls[:3] == [
        "looking for the region",
        "sent: the in-page healing 'resolveAll' call",
        "the in-page healing 'resolveAll' call",
    ], calls
