"""A cached locator's hit is the recorded element only where the element was (issue 35,
class 5).

A cached ``get_by_role("button", name="Settings")`` still resolved after an upgrade, but
the "Settings" the step meant (in the page's footer) had become a ``div``, and the one
match left was another "Settings" button, in the header: its name agreed, so it was
clicked unchanged. The gate's identity check now also compares where the element sits:
the landmark around it (header, footer, nav, main, aside) as recorded.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import Locator, Strategy

from .helpers import Site, plan, run, target

V1 = """
<header><h1>Notes</h1><nav><a href="#">Home</a></nav></header>
<main><p>Three notes.</p></main>
<footer><button onclick="window.hits.push('footer')">Settings</button></footer>
<script>window.hits = [];</script>
"""
V2 = """
<header><h1>Notes</h1><button onclick="window.hits.push('header')">Settings</button></header>
<main><p>Three notes.</p></main>
<footer><div class="link" onclick="window.hits.push('footer')">Settings</div></footer>
<script>window.hits = [];</script>
"""


def test_the_same_name_in_another_landmark_is_not_the_recorded_element(
    tab: Page, site: Site
) -> None:
    """WAI-ARIA 1.2, "Landmark Roles": ``banner`` (a page's header) and
    ``contentinfo`` (its footer) are different regions of the page, so a control named
    "Settings" in the header is not the footer's "Settings" the step was recorded on. The
    cached locator's one match goes to healing, which may abstain; the header's button is
    never clicked."""
    v1 = site.add("notes-v1.html", V1)
    v2 = site.add("notes-v2.html", V2)
    tab.goto(v1)
    recorded = discover(tab, [(0, Target(element="Settings"), Action.CLICK)])[0]
    assert recorded.locator is not None and recorded.fingerprint is not None
    assert recorded.fingerprint.ancestor_path[0].startswith("footer")
    record = run(tab, plan(v2, ("click", "Settings")), pom={0: recorded}, healer=HealingLadder())
    assert record.verdict == "fail" or record.steps[0].heals
    assert "header" not in tab.evaluate("() => window.hits")


NOTEBOOK_V1 = """
<div id="menubar"><ul class="nav">
<li><a href="#" class="dropdown-toggle" data-toggle="dropdown" onclick="hits.push('help')">Help</a></li>
</ul></div>
<div id="maintoolbar"><button title="Run" onclick="hits.push('run')">Run</button></div>
<script>window.hits = [];</script>
"""
NOTEBOOK_V2 = """
<ul role="menubar">
<li role="menuitem" aria-haspopup="true" tabindex="0" onclick="hits.push('run menu')"><div class="label">Run</div></li>
<li role="menuitem" aria-haspopup="true" tabindex="-1" onclick="hits.push('help')">Help</li>
</ul>
<div role="toolbar"></div>
<script>window.hits = [];</script>
"""


def test_a_menus_opener_is_not_the_button_that_acted(tab: Page, site: Site) -> None:
    """Jupyter Notebook 7.5.5 (held out, REQ-JUPYTER-007): the toolbar's "Run" button of
    6.5.7 became a ▶ icon, and re-discovery took the menu bar's "Run" menu for it (the same
    name): the menu opened, the cell never ran. WAI-ARIA 1.2, ``aria-haspopup``: a control
    that opens a menu (a menu bar's item, a menu button) is another kind of control than
    one that acts, so it is never healed to, nor from, nor to the menu item's label, which
    is part of it (here the toolbar's button is gone, so nothing more like the recorded one
    outvotes the label). An opener that stays an opener
    (6.5.7's "Help" ``dropdown-toggle``, 7.5.5's "Help" menu) still heals."""
    v1 = site.add("nb-v1.html", NOTEBOOK_V1)
    v2 = site.add("nb-v2.html", NOTEBOOK_V2)
    tab.goto(v1)
    found = discover(
        tab, [(0, Target(element="Help"), Action.CLICK), (1, Target(element="Run"), Action.CLICK)]
    )
    assert found[0].fingerprint is not None and found[0].fingerprint.popup is True
    assert found[1].fingerprint is not None and found[1].fingerprint.popup is False
    record = run(
        tab, plan(v2, ("click", "Help"), ("click", "Run")), pom=found, healer=HealingLadder()
    )
    hits = tab.evaluate("() => window.hits")
    assert hits[:1] == ["help"], (hits, record.steps[0].heals)
    assert "run menu" not in hits


TODOS = (
    '<section class="main"><ul class="todo-list">{}</ul></section>'
    "<script>window.hits = []; document.addEventListener('change', (e) =>"
    " hits.push(e.target.closest('li').textContent.trim()));</script>"
)
ROW = '<li><div class="view"><input class="toggle" type="checkbox"><label>{}</label></div></li>'
NAV = (
    '<nav><a href="#" onclick="hits.push(\'home\')">Home</a>{}</nav>'
    "<main><p>Three notes.</p></main><script>window.hits = [];</script>"
)
SETTINGS = '<a href="#" onclick="hits.push(\'settings\')">Settings</a>'
SIGN_OUT = (
    '<a href="#" class="icon-exit" style="display:inline-block;width:16px;height:16px;'
    'background:#333" onclick="hits.push(\'sign out\')"></a>'
)


@pytest.mark.parametrize(
    ("v1", "v2", "step", "cached", "wrong"),
    [
        # the rows reordered: the first row's box is another item's
        (
            TODOS.format(ROW.format("Buy milk") + ROW.format("Walk dog")),
            TODOS.format(ROW.format("Feed cat") + ROW.format("Buy milk") + ROW.format("Walk dog")),
            ("check", "Toggle@Buy milk"),
            ".todo-list > li:nth-child(1) .toggle",
            "Feed cat",
        ),
        # drift: another row below, the item's words kept: the same box, no heal round
        (
            TODOS.format(ROW.format("Buy milk")),
            TODOS.format(ROW.format("Buy milk") + ROW.format("Walk dog")),
            ("check", "Toggle@Buy milk"),
            ".todo-list > li:nth-child(1) .toggle",
            None,
        ),
        # a named link's place taken by an icon link with no name: a name lost agrees with none
        (
            NAV.format(SETTINGS),
            NAV.format(SIGN_OUT + SETTINGS),
            ("click", "Settings"),
            "nav > a:nth-of-type(2)",
            "sign out",
        ),
    ],
    ids=["unnamed-reordered", "unnamed-drift", "name-lost"],
)
def test_a_hit_is_the_recorded_element_only_when_name_and_context_agree(
    tab: Page,
    site: Site,
    v1: str,
    v2: str,
    step: tuple[str, str],
    cached: str,
    wrong: str | None,
) -> None:
    """Issue 35, class 5 and what must be true, item 6: the gate's identity check let any
    element pass as the recorded one when either side had no words. A positional locator of
    a checkbox with no label (the structural fallback of an unnamed control: a to-do list's
    row boxes, written as ``li`` rows in several implementations of one list app, an admin
    list's row selection box in its own cell) then checked another item's box once the
    list's order changed, and a "Settings" link whose place an unnamed icon link took was
    "the same element". ACCNAME: an element with no accessible name is told apart only by
    what surrounds it, so its recorded context (its role and tag, the words beside it and
    its row's, its landmark) must agree; a name lost agrees with nothing. Either goes to
    healing, which may abstain (it does for the unnamed box: nothing of the box's own says
    it is the one) but never acts on the other element; the list with another row below
    keeps the box with no heal round."""
    url1, url2 = site.add("ctx-v1.html", v1), site.add("ctx-v2.html", v2)
    tab.goto(url1)
    action, element = step
    found = discover(tab, [(0, target(element), Action(action))])[0]
    assert found.fingerprint is not None, found.unresolved
    recorded = found.model_copy(
        update={"locator": Locator(strategy=Strategy.CSS, confidence=0.7, css=cached)}
    )
    record = run(tab, plan(url2, step), pom={0: recorded}, healer=HealingLadder())
    hits = tab.evaluate("() => window.hits")
    heals = record.steps[0].heals
    if wrong is None:
        assert (record.verdict, hits, heals) == ("pass", ["Buy milk"], ())
    else:
        assert heals and wrong not in hits, hits


EDITOR_V1 = (
    '<form class="sql"><h3>Custom SQL query</h3><div class="CodeMirror">'
    '<textarea id="q"></textarea><pre>1 select name from products order by name</pre></div>'
    "<button>Run SQL</button></form>"
)
EDITOR_V2 = (
    '<form class="sql"><h3>Custom SQL query</h3><div class="cm-editor"><div class="cm-gutter">1'
    '</div><div class="cm-content" id="q" role="textbox" contenteditable="true">select name '
    "from products order by name</div></div><button>Run SQL</button></form>"
)


def test_an_unnamed_field_redrawn_by_its_editor_is_the_same_field(tab: Page, site: Site) -> None:
    """Drift the context rule keeps: Datasette 0.59's SQL editor (CodeMirror 5, a
    ``<textarea>`` with no name) is a ``contenteditable`` div with ARIA's ``textbox`` role in
    1.0 (CodeMirror 6). With no name either side, the kind (the role, not the tag) and the
    words around it (the query's line, the gutter's number; a word cut at 80 characters
    does not count) agree: the cached locator's hit is filled with no heal round."""
    url1, url2 = site.add("sql-v1.html", EDITOR_V1), site.add("sql-v2.html", EDITOR_V2)
    tab.goto(url1)
    found = discover(tab, [(0, target("Custom SQL query"), Action.FILL)])[0]
    assert found.fingerprint is not None and not found.fingerprint.accessible_name
    cached = Locator(strategy=Strategy.CSS, confidence=0.7, css=".sql #q")
    record = run(
        tab,
        plan(url2, ("fill", "Custom SQL query", "select 1")),
        pom={0: found.model_copy(update={"locator": cached})},
        healer=HealingLadder(),
    )
    assert (record.verdict, record.steps[0].heals) == ("pass", ()), record.steps[0].failure
    assert tab.inner_text("#q") == "select 1"


LONG_URI_V1 = """<form><textarea aria-label="Enter code to paste."></textarea>
<section class="paste-submit"><div class="row"><label>Expiry</label>
<select><option>1 day</option><option>1 week</option></select>
<input type="checkbox" name="{first}" onclick="hits.push('{first}')"> <span>{first_words}</span></div>
<div class="row"><input type="checkbox" name="{second}" onclick="hits.push('{second}')">
<span>{second_words}</span></div>
<button type="button">Paste!</button></section></form><script>window.hits = [];</script>"""
LONG_URI_V2 = """<form><textarea aria-label="Enter code to paste."></textarea>
<section class="paste-submit"><div class="row"><label>Expiry
<select><option>Expiry (1day)</option><option>Expiry (1week)</option></select></label></div>
<div class="row"><input type="checkbox" name="{first}" onclick="hits.push('{first}')">
<span>{first_words}</span></div>
<div class="row"><input type="checkbox" name="{second}" onclick="hits.push('{second}')">
<span>{second_words}</span></div>
<button type="button">Paste!</button></section></form><script>window.hits = [];</script>"""


@pytest.mark.parametrize("swapped", [False, True], ids=["same-box", "other-box"])
def test_an_unnamed_box_the_steps_words_still_name_is_the_same_box(
    tab: Page, site: Site, swapped: bool
) -> None:
    """The words a person reads right beside a control with no label are the name a label
    would give it (HTML's ``label``: the caption of a form control; discovery's adjacent-text
    and relational rules name it so, ``tests/discovery/test_unnamed_targets.py``), so the
    identity check counts them as its context too: pinnwand 1.5.0 (then held out, REQ-PINNWAND-004) moved its
    "Use a longer URI" box out of the row it shared with the expiry select, and the check
    refused the right box because the select's words recorded around it on 1.1.3 were gone.
    A cached hit on a box beside other words (the rows swapped) is still another box."""
    fields = {"first": "long", "first_words": "Use a longer URI"}
    fields |= {"second": "burn", "second_words": "Burn after reading"}
    url1 = site.add("uri-v1.html", LONG_URI_V1.format(**fields))
    if swapped:
        fields = {
            "first": fields["second"],
            "first_words": fields["second_words"],
            "second": fields["first"],
            "second_words": fields["first_words"],
        }
    url2 = site.add(f"uri-v2-{swapped}.html", LONG_URI_V2.format(**fields))
    tab.goto(url1)
    step = ("check", "Use a longer URI")
    found = discover(tab, [(0, target(step[1]), Action.CHECK)])[0]
    assert found.fingerprint is not None and found.locator is not None, found.unresolved
    # the structural locator of the first box, as a positional cache would hold it
    recorded = found.model_copy(
        update={
            "locator": Locator(
                strategy=Strategy.CSS, confidence=0.7, css="section > div:nth-child(2) > input"
            )
        }
    )
    record = run(tab, plan(url2, step), pom={0: recorded}, healer=HealingLadder())
    hits = tab.evaluate("() => window.hits")
    if swapped:
        assert "burn" not in hits, hits
    else:
        assert (record.verdict, hits, record.steps[0].heals) == ("pass", ["long"], ())


# A toggle drawn as a container with a script's click listener (no widget role) around the
# question's heading, then the WAI-ARIA accordion pattern: a heading holding the button.
ACCORDION_V1 = """
<div class="toggle" role="region" style="cursor: pointer"><div class="header">
<h5>How many books can I borrow?</h5></div></div>
<div id="answer" hidden>Five at once.</div>
<script>window.hits = [];
document.querySelector('.toggle').addEventListener('click', () => hits.push('toggle'));</script>
"""
ACCORDION_V2 = """
<div class="item"><h2 class="header">
<button type="button" onclick="hits.push('button')">How many books can I borrow?</button></h2>
<div id="answer" hidden>Five at once.</div></div>
<script>window.hits = [];</script>
"""


def test_a_heading_that_now_holds_the_control_it_is_named_by_is_not_the_recorded_element(
    tab: Page, site: Site
) -> None:
    """WAI-ARIA Authoring Practices, "Accordion Pattern": "each accordion header button is
    wrapped in an element with role heading", and accname 1.2 names that heading from its
    content, which is the button's name: the heading has the words only through the button,
    and a click means the button (HTML's activation behaviour is the button's; the heading
    has none). Discovery already lets such a container give way to the control it holds
    (docs/discovery.md, "a control whose own name carries the step's words"); a cached
    locator recorded on a plain heading *inside* a toggle (a container with a script's
    listener) that now finds a heading *holding* the button is not the recorded element:
    it goes to healing, which finds the button. Before: the cached heading passed the gate
    and was clicked at its centre, beside the button (django-helpdesk 0.5.0 -> 2.6.1,
    REQ-HELPDESK-011)."""
    url1, url2 = site.add("faq-v1.html", ACCORDION_V1), site.add("faq-v2.html", ACCORDION_V2)
    tab.goto(url1)
    step = ("click", "How many books can I borrow?")
    recorded = discover(tab, [(0, target(step[1]), Action.CLICK)])[0]
    assert recorded.locator is not None and recorded.fingerprint is not None, recorded.unresolved
    assert recorded.fingerprint.tag == "h5"
    record = run(tab, plan(url2, step), pom={0: recorded}, healer=HealingLadder())
    assert record.steps[0].heals
    assert tab.evaluate("() => window.hits") == ["button"]
