"""How an iframe is named and whether it can be read, asked from inside it (``frame_info``).

The iframe's element used to be read through an element handle (``Frame.frame_element``):
for the handle's preview Playwright builds its selector code in the page's own world, 25-55
ms on each new document, on every discovery and heal of a page with an iframe; and that call
had no deadline of its own."""

from __future__ import annotations

import html
from collections.abc import Iterator

import pytest
from playwright.sync_api import Frame, Page

from pytest_pacts.runtime.bridge import _may_share_origin, call_in_frame, frame_info

# its tests change the page itself: a new context per test (tests/tabs.py)
FRESH_CONTEXT = True


def _srcdoc(body: str) -> str:
    return html.escape(body, quote=True)


@pytest.fixture
def no_handles(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Frame]]:
    """Every ``Frame.frame_element`` call, which then fails the test."""
    asked: list[Frame] = []

    def refuse(frame: Frame) -> object:
        asked.append(frame)
        raise AssertionError("frame_element() was called")

    monkeypatch.setattr(Frame, "frame_element", refuse)
    yield asked


def _nested(tab: Page) -> tuple[Frame, Frame, Frame]:
    inner = '<button id="pay">Pay</button>'
    outer = f'<p>Card</p><iframe title="Inner" srcdoc="{_srcdoc(inner)}"></iframe>'
    tab.set_content(
        '<iframe name="ad" srcdoc="<p>ad</p>"></iframe>'
        f'<iframe title="Payment" srcdoc="{_srcdoc(outer)}"></iframe>'
    )
    tab.frame_locator("iframe[title=Payment]").frame_locator("iframe").locator("#pay").wait_for()
    payment = next(f for f in tab.main_frame.child_frames if f.child_frames)
    return tab.main_frame, payment, payment.child_frames[0]


def test_an_iframe_is_read_from_inside_it_without_an_element_handle(
    tab: Page, no_handles: list[Frame]
) -> None:
    top, payment, inner = _nested(tab)
    call_in_frame(top, "installing", "names", [])  # the engine's pages have it from the start
    call_in_frame(payment, "installing", "names", [])
    assert frame_info(top, payment) == {
        "same_origin": True,
        "selector": 'iframe[title="Payment"]',
        "in_regions": [],
    }
    nested = frame_info(payment, inner)
    assert isinstance(nested, dict) and nested["selector"] == 'iframe[title="Inner"]'
    assert no_handles == []


def test_a_parent_without_the_in_page_code_is_read_through_the_handle(tab: Page) -> None:
    top, payment, _ = _nested(tab)
    info = frame_info(top, payment)  # nothing installed in the page yet
    assert isinstance(info, dict) and info["same_origin"] is True
    assert info["selector"] == 'iframe[title="Payment"]'


def test_a_cross_origin_iframe_answers_at_once(tab: Page, no_handles: list[Frame]) -> None:
    # a sandboxed iframe without allow-same-origin has an opaque origin: never readable
    tab.set_content('<iframe sandbox="allow-scripts" srcdoc="<p>x</p>"></iframe>')
    tab.frame_locator("iframe").locator("p").wait_for()
    call_in_frame(tab.main_frame, "installing", "names", [])
    info = frame_info(tab.main_frame, tab.main_frame.child_frames[0])
    assert isinstance(info, dict) and info["same_origin"] is False
    assert no_handles == []


def test_a_frame_from_another_origin_is_not_called_into(
    tab: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Told from the URLs (another host): no call into a third-party frame, which may be
    busy (an ad's loop) and would then stall the step to its deadline."""
    pages = {
        "http://shop.test/": '<h1>Shop</h1><iframe src="http://ads.test/ad.html"></iframe>',
        "http://ads.test/ad.html": "<p>ad</p>",
    }
    tab.route(
        "http://*.test/**",
        lambda route: route.fulfill(body=pages[route.request.url], content_type="text/html"),
    )
    tab.goto("http://shop.test/")
    tab.frame_locator("iframe").locator("p").wait_for()
    ad = tab.main_frame.child_frames[0]
    called: list[Frame] = []
    real = Frame.evaluate

    def recording(frame: Frame, *args: object, **kwargs: object) -> object:
        called.append(frame)
        return real(frame, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Frame, "evaluate", recording)
    info = frame_info(tab.main_frame, ad)
    assert isinstance(info, dict) and info["same_origin"] is False
    assert ad not in called


@pytest.mark.parametrize(
    ("parent", "child", "maybe"),
    [
        ("http://a.test/x", "about:srcdoc", True),
        ("http://a.test/x", "about:blank", True),
        ("http://a.test/x", "http://a.test/y/z", True),
        ("http://a.test/x", "http://a.test:8080/y", False),
        ("http://a.test/x", "https://a.test/x", False),
        ("http://a.test/x", "http://b.test/x", False),
        ("http://a.test/x", "data:text/html,<p>x", False),
        ("http://a.test/x", "blob:http://a.test/1234", True),
        ("about:blank", "http://b.test/x", True),  # the parent's origin is not in its URL
    ],
)
def test_which_frames_may_share_the_parents_origin(parent: str, child: str, maybe: bool) -> None:
    assert _may_share_origin(parent, child) is maybe


def test_the_only_iframe_is_named_by_its_place_not_its_address(tab: Page) -> None:
    """HTML: an iframe's ``src`` is the address its document was opened at, and an admin's
    dialog frame carries the record's id and its model's name in it (django CMS's settings
    dialog: ``/admin/cms/page/9/change/...`` on 3.11.11, ``/admin/cms/pagecontent/5/change/...``
    on 4.1.11, so the recorded frame was not found on the upgrade). A frame with no name of its
    own that is its document's only iframe is named by that place (Playwright:
    ``frame_locator("iframe")``); its address names it only among several iframes. Failed
    before: ``iframe[src="/admin/cms/page/9/change/?language=en"]``."""
    pages = {
        "http://cms.test/": '<h1>Contact</h1><iframe src="/admin/cms/page/9/change/?language=en">'
        "</iframe>",
        "http://cms.test/two": '<iframe src="/a/1/"></iframe><iframe src="/admin/cms/page/9/"></iframe>',
        "http://cms.test/ad": '<iframe id="ember12" src="/admin/cms/page/9/"></iframe>',
    }
    form = '<label for="m">Menu Title</label><input id="m">'
    tab.route(
        "http://cms.test/**",
        lambda route: route.fulfill(
            body=pages.get(route.request.url, form), content_type="text/html"
        ),
    )
    named = {}
    for url in pages:
        tab.goto(url)
        tab.frame_locator("iframe").last.locator("#m").wait_for()
        call_in_frame(tab.main_frame, "installing", "names", [])
        info = frame_info(tab.main_frame, tab.main_frame.child_frames[-1])
        assert isinstance(info, dict)
        named[url] = info["selector"]
    assert named == {
        "http://cms.test/": "iframe",
        "http://cms.test/two": 'iframe[src="/admin/cms/page/9/"]',
        "http://cms.test/ad": "iframe",  # a generated id is no name either (Ember's counter)
    }
