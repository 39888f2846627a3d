"""Discovery against the bundled demo app, both releases (demo_app/README.md).

One requirement sheet's worth of steps, written once as a QA engineer would; the same words
resolve on v1 and on v2 wherever the README says the intent stayed put, and the drifts that
need healing (a renamed login form) are reported, not guessed.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from pytest_pacts.demo_app import RELEASES, DemoServer
from pytest_pacts.discovery import discover, to_playwright
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import DiscoveryResult, Strategy

# its tests change the page itself: a new context per test (tests/tabs.py)
FRESH_CONTEXT = True


@pytest.fixture(scope="module", params=RELEASES)
def demo(request: pytest.FixtureRequest) -> Iterator[DemoServer]:
    with DemoServer(request.param) as server:
        yield server


def steps(*rows: tuple[str, str]) -> list[tuple[str, Target, Action]]:
    out = []
    for text, action in rows:
        element, _, region = text.partition("@")
        out.append((text, Target(element=element, region=region or None), Action(action)))
    return out


def attr(page: Page, result: DiscoveryResult, name: str) -> str | None:
    assert result.locator is not None, result.unresolved
    value = to_playwright(page, result.locator).get_attribute(name)
    return value


def test_login_page(tab: Page, demo: DemoServer) -> None:
    tab.goto(demo.url + "/")
    expect(tab.get_by_role("heading", name="Swag Labs")).to_be_visible()
    found = discover(
        tab,
        steps(("Username", "fill"), ("Password", "fill"), ("Login", "click"),
              ("Username@LoginForm", "fill")),
    )  # fmt: skip
    assert attr(tab, found["Username"], "data-test") == "username"
    assert attr(tab, found["Password"], "data-test") == "password"
    login = found["Login"]
    assert login.ok and login.locator is not None
    assert login.locator.strategy is Strategy.ROLE_NAME  # "Login" v1, "Log in" v2
    if demo.release == "v1":
        assert attr(tab, found["Username@LoginForm"], "data-test") == "username"
    else:  # form#login_form became form#auth-form: a drift for healing, never a guess
        unresolved = found["Username@LoginForm"].unresolved
        assert unresolved is not None and unresolved.reason == "none"
        assert "LoginForm" in unresolved.message


def test_inventory_page(tab: Page, demo: DemoServer) -> None:
    tab.goto(demo.url + "/")
    tab.locator('[data-test="username"]').fill("standard_user")
    tab.locator('[data-test="password"]').fill("secret_sauce")
    tab.keyboard.press("Enter")
    expect(tab.get_by_role("heading", name="Products")).to_be_visible()
    # the heading comes before the product cards the page's script renders; discovery sees
    # the page as it is, so wait for the cards (a hidden card is no candidate)
    expect(tab.locator('[data-test="add-to-cart-sauce-labs-backpack"]')).to_be_visible()
    # and for the header the assertions below are about: under CPU load the scan once saw
    # the cart link hidden (1 to 2 runs in 12 beside busy loops, before this session's
    # changes too; not reproduced since): the page is checked as it is, so it must be there
    tab.wait_for_load_state("load")
    expect(tab.get_by_role("link", name="Shopping cart")).to_be_visible()
    expect(tab.get_by_role("button", name="Open Menu")).to_be_visible()
    found = discover(
        tab,
        steps(("Add to cart@Sauce Labs Backpack", "click"), ("Sort products", "select"),
              ("Shopping cart", "click"), ("Open Menu", "click"), ("Add to cart", "click")),
    )  # fmt: skip
    backpack = found["Add to cart@Sauce Labs Backpack"]
    assert attr(tab, backpack, "data-test") == "add-to-cart-sauce-labs-backpack"
    assert backpack.locator is not None and backpack.locator.region is not None
    assert attr(tab, found["Sort products"], "data-test") == "product-sort-container"
    assert found["Shopping cart"].ok and found["Open Menu"].ok
    ambiguous = found["Add to cart"].unresolved
    assert ambiguous is not None and ambiguous.reason == "ambiguous"
    assert len(ambiguous.candidates) == 6


def test_widgets_page(tab: Page, demo: DemoServer) -> None:
    tab.goto(demo.url + "/widgets.html")
    expect(tab.get_by_role("heading", name="Widgets", level=1)).to_be_visible()
    found = discover(
        tab,
        steps(
            ("Email@Newsletter", "fill"), ("Subscribe@Newsletter", "click"),
            ("Card number", "fill"), ("Pay now", "click"), ("Card number@Payment", "fill"),
            ("Submit@Contact form", "click"),
            ("checkbox@Buy milk", "check"), ("I agree to the terms", "check"),
            ("Shipping method", "select"), ("Delete@Draft B", "click"),
            ("Download report", "click"),
        ),
    )  # fmt: skip
    email = found["Email@Newsletter"]
    assert email.ok and email.locator is not None and email.locator.in_shadow
    assert found["Subscribe@Newsletter"].ok
    for key in ("Card number", "Pay now", "Card number@Payment"):
        loc = found[key].locator
        assert found[key].ok and loc is not None and loc.frame_path == ('iframe[name="payment"]',)
    submit = found["Submit@Contact form"]  # disabled until the form is valid
    assert submit.unresolved is not None and submit.unresolved.reason == "not_actionable"
    assert submit.unresolved.failed_point is not None
    assert submit.unresolved.failed_point.name == "enabled"
    assert attr(tab, submit, "data-test") == "contact-submit"
    milk = found["checkbox@Buy milk"]
    assert milk.locator is not None and milk.locator.strategy is Strategy.RELATIONAL
    row = to_playwright(tab, milk.locator).evaluate("e => e.closest('li').textContent")
    assert "Buy milk" in row
    assert found["I agree to the terms"].ok and found["Shipping method"].ok
    draft = found["Delete@Draft B"]
    assert draft.locator is not None
    card = to_playwright(tab, draft.locator).evaluate("e => e.closest('article').textContent")
    assert "Draft B" in card and "Draft A" not in card
    report = found["Download report"]  # under the cookie banner, the last thing on the page
    assert report.unresolved is not None and report.unresolved.failed_point is not None
    assert report.unresolved.failed_point.code == "obscured"
    assert "Cookie consent" in report.unresolved.failed_point.reason
