"""Regions (``Element@Region``), relational steps and ambiguity."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import RegionMatch, Strategy

from .helpers import chosen_id, find

TWO_FORMS = """
<form {attr}><h2>Sign in</h2><label for="u1">Email</label><input id="u1"></form>
<form id="newsletter"><h2>Newsletter</h2><label for="u2">Email</label><input id="u2"></form>
"""


@pytest.mark.parametrize("attr", ['id="login_form"', 'id="login-form"', 'id="loginForm"'])
def test_region_by_id_tokens(tab: Page, attr: str) -> None:
    tab.set_content(TWO_FORMS.format(attr=attr))
    result = find(tab, "Email", "fill", region="LoginForm")
    assert chosen_id(tab, result) == "u1"
    assert result.locator is not None and result.locator.region is not None
    assert result.locator.region.matched_by is RegionMatch.ID_TOKEN
    assert result.locator.region.description == "LoginForm"


def test_a_class_token_alone_is_weak_evidence_for_a_region(tab: Page) -> None:
    """HTML gives class names no meaning a person sees: a region named only by a class
    token never decides between two fields the step's words name equally (DokuWiki's
    ``<li class="login">`` took "Log In@Login" to its header link; docs/discovery.md,
    "Regions"). The step is ambiguous, naming both."""
    tab.set_content(TWO_FORMS.format(attr='class="LoginForm card"'))
    result = find(tab, "Email", "fill", region="LoginForm")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "ambiguous"
    assert len(result.unresolved.candidates) == 2


def test_region_by_heading(tab: Page) -> None:
    tab.set_content(
        "<section><h3>Billing</h3><div><label for='b'>Email</label><input id='b'></div></section>"
        "<section><h3>Shipping</h3><div><label for='s'>Email</label><input id='s'></div></section>"
    )
    result = find(tab, "Email", "fill", region="shipping")
    assert chosen_id(tab, result) == "s"
    assert result.locator is not None and result.locator.region is not None
    assert result.locator.region.matched_by is RegionMatch.HEADING
    assert result.locator.region.heading == "Shipping"


def test_region_by_accessible_name(tab: Page) -> None:
    tab.set_content(
        '<nav aria-label="Main"><a id="m" href="/a">Home</a></nav>'
        '<nav aria-label="Footer links"><a id="f" href="/b">Home</a></nav>'
    )
    result = find(tab, "Home", region="Footer links")
    assert chosen_id(tab, result) == "f"
    assert result.locator is not None and result.locator.region is not None
    assert result.locator.region.matched_by is RegionMatch.NAME
    assert (result.locator.region.role, result.locator.region.name) == (
        "navigation",
        "Footer links",
    )


CARDS = "".join(
    f'<div class="inventory_item"><div class="name">{name}</div><p>Nice {name}.</p>'
    f'<button id="add-{i}">Add to cart</button></div>'
    for i, name in enumerate(["Sauce Labs Backpack", "Sauce Labs Bike Light", "Sauce Labs Onesie"])
)


def test_add_to_cart_in_the_card_that_mentions_the_product(tab: Page) -> None:
    tab.set_content(f'<div class="inventory_list">{CARDS}</div>')
    result = find(tab, "Add to cart", region="Sauce Labs Bike Light")
    assert chosen_id(tab, result) == "add-1"
    assert result.locator is not None and result.locator.region is not None
    region = result.locator.region
    assert (region.matched_by, region.css, region.has_text) == (
        RegionMatch.TEXT,
        "div.inventory_item",
        "Sauce Labs Bike Light",
    )


def test_same_name_without_region_is_ambiguous_with_candidates(tab: Page) -> None:
    tab.set_content(f'<div class="inventory_list">{CARDS}</div>')
    result = find(tab, "Add to cart")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "ambiguous"
    candidates = result.unresolved.candidates
    assert len(candidates) == 3
    assert all(c.score == 0.95 and c.strategy is Strategy.ROLE_NAME for c in candidates)
    assert any("Sauce Labs Onesie" in c.description for c in candidates)
    assert "region" in result.unresolved.message


def test_region_matching_two_cards_stays_ambiguous(tab: Page) -> None:
    tab.set_content(f'<div class="inventory_list">{CARDS}</div>')
    result = find(tab, "Add to cart", region="Sauce Labs B")  # Backpack and Bike Light
    assert result.unresolved is not None and result.unresolved.reason == "ambiguous"
    assert len(result.unresolved.candidates) == 2


def test_relational_checkbox_in_the_list_item(tab: Page) -> None:
    tab.set_content(
        "<ul>"
        "<li><input type='checkbox' id='c1'><span>Buy milk</span><button>Delete</button></li>"
        "<li><input type='checkbox' id='c2'><span>Walk the dog</span><button>Delete</button></li>"
        "</ul>"
    )
    for element, region in (("Buy milk", None), ("checkbox", "Buy milk"), ("Done", "Buy milk")):
        result = find(tab, element, "check", region=region)
        assert chosen_id(tab, result) == "c1", (element, region)
        assert result.locator is not None
        assert (result.locator.strategy, result.locator.confidence) == (Strategy.RELATIONAL, 0.85)
        assert result.locator.role == "checkbox"


def test_relational_never_takes_a_differently_named_button(tab: Page) -> None:
    tab.set_content("<ul><li><span>Buy milk</span><button id='e'>Edit</button></li></ul>")
    result = find(tab, "Delete", "click", region="Buy milk")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "none"


def test_region_that_matches_nothing_says_so(tab: Page) -> None:
    tab.set_content("<form><button>Save</button></form>")
    result = find(tab, "Save", region="Billing address")
    assert result.unresolved is not None and result.unresolved.reason == "none"
    assert "Billing address" in result.unresolved.message


def test_all_steps_in_one_call(tab: Page) -> None:
    tab.set_content(f'<div class="inventory_list">{CARDS}</div>' + TWO_FORMS.format(attr=""))
    targets = [
        (1, Target(element="Add to cart", region="Sauce Labs Onesie"), Action.CLICK),
        (2, Target(element="Email", region="Newsletter"), Action.FILL),
        (3, Target(element="Add to cart"), Action.CLICK),
    ]
    results = discover(tab, targets)
    assert chosen_id(tab, results[1]) == "add-2"
    assert chosen_id(tab, results[2]) == "u2"
    assert results[3].unresolved is not None and results[3].unresolved.reason == "ambiguous"


def test_a_page_title_heading_scopes_the_page(tab: Page) -> None:
    # The title sits in its own header strip; the buttons are in <main> (demo cart page).
    tab.set_content(
        '<div class="strip"><h2>Your Cart</h2></div><main><div class="item">Backpack'
        '<button id="r1">Remove</button></div><div class="item">Bike light'
        '<button id="r2">Remove</button></div></main><aside><button id="r0">Remove</button></aside>'
    )
    one = find(tab, "Remove", region="Backpack")
    page_wide = find(tab, "Remove", region="Your Cart")
    assert chosen_id(tab, one) == "r1"
    assert page_wide.unresolved is not None and page_wide.unresolved.reason == "ambiguous"
    assert len(page_wide.unresolved.candidates) == 3


def test_region_css_never_uses_state_classes(tab: Page) -> None:
    # "is-done" goes away once the box is unchecked: a region built on it breaks the very
    # next step (found by the generated widgets test)
    tab.set_content(
        "<ul><li class='todo is-done active'><input type='checkbox' id='c1' checked>"
        "<span>Buy milk</span></li><li class='todo'><input type='checkbox' id='c2'>"
        "<span>Walk the dog</span></li></ul>"
    )
    result = find(tab, "checkbox", "uncheck", region="Buy milk")
    assert chosen_id(tab, result) == "c1"
    assert result.locator is not None and result.locator.region is not None
    css = result.locator.region.css or ""
    assert "is-done" not in css and "active" not in css, css
    tab.uncheck("#c1")
    tab.evaluate("() => document.querySelector('li').classList.remove('is-done', 'active')")
    from pytest_pacts.discovery import to_playwright

    assert to_playwright(tab, result.locator).count() == 1
