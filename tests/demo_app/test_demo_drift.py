"""Spot checks that the drift table in the demo app README is true of the served pages."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from pytest_pacts.demo_app import DemoServer

from .demo_helpers import TEXT, App, log_in

# (page, what only v1 has, what only v2 has): one row per README drift kind at least.
DRIFT: list[tuple[str, str, str]] = [
    ("/", "form#login_form.login-form", "form#auth-form"),
    ("/", "input#user-name[name=user-name]", "input#username-input[name=username]"),
    ("/", "[data-test=login-button]", ".form-actions > button#login-button:not([data-test])"),
    ("/", "h3[data-test=error]", "div.alert[data-test=error]"),
    ("/inventory.html", "div.inventory_item", "article.product-card"),
    ("/inventory.html", "#add-to-cart-sauce-labs-backpack", ".product-card__actions > button"),
    ("/inventory.html", "a.shopping_cart_link", "a.cart-link[data-test=cart-link]"),
    ("/inventory.html", "select#sort", "select#sort-select"),
    ("/inventory.html", "#logout_sidebar_link", "#nav-logout"),
    ("/cart.html", "button#checkout", "button#checkout-btn"),
    ("/checkout-step-one.html", "input#first-name", "input#firstName"),
    ("/checkout-step-two.html", "button#finish", "button#place-order"),
    ("/checkout-complete.html", "h3.complete-header", "h2.complete-header"),
    ("/widgets.html", "[data-test=cookie-banner]", "aside#consent"),
    ("/widgets.html", "[data-test=download-report]", "button#report-download"),
    ("/widgets.html", "ul#todo-list", "ul#tasks"),
    ("/widgets.html", "#contact-submit", "[data-test=delete-draft-b]"),
]

# Same label, wording changed: the person's intent stays, the exact text does not.
TEXTS: list[tuple[str, str, str]] = [
    ("/", "Login", "Log in"),
    ("/inventory.html", "Add to cart", "Add to Cart"),
    ("/cart.html", "Checkout", "Proceed to checkout"),
    ("/checkout-step-two.html", "Finish", "Place order"),
    ("/widgets.html", "Show panel", "Open panel"),
    ("/widgets.html", "Accept cookies", "Accept all cookies"),
]


def test_drift_table_rows_hold(demo_page: Page, demo_servers: dict[str, DemoServer]) -> None:
    page = demo_page
    paths = sorted({path for path, _, _ in DRIFT + TEXTS})
    found: dict[tuple[str, str, str], int] = {}
    for release in ("v1", "v2"):
        url = demo_servers[release].url
        log_in(page, App(release, url, TEXT[release]))
        for path in paths:
            page.goto(url + path)
            expect(page.locator("body.is-ready")).to_have_count(1)
            selectors = [s for p, *pair in DRIFT if p == path for s in pair]
            counts = page.evaluate(
                "selectors => selectors.map((s) => document.querySelectorAll(s).length)",
                selectors,
            )
            found.update({(release, path, s): n for s, n in zip(selectors, counts, strict=True)})
            for text in {t for p, *pair in TEXTS if p == path for t in pair}:
                buttons = page.get_by_role("button", name=text, exact=True).count()
                found[(release, path, "button:" + text)] = buttons
    for path, only_v1, only_v2 in DRIFT:
        assert found["v1", path, only_v1] >= 1 and found["v2", path, only_v1] == 0, only_v1
        assert found["v2", path, only_v2] >= 1 and found["v1", path, only_v2] == 0, only_v2
    for path, text_v1, text_v2 in TEXTS:
        v1, v2 = "button:" + text_v1, "button:" + text_v2
        assert found["v1", path, v1] >= 1 and found["v2", path, v1] == 0, text_v1
        assert found["v2", path, v2] >= 1 and found["v1", path, v2] == 0, text_v2


def test_v2_lists_products_by_price_by_default(demo_page: Page, app: App) -> None:
    log_in(demo_page, app)
    names = demo_page.locator("[data-test=inventory-item-name]")
    first = "Sauce Labs Backpack" if app.release == "v1" else "Sauce Labs Onesie"
    expect(names.first).to_have_text(first)
    default = "Name (A to Z)" if app.release == "v1" else "Price (low to high)"
    expect(demo_page.get_by_label("Sort products").locator("option:checked")).to_have_text(default)
