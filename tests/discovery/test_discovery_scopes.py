"""Open shadow roots and same-origin iframes (a frame path is part of a locator)."""

from __future__ import annotations

import functools
import html
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import check_locator, discover, to_code, to_playwright
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import Strategy

from .helpers import chosen_id, find

# its pages define custom elements, which outlive a document written over: a new context
# per test (tests/tabs.py)
FRESH_CONTEXT = True

SHADOW = """
<pacts-newsletter id="host"></pacts-newsletter>
<script>
customElements.define('pacts-newsletter', class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({mode: 'open'}).innerHTML =
      '<label for="e">Email</label><input id="e" type="email">' +
      '<button id="s">Subscribe</button>';
  }
});
</script>
"""


def test_elements_inside_an_open_shadow_root(tab: Page) -> None:
    tab.set_content(SHADOW)
    email = find(tab, "Email", "fill")
    subscribe = find(tab, "Subscribe")
    assert chosen_id(tab, email) == "e" and chosen_id(tab, subscribe) == "s"
    assert email.locator is not None and email.locator.in_shadow
    assert email.fingerprint is not None and email.fingerprint.in_shadow
    assert email.gate is not None and email.gate.ok


def test_shadow_strategy_names_the_element_through_its_host(tab: Page) -> None:
    # The inner button has no name; the only fitting element inside <icon-close>.
    tab.set_content(
        '<icon-close id="host"></icon-close><script>'
        "customElements.define('icon-close', class extends HTMLElement { constructor() {"
        " super(); this.attachShadow({mode: 'open'}).innerHTML = '<button id=\"x\">×</button>';"
        "}});</script>"
    )
    result = find(tab, "Icon close")
    assert chosen_id(tab, result) == "x"
    assert result.locator is not None
    assert (result.locator.strategy, result.locator.confidence) == (Strategy.SHADOW, 0.80)
    assert result.locator.host == "icon-close#host"


def test_scoped_point_fails_when_shadow_expectation_is_wrong(tab: Page) -> None:
    tab.set_content(SHADOW)
    result = find(tab, "Subscribe")
    assert result.locator is not None
    wrong = result.locator.model_copy(update={"in_shadow": False})
    gate = check_locator(tab, wrong, Action.CLICK)
    assert gate.failed is not None and gate.failed.name == "scoped"
    assert gate.failed.code == "not_scoped"


def _srcdoc(inner: str) -> str:
    return html.escape(inner, quote=True)


def test_same_origin_iframe_records_the_frame_path(tab: Page) -> None:
    card = '<label for="cn">Card number</label><input id="cn"><button id="pay">Pay now</button>'
    tab.set_content(
        f'<h1>Checkout</h1><iframe title="Payment" srcdoc="{_srcdoc(card)}"></iframe>'
        "<button id='outside'>Cancel</button>"
    )
    tab.frame_locator('iframe[title="Payment"]').get_by_text("Pay now").wait_for()
    targets = [
        ("card", Target(element="Card number"), Action.FILL),
        ("pay", Target(element="Pay now"), Action.CLICK),
        ("cancel", Target(element="Cancel"), Action.CLICK),
    ]
    results = discover(tab, targets)
    assert chosen_id(tab, results["card"]) == "cn"
    assert chosen_id(tab, results["pay"]) == "pay"
    assert chosen_id(tab, results["cancel"]) == "outside"
    card_locator = results["card"].locator
    assert card_locator is not None
    assert card_locator.frame_path == ('iframe[title="Payment"]',)
    assert results["cancel"].locator is not None and results["cancel"].locator.frame_path == ()
    assert to_code(card_locator) == (
        'page.frame_locator(\'iframe[title="Payment"]\').get_by_label("Card number", exact=True)'
    )
    to_playwright(tab, card_locator).fill("4242")
    assert tab.frames[1].eval_on_selector("#cn", "e => e.value") == "4242"


def test_nested_iframes(tab: Page) -> None:
    inner = '<button id="deep">Deep button</button>'
    middle = f'<iframe name="inner" srcdoc="{_srcdoc(inner)}"></iframe>'
    tab.set_content(f'<iframe id="outer" srcdoc="{_srcdoc(middle)}"></iframe>')
    tab.frame_locator("#outer").frame_locator('iframe[name="inner"]').get_by_text("Deep").wait_for()
    result = find(tab, "Deep button")
    assert chosen_id(tab, result) == "deep"
    assert result.locator is not None
    assert result.locator.frame_path == ("iframe#outer", 'iframe[name="inner"]')


def test_same_name_in_page_and_frame_is_ambiguous(tab: Page) -> None:
    inner = "<button>Save</button>"
    tab.set_content(f'<button>Save</button><iframe srcdoc="{_srcdoc(inner)}"></iframe>')
    tab.frame_locator("iframe").get_by_text("Save").wait_for()
    result = find(tab, "Save")
    assert result.unresolved is not None and result.unresolved.reason == "ambiguous"
    assert any("in frame" in c.description for c in result.unresolved.candidates)


@pytest.fixture(scope="module")
def other_origin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A loopback server: pages from it are cross-origin to ``set_content`` pages."""
    root = tmp_path_factory.mktemp("site")
    (root / "card.html").write_text('<label for="cn">Card number</label><input id="cn">')
    handler = functools.partial(QuietHandler, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def test_cross_origin_iframes_are_not_searched(tab: Page, other_origin: str) -> None:
    tab.set_content(f'<iframe title="Card" src="{other_origin}/card.html"></iframe>')
    tab.frame_locator("iframe").get_by_label("Card number").wait_for()
    result = find(tab, "Card number", "fill")
    assert result.unresolved is not None and result.unresolved.reason == "none"


def test_a_region_holding_the_iframe_holds_what_is_inside_it(tab: Page) -> None:
    card = '<label for="cn">Card number</label><input id="cn">'
    tab.set_content(
        f'<section id="billing"><h2>Payment</h2><iframe srcdoc="{_srcdoc(card)}"></iframe>'
        '</section><section><h2>Gift card</h2><label for="g">Card number</label>'
        '<input id="g"></section>'
    )
    tab.frame_locator("iframe").get_by_label("Card number").wait_for()
    inside = find(tab, "Card number", "fill", region="Payment")
    outside = find(tab, "Card number", "fill", region="Gift card")
    assert chosen_id(tab, inside) == "cn" and chosen_id(tab, outside) == "g"
    assert inside.locator is not None and inside.locator.frame_path
