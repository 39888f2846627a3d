"""Region drift: the container a step names is renamed, the element is not (v1 -> v2)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from pytest_pacts.demo_app import DemoServer
from pytest_pacts.discovery import Discoverer, to_playwright
from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.engine.healing.region import RegionDriftRung
from pytest_pacts.models.outcome import HealRung
from tests.engine.healing.helpers import discovered, failing_context

FORM = """<h1>Shop</h1>
<form id="login_form"><label for="u">Username</label><input id="u">
<button type="button" id="go">Login</button></form>
<form id="search"><label for="q">Search</label><input id="q"></form>"""


def test_vanished_region_heals_to_the_page_wide_unique_element(tab: Page) -> None:
    tab.set_content(FORM)
    plan, state = discovered(tab, "Username", "fill", region="LoginForm")
    assert state.locator is not None and state.locator.region is not None
    tab.evaluate("() => { document.querySelector('#login_form').id = 'auth-form'; }")
    ctx = failing_context(tab, plan, state)
    attempt, result = HealingLadder(rungs=[RegionDriftRung()]).heal(ctx)
    assert result is not None and attempt.accepted, attempt.reason
    assert attempt.rung is HealRung.REPAIR
    assert result.locator is not None and result.locator.region is None
    assert result.evidence["region_gone"] == "LoginForm"
    # the label and the id alternate still agree on the field without the form
    assert result.evidence["agreeing_sources"] == "id/class, name"
    assert result.fingerprint is not None and result.fingerprint.id == "u"


def test_declines_when_the_element_is_not_unique_without_its_region(tab: Page) -> None:
    tab.set_content(
        FORM.replace('<label for="q">Search</label>', '<label for="q">Username</label>')
    )
    plan, state = discovered(tab, "Username", "fill", region="LoginForm")
    # the form and the field are both renamed; two fields are now labelled "Username"
    tab.evaluate("""() => { document.querySelector('#login_form').id = 'auth-form';
        document.querySelector('#u').id = 'user-2'; }""")
    ctx = failing_context(tab, plan, state)
    attempt, result = HealingLadder(rungs=[RegionDriftRung()]).heal(ctx)
    assert not attempt.accepted
    assert result is None or result.locator is None
    # the label "Username" now names only the search field: unique, but not the element
    assert "matches the recorded element only at" in attempt.reason
    assert "or two independent locators agreeing" in attempt.reason


def test_does_not_apply_while_the_region_exists(tab: Page) -> None:
    tab.set_content(FORM)
    plan, state = discovered(tab, "Username", "fill", region="LoginForm")
    tab.evaluate("() => { document.querySelector('#u').remove(); }")
    ctx = failing_context(tab, plan, state)
    assert RegionDriftRung().attempt(ctx) is None


def test_demo_v1_to_v2_login_fields_and_button(tab: Page, demo: dict[str, DemoServer]) -> None:
    """The v2 redesign renames the form and the button's id, test id and text at once."""
    healed: dict[str, str] = {}
    for element, action in (("Username", "fill"), ("Password", "fill"), ("Login", "click")):
        tab.goto(demo["v1"].url + "/")
        plan, state = discovered(tab, element, action, region="LoginForm")
        tab.goto(demo["v2"].url + "/")
        ctx = failing_context(tab, plan, state)
        attempt, result = HealingLadder(rungs=[RegionDriftRung()]).heal(ctx)
        assert result is not None and attempt.accepted, (element, attempt.reason)
        assert result.locator is not None
        healed[element] = tab.evaluate(
            "(el) => el.id", to_playwright(tab, result.locator).element_handle()
        )
    assert healed == {"Username": "username-input", "Password": "password-input",
                      "Login": "login-button"}  # fmt: skip


def test_demo_button_that_changed_everything_is_abstained(
    tab: Page, demo: dict[str, DemoServer]
) -> None:
    """Form, id, test id, text, class and wrapper all changed: no evidence is strong enough
    (the best candidate matches the recorded button at about 0.6), so the ladder abstains
    and the step fails with its candidates rather than guessing."""
    tab.goto(demo["v1"].url + "/")
    plan, state = discovered(tab, "Login", "click", region="LoginForm")
    tab.goto(demo["v2"].url + "/")
    tab.evaluate("() => { document.querySelector('#login-button').id = 'signin-btn'; }")
    ctx = failing_context(tab, plan, state)
    attempt, result = HealingLadder(rungs=[RegionDriftRung()]).heal(ctx)
    assert not attempt.accepted and result is None
    assert "similarity over the whole page: abstained" in attempt.reason


def _card(key: str, heading: str, text: str) -> str:
    return (
        f'<section id="{key}-card" class="card widget"><h3>{heading}</h3><p>{text}</p>'
        f'<button type="button" class="btn btn-sm" data-mark="{key}">Refresh</button>'
        f'<a href="/{key}" class="card-link">View all</a></section>'
    )


CARDS = (
    '<main><div class="cards">'
    + _card("billing", "Billing", "$1,204 due on 3 May")
    + _card("usage", "This month", "82% of the plan used")
    + _card("team", "People", "6 members, 2 pending")
    + "</div></main>"
)
RENAME_CARDS = """() => document.querySelectorAll('section.card').forEach((s, i) => {
    s.id = `k${i}-zq`; s.className = `t${i}x`; })"""


def test_look_alike_cards_are_told_apart_by_what_the_renamed_card_holds(tab: Page) -> None:
    # three identical "Refresh" buttons: once "Billing card" (#billing-card) is renamed,
    # nothing of the button tells them apart; the card's unchanged text around it does
    tab.set_content(CARDS)
    plan, state = discovered(tab, "Refresh", "click", region="Billing card")
    assert state.locator is not None and state.locator.region is not None
    tab.evaluate(RENAME_CARDS)
    ctx = failing_context(tab, plan, state)
    attempt, result = HealingLadder().heal(ctx)
    assert result is not None and result.locator is not None, attempt.reason
    assert "surroundings are the recorded ones" in attempt.reason
    assert to_playwright(tab, result.locator).get_attribute("data-mark") == "billing"


def test_a_removed_card_button_is_not_healed_to_another_cards(tab: Page) -> None:
    tab.set_content(CARDS)
    plan, state = discovered(tab, "Refresh", "click", region="Billing card")
    tab.evaluate(RENAME_CARDS)
    tab.evaluate("() => document.querySelector('[data-mark=billing]').remove()")
    ctx = failing_context(tab, plan, state)
    attempt, result = HealingLadder().heal(ctx)
    assert result is None, attempt.reason


def test_changed_card_text_leaves_the_look_alikes_undecided(tab: Page) -> None:
    tab.set_content(CARDS)
    plan, state = discovered(tab, "Refresh", "click", region="Billing card")
    tab.evaluate(RENAME_CARDS)
    tab.evaluate("() => { document.querySelector('section p').textContent = '$980 due'; }")
    ctx = failing_context(tab, plan, state)
    attempt, result = HealingLadder().heal(ctx)
    assert result is None, attempt.reason


def _product(name: str, key: str, button: str) -> str:
    return (
        f'<div class="inventory_item" id="item-{key}"><div class="item_name">{name}</div>'
        f'<div class="item_price">$9.99</div><button id="add-{key}">{button}</button></div>'
    )


PRODUCTS = (
    '<main class="inventory_list">'
    + _product("Blue Backpack", "backpack", "Add to cart")
    + _product("Bike Light", "light", "Add to cart")
    + "</main>"
)
RESTYLE_PRODUCTS = """() => document.querySelectorAll('.inventory_item').forEach((d) => {
    d.className = 'product-card'; d.id = d.id.replace('item-', 'card-');
    const b = d.querySelector('button'); b.id = b.id.replace('add-', 'buy-');
    b.textContent = 'Add to Cart'; })"""


def test_a_region_still_found_by_its_words_is_left_to_rediscovery_with_one_scan(
    tab: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The product card's markup changed (class, id) but it still shows "Blue Backpack":
    the recorded rendering of the region matches nothing, the region itself is still there.
    Without its region "Add to Cart" is not unique, so region drift used to spend its whole
    search (page-wide similarity included) before re-discovery scanned the page again and
    healed within the card. Region drift's scan now also looks for the step's target with
    its region, steps aside when that finds it, and re-discovery heals from that one scan."""
    tab.set_content(PRODUCTS)
    plan, state = discovered(tab, "Add to cart", region="Blue Backpack")
    assert state.locator is not None and state.locator.region is not None
    tab.evaluate(RESTYLE_PRODUCTS)
    ctx = failing_context(tab, plan, state)
    scans: list[object] = []
    real = Discoverer.send  # every discovery begins there

    def counting(self: Discoverer, page: Page, targets: Any, **kw: Any) -> Any:
        scans.append([t.region for _k, t, _a in targets])
        return real(self, page, targets, **kw)

    monkeypatch.setattr(Discoverer, "send", counting)
    attempt, result = HealingLadder().heal(ctx)
    assert result is not None and attempt.accepted, attempt.reason
    assert attempt.rung is HealRung.REDISCOVERY
    # region drift stepped aside (no answer of its own): its premise, a vanished region, is false
    assert [r.rung for r in ctx.round_results] == [HealRung.ALTERNATE, HealRung.REDISCOVERY]
    assert result.locator is not None and result.locator.region is not None
    assert tab.evaluate("(el) => el.id", to_playwright(tab, result.locator).element_handle()) == (
        "buy-backpack"
    )
    # one scan for the round, sent at its start: without the region and with it, at once
    assert scans == [[None, "Blue Backpack"]]


def test_the_rediscovered_target_is_dropped_after_a_rung_that_may_change_the_page(
    tab: Page,
) -> None:
    """What a rung re-discovered is kept for the rungs after it only while no rung that
    may act on the page (repair: dismissing a banner) has answered in between."""
    tab.set_content(PRODUCTS)
    plan, state = discovered(tab, "Add to cart", region="Blue Backpack")
    tab.evaluate(RESTYLE_PRODUCTS)
    ctx = failing_context(tab, plan, state)
    seen: list[object] = []

    class Acting:
        name = HealRung.REPAIR

        def attempt(self, ctx: HealContext) -> RungResult | None:
            seen.append(ctx.rediscovered)
            return RungResult(self.name, False, "dismissed a banner; still failing")

    class Looking:
        name = HealRung.REDISCOVERY

        def attempt(self, ctx: HealContext) -> RungResult | None:
            seen.append(ctx.rediscovered)
            return None

    HealingLadder(rungs=[RegionDriftRung(), Acting(), Looking()]).heal(ctx)
    assert seen[0] is not None and seen[0].locator is not None  # type: ignore[attr-defined]
    assert seen[1] is None


def test_agreeing_recorded_locators_are_held_to_the_evidence_rule(tab: Page) -> None:
    """Two recorded locators reading different attributes (a test id and a name) still agree
    once the form is gone, but on a field a redesign gave them: the people search in the
    header, not the username field (now "Login name"). Agreement stands in for the evidence
    rule's margin, never for its threshold: the element is only weakly like the recorded one
    and the step's words single out nothing without the region, so the rung declines before
    acting (it used to accept whatever two locators agreed on)."""
    tab.set_content(
        '<h1>Shop</h1><form id="login_form"><label for="u">Username</label>'
        '<input id="u" data-test="user" name="username" autocomplete="username">'
        '<button type="button">Login</button></form>'
    )
    plan, state = discovered(tab, "Username", "fill", region="LoginForm")
    assert state.locator is not None and state.locator.region is not None
    tab.set_content(
        '<header><nav><a href="#a">Home</a><a href="#b">Shop</a>'
        '<span><input id="u" data-test="user" name="username" type="search" '
        'placeholder="Find people" '
        'class="people-search" size="8"></span></nav></header>'
        '<main><h1>Sign in</h1><div class="auth-form"><label for="ln">Login name</label>'
        '<input id="ln" name="login"><button type="button">Sign in</button></div></main>'
    )
    ctx = failing_context(tab, plan, state)
    attempt, result = HealingLadder(rungs=[RegionDriftRung()]).heal(ctx)
    assert not attempt.accepted and (result is None or result.locator is None), attempt.reason
    assert "the recorded locators agree, but" in attempt.reason
