"""A control named by what it holds is one target with it, for a pointer
(docs/discovery.md, "The control, not what it holds").

accname 1.2 names a link or a button from its content: ``<a><h3>Bookshop Admin</h3></a>`` is
the link "Bookshop Admin" and holds the heading "Bookshop Admin"; ``<button><img alt="Save">``
is the button "Save" and holds the image "Save". HTML's activation behaviour sends a click on
the heading or the image to the link or button around it, so the words name one thing to click,
the control. Seen on sqladmin 0.21.0 (dev): its brand, ``<h1><a href="/admin/"><h3>Bookshop
Admin</h3></a></h1>``, was "matches 2 elements equally well" on every page (``pacts elements``
listed it with no text on four pages, and as ``Bookshop Admin[1]@Books`` on the list).
"""

from __future__ import annotations

from playwright.sync_api import Page

from .helpers import chosen_id, find

GIF = "data:image/gif;base64,R0lGODlhAQABAAAAACw="


def test_a_heading_or_image_inside_a_control_gives_way_to_it(tab: Page) -> None:
    tab.set_content(
        '<h1><a id="brand" href="/admin/"><h3>Bookshop Admin</h3></a></h1>'
        f'<div><button id="save"><img alt="Save" src="{GIF}" width="16" height="16"></button></div>'
    )
    assert chosen_id(tab, find(tab, "Bookshop Admin")) == "brand"
    assert chosen_id(tab, find(tab, "Save")) == "save"
    assert chosen_id(tab, find(tab, "Save", action="hover")) == "save"


def test_two_controls_holding_the_words_stay_ambiguous(tab: Page) -> None:
    """What it holds gives way to the control around it, never to another control: two
    buttons showing the same image stay two look-alikes, and the step fails before acting."""
    tab.set_content(
        f'<button id="a"><img alt="Save" src="{GIF}" width="16" height="16"></button>'
        f'<button id="b"><img alt="Save" src="{GIF}" width="16" height="16"></button>'
    )
    result = find(tab, "Save")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "ambiguous"
