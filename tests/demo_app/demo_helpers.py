"""Helpers shared by the demo app's tests (imported by name: tests/ has no packages)."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Page, expect

# Visible texts that differ between releases (README "Drift"); everything not listed here is
# the same in both, which the tests rely on by using it directly.
TEXT: dict[str, dict[str, str]] = {
    "v1": {
        "login": "Login",
        "add": "Add to cart",
        "open_menu": "Open Menu",
        "logout": "Logout",
        "checkout": "Checkout",
        "continue_shopping": "Continue Shopping",
        "finish": "Finish",
        "back_home": "Back Home",
        "pay": "Pay now",
        "submit": "Submit",
        "show_panel": "Show panel",
        "accept_cookies": "Accept cookies",
        "load_results": "Load results",
        "export_results": "Export results",
    },
    "v2": {
        "login": "Log in",
        "add": "Add to Cart",
        "open_menu": "Open menu",
        "logout": "Log out",
        "checkout": "Proceed to checkout",
        "continue_shopping": "Continue shopping",
        "finish": "Place order",
        "back_home": "Back to products",
        "pay": "Pay Now",
        "submit": "Send",
        "show_panel": "Open panel",
        "accept_cookies": "Accept all cookies",
        "load_results": "Load Results",
        "export_results": "Export Results",
    },
}


@dataclass(frozen=True)
class App:
    """One served release and the texts a person would read on it."""

    release: str
    url: str
    text: dict[str, str]


def log_in(page: Page, app: App, user: str = "standard_user") -> None:
    """Sign in through the login form as a person would and land on Products."""
    page.goto(app.url + "/")
    page.get_by_label("Username").fill(user)
    page.get_by_label("Password").fill("secret_sauce")
    page.get_by_role("button", name=app.text["login"], exact=True).click()
    expect(page).to_have_url(app.url + "/inventory.html")
    expect(page.get_by_role("heading", name="Products")).to_be_visible()
