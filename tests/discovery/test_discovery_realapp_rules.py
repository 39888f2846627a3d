"""Discovery rules found by the real-app corpus (bench/realapps), each on a small page.

Every rule is general: regions are named by visible text; relational picks need the step's
words to say what the control is; icons are named by their classes; a role word matches by
role whatever the name; a heading names the content after it; hidden elements and
containers of controls are no pointer targets; an open modal dialog hides the page behind;
a row that only generated classes tell apart is rendered by its test id; exact words come
before controls whose names only hold them (a label after them).
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import to_playwright
from pytest_pacts.models.locator import Strategy

from .helpers import chosen_id, find


def _tag_and_class(page: Page, result: object) -> str:
    locator = getattr(result, "locator", None)
    assert locator is not None, getattr(result, "unresolved", None)
    value = to_playwright(page, locator).evaluate(
        "e => e.tagName.toLowerCase() + '.' + (e.getAttribute('class') || '')"
    )
    assert isinstance(value, str)
    return value


# 1. Regions are matched through the text a person can see.


def test_region_is_not_named_by_a_closed_selects_options(tab: Page) -> None:
    tab.set_content(
        '<div class="w"><select name="col"><option>- column -</option><option>price</option>'
        '</select><button id="wrong">Apply</button></div>'
        '<table><tr><th>price <button id="right">Apply</button></th></tr></table>'
    )
    assert chosen_id(tab, find(tab, "Apply", region="price")) == "right"


def test_region_is_not_named_by_hidden_text(tab: Page) -> None:
    tab.set_content(
        '<div><span style="display:none">price</span><button id="w1">Apply</button></div>'
        '<div><span style="visibility:hidden">price</span><button id="w2">Apply</button></div>'
        '<div><span>price</span><button id="right">Apply</button></div>'
    )
    assert chosen_id(tab, find(tab, "Apply", region="price")) == "right"


# 2. A relational pick needs the step's words to say what the control is.

ROW_WITH_SELECT = (
    "<table><tr><td>Garden Hose</td><td><select id='s' name='status'><option>new</option>"
    "</select></td></tr><tr><td>Rake</td><td><select name='status'><option>new</option>"
    "</select></td></tr></table>"
)


def test_relational_abstains_without_lexical_evidence(tab: Page) -> None:
    tab.set_content(ROW_WITH_SELECT)
    result = find(tab, "menu icon", "click", region="Garden Hose")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "none"


def test_relational_takes_the_control_its_type_word_names(tab: Page) -> None:
    tab.set_content(ROW_WITH_SELECT)
    for words in ("dropdown", "status"):
        result = find(tab, words, "click", region="Garden Hose")
        assert chosen_id(tab, result) == "s", words


# 3. Icon-only controls are candidates, named by their class tokens.

DATASETTE_HEADER = """
<div class="select-wrapper"><select name="_filter_column"><option value="">- column -</option>
<option>name</option><option>price</option></select></div>
<table><thead><tr><th><a href="?_sort_desc=price">price&nbsp;▼</a>
<svg class="dropdown-menu-icon" style="cursor: pointer" width="14" height="14" viewBox="0 0 24 24">
<circle cx="12" cy="12" r="8"/></svg></th></tr></thead></table>
<ul id="menu" hidden><li><a href="?_sort_desc=price">Sort descending</a></li></ul>
<script>document.querySelector('svg.dropdown-menu-icon')
  .addEventListener('click', () => { menu.hidden = false })</script>
"""


def test_icon_is_found_by_its_class_tokens_in_the_header_cell(tab: Page) -> None:
    tab.set_content(DATASETTE_HEADER)
    result = find(tab, "menu icon", "click", region="price")
    assert _tag_and_class(tab, result) == "svg.dropdown-menu-icon"
    assert result.locator is not None
    to_playwright(tab, result.locator).click()
    assert tab.locator("#menu").is_visible()


def test_icon_inside_an_unnamed_link_is_named_by_its_classes(tab: Page) -> None:
    tab.set_content(
        '<ul><li>Rake <a id="d1" href="#"><i class="fa fa-trash"></i></a>'
        '<a id="e1" href="#"><i class="fa fa-pencil"></i></a></li></ul>'
    )
    result = find(tab, "trash icon", "click", region="Rake")
    assert _tag_and_class(tab, result) == "i.fa fa-trash"


# 4. A role word matches by role, whatever the control's name.


def test_role_word_matches_a_titled_checkbox_in_its_row(tab: Page) -> None:
    tab.set_content(
        "<table><tr><td><input type='checkbox' id='c1' title='Select record'></td>"
        "<td>Garden Hose</td></tr><tr><td><input type='checkbox' id='c2' title='Select record'>"
        "</td><td>Rake</td></tr></table>"
    )
    result = find(tab, "checkbox", "check", region="Garden Hose")
    assert chosen_id(tab, result) == "c1"
    assert result.locator is not None and result.locator.strategy is Strategy.RELATIONAL


# 5. A heading names the content that follows it, up to the next heading of its level.

FILTER_SIDEBAR = """
<div id="changelist-filter"><h2>Filter</h2>
<h3> By in stock </h3><ul><li><a id="s-all" href="?">All</a></li>
<li><a href="?in_stock=1">Yes</a></li><li><a href="?in_stock=0">No</a></li></ul>
<h3> By author </h3><ul><li><a id="a-all" href="?">All</a></li>
<li><a href="?author=1">Ann</a></li></ul></div>
"""


def test_heading_names_the_list_that_follows_it(tab: Page) -> None:
    tab.set_content(FILTER_SIDEBAR)
    assert chosen_id(tab, find(tab, "All", region="By in stock")) == "s-all"
    assert chosen_id(tab, find(tab, "All", region="By author")) == "a-all"


SIDEBAR_WITH_LABELLED_HEADER = """
<div class="sidebar">
  <div class="projects"><h2>Projects</h2><span class="icon-plus"></span></div>
  <input placeholder="Search">
  <ul><li><a id="p-alpha" href="#a">alpha</a></li><li><a href="#b">beta</a></li></ul>
</div>
<main><h1>alpha</h1><a id="main-alpha" href="#a">alpha</a></main>
"""


def test_a_container_named_like_the_region_that_holds_only_its_title_names_its_section(
    tab: Page,
) -> None:
    """A class (or id) token can name the header row over a list rather than the list's
    container: when no container so named holds a candidate, the region is found the way a
    heading names it (its section), not given up."""
    tab.set_content(SIDEBAR_WITH_LABELLED_HEADER)
    assert chosen_id(tab, find(tab, "alpha", region="Projects")) == "p-alpha"
    # a heading a person reads outranks a class token naming another container (HTML gives
    # class names no meaning; a heading titles its section)
    tab.set_content(
        '<nav class="projects"><a id="in" href="#a">alpha</a></nav>'
        '<h2>Projects</h2><ul><li><a id="out" href="#b">alpha</a></li></ul>'
    )
    assert chosen_id(tab, find(tab, "alpha", region="Projects")) == "out"


# 6. Closed menus: no hidden candidate, no container of controls.

FILTER_MENU = """
<ul class="nav"><li class="dropdown"><a id="add" href="javascript:void(0)"
  onclick="document.getElementById('m').style.display='block'">Add Filter</a>
<ul id="m" style="display:none"><li><a id="f-cat" href="#">Category / Name</a></li>
<li><a id="f-stock" href="#">In Stock</a></li><li><a id="f-price" href="#">Price</a></li></ul>
</li></ul>
<table><tr><th><a id="col-stock" href="?sort=stock">In Stock</a></th></tr></table>
"""


def test_closed_menu_item_is_not_resolved_to_its_container(tab: Page) -> None:
    tab.set_content(FILTER_MENU)
    closed = find(tab, "In Stock", "click", region="Add Filter")
    assert closed.locator is None and closed.unresolved is not None
    assert closed.unresolved.reason == "none"
    tab.click("#add")
    assert chosen_id(tab, find(tab, "In Stock", "click", region="Add Filter")) == "f-stock"


def test_container_of_controls_is_no_pointer_target(tab: Page) -> None:
    tab.set_content(
        '<div aria-label="Stock actions"><a href="#b">Buy</a> <a href="#s">Sell</a></div>'
    )
    result = find(tab, "Stock actions", "click")
    assert result.locator is None and result.unresolved is not None


# 7. An open modal dialog: what is behind it is out of reach.

BEHIND = '<input aria-label="Email" id="behind">'
INSIDE = '<label for="inside">Email address</label><input id="inside">'


def test_bootstrap_modal_hides_the_page_behind(tab: Page) -> None:
    tab.set_content(
        f'{BEHIND}<div class="modal fade in" style="display:block" role="dialog">'
        f'<div class="modal-dialog">{INSIDE}</div></div><div class="modal-backdrop in"></div>'
    )
    assert chosen_id(tab, find(tab, "Email", "fill")) == "inside"


def test_aria_modal_hides_the_page_behind(tab: Page) -> None:
    tab.set_content(f'{BEHIND}<div role="dialog" aria-modal="true">{INSIDE}</div>')
    assert chosen_id(tab, find(tab, "Email", "fill")) == "inside"


def test_modal_dialog_element_hides_the_page_behind(tab: Page) -> None:
    tab.set_content(f"{BEHIND}<dialog id='d'>{INSIDE}</dialog>")
    assert chosen_id(tab, find(tab, "Email", "fill")) == "behind"  # closed: the page
    tab.evaluate("() => document.getElementById('d').showModal()")
    assert chosen_id(tab, find(tab, "Email", "fill")) == "inside"


# A click names the control, not the text field of the same name.


def test_click_search_is_the_button_not_the_search_box(tab: Page) -> None:
    tab.set_content(
        '<form><label for="searchbar"><img src="" alt="Search"></label>'
        '<input id="searchbar" name="q"><input type="submit" id="go" value="Search"></form>'
    )
    assert chosen_id(tab, find(tab, "Search", "fill")) == "searchbar"
    assert chosen_id(tab, find(tab, "Search", "click")) == "go"
    tab.set_content('<label for="u">Username</label><input id="u">')
    assert chosen_id(tab, find(tab, "Username", "click")) == "u"  # nothing else by that name


def test_a_field_is_not_clicked_for_words_that_are_only_part_of_its_placeholder(
    tab: Page,
) -> None:
    """ "Parameters | click" over a table headed "Parameters" with a "Search parameters"
    box: the box is about parameters, it is not the parameters; a click on it would be the
    wrong element. A field named by the whole words is still clicked. (The heading is a
    collapsible section's header, drawn with a pointer cursor: a heading that is only text
    is no answer to a click, tests/discovery/test_controls_and_openers.py.)"""
    tab.set_content(
        '<h4 id="h" style="cursor:pointer">Parameters (3)</h4>'
        '<input id="q" placeholder="Search parameters">'
        "<table><tr><td>alpha</td><td>0.5</td></tr></table>"
    )
    assert chosen_id(tab, find(tab, "Parameters", "click")) == "h"
    assert chosen_id(tab, find(tab, "Search parameters", "click")) == "q"
    assert chosen_id(tab, find(tab, "Parameters", "fill")) == "q"  # typing into it: the box


ICON_ROWS = "".join(
    f'<li><input type="checkbox"><a href="#{n}">{n}</a>'
    f'<button id="rename-{n}" data-test-id="rename-item-button"><svg width="8" height="8"></svg>'
    f'</button><button data-cy="delete-item-button" id="delete-{n}"><i class="fa fa-trash">'
    "</i></button></li>"
    for n in ("alpha", "beta", "gamma")
)


def test_icon_buttons_are_named_by_data_test_id_and_data_cy_in_their_row(tab: Page) -> None:
    """``data-test-id`` and ``data-cy`` are test ids as much as ``data-testid``: an icon-only
    button in a row is found by the step's words among their tokens, scoped by the row."""
    tab.set_content(f"<ul>{ICON_ROWS}</ul>")
    assert chosen_id(tab, find(tab, "Rename", region="beta")) == "rename-beta"
    assert chosen_id(tab, find(tab, "Delete", region="gamma")) == "delete-gamma"
    assert find(tab, "Rename").locator is None  # three rows: ambiguous without a region


def test_an_abbreviated_identifier_is_found_by_the_word_it_stands_for(tab: Page) -> None:
    """Developers abbreviate identifiers; a person writes the word: "Filter operator" is
    Datasette's ``<select name="_filter_op">`` and Flask-Admin's ``<select class="filter-op">``
    (its ``filters.js``, 1.6 and 2.2; its value box is ``filter-val``): two apps, one
    abbreviation. Only common abbreviations count: "op" is not "open"."""
    tab.set_content(
        '<form><select name="_filter_column"><option>price</option></select>'
        '<select id="op" name="_filter_op"><option value="gt">&gt;</option></select>'
        '<input name="_filter_value"><button id="opn" name="op">Go</button></form>'
    )
    assert chosen_id(tab, find(tab, "Filter operator", "select")) == "op"
    assert find(tab, "Open", "click").locator is None


NESTED_LIST_ROWS = "".join(
    f'<li class="row"><ul class="cells"><li><input type="checkbox"></li>'
    f'<li><a href="#{n}">{n}</a></li>'
    f'<li><button id="rename-{n}" data-test-id="rename-button"><svg width="8" height="8">'
    "</svg></button></li></ul></li>"
    for n in ("alpha", "beta")
)


def test_a_list_item_around_the_regions_name_is_no_section_boundary(tab: Page) -> None:
    """Rows built of list items (each cell an <li>): the item holding only the name is the
    name's wrapper; the row around it is the section (MLflow's experiment list)."""
    tab.set_content(f"<ul>{NESTED_LIST_ROWS}</ul>")
    assert chosen_id(tab, find(tab, "Rename", region="beta")) == "rename-beta"


def test_nothing_in_the_modal_matches_so_the_page_is_searched(tab: Page) -> None:
    # an interstitial covering the page: the element is found, and the gate says obscured
    # (healing may dismiss the dialog); it is never reported as acted-on-able
    tab.set_content(
        '<button id="go">Go</button><div role="dialog" aria-modal="true" '
        'style="position:fixed;inset:0;background:#fff"><button>Close</button></div>'
    )
    result = find(tab, "Go")
    assert chosen_id(tab, result) == "go"
    assert not result.ok and result.unresolved is not None
    assert result.unresolved.failed_point is not None
    assert result.unresolved.failed_point.code == "obscured"


# A search box is named by what it searches; a role word names what looks like the role.

SEARCH_PAGE = """
<aside><input id="exp" type="text" placeholder="Search Experiments" aria-label="search experiments">
<ul><li><a href="#1">iris</a></li><li><a href="#2">houses</a></li></ul></aside>
<main><h2>iris</h2>
<div class="toolbar"><input id="runs" type="search" role="combobox" data-test-id="search-box"
  placeholder='metrics.rmse &lt; 1 and params.model = "tree"'>
<span class="select"><input id="inner" type="search" role="combobox" readonly style="opacity: 0">
<span>Time created</span></span></div>
<table><tr><td>gradient-boosting</td></tr><tr><td>baseline</td></tr></table>
<p>2 matching runs</p></main>
"""


def test_search_words_name_the_pages_only_search_box_for_what_it_searches(tab: Page) -> None:
    """ "Search runs" names the box that searches the runs the page lists: no element's name
    says "runs" (its placeholder is an example query), but it is the page's one editable
    search field (``type=search``) whose own words do not say it searches something else
    ("Search Experiments" does), and the page shows what it searches ("2 matching runs").
    A select's read-only inner search input is no field to type in. A search field is a
    kind the standards name, whatever its words: HTML's ``<input type=search>`` (and
    ``<search>`` element), ARIA's ``searchbox`` role, which Playwright's
    ``get_by_role("searchbox")`` finds by kind. Two apps need it: MLflow's runs search box
    (an ``<input type=search>``) and Flask-Admin 2.2's list search, a field of a ``<form
    role="search">`` (REQ-FLASKADMIN-002 and -012 fail on 2.2.1 without the rule)."""
    tab.set_content(SEARCH_PAGE)
    for action in ("fill", "press"):
        assert chosen_id(tab, find(tab, "Search runs", action)) == "runs", action
    assert chosen_id(tab, find(tab, "Search Experiments", "fill")) == "exp"  # by its name
    assert find(tab, "Search runs", "click").locator is None  # a click names a control


def test_search_words_do_not_take_a_search_box_that_searches_something_else(tab: Page) -> None:
    # the only search box says it searches users: "Search runs" is not it
    tab.set_content('<input id="u" type="search" placeholder="Search users"><p>2 matching runs</p>')
    assert find(tab, "Search runs", "fill").locator is None
    # two unnamed search boxes: which one searches the runs is not said
    tab.set_content(
        '<input type="search" placeholder="e.g. accuracy > 0.9"><input type="search">'
        "<p>2 matching runs</p>"
    )
    assert find(tab, "Search runs", "fill").locator is None
    # the page never mentions runs: the box is not said to search them
    tab.set_content('<input type="search" placeholder="e.g. accuracy > 0.9"><p>3 models</p>')
    assert find(tab, "Search runs", "fill").locator is None


def test_a_search_box_refused_in_its_region_is_not_passed_over_for_one_outside(
    tab: Page,
) -> None:
    """The region's search box searches something else ("Search users" under "Runs"): the
    step is refused there, never answered by the header's site-wide box further out (the
    relational rule's end, docs/discovery.md; the same path as Lektor 3.3.14's "ID" field
    refused and the form's Title filled, ``test_unnamed_targets.py``). HTML's
    ``<input type=search>`` names a kind, not what it searches; the region says where."""
    tab.set_content(
        '<header><input id="site" type="search" placeholder="Search"></header>'
        '<div class="panel"><h2>Runs</h2><input id="users" type="search" '
        'placeholder="Search users"><p>2 matching runs</p></div>'
    )
    result = find(tab, "Search runs", "fill", region="Runs")
    assert result.locator is None, chosen_id(tab, result)


def test_a_search_field_is_the_kind_the_standards_name_not_a_word_in_its_markup(tab: Page) -> None:
    """What makes a field a search field is what HTML and ARIA say: ``<input type=search>``
    (ARIA's ``searchbox``) or a field of HTML's ``<search>`` element (ARIA's ``search``
    landmark). A text field whose id or test id holds the word "search" is markup, not a
    kind (HTML gives ids and classes no meaning): "Search runs" does not take it."""
    runs = "<p>2 matching runs</p>"
    tab.set_content(f'<search><input id="in" placeholder="metrics.rmse &lt; 1"></search>{runs}')
    assert chosen_id(tab, find(tab, "Search runs", "fill")) == "in"
    tab.set_content(f'<input id="search-box" data-testid="search" placeholder="e.g. 0.9">{runs}')
    assert find(tab, "Search runs", "fill").locator is None


GRID_ROWS = "".join(
    f'<div role="row" class="grid-row"><div role="gridcell" class="cell">'
    f'<span class="box"><input id="sel-{n}" class="row-select" type="checkbox" '
    f'aria-label="Press Space to toggle row selection (unchecked)" style="opacity: 0" '
    "onchange=\"this.setAttribute('aria-label', 'Press Space to toggle row selection ("
    "' + (this.checked ? 'checked' : 'unchecked') + ')')\"></span>"
    '<label class="visibility-toggle"><input type="checkbox" checked '
    'style="width: 0; margin: 0; padding: 0; border: 0">'
    '<svg aria-hidden="true" width="14" height="14"><circle cx="7" cy="7" r="5"/></svg></label>'
    '<label class="pin-toggle"><input id="pin-{n}" type="checkbox" '
    'style="width: 0; margin: 0; padding: 0; border: 0">'
    '<svg aria-hidden="true" width="14" height="14"><rect width="8" height="12"/></svg></label>'
    f'</div><div role="gridcell" class="cell"><a href="#{n}">{n}</a></div></div>'
    for n in ("alpha", "beta")
)


def test_checkbox_in_a_row_is_the_box_not_the_icon_toggles_its_labels_draw(tab: Page) -> None:
    """A grid row holds its selection checkbox and two toggles whose inputs have no box of
    their own, drawn by their labels as icons (an eye, a pin): a person sees one checkbox
    and two icons, and "checkbox@alpha" is the checkbox. The locator singles it out in its
    row by what stays the same when it is checked (its aria-label says the state).
    Standards, not one app's markup (MLflow's runs grid draws it so): CSS Color draws an
    element at opacity 0 fully transparent, and a box under 2 px is no box a person sees;
    HTML makes a label's activation its control's, so the icon the label draws is what a
    person sees and toggles. The row's checkbox whose box is drawn stays a checkbox.
    Without the rule MLflow 2.4.2's REQ-MLFLOW-004, -008 and -009 are ambiguous (three
    checkboxes in the row): measured when it was taken out (docs/real-apps.md, "The
    single-failure rules reviewed")."""
    tab.set_content(f'<div role="grid">{GRID_ROWS}</div>')
    result = find(tab, "checkbox", "check", region="beta")
    assert chosen_id(tab, result) == "sel-beta"
    assert result.locator is not None
    element = to_playwright(tab, result.locator)
    element.check()
    assert element.is_checked() and tab.locator("#sel-alpha").is_checked() is False
    # only a checkable control is singled out so: "button@beta" is not the selection box
    assert find(tab, "button", "click", region="beta").locator is None


def test_icon_drawn_toggles_alone_are_not_a_choice_between_checkboxes(tab: Page) -> None:
    # without the selection box, the row's two icon toggles are still two: nothing says which
    tab.set_content(
        '<div role="grid">'
        + GRID_ROWS.replace('type="checkbox" aria-label', 'type="hidden" aria-label')
        + "</div>"
    )
    assert find(tab, "checkbox", "check", region="beta").locator is None


# 9. A row that only generated classes tell apart is rendered by its test id.

PENCIL = '<svg width="12" height="12" aria-hidden="true"><path d="M1 1h10v10z"/></svg>'
VIRTUAL_ROWS = "".join(
    f'<div class="css-qaw33x" data-testid="experiment-list-item" style="height: 32px">'
    f'<a href="#/{i}" title="{name}">{name}</a>'
    f'<button id="rename-{name}" data-testid="rename-experiment-button" type="button"'
    f' class="btn-icon-only css-1tpx8wl">{PENCIL}</button></div>'
    for i, name in enumerate(("iris-classifier", "churn-prediction", "scratch-notebook"))
)


def test_a_row_told_apart_only_by_generated_classes_is_rendered_by_its_test_id(
    tab: Page,
) -> None:
    """An icon-only button in a row of a virtualised list (MLflow 2.22's experiment list):
    the row's classes are generated, so a rendering by tag and text ("a div that holds
    churn-prediction") also matches the list around the rows, and every row's button. The
    scan singled the button out, but no rendered locator resolved to it alone; the row's
    test id, tried after its classes and tag, does."""
    tab.set_content(f'<div class="css-1d4xjjz"><h2>Experiments</h2>{VIRTUAL_ROWS}</div>')
    result = find(tab, "Rename", region="churn-prediction")
    assert chosen_id(tab, result) == "rename-churn-prediction"
    assert result.locator is not None and result.locator.region is not None
    assert result.locator.region.css == 'div[data-testid="experiment-list-item"]'


# 10. Exact before substring, then controls before other elements.


def test_words_a_cell_shows_exactly_beat_a_control_whose_name_only_holds_them(
    tab: Page,
) -> None:
    """MLflow 2.22's run overview: a "Tags" row holds its header cell, the tags and an
    "Edit tags" button. "Tags | click" is the cell that says exactly "Tags", not the button
    whose name only holds the word (it opens a dialog over the page): exact beats substring
    before controls beat other elements."""
    tab.set_content(
        '<table><tr><th id="tags">Tags</th><td>team: vision</td>'
        '<td><button aria-label="Edit tags" id="edit">✎</button></td></tr>'
        "<tr><th>Parameters</th><td>lr: 0.1</td></tr></table>"
    )
    assert chosen_id(tab, find(tab, "Tags")) == "tags"
    # with the same words exactly, the control still wins: the button named Search, not
    # the search box; and a control whose name holds the words is still found alone
    tab.set_content(
        '<input type="search" id="box" aria-label="Search"><button id="go">Search</button>'
        '<p>Results</p><button id="edit2">Edit results</button>'
    )
    assert chosen_id(tab, find(tab, "Search")) == "go"
    assert chosen_id(tab, find(tab, "Edit")) == "edit2"


def test_a_label_that_says_the_words_leads_to_the_control_whose_name_holds_them(
    tab: Page,
) -> None:
    """MLflow 2.4's compare page: a switch named "Tags - Show diff only" with a label beside
    it that says "Show diff only" (not tied to it by ``for``). A label names a control: the
    switch is what "Show diff only | click" operates, though the label's words are exact."""
    tab.set_content(
        '<section><h3>Tags</h3><button role="switch" id="sw" aria-checked="false"'
        ' aria-label="Tags - Show diff only"></button><div><label>Show diff only</label></div>'
        "</section>"
    )
    assert chosen_id(tab, find(tab, "Show diff only", region="Tags")) == "sw"
