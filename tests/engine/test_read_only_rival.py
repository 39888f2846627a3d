"""A read-only text box is no rival for a ``fill`` or ``type`` (issue 35, "never guess").

HTML: a ``readonly`` input's value cannot be edited by the user, and Playwright's own
``fill`` refuses one ("Element is not editable"); the gate refuses it too (``not_editable``).
So for an action that writes into a field, a read-only field gives way to an editable one
the words name as well. It only removes a rival that cannot take the action: a read-only
field the words name alone stays the pick, and the gate refuses it before acting; it never
lets a looser match or a field further out take its place.

Failures this was made from: typeahead.js draws its hint as a second ``<input>`` under the
real box (``readonly``, ``tabindex=-1``, transparent, a clone of the box without its id and
name). Kiwi TCMS 11.0 and 12.4 (held out then, REQ-KIWITCMS-005 and 006): ``textbox@Tags |
fill`` on a run's and a case's Tags card was refused as ambiguous between ``input#id_tags``
and its hint. Calibre-Web's book form draws the same hint under its "Author", "Series" and
"Tags" boxes (``typeahead.bundle.js`` with ``hint: true``), where a box named by its group
rather than its label ties the same way.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.models import Action, Target

from .helpers import Site, plan, run


def _typeahead(box_id: str, attrs: str = "") -> str:
    """typeahead.js 0.11's markup: the hint, a read-only clone, under the box it completes."""
    return (
        '<span class="twitter-typeahead" style="position: relative; display: inline-block">'
        f'<input type="text" class="form-control typeahead tt-hint" readonly'
        f' autocomplete="off" spellcheck="false" tabindex="-1" {attrs} style="position: absolute;'
        ' top: 0; left: 0; border-color: transparent; box-shadow: none; background: #fff">'
        f'<input type="text" class="form-control typeahead tt-input" id="{box_id}" {attrs}'
        ' autocomplete="off" style="position: relative; background-color: transparent"></span>'
    )


# Kiwi TCMS's Tags card: a table of tags whose footer holds the box and a "+" link "Add"
KIWI_TAGS = (
    '<div class="card-pf"><h2 class="card-pf-title"><span class="fa fa-tags"></span> Tags</h2>'
    '<div class="card-pf-body"><table class="table" id="tags"><thead><tr><th>Name</th><th></th>'
    "</tr></thead><tbody><tr><td>smoke</td><td></td></tr></tbody><tfoot><tr><th>"
    f'<div class="input-group input-group-sm">{_typeahead("id_tags")}</div></th>'
    '<th><a href="#tags" title="Add" onclick="return false">+</a></th></tr></tfoot></table>'
    "</div></div>"
)
# Calibre-Web's book form: a group of its caption and a typeahead box
CALIBRE_FORM = (
    '<form><div class="form-group"><label for="bookAuthor">Author</label>'
    f'{_typeahead("bookAuthor")}</div><div class="form-group"><span>Series</span>'
    f'{_typeahead("series")}</div><button type="submit">Save</button></form>'
)


def test_the_editable_tags_box_is_filled_not_refused_for_its_hint(tab: Page, site: Site) -> None:
    """Kiwi TCMS's case. On the old code the step was refused: ``ambiguous``, two inputs at
    0.85 (``relational``), the box and its read-only hint."""
    url = site.add("kiwi-tags.html", KIWI_TAGS)
    record = run(tab, plan(url, ("fill", "textbox@Tags", "nightly")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.input_value("#id_tags") == "nightly"
    assert tab.input_value(".tt-hint") == ""


def test_a_box_named_by_its_group_is_typed_into_not_its_hint(tab: Page, site: Site) -> None:
    """Calibre-Web's form: "Series" is its group's caption, not a label, so the box is found
    by its kind in the group, where its hint stood beside it as a second text box."""
    url = site.add("calibre-form.html", CALIBRE_FORM)
    for action in ("fill", "type"):
        tab.goto(url)
        found = discover(tab, [(0, Target(element="textbox", region="Series"), Action(action))])[0]
        assert found.locator is not None, (action, found.unresolved)
        record = run(tab, plan(url, (action, "textbox@Series", "Discworld")))
        assert record.verdict == "pass", (action, render_failure(record))
        assert tab.input_value("#series") == "Discworld"


def test_a_hint_that_copies_the_boxs_name_gives_way_to_the_box(tab: Page, site: Site) -> None:
    """typeahead.js clones the box, so an ``aria-label`` is the hint's too: the two tie by name
    on the old code; the editable box is the pick."""
    url = site.add("named.html", f"<div>{_typeahead('tagbox', 'aria-label=Tag')}</div>")
    record = run(tab, plan(url, ("fill", "Tag", "pricing")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.input_value("#tagbox") == "pricing"


def test_a_read_only_field_named_alone_is_refused_never_replaced(tab: Page, site: Site) -> None:
    """The rule removes a rival; it adds no pick. A read-only field the words name exactly
    is still the pick, refused by the gate, not the editable field a looser match names; a
    region whose only text box is read-only gives no field further out either."""
    page = (
        '<form><label>Email <input id="email" readonly value="a@b.example"></label>'
        '<label>Email confirmation <input id="confirm"></label></form>'
        '<div class="card"><h3>Order B-1042</h3><input id="order" readonly value="B-1042"></div>'
        '<div class="card"><h3>Notes</h3><input id="notes"></div>'
    )
    url = site.add("alone.html", page)
    for element in ("Email", "textbox@Order B-1042"):
        record = run(tab, plan(url, ("fill", element, "x")))
        assert record.verdict != "pass", element
        assert tab.input_value("#confirm") == "" and tab.input_value("#notes") == "", element
