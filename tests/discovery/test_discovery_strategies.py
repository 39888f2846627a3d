"""Each discovery strategy wins in its own case, with its confidence."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.models.locator import Strategy

from .helpers import chosen_id, find


def test_test_id_exact_wins_first(tab: Page) -> None:
    tab.set_content('<input id="a" data-testid="username" placeholder="Login name">')
    result = find(tab, "Username", "fill")
    assert result.ok and chosen_id(tab, result) == "a"
    assert result.locator is not None
    assert (result.locator.strategy, result.locator.confidence) == (Strategy.TEST_ID, 0.98)
    assert result.locator.test_id_attribute == "data-testid"


@pytest.mark.parametrize("attribute", ["data-test", "data-qa"])
def test_loose_description_matches_test_id_tokens(tab: Page, attribute: str) -> None:
    # "Login" ~ login-button: a whole-token substring match, so the loose confidence.
    tab.set_content(f'<div id="b" {attribute}="login-button" role="presentation">Go</div>')
    result = find(tab, "Login", "click")
    assert chosen_id(tab, result) == "b"
    assert result.locator is not None
    assert result.locator.strategy is Strategy.TEST_ID
    assert result.locator.test_id_attribute == attribute
    assert result.locator.confidence == pytest.approx(0.98 * 0.95)


def test_login_button_found_by_role_with_test_id_alternate(tab: Page) -> None:
    tab.set_content('<button id="b" data-test="login-button">Login</button><a href="#">Help</a>')
    result = find(tab, "Login")
    assert chosen_id(tab, result) == "b"
    assert result.locator is not None and result.locator.strategy is Strategy.ROLE_NAME
    assert (result.locator.role, result.locator.name, result.locator.confidence) == (
        "button",
        "Login",
        0.95,
    )
    assert Strategy.TEST_ID in {a.strategy for a in result.alternates}


def test_label_for_and_wrapping_label(tab: Page) -> None:
    tab.set_content(
        '<label for="u">Username:</label><input id="u">'
        '<label>Password <input id="p" type="password"></label>'
    )
    username = find(tab, "username", "fill")
    password = find(tab, "Password", "fill")
    assert chosen_id(tab, username) == "u" and chosen_id(tab, password) == "p"
    assert username.locator is not None and password.locator is not None
    assert username.locator.strategy is Strategy.LABEL
    assert username.locator.label == "Username:"  # rendered with the page's own text
    assert username.locator.confidence == 0.92
    assert password.locator.strategy is Strategy.LABEL


def test_placeholder(tab: Page) -> None:
    tab.set_content('<input id="e" placeholder="Email address"><input id="o" placeholder="Other">')
    result = find(tab, "Email address", "fill")
    assert chosen_id(tab, result) == "e"
    assert result.locator is not None
    assert (result.locator.strategy, result.locator.confidence) == (Strategy.PLACEHOLDER, 0.88)


@pytest.mark.parametrize(
    ("html", "field", "value"),
    [
        ('<div id="x" aria-label="Close dialog" onclick="1">×</div>', "aria_label", "Close dialog"),
        ('<span id="x" title="Refresh data">⟳</span>', "title", "Refresh data"),
        ('<input id="x" type="image" alt="Go search" src="data:,">', "alt", "Go search"),
    ],
)
def test_aria_label_title_alt(tab: Page, html: str, field: str, value: str) -> None:
    tab.set_content(html)
    result = find(tab, value)
    assert chosen_id(tab, result) == "x"
    # role+name comes first when the element has a role (the image input is a button)
    aria = [
        loc for loc in (result.locator, *result.alternates) if loc and loc.strategy is Strategy.ARIA
    ]
    assert len(aria) == 1
    assert getattr(aria[0], field) == value and aria[0].confidence == 0.90


def test_aria_attribute_wins_without_a_role(tab: Page) -> None:
    tab.set_content('<div id="x" title="Refresh data" style="cursor:pointer">⟳</div>')
    result = find(tab, "Refresh data")
    assert chosen_id(tab, result) == "x"
    assert result.locator is not None
    assert (result.locator.strategy, result.locator.title) == (Strategy.ARIA, "Refresh data")


def test_visible_text_for_a_clickable_without_role(tab: Page) -> None:
    tab.set_content('<div id="t" style="cursor:pointer" onclick="1">View all orders</div>')
    result = find(tab, "view all orders")
    assert chosen_id(tab, result) == "t"
    assert result.locator is not None
    assert (result.locator.strategy, result.locator.confidence) == (Strategy.TEXT, 0.86)


def test_css_fallback_by_id_tokens(tab: Page) -> None:
    tab.set_content('<input id="zip_code"><input id="other">')
    result = find(tab, "Zip code", "fill")
    assert chosen_id(tab, result) == "zip_code"
    assert result.locator is not None
    assert (result.locator.strategy, result.locator.css) == (Strategy.CSS, "#zip_code")
    assert result.locator.confidence == 0.80  # an unnamed field: its id is its name


def test_exact_beats_substring(tab: Page) -> None:
    tab.set_content(
        '<button id="long">Save draft</button><button id="short">Save</button>'
        '<button id="other">Saved items</button>'
    )
    assert chosen_id(tab, find(tab, "save")) == "short"


def test_whitespace_and_case_are_normalised(tab: Page) -> None:
    tab.set_content('<button id="b">  Sign\n   IN </button>')
    assert chosen_id(tab, find(tab, "sign in")) == "b"


def test_fill_never_picks_a_button(tab: Page) -> None:
    tab.set_content('<button id="btn">Email</button><input id="in" placeholder="Email">')
    result = find(tab, "Email", "fill")
    assert chosen_id(tab, result) == "in"


def test_fill_with_only_a_button_finds_nothing(tab: Page) -> None:
    tab.set_content('<button id="btn">Email</button><input type="checkbox" aria-label="Email">')
    result = find(tab, "Email", "fill")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "none"


def test_check_picks_the_checkbox_and_select_the_select(tab: Page) -> None:
    tab.set_content(
        '<h3>Newsletter</h3><label><input id="nl" type="checkbox"> Newsletter</label>'
        '<span>Country</span><label for="c">Country</label><select id="c"><option>FR</option>'
        "</select>"
    )
    assert chosen_id(tab, find(tab, "Newsletter", "check")) == "nl"
    assert chosen_id(tab, find(tab, "Country", "select")) == "c"


def test_nothing_matching_is_reported(tab: Page) -> None:
    tab.set_content("<button>Save</button>")
    result = find(tab, "Launch rocket")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "none"
    assert "Launch rocket" in result.unresolved.message


def test_fingerprint_has_what_healing_needs(tab: Page) -> None:
    tab.set_content(
        '<form id="f" class="card"><p>Intro</p><label for="u">User</label>'
        '<input id="u" name="user" type="text" class="field big" data-qa="user-field" '
        'placeholder="you" title="t"></form>'
    )
    result = find(tab, "User", "fill")
    fp = result.fingerprint
    assert fp is not None
    assert (fp.tag, fp.id, fp.name, fp.type, fp.role) == ("input", "u", "user", "text", "textbox")
    assert (fp.accessible_name, fp.label, fp.placeholder, fp.title) == ("User", "User", "you", "t")
    assert fp.test_ids == {"data-qa": "user-field"} and fp.classes == ("field", "big")
    assert fp.ancestor_path[0] == "form#f"
    assert "User" in fp.neighbour_text
    assert fp.bounding_box is not None and fp.bounding_box.width > 0


def test_a_locator_playwright_disagrees_with_is_rejected_and_the_next_one_used(tab: Page) -> None:
    # A person reads "View all"; Playwright's text engine reads "Viewall" (no space between
    # blocks). Verification catches the difference and falls back to the id.
    tab.set_content('<div id="t" style="cursor:pointer"><div>View</div><div>all</div></div>')
    result = find(tab, "View all")
    assert chosen_id(tab, result) == "t"
    assert result.locator is not None and result.locator.strategy is Strategy.CSS
    assert [r.locator.strategy for r in result.rejected] == [Strategy.TEXT]
    assert "0 elements" in result.rejected[0].reason


def test_a_blank_element_name_finds_nothing(tab: Page) -> None:
    tab.set_content("<button>Save</button>")
    result = find(tab, "  ")
    assert result.unresolved is not None and result.unresolved.reason == "none"


CART = (
    '<header><div class="primary_header"><div id="{id}" class="shopping_cart_container">'
    '<a class="shopping_cart_link" href="#cart" id="cart-link">'
    '<svg width="24" height="24"><path d="M0 0h24v24H0z"/></svg>'
    '<span class="shopping_cart_badge">3</span></a></div></div></header>'
    "<main><h1>Products</h1><button>Add to cart</button></main>"
)


@pytest.mark.parametrize("container_id", ["shopping_cart_container", "shopping-cart"])
def test_a_container_named_by_its_id_resolves_to_the_control_inside(
    tab: Page, container_id: str
) -> None:
    # "Shopping cart" names the div by its id; a person clicks the link inside it (with its
    # icon and badge), not the div
    tab.set_content(CART.format(id=container_id))
    result = find(tab, "Shopping cart")
    assert result.ok, result.unresolved
    assert chosen_id(tab, result) == "cart-link"
    assert result.locator is not None and result.locator.region is not None
    assert result.locator.region.css == f"#{container_id}"


# The container's one control, however it is built. "icon-only": neither the div nor the
# link has an accessible name, so the link is not "named like its container"; it is the
# control the container holds. "shadow-root": the container's contents are read across a
# web component's shadow root, and the button after the container is not inside it.
CONTAINED = {
    "icon-only": '<div id="shopping-cart"><a href="#cart" id="cart-link">'
    '<svg width="24" height="24"><path d="M0 0h24v24H0z"/></svg></a></div>'
    "<button>Checkout</button>",
    "shadow-root": '<div id="shopping-cart"><cart-icon></cart-icon></div><button>Checkout</button>'
    "<script>customElements.define('cart-icon', class extends HTMLElement {"
    "connectedCallback() { this.attachShadow({mode: 'open'}).innerHTML ="
    ' \'<a href="#cart" id="cart-link"><svg width="24" height="24"></svg>\''
    " + '<span class=\"badge\">3</span></a>'; }"
    "});</script>",
}


@pytest.mark.parametrize("html", CONTAINED.values(), ids=CONTAINED.keys())
def test_a_container_named_by_its_id_resolves_to_its_one_control(tab: Page, html: str) -> None:
    tab.set_content(html)
    result = find(tab, "Shopping cart")
    assert result.ok, result.unresolved
    assert chosen_id(tab, result) == "cart-link"


def test_a_clickable_container_with_nothing_actionable_inside_is_still_chosen(tab: Page) -> None:
    tab.set_content(
        '<div id="shopping-cart" style="cursor:pointer;width:40px;height:40px" '
        "onclick=\"this.dataset.clicked = 'yes'\"><svg width='24' height='24'></svg>"
        '<span class="badge">3</span></div>'
        '<div id="user-menu" style="cursor:pointer;width:40px;height:40px"><span>Ada</span></div>'
    )
    result = find(tab, "Shopping cart")
    assert chosen_id(tab, result) == "shopping-cart"
    assert chosen_id(tab, find(tab, "User menu")) == "user-menu"


def test_a_container_holding_several_controls_is_not_replaced_by_one(tab: Page) -> None:
    tab.set_content(
        '<div id="shopping-cart" onclick="1"><a href="#a" id="a">View</a>'
        '<button id="b">Empty</button></div>'
    )
    assert chosen_id(tab, find(tab, "Shopping cart")) == "shopping-cart"


# Panel tabs as a docking layout draws them: each tab shows its title and holds its own
# "Close" button. The words are the tab's (its title attribute and the text it shows).
DOCK_TABS = (
    '<div role="tablist">'
    '<div role="tab" id="t1" aria-selected="true"><div title="Dashboard" id="d1">'
    '<span>Dashboard</span><button aria-label="Close" id="c1">x</button></div></div>'
    '<div role="tab" id="t2" aria-selected="false"><div title="Properties" id="d2">'
    '<span id="s2">Properties</span><button aria-label="Close" id="c2">x</button></div></div>'
    "</div>"
)


def test_a_container_showing_the_words_is_not_its_control_named_otherwise(tab: Page) -> None:
    """A container named by its title holds one control, but shows the step's words itself,
    beside that control, whose own accessible name is another (ACCNAME 1.2: a control's name
    says what it is): the words are what a person clicks, not the control. pgAdmin 4 9.13's
    panel tabs (rc-dock: `div[title="Properties"]` holding the text and the tab's "Close"
    button): the tab was closed, a wrong-element action (docs/real-apps.md, "pgAdmin 4 to
    dev"). The cart link standing in for its container (above) shows nothing of its own."""
    tab.set_content(DOCK_TABS)
    result = find(tab, "Properties")
    assert result.ok, result.unresolved
    assert chosen_id(tab, result) in ("t2", "d2", "s2")
