"""The shop flows of both releases, driven as a person would."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from pytest_pacts.demo_app import DemoServer

from .demo_helpers import TEXT, App, log_in


def test_login_rejects_bad_credentials_with_an_alert(demo_page: Page, app: App) -> None:
    page = demo_page
    page.goto(app.url + "/")
    expect(page.get_by_role("heading", name="Swag Labs")).to_be_visible()
    alert = page.locator("[data-test=error]")
    expect(alert).to_be_hidden()
    for user, password, message in [
        ("", "secret_sauce", "Epic sadface: Username is required"),
        ("standard_user", "wrong", "Epic sadface: Username and password do not match any user"),
        ("locked_out_user", "secret_sauce", "Epic sadface: Sorry, this user has been locked out."),
    ]:
        page.get_by_placeholder("Username").fill(user)
        page.get_by_placeholder("Password").fill(password)
        page.get_by_role("button", name=app.text["login"], exact=True).click()
        expect(alert).to_contain_text(message)
        expect(alert).to_have_attribute("role", "alert")
    expect(page).to_have_url(app.url + "/")


def test_protected_pages_send_a_stranger_to_the_login_page(demo_page: Page, app: App) -> None:
    demo_page.goto(app.url + "/cart.html")
    expect(demo_page).to_have_url(re.compile(r"/index.html\?from="))
    expect(demo_page.get_by_role("alert")).to_have_text(
        "Epic sadface: You can only access '/cart.html' when you are logged in."
    )


def test_products_lists_six_items_and_sorts_them(shop_page: Page, app: App) -> None:
    names = {
        "Sauce Labs Backpack": "$29.99",
        "Sauce Labs Bike Light": "$9.99",
        "Sauce Labs Bolt T-Shirt": "$15.99",
        "Sauce Labs Fleece Jacket": "$49.99",
        "Sauce Labs Onesie": "$7.99",
        "Test.allTheThings() T-Shirt (Red)": "$15.99",
    }
    add_buttons = shop_page.get_by_role("button", name=app.text["add"], exact=True)
    expect(add_buttons).to_have_count(6)
    card = "div.inventory_item" if app.release == "v1" else "article.product-card"
    for name, price in names.items():
        item = shop_page.locator(card).filter(has_text=name)
        expect(item).to_have_count(1)
        expect(item).to_contain_text(price)

    sort = shop_page.get_by_label("Sort products")
    sort.select_option(label="Price (high to low)")
    prices = shop_page.get_by_text(re.compile(r"^\$\d+\.\d\d$"))
    expect(prices.first).to_have_text("$49.99")
    expect(prices.last).to_have_text("$7.99")
    sort.select_option(label="Name (Z to A)")
    expect(prices.first).to_have_text("$15.99")  # Test.allTheThings() sorts last A..Z


def test_add_remove_and_the_cart(shop_page: Page, app: App) -> None:
    item = shop_page.locator("[data-product-id=sauce-labs-bike-light]")
    cart = shop_page.get_by_role("link", name="Shopping cart")
    item.get_by_role("button", name=app.text["add"], exact=True).click()
    expect(item.get_by_role("button", name="Remove")).to_be_visible()
    expect(cart).to_have_text("1")
    item.get_by_role("button", name="Remove").click()
    expect(item.get_by_role("button", name=app.text["add"], exact=True)).to_be_visible()
    expect(cart).to_have_text("")

    page = shop_page
    for product in ("sauce-labs-onesie", "sauce-labs-fleece-jacket"):
        page.locator(f"[data-product-id={product}]").get_by_role("button").click()
    cart.click()
    onesie = page.locator("[data-product-id=sauce-labs-onesie]")
    expect(onesie).to_contain_text("1")
    onesie.get_by_role("button", name="Remove").click()
    expect(page.get_by_text("Sauce Labs Onesie")).to_have_count(0)
    expect(page.get_by_text("Sauce Labs Fleece Jacket")).to_be_visible()
    page.get_by_role("button", name=app.text["continue_shopping"], exact=True).click()
    expect(page.get_by_role("heading", name="Products")).to_be_visible()
    expect(cart).to_have_text("1")


def test_checkout_from_backpack_to_thank_you(shop_page: Page, app: App) -> None:
    page, text = shop_page, app.text
    page.locator("[data-test=add-to-cart-sauce-labs-backpack]").click()
    expect(page.get_by_role("link", name="Shopping cart")).to_have_text("1")
    page.get_by_role("link", name="Shopping cart").click()

    expect(page.get_by_role("heading", name="Your Cart")).to_be_visible()
    expect(page.get_by_text("Sauce Labs Backpack")).to_be_visible()
    page.get_by_role("button", name=text["checkout"], exact=True).click()

    expect(page.get_by_role("heading", name="Checkout: Your Information")).to_be_visible()
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("alert")).to_have_text("Error: First Name is required")
    page.get_by_label("First Name").fill("Ada")
    page.get_by_label("Last Name").fill("Lovelace")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("alert")).to_have_text("Error: Postal Code is required")
    page.get_by_label("Zip/Postal Code").fill("10115")
    page.get_by_role("button", name="Continue").click()

    expect(page.get_by_role("heading", name="Checkout: Overview")).to_be_visible()
    expect(page.get_by_text("Item total: $29.99")).to_be_visible()
    expect(page.get_by_text("Tax: $2.40")).to_be_visible()
    expect(page.get_by_text("Total: $32.39", exact=True)).to_be_visible()
    with page.expect_response("**/api/order") as placed:
        page.get_by_role("button", name=text["finish"], exact=True).click()

    expect(page.get_by_role("heading", name="Checkout: Complete!")).to_be_visible()
    expect(page.get_by_role("heading", name="Thank you for your order!")).to_be_visible()
    # the order number shown is the one the server's JSON answer carried
    order = placed.value.json()["order"]
    assert placed.value.request.method == "POST" and order["status"] == "confirmed"
    assert re.fullmatch(r"ORD-\d{6}", order["id"]) and order["total"] == "32.39"
    number = page.locator("[data-test=order-number]")
    expect(number).to_have_text(order["id"])
    expect(number).to_have_attribute("data-order-id", order["id"])
    with page.expect_response("**/api/order?id=*") as again:
        page.reload()
    assert again.value.json()["order"]["id"] == order["id"]  # a reload reads it back
    expect(number).to_have_text(order["id"])
    expect(page.get_by_role("link", name="Shopping cart")).to_have_text("")
    page.get_by_role("button", name=text["back_home"], exact=True).click()
    expect(page.get_by_role("heading", name="Products")).to_be_visible()


def test_session_is_stored_and_the_burger_menu_logs_out(demo_page: Page, app: App) -> None:
    page = demo_page
    log_in(page, app, "problem_user")
    stored = page.evaluate(
        "[localStorage.getItem('pacts.session'), sessionStorage.getItem('pacts.session')]"
    )
    assert stored == ["problem_user", "problem_user"]
    logout = page.get_by_role("link", name=app.text["logout"], exact=True)
    expect(logout).to_be_hidden()
    page.get_by_role("button", name=app.text["open_menu"], exact=True).click()
    logout.click()
    expect(page).to_have_url(app.url + "/")
    page.goto(app.url + "/inventory.html")
    expect(page).to_have_url(re.compile(r"/index.html\?from="))


def test_problem_user_sees_broken_pictures_and_sorting_does_nothing(
    demo_page: Page, demo_servers: dict[str, DemoServer]
) -> None:
    app = App("v1", demo_servers["v1"].url, TEXT["v1"])
    log_in(demo_page, app, "problem_user")
    pictures = demo_page.locator(".inventory_item_img img")
    expect(pictures).to_have_count(6)
    for index in range(6):
        expect(pictures.nth(index)).to_have_attribute("src", "/assets/img/broken.svg")
    demo_page.get_by_label("Sort products").select_option(label="Price (high to low)")
    names = demo_page.locator("[data-test=inventory-item-name]")
    expect(names.first).to_have_text("Sauce Labs Backpack")  # still A to Z
