"""``discovery/inventory.py``: the nameable elements of a page, each with a text that the
project's own discovery resolves to exactly that element, and the annotated screenshot."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from pytest_pacts.demo_app import DemoServer
from pytest_pacts.discovery import discover, to_playwright
from pytest_pacts.discovery.inventory import (
    PageElement,
    _is_listed,
    annotate,
    grouped,
    list_elements,
)
from pytest_pacts.models.requirement import Action, Target
from pytest_pacts.planner.steps import parse_target
from tests.pixels import pixel

# its tests change the page itself: a new context per test (tests/tabs.py)
FRESH_CONTEXT = True


@pytest.fixture(scope="module")
def demo() -> Iterator[DemoServer]:
    server = DemoServer("v1").start()
    yield server
    server.stop()


def _target(text: str) -> Target:
    return parse_target(text)  # as a sheet's Element cell is read (ordinals included)


def _box_of(page: Page, text: str, action: str) -> tuple[float, float, float, float]:
    """Where the project's discovery, asked afresh, finds ``text``."""
    result = discover(page, [(0, _target(text), Action(action))])[0]
    assert result.locator is not None, (text, result.unresolved)
    box = to_playwright(page, result.locator).bounding_box()
    assert box is not None
    scroll = page.evaluate("[scrollX, scrollY]")
    return box["x"] + scroll[0], box["y"] + scroll[1], box["width"], box["height"]


def _same_box(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return all(abs(x - y) < 1.0 for x, y in zip(a, b, strict=True))


def test_every_text_shown_finds_exactly_its_element(tab: Page, demo: DemoServer) -> None:
    tab.goto(demo.url + "/widgets.html")
    elements = list_elements(tab)
    texts = {e.text: e for e in elements if e.text is not None}
    # two cards with a "Delete" each: the region says which; the to-do checkboxes have no
    # name of their own and are named by their row's text
    assert {"Delete@Draft A", "Delete@Draft B", "Buy milk", "Walk the dog"} <= set(texts)
    assert "Delete" not in texts
    # the payment form is a same-origin iframe: listed after the page's own elements, its
    # boxes where the frame shows them (checked below like the others)
    assert [e.text for e in elements[-2:]] == ["Card number", "Pay now"]
    assert elements[-1].group == "payment form"
    assert texts["Buy milk"].action == "check" and texts["Shipping method"].action == "select"
    assert len(elements) >= 15 and all(e.text for e in elements)
    for element in elements:
        assert element.text is not None
        assert _same_box(_box_of(tab, element.text, element.action), element.box), element
    groups = grouped(elements)
    assert [e.text for e in groups["Newsletter"]] == ["Email", "Subscribe"]
    assert [e.text for e in groups["Draft A"]] == ["Delete@Draft A"]


def test_regions_from_rows_and_what_cannot_be_told_apart(tab: Page) -> None:
    tab.set_content(
        "<table><tr><td>Alice</td><td><button id=a>Edit</button></td></tr>"
        "<tr><td>Bob</td><td><button id=b>Edit <svg width=8 height=8></svg></button></td></tr>"
        "</table><button class=d>Delete</button><button class=d>Delete</button>"
        "<button id=h hidden>Ghost</button>"
    )
    elements = list_elements(tab)
    assert [e.description.split(" ")[0] for e in elements] == [
        "button#a",
        "button#b",
        "button.d",
        "button.d",
    ]  # the hidden button is not listed, the icon inside Bob's button is that button
    assert [e.text for e in elements[:2]] == ["Edit@Alice", "Edit@Bob"]
    # nothing on the page tells the two apart but their order: an ordinal, the last resort
    assert [e.text for e in elements[2:]] == ["Delete[1]", "Delete[2]"]
    assert elements[3].tried == ["Delete", "Delete[1]", "Delete[2]"]


def test_a_locator_of_another_element_is_refused(tab: Page) -> None:
    tab.set_content("<button id=one>One</button><button id=two>Two</button>")
    from pytest_pacts.runtime.scripts import page_function

    tab.evaluate(page_function("inventory"), {"list_id": "t1", "limit": 10})
    result = discover(tab, [(0, Target(element="One"), Action.CLICK)])[0]
    assert _is_listed(tab, "t1", 0, result)
    assert not _is_listed(tab, "t1", 1, result)  # "One" is not the second listed element


def test_annotated_screenshot_boxes_each_element(
    tab: Page, demo: DemoServer, tmp_path: Path
) -> None:
    tab.goto(demo.url)
    elements = list_elements(tab)
    shot = annotate(tab, elements, tmp_path / "login.png", timeout_ms=10_000)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert tab.locator("#__pacts_elements__").count() == 0  # the boxes are gone again
    login = next(e for e in elements if e.text == "Login")
    x, y, _w, h = login.box
    checker = tab.context.new_page()
    try:
        # the box's left border, half-way down, is drawn in the named colour (#d6336c)
        r, g, b = pixel(checker, shot, x - 1, y + h / 2)
        assert abs(r - 0xD6) < 40 and abs(g - 0x33) < 40 and abs(b - 0x6C) < 40, (r, g, b)
        # the number tag in the box's corner holds white text on that colour
        tag = pixel(checker, shot, x + 1, y + 1)
        assert tag != [255, 255, 255]
    finally:
        checker.close()
    unnamed = PageElement(1, "click", "div", "", (10, 10, 40, 40))
    grey = annotate(tab, [unnamed], tmp_path / "grey.png", timeout_ms=10_000)
    checker = tab.context.new_page()
    try:
        r, g, b = pixel(checker, grey, 9, 30)
        assert abs(r - 0x86) < 30 and abs(g - 0x8E) < 30 and abs(b - 0x96) < 30, (r, g, b)
    finally:
        checker.close()


def test_an_element_with_its_own_matches_property(tab: Page) -> None:
    """Datasette 1.0's <navigation-search> keeps its results in a ``matches`` property, which
    shadows ``Element.prototype.matches``: the scan called ``el.matches(...)`` and failed on
    the whole page ("el.matches is not a function")."""
    tab.set_content(
        "<script>customElements.define('nav-search', class extends HTMLElement {"
        " constructor() { super(); this.matches = []; } });</script>"
        "<nav-search><input aria-label='Jump to'></nav-search>"
        "<form><label>Search <input id=q></label><button>Go</button></form>"
    )
    result = discover(tab, [(0, Target(element="Search"), Action.FILL)])[0]
    assert result.locator is not None, result.unresolved
    texts = [e.text for e in list_elements(tab)]
    assert texts == ["Jump to", "Search", "Go"]


UNNAMED = (
    '<ul class="todo-list">'
    + "".join(
        f'<li><div class="view"><input class="toggle" type="checkbox"><label>{t}</label>'
        '<button class="destroy"></button></div></li>'
        for t in ("Buy milk", "Walk the dog")
    )
    + '</ul><form id="checkboxes"><input type="checkbox"> checkbox 1<br>'
    '<input type="checkbox" checked> checkbox 2</form>'
    '<div class="cart"><h2>Cart</h2>'
    '<div class="line"><span>Backpack</span><button>Delete</button></div>'
    '<div class="line"><span>Backpack</span><button>Delete</button></div></div>'
)


def test_every_visible_control_gets_a_name_that_resolves_back_to_it(tab: Page) -> None:
    """``pacts elements`` listed controls without a label of their own as "no unique text"
    (a row's checkbox and icon button, a checkbox followed by its text, two identical
    "Delete" buttons in one container). Each now gets a text (region, the text beside it,
    the kind in its row, an ordinal as the last resort), and discovery, asked afresh with
    the printed text, finds exactly the listed element."""
    tab.set_content(UNNAMED)
    elements = list_elements(tab)
    assert len(elements) == 8
    for e in elements:
        assert e.text is not None, (e.description, e.why, e.tried)
        result = discover(tab, [(0, parse_target(e.text), Action(e.action))])[0]
        assert result.locator is not None, (e.text, result.unresolved)
        box = to_playwright(tab, result.locator).bounding_box()
        assert box is not None
        assert (box["x"], box["y"]) == pytest.approx(e.box[:2], abs=1), e.text
    texts = {e.text for e in elements}
    assert {"checkbox 1", "checkbox 2", "button@Buy milk", "Delete[2]@Cart"} <= texts


def test_a_label_is_offered_by_its_first_line(tab: Page) -> None:
    """A person names a field by its label's first line as drawn (HTML ``innerText``: a
    ``<br>`` or a block box ends a line), and discovery resolves that line: pretalx's
    ``Capacity<br><span class="optional">Optional</span>`` and GOV.UK-style hints under a
    label. ``pacts elements`` offered the whole accessible name ("Capacity Optional"), a
    text nobody reads as one; it now offers the first line when it resolves back to the
    field, and the whole text still when two first lines are the same."""
    tab.set_content(
        "<form><label for=c>Capacity<br><span>Optional</span></label><input id=c>"
        "<label for=n>Notes<div>Only the team sees them</div></label><textarea id=n></textarea>"
        "<label for=a>Room<br><span>Main hall</span></label><input id=a>"
        "<label for=b>Room<br><span>Side hall</span></label><input id=b></form>"
    )
    texts = [e.text for e in list_elements(tab)]
    assert texts[:2] == ["Capacity", "Notes"]
    assert texts[2:] == ["Room Main hall", "Room Side hall"]
