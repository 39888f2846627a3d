"""Healing on a page whose array methods throw (a library that replaced them): its checks
of candidate locators get the elements through the bridge (``runtime/bridge.py``), so
Playwright's selector code never runs in the page's world, where it would throw."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import to_playwright
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.runtime.scripts import init_script
from tests.hostile_pages import BROKEN_ARRAYS

from .helpers import discovered, failing_context

SHOP = "<h1>Shop</h1><button id='{id}' data-test='buy'>Buy now</button><button>Back</button>"


def _show(page: Page, body: str) -> None:
    """``body`` as a new document with the in-page code from its first moment, as on the
    engine's pages (``set_content`` writes into the current document instead)."""
    html = f"<!doctype html><html><body>{body}</body></html>"
    page.unroute("http://pacts.test/**")
    page.route(
        "http://pacts.test/**", lambda route: route.fulfill(body=html, content_type="text/html")
    )
    page.goto("http://pacts.test/shop.html")


@pytest.mark.parametrize("patch", ["", BROKEN_ARRAYS], ids=["plain", "array methods throw"])
def test_a_drifted_button_is_healed_on_a_page_whose_array_methods_throw(
    tab: Page, patch: str
) -> None:
    tab.add_init_script(init_script())
    _show(tab, SHOP.format(id="buy"))
    plan, state = discovered(tab, "Buy now")
    _show(tab, SHOP.format(id="purchase") + patch)  # the next release, same words and test id
    gone = Locator(strategy=Strategy.CSS, css="#buy", confidence=0.7)
    ctx = failing_context(tab, plan, state, locator=gone)
    attempt, result = HealingLadder().heal(ctx)
    assert result is not None and result.accepted, attempt.reason
    assert result.locator is not None and result.locator.css != "#buy"
    assert result.fingerprint is not None and result.fingerprint.id == "purchase"
    # the healed locator finds it (Playwright's isolated world: the page cannot break it)
    assert to_playwright(tab, result.locator).get_attribute("id") == "purchase"
