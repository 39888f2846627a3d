"""Obvious targets that had no name (issue 35, observed class 6): a checkbox followed by its
text, identical buttons told apart by an ordinal, a product's price read inside its card
(docs/discovery.md, "Adjacent text, ordinals and kinds"; docs/reference.md, "Element names").
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import discover, to_code, to_playwright
from pytest_pacts.models import Action
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.planner.steps import parse_target


def find(page: Page, element: str, action: str) -> DiscoveryResult:
    """Discover ``element`` written as in a sheet (``Delete[2]@Cart``)."""
    return discover(page, [("step", parse_target(element), Action(action))])["step"]


def chosen(page: Page, result: DiscoveryResult) -> str:
    assert result.locator is not None, result.unresolved
    value = to_playwright(page, result.locator).evaluate("e => e.id")
    assert isinstance(value, str)
    return value


CHECKBOXES = (
    '<h3>Checkboxes</h3><form id="checkboxes"><input type="checkbox" id="c1"> checkbox 1<br>'
    '<input type="checkbox" id="c2" checked> checkbox 2</form>'
    '<div class="prefs"><input type="checkbox" id="p1"><span>Email me</span><br>'
    '<span>Text me</span> <input type="checkbox" id="p2"></div>'
)


@pytest.mark.parametrize(
    ("element", "action", "expected"),
    [
        ("checkbox 1", "check", "c1"),
        ("checkbox 2", "uncheck", "c2"),
        ("checkbox 2@Checkboxes", "uncheck", "c2"),
        ("Email me", "check", "p1"),
        ("Text me", "check", "p2"),
    ],
)
def test_a_control_without_a_label_is_named_by_the_text_beside_it(
    tab: Page, element: str, action: str, expected: str
) -> None:
    """``<input type=checkbox> checkbox 1<br>``: the text a person reads right beside a
    control is the name a label would give it (HTML's ``label``; the page wrote none, so
    neither the accessible name nor Playwright's ``get_by_label`` has it) and was "no
    element matches". A text node or an inline element immediately before or after it,
    on its line, names it."""
    tab.set_content(CHECKBOXES)
    assert chosen(tab, find(tab, element, action)) == expected


CAPTIONS = (
    "<h2>Create new collection</h2><form>Title:<br>"
    '<input type="text" id="t1"><br>Description:<br><input type="text" id="t2"><br>'
    'Type:<br><select id="t3"><option>calendar</option><option>addressbook</option></select>'
    "<br></form>"
    '<form id="two">Name:<br><input type="text" id="f1"> <input type="text" id="f2"><br>'
    'Notes: <b>(optional)</b><br><input type="text" id="f3"><br></form>'
)


@pytest.mark.parametrize(
    ("element", "action", "expected"),
    [("Title", "fill", "t1"), ("Description", "fill", "t2"), ("Type", "select", "t3")],
)
def test_a_field_alone_on_its_line_is_named_by_the_caption_line_above_it(
    tab: Page, element: str, action: str, expected: str
) -> None:
    """``Title:<br><input><br>Description:<br><input>``: a field with no label, alone on its
    line, is read under the line above it, its nearest preceding text in reading order, as
    the text beside it on its own line names it (the rule above, across one line break).
    Radicale 3.0.6's create and edit forms are written so (``Title`` and ``Description``
    were both 0.85 by the relational strategy: ambiguous, five flows failed), and so is
    Roundup's login box (``<b>Login</b><br><input name="__login_name">``)."""
    tab.set_content(CAPTIONS)
    assert chosen(tab, find(tab, element, action)) == expected


@pytest.mark.parametrize("element", ["Name", "Notes"])
def test_a_caption_line_that_is_not_decisive_names_no_field(tab: Page, element: str) -> None:
    # "Name:" heads a line of two fields; "Notes:" does not make up its line alone (the
    # "(optional)" beside it): neither is taken as the caption of the field under it
    tab.set_content(CAPTIONS)
    result = find(tab, element, "fill")
    if result.locator is not None:
        assert chosen(tab, result) not in ("f1", "f2", "f3")


# A filter panel drawn by a component (Piccolo Admin 0.45.2 and 1.14.0): each column's
# ``<label>`` has no ``for`` and holds no control, over a group holding the column's
# operator drop-down and its value box; a range filter's group holds two boxes.
FILTERS = (
    '<form><div><label> Stock </label><div><select id="op"><option value="e"> Equals </option>'
    '<option value="lt"> Less Than </option></select>'
    '<input type="number" id="stock" placeholder="All"></div></div>'
    '<div><label> Notes </label><div><select id="match"><option>contains</option></select>'
    '<div contenteditable="true" id="notes"></div></div></div>'
    '<div><label> Price </label><div><input type="number" id="from" placeholder="From">'
    '<input type="number" id="to" placeholder="To"></div></div>'
    "<button>Apply</button></form>"
)


@pytest.mark.parametrize(
    ("element", "action", "expected"),
    [
        ("Stock", "fill", "stock"),
        ("Stock", "type", "stock"),
        ("Stock", "select", "op"),
        ("Notes", "fill", "notes"),
        ("Price", "fill", None),
    ],
)
def test_a_caption_over_a_group_names_the_one_control_that_can_take_the_action(
    tab: Page, element: str, action: str, expected: str | None
) -> None:
    """``<label> Stock </label>`` tied to nothing (no ``for``, no control inside: HTML) over a
    group holding an operator drop-down and a number box named neither: the caption rule
    counted every form control of the group (two), so ``Stock@Filter | fill | 0`` was
    refused (Piccolo Admin 0.45.2 and 1.14.0, REQ-PICCOLO-004; 1.14.0's "Name" filter gained
    a match drop-down beside its text box and became the same). HTML's controls say which of
    the two can take the step: a ``<select>`` holds no typed text (Playwright's ``fill``
    fails on it) and a text box offers no options, so only the controls that can take the
    action are counted, and the one left is named; a range filter's "from" and "to" boxes
    both take a fill, and the caption names neither. (No other dev app's saved pages show
    this shape: docs/real-apps.md, "Piccolo Admin's captions and options".)"""
    tab.set_content(FILTERS)
    result = find(tab, element, action)
    if expected is None:
        assert result.locator is None, chosen(tab, result)
    else:
        assert chosen(tab, result) == expected


# A back office's multilingual fields (pretalx 2025.2.2): the caption's ``for`` names the
# wrapper of the field's language boxes, a ``<div>``, which is no labelable element; its
# "Optional" marker is not drawn on a required field. One language: one box; two: two.
WRAPPED = (
    '<form><div class="row"><label for="id_name">Name <span style="display:none">Optional</span>'
    '</label><div><fieldset><div id="id_name"><input id="id_name_0" name="name_0" lang="en"'
    ' title="English"></div></fieldset></div></div>'
    '<div class="row"><label for="id_description">Description</label><div><fieldset>'
    '<div id="id_description"><input id="id_description_0" lang="en" title="English">'
    '<input id="id_description_1" lang="de" title="Deutsch"></div></fieldset></div></div>'
    '<div class="row"><label for="id_duration">Default duration</label>'
    '<input id="id_duration" name="default_duration"></div></form>'
)


@pytest.mark.parametrize(("element", "expected"), [("Name", "id_name_0"), ("Description", None)])
def test_a_label_for_a_wrapper_captions_the_one_field_in_it(
    tab: Page, element: str, expected: str | None
) -> None:
    """HTML's ``label``: a ``for`` that names no labelable element gives the label no labeled
    control, so it labels nothing, as a caption with no ``for`` does (the caption rule above,
    made from Piccolo Admin's and Streamlit's captions); the element its ``for`` names is the
    group it captions, and the one field there that can take the step is the caption's field.
    pretalx 2025.2.2's "Name" (REQ-PRETALX-007, -008): ``<label for="id_name">`` over ``<div
    id="id_name">`` holding one box named "English" (its ``title``, its language), whose
    placeholder "Name" 2023.1.3 had was gone; the heal round found the box at 0.65 by its form
    name and refused. A wrapper holding two boxes (two languages) names neither."""
    tab.set_content(WRAPPED)
    result = find(tab, element, "fill")
    if expected is None:
        assert result.locator is None, chosen(tab, result)
    else:
        assert chosen(tab, result) == expected


# A table of per-row controls (Flower 1.2.0's worker "Limits" tab): each box has no name of
# its own, the words are its column's header cell; the "Timeouts" cell holds one box and two
# buttons; an "Autoscale" cell holds two boxes.
LIMITS = (
    "<table><thead><tr><th>Task name</th><th>Rate limit</th><th>Timeouts</th>"
    "<th>Autoscale</th></tr></thead><tbody>"
    '<tr><td>bakery.bake_bread</td><td><input id="rate1"><button>Apply</button></td>'
    '<td><input id="soft1"><button>Soft</button><button>Hard</button></td>'
    '<td><input id="min1"><input id="max1"></td></tr>'
    '<tr><td>bakery.check_oven</td><td><input id="rate2"><button>Apply</button></td>'
    '<td><input id="soft2"><button>Soft</button><button>Hard</button></td>'
    '<td><input id="min2"><input id="max2"></td></tr></tbody></table>'
    # Django admin's tabular inline: the first field's header spans the row's first cell too
    '<table><thead><tr><th colspan="2">Title</th><th>Pages</th></tr></thead><tbody>'
    '<tr><td><p>War and Peace</p></td><td><input id="title1"></td>'
    '<td><input id="pages1" placeholder="Count"></td></tr></tbody></table>'
)


@pytest.mark.parametrize(
    ("element", "expected"),
    [
        ("Rate limit@bakery.bake_bread", "rate1"),
        ("Rate limit@bakery.check_oven", "rate2"),
        ("Timeouts@bakery.check_oven", "soft2"),
        ("Autoscale@bakery.bake_bread", None),  # two boxes in the cell: never the first
        ("Rate limit", None),  # one per row: the region must say which
        ("Title@War and Peace", "title1"),
        ("Pages@War and Peace", None),  # named by its own words ("Count"), not the header
    ],
)
def test_a_control_in_a_table_cell_is_named_by_its_columns_header(
    tab: Page, element: str, expected: str | None
) -> None:
    """A form control with no name of its own in a table's data cell is read under the header
    cell HTML's table model assigns that cell ("forming a table", "assigning header cells":
    its column's ``<th>``), as a screen reader announces it. Flower 1.2.0's worker limits
    (REQ-FLOWER-011: ``Rate limit@bakery.bake_bread | fill`` found nothing, the row holding
    two unnamed boxes); Django's admin writes its tabular inlines the same way (the corpus's
    Author page, its "Books" inline: a ``<th>`` per field, the inputs in ``<td>``s with no
    label). It names the control only where it is the one the words name in the step's
    region; two boxes under one header stay ambiguous. Failed before: not found."""
    tab.set_content(LIMITS)
    result = find(tab, element, "fill")
    if expected is None:
        assert result.locator is None, chosen(tab, result)
    else:
        assert chosen(tab, result) == expected


CART = (
    '<div class="cart"><h2>Cart</h2>'
    '<div class="line"><span>Backpack</span><button id="d1">Delete</button></div>'
    '<div class="line"><span>Backpack</span><button id="d2">Delete</button></div>'
    '<div class="line"><span>Bike light</span><button id="d3">Delete</button></div></div>'
    '<div class="wishlist"><h2>Wishlist</h2><div><span>Onesie</span>'
    '<button id="w1">Delete</button></div></div>'
)


# A content admin's new-page form (Lektor 3.2 and 3.3): each field's caption is a ``<dt>`` of
# its ``<dl>`` (HTML's description list: a term and what describes it), no ``<label>``; the
# ID field shows, as its placeholder, the slug it would make of the title.
DL_FORM = (
    "<h2>Add Subpage</h2><p>Note that the model or ID cannot be easily changed.</p>"
    '<div class="field-row"><dl class="field"><dt>Model</dt><dd><select><option>Page</option>'
    "</select></dd></dl></div>"
    '<div class="field-row"><dl class="field"><dt><span>Title</span></dt><dd><div class="ig">'
    '<input type="text" id="title" value="News"><span class="ig-text"><i class="fa"></i></span>'
    "</div></dd></dl></div>"
    '<div class="field-row"><dl class="field"><dt><span>ID</span></dt><dd><div class="ig">'
    '<input type="text" id="slug" placeholder="news"><span class="ig-text"><i class="fa"></i>'
    "</span></div></dd></dl></div><button>Add Child Page</button>"
)


@pytest.mark.parametrize(("element", "expected"), [("ID", "slug"), ("Title", "title")])
def test_a_placeholder_is_a_hint_not_a_name_that_contradicts_the_caption(
    tab: Page, element: str, expected: str
) -> None:
    """HTML: a placeholder is "a short hint intended to aid the user with data entry" and
    "should not be used as an alternative to a label" (ACCNAME takes it as a last resort).
    Lektor's ID field shows the slug it suggests ("news") under its caption "ID": read as
    the field's name, "news" contradicted the step's words, the field was refused, and the
    step took the form's only other text field, Title (a wrong-element action on the
    held-out run of Lektor 3.3.14, where the flow still passed). The caption's field is the
    pick; a placeholder never refuses it."""
    tab.set_content(DL_FORM)
    result = find(tab, element, "fill")
    assert chosen(tab, result) == expected
    assert not result.positional


# The same form with the ID field named otherwise by its own words (``aria-label``), and a
# form of table rows whose header cell captions the field beside it (HTML's table model).
NAMED_OTHERWISE = (
    DL_FORM.replace('placeholder="news"', 'aria-label="URL slug"'),
    '<h2>New issue</h2><table><tr><th>Title</th><td><input type="text" id="title"></td></tr>'
    '<tr><th>ID</th><td><input type="text" id="slug" aria-label="URL slug"></td></tr></table>',
)


@pytest.mark.parametrize("form", NAMED_OTHERWISE, ids=["dl", "table"])
def test_a_refused_control_ends_the_rule_where_the_words_are(tab: Page, form: str) -> None:
    """The relational rule takes the only fitting control in the smallest container that
    shows the step's words, and refuses one whose own name contradicts them (ACCNAME: the
    accessible name is what the control is called; an "Edit" button for ``Delete@Buy
    milk`` in a to-do list, a field named "URL slug" for ``ID``). A refusal there only
    widened the search: the next container out was the whole form, whose one other text
    field (Title) was filled instead, the path of Lektor 3.3.14's wrong-element action
    (held out, REQ-LEKTOR-003), here for a ``<dl>`` caption (Lektor) and a table row's
    header cell (the forms of Roundup and Django's admin before 1.9 lay fields out so). The
    rule now ends in the smallest container: no element, saying which control the page
    shows there and how to name it."""
    tab.set_content(form)
    result = find(tab, "ID", "fill")
    assert result.locator is None, chosen(tab, result)
    assert result.unresolved is not None
    assert "input#slug" in result.unresolved.message, result.unresolved.message
    assert "region" in result.unresolved.message


@pytest.mark.parametrize(
    ("element", "expected"),
    [
        ("Delete[1]@Cart", "d1"),
        ("Delete[2]@Cart", "d2"),
        ("Delete[3]@Cart", "d3"),
        ("Delete[2]@Backpack", "d2"),
        ("Delete[1]@Wishlist", "w1"),
    ],
)
def test_an_ordinal_picks_one_of_identical_elements_in_the_region(
    tab: Page, element: str, expected: str
) -> None:
    """Two identical "Delete" buttons in one container could not be told apart (no way to
    say "the second"). ``[N]`` counts them from 1 in document order inside the region, as
    Playwright's ``nth`` counts a locator's matches; the rendered locator carries it."""
    tab.set_content(CART)
    result = find(tab, element, "click")
    assert chosen(tab, result) == expected
    assert result.locator is not None
    if element.endswith("@Cart"):
        assert ".nth(" in to_code(result.locator)


def test_an_ordinal_past_the_last_match_fails_saying_how_many(tab: Page) -> None:
    tab.set_content(CART)
    result = find(tab, "Delete[4]@Cart", "click")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "none"
    assert "asks for number 4, but 3 elements match" in result.unresolved.message


def test_without_an_ordinal_identical_elements_stay_ambiguous(tab: Page) -> None:
    tab.set_content(CART)
    result = find(tab, "Delete@Cart", "click")
    assert result.unresolved is not None and result.unresolved.reason == "ambiguous"
    assert result.unresolved.message.endswith(
        '; to name it uniquely, give an ordinal for identical elements ("Delete[2]@Cart", '
        "counted in reading order inside the region)"
    )
    result = find(tab, "Delete", "click")
    assert result.unresolved is not None
    assert result.unresolved.message.endswith(
        '; to name it uniquely, give a region ("Delete@<container>"), or an ordinal for '
        'identical elements ("Delete[2]@<container>", counted in reading order inside the '
        "region)"
    )


SHOP = (
    '<div class="header"><span class="title">Products</span>'
    '<select class="product_sort_container"><option>Name (A to Z)</option>'
    "<option>Price (low to high)</option><option>Price (high to low)</option></select></div>"
    '<div class="inventory_list">'
    + "".join(
        f'<div class="inventory_item"><img alt="{name}"><div class="inventory_item_label">'
        f'<a href="#"><div class="inventory_item_name">{name}</div></a></div>'
        f'<div class="pricebar"><div class="inventory_item_price" id="{pid}">{price}</div>'
        "<button>Add to cart</button></div></div>"
        for name, pid, price in [
            ("Sauce Labs Backpack", "p1", "$29.99"),
            ("Sauce Labs Bike Light", "p2", "$9.99"),
        ]
    )
    + '</div><div itemscope class="product"><h2 itemprop="name">Fleece Jacket</h2>'
    '<span itemprop="price" id="p3">49.99</span><span itemprop="priceCurrency" id="c3">USD</span>'
    '</div><div itemscope class="product"><h2 itemprop="name">Onesie</h2>'
    '<span itemprop="price" id="p4">7.99</span></div>'
)


@pytest.mark.parametrize(
    ("element", "expected"),
    [
        ("Price@Backpack", "p1"),
        ("Price@Bike Light", "p2"),
        ("Price@Fleece Jacket", "p3"),
        ("Currency@Fleece Jacket", "c3"),
        ("Price@Onesie", "p4"),
    ],
)
def test_what_a_step_reads_is_named_by_its_kind_inside_its_card(
    tab: Page, element: str, expected: str
) -> None:
    """``Price@Backpack | extract`` took the sort drop-down's "Price (low to high)" options
    instead of the card's price. Inside a region, what a step reads is named by its kind as
    the markup names it: a class token (``inventory_item_price``) or schema.org microdata's
    ``itemprop`` (an exact token before a longer one: ``price`` before ``priceCurrency``),
    only when one element of the region has it."""
    tab.set_content(SHOP)
    assert chosen(tab, find(tab, element, "extract")) == expected


def test_a_kind_two_elements_of_the_region_have_is_ambiguous(tab: Page) -> None:
    tab.set_content(SHOP.replace('id="c3">USD', 'id="c3" class="price">USD'))
    result = find(tab, "Price@Fleece Jacket", "extract")
    assert result.unresolved is not None and result.unresolved.reason == "ambiguous"
