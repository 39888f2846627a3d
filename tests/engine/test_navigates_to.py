"""``navigates_to:X`` reads the page's name as a person does (docs/reference.md).

Real apps keep their own name in ``<title>`` and show the page's name in a styled element:
``<span class="title">``, a ``page-header`` div, a breadcrumb's last item, a test id, or just
big bold text. Those count; a word in body text or in a nav link does not.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .helpers import Site, plan, run

CARDS = "".join(
    f"<div class='item'><div class='item-name' style='font-size:20px'>Item {i}</div>"
    f"<p>Lorem ipsum dolor sit amet, body text of item {i}.</p><button>Add to cart</button></div>"
    for i in range(6)
)
NAV = (
    "<div class='header'><div class='app-logo'>Swag Labs</div>"
    "<nav><a href='#'>Home</a> <a href='#'>Products</a> <a href='#'>Orders</a></nav></div>"
)

NAMED = {
    "span-title": f"{NAV}<div class='sub'><span class='title'>Products</span></div>{CARDS}",
    "page-header": f"{NAV}<div class='page-header'>Products</div>{CARDS}",
    "breadcrumb": (
        f"{NAV}<nav aria-label='Breadcrumb'><ol><li><a href='#'>Home</a></li>"
        f"<li><a href='#'>Catalog</a></li><li>Products</li></ol></nav>{CARDS}"
    ),
    "breadcrumb-active": (
        f"{NAV}<ul class='crumbs breadcrumb'><li><a href='#'>Home</a></li>"
        f"<li class='breadcrumb-item active'>Products</li><li><a href='#'>Help</a></li></ul>"
        f"{CARDS}"
    ),
    "data-test": f"{NAV}<div data-test='title'>Products</div>{CARDS}",
    "prominent": (
        f"{NAV}<main><div style='font-size:30px;font-weight:700'>Products</div>{CARDS}</main>"
    ),
    "aria-level": f"{NAV}<div role='heading' aria-level='2'>Products</div>{CARDS}",
}

NOT_NAMED = {
    # the nav menu says Products, the heading says Orders
    "nav-link": f"{NAV}<h1>Orders</h1><p>Products you ordered are listed below.</p>{CARDS}",
    # body text near the top mentions it; the title-like element names another page
    "body-text": (
        f"{NAV}<span class='title'>Orders</span><p>Products ship within two days.</p>{CARDS}"
    ),
    # a bold, big nav link is still a link; a header full of links is navigation
    "big-link": (
        "<div class='page-header'><a href='#' style='font-size:30px;font-weight:700'>"
        f"Products</a><a href='#'>Orders</a></div><h2>Orders</h2>{CARDS}"
    ),
    # a grid of big card titles: item titles, not the page's name
    "card-titles": NAV
    + "<h1>Orders</h1>"
    + "".join(
        f"<div class='card'><div class='card-title' style='font-size:24px'>Products {i}</div>"
        "<p>Body text.</p></div>"
        for i in range(4)
    ),
    # the name is far down the page, under the fold
    "far-down": f"{NAV}<h1>Orders</h1><div style='height:2000px'></div>"
    "<div class='title' style='font-size:30px'>Products</div>",
}


def _run(tab: Page, site: Site, name: str, body: str) -> str:
    target = site.add(f"nav-{name}.html", body, title="Swag Labs")
    start = site.add(f"nav-start-{name}.html", f"<a href='{target}'>Go on</a>", title="Swag Labs")
    record = run(tab, plan(start, ("click", "Go on", "", "navigates_to:Products")))
    failed = record.failed_step
    return (
        "pass"
        if record.verdict == "pass"
        else (failed.failure.message if failed and failed.failure else "?")
    )


@pytest.mark.parametrize("name", sorted(NAMED))
def test_the_page_name_as_a_person_reads_it(shared_tab: Page, site: Site, name: str) -> None:
    assert _run(shared_tab, site, name, NAMED[name]) == "pass"


@pytest.mark.parametrize("name", sorted(NOT_NAMED))
def test_body_text_and_nav_links_do_not_name_the_page(
    shared_tab: Page, site: Site, name: str
) -> None:
    outcome = _run(shared_tab, site, name, NOT_NAMED[name])
    assert outcome != "pass"
    assert "is not 'products'" in outcome
