"""A region is named by the words that *head* it (docs/discovery.md, "Regions"): a heading,
a caption that leads a group, an item's title; never a sentence that merely mentions the
words. The pages are written from the held-out apps' failures (TiddlyWiki's story river and
its search drop-down) and the HTML standard's model of paragraphs, headings and sections.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import to_playwright
from pytest_pacts.models.locator import DiscoveryResult, RegionMatch

from .helpers import find

# A wiki's story river: each open page is an item titled by its heading; the welcome page's
# paragraph links to two other pages.
WELCOME = (
    '<div class="frame" id="welcome"><h2>Welcome</h2>'
    '<p>Start with the <a id="w-onboard" href="#Onboarding">Onboarding checklist</a>, '
    'then read the <a id="w-release" href="#Release">Release process</a>.</p></div>'
)
ONBOARDING = (
    '<div class="frame" id="onboarding"><h2>Onboarding checklist</h2>'
    "<p>Get a laptop from the front desk.</p>"
    '<p>Before your first deploy, read the <a id="o-release" href="#Release">Release process</a>'
    ".</p></div>"
)


def test_a_sentence_that_mentions_the_region_is_not_the_region(tab: Page) -> None:
    """TiddlyWiki 5.1.23 (held out, REQ-TIDDLYWIKI-001): ``Release process@Onboarding
    checklist`` was discovered ahead on the welcome page, before the page "Onboarding
    checklist" was open: the region became the welcome paragraph that links to it, and its
    "Release process" link was clicked (a wrong element). HTML: a ``<p>`` is a paragraph of
    running text whose phrasing content (a link, an emphasis) is part of a sentence; a
    section is titled by its heading. Words in the middle of a sentence mention a thing and
    head nothing, so the step finds nothing there (it is discovered again on its turn),
    and once the page is open its heading names the region."""
    tab.set_content(f"<main>{WELCOME}</main>")
    result = find(tab, "Release process", region="Onboarding checklist")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "none"

    tab.set_content(f"<main>{ONBOARDING}{WELCOME}</main>")
    result = find(tab, "Release process", region="Onboarding checklist")
    assert result.locator is not None, result.unresolved
    assert result.locator.region is not None
    assert result.locator.region.matched_by is RegionMatch.HEADING
    assert _id_of(tab, result) == "o-release"


def test_a_paragraph_led_by_the_words_is_still_named_by_them(tab: Page) -> None:
    """A paragraph that *begins* with the words is led by them (a run-in caption, as in
    Datasette's ``<p class="suggested-facets">Suggested facets: …</p>``): it is the region."""
    tab.set_content(
        '<main><p>Suggested facets: <a id="f1" href="?_facet=status">status</a></p>'
        '<p>Other facets: <a id="f2" href="?_facet=status2">status</a></p></main>'
    )
    result = find(tab, "status", region="Suggested facets")
    assert _id_of(tab, result) == "f1"


def test_a_fields_own_words_in_a_line_of_a_paragraph_still_name_it(tab: Page) -> None:
    """The rule is about a step's *region*. A step with no region is named by its own words,
    and a form may write them on a line of a paragraph (HTML's own examples put a form's
    controls in ``<p>`` elements, one line each): Roundup's side box is a ``<p>`` of links
    and ``<br>``s ending in a "Show issue:" button beside a nameless field, and ``Show
    issue: | fill`` is that field. Found on Roundup (held out until then), where the first
    version of the rule turned the step ``not_found``."""
    tab.set_content(
        '<form><p class="classblock"><b>Issues</b><br><a href="/all">Show All</a><br>'
        '<input type="submit" value="Show issue:"><input id="num" type="text" size="4">'
        "</p></form>"
    )
    assert _id_of(tab, find(tab, "Show issue:", "fill")) == "num"


def test_a_caption_names_the_group_it_leads_up_to_the_next_caption(tab: Page) -> None:
    """TiddlyWiki (held out, REQ-TIDDLYWIKI-002, both versions): the sidebar search's
    drop-down lists a page under "Title matches:" and again under "All matches:", each
    caption a ``<p>`` beside the ``<p>`` of its links, all in one box: ``Coffee
    machine@Title matches`` was ambiguous. HTML's implied sections (a heading names what
    follows it up to the next heading of its rank) hold for a caption that leads a group:
    a block that says the words alone and holds no control names what follows it, up to the
    next caption of its shape."""
    tab.set_content(
        '<div class="results"><p><em><small>Title matches:</small></em></p>'
        '<p><span><div><a id="t1" href="#Coffee">Coffee machine</a></div></span></p>'
        "<p><em><small>All matches:</small></em></p>"
        '<p><span><div><a id="a1" href="#Coffee">Coffee machine</a></div>'
        '<div><a id="a2" href="#Kitchen">Kitchen rules</a></div></span></p></div>'
    )
    assert _id_of(tab, find(tab, "Coffee machine", region="Title matches")) == "t1"
    assert _id_of(tab, find(tab, "Coffee machine", region="All matches")) == "a1"


def _id_of(page: Page, result: DiscoveryResult) -> str:
    assert result.locator is not None, result.unresolved
    value = to_playwright(page, result.locator).evaluate("e => e.id")
    assert isinstance(value, str)
    return value


JUPYTER_ROW = (
    '<div class="list_item row"><div class="col-md-12">'
    '<input type="checkbox" id="{id}" title="Click here to rename, delete, etc.">'
    '<i class="item_icon folder_icon"></i>'
    '<a class="item_link" href="/tree/{name}"><span class="item_name">{name}</span></a>'
    '<div class="item_buttons"><span class="item_modified">seconds ago</span></div></div></div>'
)
ADMIN_ROW = (
    '<tr><td><input type="checkbox" id="{id}" name="rowid" class="action-checkbox" '
    'title="Select record"></td><td><a href="/edit/{id}">Edit</a></td>'
    '<td class="col-name">{name}</td><td class="col-price">9.99</td></tr>'
)


def test_a_rows_checkbox_is_checked_by_the_name_the_row_shows(tab: Page) -> None:
    """Jupyter Notebook 6.5.7 (held out, REQ-JUPYTER-003/004): ``Untitled Folder | check``
    was ``not_found``: the row's checkbox is titled "Click here to rename, delete, etc." and
    the folder's name is a link beside it. Flask-Admin's list rows have the same shape (a
    checkbox titled "Select record", the record's name in a cell of the row). The words name
    a repeated item by the text it shows; checking it is checking the item's one checkbox.
    Found by the relational rule: for a check step with no region, a name that is only the
    box's ``title`` contradicts nothing (HTML: title is advisory information; ACCNAME takes
    it as a last resort, as it takes the placeholder, which already contradicts nothing).
    """
    tab.set_content(
        '<div id="notebook_list"><div class="list_toolbar"><input type="checkbox" '
        'id="select-all" title="Select all"></div>'
        + "".join(
            JUPYTER_ROW.format(id=f"j{i}", name=n)
            for i, n in enumerate(("data", "Untitled Folder", "Cleaning notes.ipynb"))
        )
        + "</div>"
    )
    assert _id_of(tab, find(tab, "Untitled Folder", "check")) == "j1"
    assert _id_of(tab, find(tab, "Cleaning notes.ipynb", "check")) == "j2"

    rows = "".join(
        ADMIN_ROW.format(id=f"r{i}", name=n) for i, n in enumerate(("Garden Hose", "Rake"))
    )
    tab.set_content(
        '<table><thead><tr><th><input type="checkbox" title="Select all records"></th>'
        f"<th></th><th>Name</th><th>Price</th></tr></thead><tbody>{rows}</tbody></table>"
    )
    assert _id_of(tab, find(tab, "Rake", "check")) == "r1"


def test_an_item_with_two_checkboxes_is_ambiguous_never_the_first(tab: Page) -> None:
    """The item's checkbox only when it holds exactly one: with two (a row's "select" and
    "starred" boxes) the step fails before acting, listing both."""
    row = JUPYTER_ROW.replace(
        '<i class="item_icon', '<input type="checkbox" title="Starred"><i class="item_icon'
    )
    tab.set_content(
        "<div>"
        + "".join(row.format(id=f"j{i}", name=n) for i, n in enumerate(("data", "Reports")))
        + "</div>"
    )
    result = find(tab, "Reports", "check")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "ambiguous"
    assert len(result.unresolved.candidates) == 2


# A component library's checkbox: the native input drawn over by a frame, and an empty
# ``<label for>`` beside it that captions nothing; the row's name in the next cell and a
# colour button (another role) in the last
DRAWN_BOX = (
    '<span class="box"><input type="checkbox" id="{id}" checked '
    'style="position:absolute;opacity:0;width:1px;height:1px">'
    '<span class="frame" style="display:inline-block;width:14px;height:14px;border:1px solid">'
    '</span><label for="{id}"></label>{extra}</span>'
)


def _grid_rows(tr: bool, extra: str = "") -> str:
    names = ("Quarterly report", "Budget", "Roadmap")
    if tr:
        cell, row = "<td>{}</td>", "<tr>{}</tr>"
    else:
        cell, row = '<span role="cell">{}</span>', '<div role="row">{}</div>'
    rows = "".join(
        row.format(
            cell.format(DRAWN_BOX.format(id=f"b{i}", extra=extra.format(i=i)))
            + cell.format(f'<span class="name">{n}</span>')
            + cell.format('<button class="swatch" style="width:10px;height:10px"></button>')
        )
        for i, n in enumerate(names)
    )
    return f"<table>{rows}</table>" if tr else f'<div role="table">{rows}</div>'


@pytest.mark.parametrize("tr", [False, True], ids=["ARIA rows", "HTML table rows"])
def test_a_rows_nameless_checkbox_beside_an_empty_label_is_named_by_the_row(
    tab: Page, tr: bool
) -> None:
    """A row's checkbox with no name of its own (a component library's: an empty ``<label
    for>`` beside its input) is the row's only checkbox, so the words of the row's other
    cells name it (ARIA's ``row``, ``cell`` and ``gridcell`` roles, HTML's table model: a row
    is one item of the table). The relational rule of the rows above, whose climb from the
    words stopped at the row because it holds a ``<label>`` that is not the words' own,
    taken for another field's caption. HTML's ``label`` is a caption: an empty one captions
    nothing, so it no longer ends the climb. Found on TensorBoard 2.10.1 and 2.19.0's run
    lists (REQ-TENSORBOARD-004; two releases of Angular Material's checkbox); before, ``not
    found``."""
    tab.set_content(_grid_rows(tr))
    assert _id_of(tab, find(tab, "Budget", "uncheck")) == "b1"
    assert _id_of(tab, find(tab, "Roadmap", "uncheck")) == "b2"


def test_a_row_with_two_such_checkboxes_is_ambiguous(tab: Page) -> None:
    """Alone of its role only: a row holding two nameless checkboxes is refused, never the
    first."""
    second = '<input type="checkbox" id="s{i}"><label for="s{i}"></label>'
    tab.set_content(_grid_rows(False, second))
    result = find(tab, "Budget", "uncheck")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "ambiguous"
    assert len(result.unresolved.candidates) == 2


# An API explorer's operation: a query parameter's row (its name in the first cell, its
# select in the second), then the response's media-type select, captioned beside it but not
# labelled, above an example response whose JSON holds the parameter's name as a key
OPERATION = """
<table><tr><td><div class="parameter__name">genre</div><div>string (query)</div></td>
  <td><p>Only books of this genre</p><select><option>--</option>
    <option>Science fiction</option><option>Classics</option></select></td></tr></table>
<section><div><small>Media type</small><div><select><option>application/json</option>
    <option>text/csv</option></select></div><small>Controls <code>Accept</code> header.</small>
  </div>
  <pre class="example"><span>[</span>
  <span>{</span>
    <span>"title"</span><span>:</span> <span>"Dune"</span><span>,</span>
    <span>"genre"</span><span>:</span> <span>"Science fiction"</span>
  <span>}</span>
<span>]</span></pre></section>
"""


def test_words_quoted_in_a_code_sample_name_no_field(tab: Page) -> None:
    """Swagger UI 3.24.3 (REQ-SWAGGER-011): ``genre | select`` was ambiguous between the
    ``genre`` parameter's select (the name in its row) and the response's "Media type"
    select, whose nearest mention of "genre" is the key ``"genre"`` of the example response
    below it. HTML: a ``<pre>`` is a block of preformatted text (a code sample, a program's
    output); text in it is quoted, not said, so it is no caption a person reads for a field
    and heads no region, as a sentence that mentions the words heads none (the rule above)."""
    tab.set_content(OPERATION)
    result = find(tab, "genre", action="select")
    assert result.locator is not None, result.unresolved
    options = to_playwright(tab, result.locator).evaluate("e => e.textContent")
    assert "Classics" in options
    # the sample's words name nothing at all: no field near it alone is taken for them
    tab.set_content(OPERATION.replace('<div class="parameter__name">genre</div>', "<div>kind</div>")
                    .replace("Only books of this genre", "Only books of this kind"))  # fmt: skip
    result = find(tab, "genre", action="select")
    assert result.locator is None
