"""A card that is itself a link, holding a control named by its own ``title`` and drawn
only while the pointer is on the card (issue 35, "never guess").

accname 1.2 computes a link's name from its content, and that content's names count: the
card link ``<a>Write the winter bread menu <button title="Mark as done">…</button></a>`` is
named "Write the winter bread menu Mark as done". The words "Mark as done" are the button's
own name (its ``title``, accname step 2I); the link has them only through the button. ARIA
gives the button its own role and name, so the step names the button, never the link that
holds it: the link gives way to the descendant that carries the name itself, and when that
descendant is drawn only under the pointer (CSS ``:hover`` on the card), the card is pointed
at first and the button clicked once shown, as for the rows and cards of
``test_shown_on_hover.py`` (Radicale 3.9.0's cards, I hate money's rows).

Failure this was made from: jotter-app 3.0.0 (held out then, REQ-JOTTER-006): the only card of
its column was a link; its "Mark as done" icon button sat in a ``div.opacity-0`` shown by
Tailwind CSS 4's ``.group-hover\\:opacity-100:is(:where(.group):hover *)``; discovery took
the card link (a name holding the words) at 0.903 by its CSS path, and the click opened the
task instead of marking it done. Two things kept the hover rule from applying: the card had
no sibling card (so it was not a "repeated item"), and the ``:hover`` sat inside ``:is()``.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.models import Action, Target

from .helpers import Site, plan, run

# Tailwind CSS 4 writes ``group-hover:`` as ``:is(:where(.group):hover *)`` inside
# ``@media (hover: hover)``; Tailwind 3 wrote ``.group:hover .group-hover\:opacity-100``.
TAILWIND_4 = "@media (hover: hover) { .reveal:is(:where(.group):hover *) { opacity: 1 } }"
TAILWIND_3 = ".group:hover .reveal { opacity: 1 }"
NONE = ""  # nothing ever shows the tools


def _card(title: str) -> str:
    return (
        f'<a class="card group" href="#task" onclick="out.textContent=\'Opened {title}\';'
        f' return false"><h4>{title}</h4><div class="tools reveal">'
        f'<button title="Mark as done" onclick="event.preventDefault(); event.stopPropagation();'
        f" out.textContent='Done: {title}'\"><svg width='16' height='16'><path d='M1 8l4 4 8-8'"
        f" stroke='black'/></svg></button></div></a>"
    )


def _board(rule: str) -> str:
    return (
        "<style>.card { display: block; border: 1px solid #999; margin: 8px; padding: 8px;"
        " width: 300px; color: inherit; text-decoration: none } .tools { opacity: 0 }"
        f" {rule}</style>"
        '<div class="board"><div class="column"><h3>To do</h3><div class="list">'
        f"{_card('Fix the oven door')}{_card('Clean the proofing baskets')}</div></div>"
        '<div class="column"><h3>In progress</h3><div class="list">'
        f"{_card('Write the winter bread menu')}</div></div></div>"
        '<p id="out"></p>'
    )


SHORT = EngineOptions(step_timeout_ms=1_500, settle_timeout_ms=300, navigation_timeout_ms=10_000)


def test_the_button_shown_on_a_lone_card_link_is_clicked_not_the_card(
    tab: Page, site: Site
) -> None:
    """The jotter-app case: the only card of its column, the rule in Tailwind 4's form."""
    url = site.add("board4.html", _board(TAILWIND_4))
    step = ("click", "Mark as done@Write the winter bread menu", "", "")
    record = run(tab, plan(url, step))
    assert record.verdict == "pass", render_failure(record)
    assert tab.text_content("#out") == "Done: Write the winter bread menu"
    notes = " ".join(record.steps[0].notes)
    assert "pointed at" in notes and "hover" in notes, notes


def test_the_button_of_a_card_among_siblings_is_clicked_in_either_tailwind_form(
    tab: Page, site: Site
) -> None:
    for i, rule in enumerate((TAILWIND_4, TAILWIND_3)):
        url = site.add(f"board-sib{i}.html", _board(rule))
        record = run(tab, plan(url, ("click", "Mark as done@Fix the oven door", "", "")))
        assert record.verdict == "pass", (rule, render_failure(record))
        assert tab.text_content("#out") == "Done: Fix the oven door", rule


def test_the_card_link_is_never_the_pick_for_its_buttons_name(tab: Page, site: Site) -> None:
    """With no rule that shows the button, the card link still never stands for it: the
    words name the button (as the region's only button it is the relational pick), and the
    run never opens the card. On the old code the link was the pick (role and name, 0.903)."""
    url = site.add("board-never.html", _board(NONE))
    tab.goto(url)
    target = Target(element="Mark as done", region="Write the winter bread menu")
    found = discover(tab, [(0, target, Action.CLICK)])[0]
    assert found.locator is None or found.locator.role != "link", found.locator
    run(tab, plan(url, ("click", "Mark as done@Write the winter bread menu", "", "")),
        options=SHORT)  # fmt: skip
    assert not (tab.text_content("#out") or "").startswith("Opened")


# A list whose rows are divs with generated classes, one of them holding the region's words
# in hidden text: the region rendered as ``div`` with the row's words matches both rows
# (Playwright's ``has_text`` reads hidden text too), so the button's role and name match two;
# only its place in the page (a CSS path) singles it out.
ROWS = """
<main><div class="css-9k8j7h">
  <div class="css-r0w1ab"><span>Buy milk</span><button>Delete</button>
    <span style="display: none">Ask before: Walk the dog</span></div>
  <div class="css-r0w1ab"><span>Walk the dog</span><button>Delete</button></div>
  <div class="css-r0w1ab"><span>Pay rent</span><button>Delete</button></div>
</div></main>
"""


def test_a_pick_located_only_by_its_place_is_not_in_the_top_confidence_band(
    tab: Page, site: Site
) -> None:
    """A CSS path only renders the element the scan chose: it is no evidence that the
    element is the one the step names, so a pick located by it alone scores the scan's own
    evidence capped under 0.90, the band the calibration holds to >= 99% right
    (docs/benchmarks.md). jotter-app's card link was reported at 0.903 that way."""
    url = site.add("rows.html", ROWS)
    tab.goto(url)
    found = discover(tab, [(0, Target(element="Delete", region="Walk the dog"), Action.CLICK)])[0]
    assert found.locator is not None, found.unresolved
    assert found.positional, found.locator
    assert found.score is not None and found.score < 0.90, found.score
    assert found.locator.confidence < 0.90, found.locator


# The same rule however loosely the words match the inner control's name (issue 35 item 10):
# an element whose name from content holds a control's whole name because that control is
# inside it, and has the step's words only through it, is no second choice for a pointer.
# mitmweb 9.0.1 and 11.0.2 draw the flow menu's drop-down toggles as a button inside a link
# (``<a href="#"><button title="mark flow">Mark▾</button></a>``: REQ-MITMWEB-014's "Mark"),
# Kiwi TCMS 11.0 and 12.4 its plan's case rows as a sortable list's ``role="option"`` row
# around the case link (REQ-KIWITCMS-004's "Empty the cart"); both were refused as ambiguous
# between the outer element and the inner control at 0.90. OctoPrint's tabs, ``<li
# role="tab"><a>Temperature</a></li>``, have the shape with an exact name.
FLOW_MENU = (
    '<div class="flow-menu"><button title="[r]eplay flow">&nbsp;Replay</button>'
    '<button title="[d]elete flow">&nbsp;Delete</button>'
    '<a href="#" onclick="marks.hidden = false; return false"><button class="btn"'
    ' title="mark flow"><i class="fa fa-paint-brush"></i>&nbsp;Mark▾</button></a>'
    '<a href="#" onclick="return false"><button class="btn" title="export flow">'
    "&nbsp;Export▾</button></a></div>"
    '<ul id="marks" hidden><li><a href="#" onclick="out.textContent = \'red\'; return false">'
    "red circle</a></li></ul><p id='out'></p>"
)


def _case_row(pk: int, name: str, extra: str = "") -> str:
    return (
        f'<div class="list-group-item js-testcase-row" data-testcase-pk="{pk}" role="option"'
        ' aria-grabbed="false"><input type="checkbox"> <button class="btn btn-link'
        ' dropdown-toggle" aria-haspopup="true"><span class="fa fa-ellipsis-v"></span></button>'
        f' {extra}<a class="js-test-case-link" href="#case-{pk}"'
        f" onclick=\"out.textContent = 'Opened TC-{pk}'; return false\">TC-{pk}: {name}</a>"
        ' <span class="status">PROPOSED</span></div>'
    )


CASE_LIST = (
    '<div id="testcases-list" class="list-group" aria-dropeffect="move">'
    f"{_case_row(1, 'Pay with a saved card')}{_case_row(2, 'Apply a discount code')}"
    f"{_case_row(3, 'Empty the cart')}</div><p id='out'></p>"
)


def test_a_link_named_by_the_button_inside_it_gives_way_to_the_button(
    tab: Page, site: Site
) -> None:
    """mitmweb's "Mark▾": the caret is a character of the text, so "Mark" matches the button
    and the link around it only loosely; on the old code they tied (``ambiguous``)."""
    url = site.add("flow-menu.html", FLOW_MENU)
    record = run(tab, plan(url, ("click", "Mark", "", ""), ("click", "red circle", "", "")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.text_content("#out") == "red"
    tab.goto(url)
    found = discover(tab, [(0, Target(element="Mark"), Action.CLICK)])[0]
    assert found.locator is not None and found.locator.role == "button", found


def test_a_sortable_row_gives_way_to_the_case_link_it_holds(tab: Page, site: Site) -> None:
    """Kiwi TCMS's plan: the row (``role="option"``) is named by its whole text, "TC-3: Empty
    the cart PROPOSED", which holds the link's name; on the old code they tied at 0.90."""
    url = site.add("cases.html", CASE_LIST)
    record = run(tab, plan(url, ("click", "Empty the cart", "", "")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.text_content("#out") == "Opened TC-3"


def test_an_outer_element_with_the_words_of_its_own_stays_a_rival(tab: Page, site: Site) -> None:
    """The rule removes only a rival that has the words through the inner control alone: a
    row that also says them outside the link, or a link around a button with other words
    before it, still ties, and the step is refused before acting."""
    rows = (
        '<div class="list-group">'
        f"{_case_row(3, 'Empty the cart', '<span>Empty the cart first:</span>')}</div>"
        '<a href="#" onclick="out.textContent = \'all\'; return false">Mark all <button'
        " onclick=\"event.preventDefault(); event.stopPropagation(); out.textContent = 'one'\">"
        "Mark▾</button></a><p id='out'></p>"
    )
    url = site.add("own-words.html", rows)
    tab.goto(url)
    for words in ("Empty the cart", "Mark"):
        found = discover(tab, [(0, Target(element=words), Action.CLICK)])[0]
        assert found.locator is None, (words, found.locator)
        assert found.unresolved is not None and found.unresolved.reason == "ambiguous", words
