"""A key pressed on a name goes to the element keyboard focus is on, when the words name it.

HTML's focus model: key events are dispatched to the focused area of the document (HTML,
"Focus": "the focused area of the document" is where keyboard events go; UI Events:
``keydown``'s target is the focused element). Playwright's ``locator.press`` first focuses
the element it is given, so pressing on another element the words also name would move the
focus away from where the person typed and press the key there. Flask-AppBuilder's list
filter (REQ-APPBUILDER-009 on 3.4.5 and 5.3.0): ``Name | fill | Car`` types into the
filter's box (placeholder "Name"), then ``Name | press | Enter`` was refused as ambiguous
between the box (0.88) and the filter's own remove link "× Name" (0.95): the Enter on the
link would have removed the filter. Flask-Admin's list filters (1.6.1, 2.2.1) have the same
shape (a remove link named by the column beside the filter's value box).

Not a guess: the rule takes no element the words do not name (the focused element must be
one the step's words name at the level that decides, and it is still held to the evidence
rule's threshold), and only for the step at its turn, on the page as it is about to act (a
``press`` found ahead of its turn, in one batch with earlier steps, is not: the steps before
it move the focus). What stays refused: a key on words that name several elements none of
which has focus (here, the same Enter before anything was typed).

It failed before the change: the run stopped at step 2, ``ambiguous``, nothing pressed.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import to_playwright
from pytest_pacts.elements import discover_element
from pytest_pacts.engine.failure_text import render_failure

from .helpers import Site, failure_of, plan, run

FILTER = """
<form onsubmit="event.preventDefault();
  document.querySelector('#out').textContent = 'searched ' + document.querySelector('#q').value">
  <table><tr>
    <td><a href="javascript:void(0)" id="rm" {autofocus}
      onclick="this.closest('tr').remove(); document.querySelector('#out').textContent = 'removed'"
      >&times;&nbsp;Name</a></td>
    <td><select name="op"><option>Starts with</option><option>Equal to</option></select></td>
    <td><input id="q" type="text" placeholder="Name" name="_flt_0_name"></td>
  </tr></table>
</form>
<p id="out">none</p>
"""


def test_enter_on_the_box_just_typed_in(tab: Page, site: Site) -> None:
    url = site.add("focus-filter.html", FILTER.format(autofocus=""))
    record = run(
        tab,
        plan(url, ("fill", "Name", "Car"), ("press", "Name", "Enter", "text_visible:searched Car")),
    )
    assert record.verdict == "pass", render_failure(record)
    assert tab.inner_text("#out") == "searched Car"


def test_focus_seen_ahead_of_its_turn_does_not_decide(tab: Page, site: Site) -> None:
    # the page focuses the remove link on load; the press is found in one batch with the
    # fill, before the fill moves the focus: it is decided at its turn, on the box
    url = site.add("focus-filter-auto.html", FILTER.format(autofocus='autofocus tabindex="0"'))
    tab.goto(url)
    assert tab.evaluate("document.activeElement.id") == "rm"
    record = run(
        tab,
        plan(url, ("fill", "Name", "Car"), ("press", "Name", "Enter", "text_visible:searched Car")),
    )
    assert record.verdict == "pass", render_failure(record)


def test_no_focus_on_a_named_element_stays_refused(tab: Page, site: Site) -> None:
    url = site.add("focus-filter-none.html", FILTER.format(autofocus=""))
    record = run(tab, plan(url, ("press", "Name", "Enter")))
    assert record.verdict != "pass" and failure_of(record) == "ambiguous", render_failure(record)
    assert tab.inner_text("#out") == "none"


# Having the focus is evidence with a score, not a verdict: the rule's runner-up and margin
# still apply (models/locator.py, ``UNFOCUSED_FACTOR``: for a key at its turn, every element
# the words name but the focused one scores x0.8). Above, the box (placeholder, 0.88) leads
# the link (0.95 x 0.8 = 0.76) by 0.12. Below, the focused element's own evidence is weaker,
# and the step refuses before acting, with both scores.

BY_ID = FILTER.replace(
    'id="q" type="text" placeholder="Name" name="_flt_0_name"', 'id="name" type="text"'
).replace("'#q'", "'#name'")
LOOSE = FILTER.replace('placeholder="Name"', 'placeholder="Name filter"')


def test_a_focused_element_named_weakly_does_not_clear_the_margin(tab: Page, site: Site) -> None:
    # the box is named only by its name attribute (a developer's word, css 0.80): the focus
    # lifts it over the link "x Name" (0.95 -> 0.76) by 0.04, under the margin
    url = site.add("focus-by-id.html", BY_ID.format(autofocus=""))
    record = run(
        tab,
        plan(url, ("fill", "Name", "Car"), ("press", "Name", "Enter", "text_visible:searched Car")),
    )
    assert failure_of(record) == "ambiguous", render_failure(record)
    failed = record.failed_step
    assert failed is not None and failed.index == 1 and failed.failure is not None
    assert "0.80" in failed.failure.message and "0.76" in failed.failure.message
    assert tab.inner_text("#out") == "none"


def test_a_focused_element_named_at_a_looser_level_still_counts(tab: Page, site: Site) -> None:
    # the box's placeholder holds the words ("Name filter", a substring: 0.88 x 0.95 = 0.836);
    # the link "x Name" says them exactly and decided alone before: the Enter went to the link
    # and removed the filter the person had just typed into (a wrong-element action). Held to
    # the focus, the link scores 0.76: the two are 0.076 apart, and the step is refused.
    url = site.add("focus-loose.html", LOOSE.format(autofocus=""))
    record = run(
        tab,
        plan(url, ("fill", "Name", "Car"), ("press", "Name", "Enter", "text_visible:searched Car")),
    )
    assert failure_of(record) == "ambiguous", render_failure(record)
    assert tab.inner_text("#out") == "none"


def test_discover_element_reads_the_focus(tab: Page, site: Site) -> None:
    """``discover_element`` answers for an action taken next on the page as it is: the focus
    is evidence there as in a run (the review found it absent)."""
    url = site.add("focus-api.html", FILTER.format(autofocus=""))
    tab.goto(url)
    tab.fill("#q", "Car")
    result = discover_element(tab, "Name", "press")
    assert result.locator is not None, result.unresolved
    assert to_playwright(tab, result.locator).evaluate("e => e.id") == "q"
    assert result.score == 0.88 and result.runner_up == 0.76


def test_a_region_the_page_lacks_keeps_the_focus(tab: Page, site: Site) -> None:
    """A step whose region matches nothing is found page-wide (``Finder._without_region``),
    and the key there is decided by the same rule as at its turn."""
    url = site.add("focus-no-region.html", FILTER.format(autofocus=""))
    record = run(
        tab,
        plan(
            url,
            ("fill", "Name", "Car"),
            ("press", "Name@Search filters", "Enter", "text_visible:searched Car"),
        ),
    )
    assert record.verdict == "pass", render_failure(record)
    assert tab.inner_text("#out") == "searched Car"
