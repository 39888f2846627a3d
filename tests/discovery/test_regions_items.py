"""Regions are items (docs/discovery.md, "Regions"): a region named by text is the repeated
item (list item, table row, card, row of ``div``s) that holds the words, never the list or
section around the items; inside it a control is named by the kind the action needs.

The pages are written from the failures of issue 35: a to-do list app in several
implementations (TodoMVC's markup: rows of ``li``, rows of ``div``s whose classes a CSS-in-JS
library generated, rows as custom elements, in light DOM or in shadow roots), each row a
checkbox with no label of its own, the item's words and a delete button, under the list's
"Mark all as complete" checkbox (``#toggle-all``).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import to_playwright
from pytest_pacts.models.locator import DiscoveryResult, Strategy

from .helpers import find

# its pages define custom elements, which outlive a document written over: a new context
# per test (tests/tabs.py)
FRESH_CONTEXT = True

ITEMS = ("Buy milk", "Walk the dog", "Pay bills")
STYLE = (
    "<style>.toggle{opacity:0;position:absolute;width:40px;height:40px}"
    ".row{position:relative}.row label{padding-left:50px}"
    ".toggle-all{width:1px;height:1px;opacity:0;position:absolute}.edit{display:none}</style>"
)


def _row(text: str) -> str:
    return (
        f'<input class="toggle" type="checkbox" data-row="{text}"><label>{text}</label>'
        f'<button class="destroy" data-row="{text}">×</button>'
    )


def _page(kind: str) -> str:
    """The list app's page with its rows built as ``kind``."""
    if kind == "li":
        rows = "".join(
            f'<li class="row"><div class="view">{_row(t)}</div>'
            f'<input class="edit" value="{t}"></li>'
            for t in ITEMS
        )
        items = f'<ul class="todo-list">{rows}</ul>'
    elif kind == "generated divs":
        rows = "".join(
            f'<div class="css-9f8e7d6 row"><div class="css-a1b2c3">{_row(t)}</div></div>'
            for t in ITEMS
        )
        items = f'<div class="css-1q2w3e4">{rows}</div>'
    elif kind == "custom elements":
        rows = "".join(f'<todo-item class="row">{_row(t)}</todo-item>' for t in ITEMS)
        items = f"<todo-list>{rows}</todo-list>"
    else:  # shadow roots: each row renders its own markup (Lit, Stencil)
        rows = "".join(f'<todo-item data-text="{t}"></todo-item>' for t in ITEMS)
        items = (
            f"<todo-list>{rows}</todo-list><script>"
            "customElements.define('todo-item', class extends HTMLElement {"
            " connectedCallback() { const t = this.dataset.text;"
            " this.attachShadow({mode: 'open'}).innerHTML = `<style>.toggle{opacity:0}</style>"
            '<li class="row"><input class="toggle" type="checkbox" data-row="${t}">'
            '<label>${t}</label><button class="destroy" data-row="${t}">×</button></li>`; } });'
            "</script>"
        )
    return (
        f'{STYLE}<section class="todoapp"><header><h1>todos</h1>'
        '<input class="new-todo" placeholder="What needs to be done?"></header>'
        '<section class="main"><input id="toggle-all" class="toggle-all" type="checkbox">'
        f'<label for="toggle-all">Mark all as complete</label>{items}</section>'
        '<footer><span class="todo-count"><strong>3</strong> items left</span>'
        '<button class="clear-completed">Clear completed</button></footer></section>'
    )


KINDS = ["li", "generated divs", "custom elements", "shadow roots"]


def _row_of(page: Page, result: DiscoveryResult) -> str:
    """The row (its words) of the element the accepted locator resolves to."""
    assert result.locator is not None, result.unresolved
    value = to_playwright(page, result.locator).evaluate("e => e.dataset.row || e.id")
    assert isinstance(value, str)
    return value


@pytest.mark.parametrize("kind", KINDS)
def test_a_region_by_text_is_the_repeated_item_not_the_list(tab: Page, kind: str) -> None:
    """``Toggle@Buy milk | check`` on a list app whose rows are ``div``s with generated class
    names resolved the region to the whole main section (it holds the words) and checked the
    list's "toggle all" box (``#toggle-all``, 0.665): every item was completed. The same
    with rows as custom elements; a row is one of a group of repeated siblings of the same
    shape, as HTML's list items and ARIA's rows are, and the region is that row."""
    tab.set_content(_page(kind))
    for text in ITEMS:
        result = find(tab, "Toggle", "check", region=text)
        assert _row_of(tab, result) == text
        assert result.locator is not None and result.locator.strategy is Strategy.RELATIONAL


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("element", "action"),
    [("Toggle", "check"), ("Toggle", "click"), ("checkbox", "check"), ("button", "click")],
)
def test_a_control_without_a_name_is_named_by_its_kind_in_its_row(
    tab: Page, kind: str, element: str, action: str
) -> None:
    """Each row's checkbox has no label and no aria attribute (class ``toggle``), and each
    row's delete button shows only "×": ``Toggle@Buy milk | check`` was ``not_found`` or the
    list's checkbox in six implementations of the list app (rows as ``li``, ``div``, custom
    elements). Inside the row, a name that matches no element of its own but names a kind
    (the role, as ARIA and Playwright's ``get_by_role`` name it, or the control's own class)
    is the row's only control of the role the action needs."""
    tab.set_content(_page(kind))
    result = find(tab, element, action, region="Pay bills")
    assert _row_of(tab, result) == "Pay bills"
    assert result.locator is not None
    tag = to_playwright(tab, result.locator).evaluate("e => e.tagName")
    assert tag == ("BUTTON" if element == "button" else "INPUT")


@pytest.mark.parametrize("kind", ["li", "generated divs"])
def test_two_controls_of_the_kind_in_the_row_are_ambiguous_never_the_first(
    tab: Page, kind: str
) -> None:
    """With two controls of the role in the item, the name is ambiguous and the step fails
    before acting, listing both (a row with a "×" and a "✎" icon button), never the first."""
    tab.set_content(_page(kind).replace("×</button>", "×</button><button>✎</button>"))
    result = find(tab, "button", "click", region="Walk the dog")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "ambiguous"
    assert len(result.unresolved.candidates) == 2
