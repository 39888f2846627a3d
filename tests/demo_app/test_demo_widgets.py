"""The widgets page: each trap behaves as the demo app README says."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error, Page, expect

from .demo_helpers import App


@pytest.fixture
def widgets(demo_page: Page, app: App) -> Page:
    demo_page.goto(app.url + "/widgets.html")
    expect(demo_page.get_by_role("heading", name="Widgets", level=1)).to_be_visible()
    return demo_page


def test_every_widget_is_a_region_named_by_its_heading(widgets: Page) -> None:
    for name in (
        "Newsletter",
        "Payment",
        "Contact form",
        "Sliding panel",
        "Hover menu",
        "Shipping",
        "To-do list",
        "Terms",
        "Late results",
        "Drafts",
        "Sales chart",
        "Reports",
    ):
        region = widgets.get_by_role("region", name=name, exact=True)
        expect(region).to_have_count(1)
        expect(region.get_by_role("heading", name=name, exact=True)).to_be_visible()


def test_newsletter_lives_in_an_open_shadow_root(widgets: Page) -> None:
    in_shadow = widgets.evaluate(
        """() => {
            const host = document.querySelector('pacts-newsletter');
            return [host.shadowRoot !== null,
                    host.shadowRoot.querySelector('input[type=email]') !== null,
                    document.querySelector('input[type=email][placeholder="you@example.com"]')];
        }"""
    )
    assert in_shadow == [True, True, None]
    region = widgets.get_by_role("region", name="Newsletter")
    subscribe = region.get_by_role("button", name="Subscribe")
    subscribe.click()
    expect(region.get_by_role("status")).to_have_text("Please enter a valid email address")
    region.get_by_label("Email").fill("ada@example.com")
    subscribe.click()
    expect(region.get_by_role("status")).to_have_text("Subscribed!")


def test_payment_form_lives_in_a_same_origin_iframe(widgets: Page, app: App) -> None:
    frame = widgets.frame_locator("iframe[title=Payment]")
    expect(widgets.get_by_label("Card number")).to_have_count(0)  # not in the top document
    frame.get_by_label("Card number").fill("1234")
    frame.get_by_role("button", name=app.text["pay"], exact=True).click()
    expect(frame.get_by_role("status")).to_have_text("Card number is invalid")
    frame.get_by_label("Card number").fill("4242 4242 4242 4242")
    frame.get_by_role("button", name=app.text["pay"], exact=True).click()
    expect(frame.get_by_role("status")).to_have_text("Payment accepted")


def test_submit_is_disabled_until_the_form_is_valid(widgets: Page, app: App) -> None:
    region = widgets.get_by_role("region", name="Contact form")
    submit = region.get_by_role("button", name=app.text["submit"], exact=True)
    expect(submit).to_be_disabled()
    region.get_by_label("Full name").fill("Ada Lovelace")
    expect(submit).to_be_disabled()
    region.get_by_label("Email address").fill("not-an-email")
    expect(submit).to_be_disabled()
    region.get_by_label("Email address").fill("ada@example.com")
    expect(submit).to_be_enabled()
    submit.click()
    expect(region.get_by_role("status")).to_have_text("Form submitted")


def test_sliding_panel_animates_before_confirm_is_clickable(widgets: Page, app: App) -> None:
    region = widgets.get_by_role("region", name="Sliding panel")
    confirm = region.get_by_role("button", name="Confirm")
    expect(confirm).to_be_hidden()
    # Click and sample in the same task: the panel must be mid-transition, not already there.
    running = widgets.evaluate(
        """(name) => {
            const button = [...document.querySelectorAll('button')]
                .find((b) => b.textContent.trim() === name);
            button.click();
            const panel = document.querySelector('.is-open');
            return panel.getAnimations().map((a) => a.transitionProperty).sort();
        }""",
        app.text["show_panel"],
    )
    assert "transform" in running
    confirm.click()  # Playwright waits for the element to be stable
    expect(region.get_by_role("status")).to_have_text("Confirmed")


def test_cookie_banner_covers_the_download_button_until_accepted(widgets: Page, app: App) -> None:
    download = widgets.get_by_role("button", name="Download report")
    download.scroll_into_view_if_needed()
    box = download.bounding_box()
    assert box is not None
    covered_by_banner = widgets.evaluate(
        """([x, y]) => {
            const hit = document.elementFromPoint(x, y);
            const banner = document.querySelector('aside[aria-label="Cookie consent"]');
            return banner !== null && banner.contains(hit);
        }""",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert covered_by_banner
    with pytest.raises(Error, match="intercepts pointer events"):
        download.click(timeout=1_000)
    widgets.get_by_role("button", name=app.text["accept_cookies"], exact=True).click()
    expect(widgets.get_by_role("complementary", name="Cookie consent")).to_be_hidden()
    download.click()
    expect(widgets.get_by_role("region", name="Reports").get_by_role("status")).to_have_text(
        "Report downloaded"
    )


def test_account_menu_items_appear_only_on_hover(widgets: Page) -> None:
    region = widgets.get_by_role("region", name="Hover menu")
    settings = region.get_by_role("menuitem", name="Settings")
    expect(settings).to_be_hidden()
    region.get_by_role("button", name="Account").hover()
    expect(settings).to_be_visible()
    expect(region.get_by_role("menuitem", name="Profile")).to_be_visible()
    settings.click()
    expect(region.get_by_role("status")).to_have_text("Settings opened")


def test_shipping_select_shows_the_chosen_method(widgets: Page) -> None:
    region = widgets.get_by_role("region", name="Shipping")
    expect(region.get_by_role("status")).to_have_text("Shipping method: Standard")
    region.get_by_label("Shipping method").select_option(label="Express")
    expect(region.get_by_role("status")).to_have_text("Shipping method: Express")
    region.get_by_label("Shipping method").select_option(label="Overnight")
    expect(region.get_by_role("status")).to_have_text("Shipping method: Overnight")


def test_todo_checkboxes_are_found_by_their_row_text_terms_by_label(widgets: Page) -> None:
    region = widgets.get_by_role("region", name="To-do list")
    # The relational case: the checkbox has no name of its own, only its row has text.
    expect(region.get_by_role("checkbox", name="Buy milk")).to_have_count(0)
    expect(region.get_by_role("checkbox")).to_have_count(3)
    milk = region.get_by_role("listitem").filter(has_text="Buy milk").get_by_role("checkbox")
    milk.check()
    expect(milk).to_be_checked()
    expect(region.get_by_role("status")).to_have_text("1 of 3 done")
    region.get_by_role("listitem").filter(has_text="Write tests").get_by_role("checkbox").check()
    expect(region.get_by_role("status")).to_have_text("2 of 3 done")

    region = widgets.get_by_role("region", name="Terms")
    expect(region.get_by_role("status")).to_have_text("Terms not accepted")
    region.get_by_label("I agree to the terms").check()
    expect(region.get_by_role("status")).to_have_text("Terms accepted")


def test_results_arrive_late(widgets: Page, app: App) -> None:
    region = widgets.get_by_role("region", name="Late results")
    export = region.get_by_role("button", name=app.text["export_results"], exact=True)
    expect(export).to_have_count(0)
    region.get_by_role("button", name=app.text["load_results"], exact=True).click()
    expect(region.get_by_role("status")).to_have_text("Loading…")
    expect(region.get_by_role("listitem")).to_have_text(["Result 1", "Result 2", "Result 3"])
    export.click()
    expect(region.get_by_role("status")).to_have_text("Results exported")


def test_two_delete_buttons_are_told_apart_by_their_card(widgets: Page) -> None:
    region = widgets.get_by_role("region", name="Drafts")
    expect(region.get_by_role("button", name="Delete")).to_have_count(2)
    region.get_by_role("article", name="Draft B").get_by_role("button", name="Delete").click()
    expect(region.get_by_role("status")).to_have_text("Draft deleted (1 left)")
    expect(region.get_by_role("article", name="Draft B")).to_have_count(0)
    expect(widgets.get_by_text("Draft B")).to_have_count(0)
    expect(region.get_by_role("article", name="Draft A")).to_be_visible()


def test_sales_chart_is_pixels_from_fetched_json_and_its_button_only_an_image(
    widgets: Page,
) -> None:
    region = widgets.get_by_role("region", name="Sales chart")
    canvas = region.locator("canvas")
    expect(canvas).to_have_attribute("data-total", "11345")  # drawn from the fetched JSON
    expect(region.get_by_text("Jan")).to_have_count(0)  # the labels are pixels
    button = region.get_by_role("img")
    expect(button).to_have_count(1)
    assert button.evaluate(
        "e => [e.textContent, e.getAttribute('alt'), e.getAttribute('aria-label'), e.title]"
    ) == ["", None, None, ""]  # nothing but its picture names it
    button.click()
    expect(region.get_by_role("status")).to_have_text("Chart refreshed")
