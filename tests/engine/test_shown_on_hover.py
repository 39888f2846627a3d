"""A control drawn only while the pointer is on its item (a card's or a row's buttons under
CSS ``:hover``): the step points at the item, then acts on the control it showed, and only
on that one (docs/user-guide.md, "Menus, tabs and disclosures").

CSS Selectors' ``:hover`` matches an element while the pointer is over it or a descendant of
it, so ``article:hover ul { visibility: visible }`` shows a card's buttons only then; a
person moves the pointer onto the card, then clicks. Playwright's ``hover()`` moves the
pointer to the element's centre, as its ``click()`` does to the control, which stays inside
the card. Failures this was made from: Radicale 3.9.0's collection cards (``Edit@Work``,
``Delete@Contacts``: re-discovery found the link in its card, hidden, five flows abstained)
and I hate money's participant rows, whose "edit" shows only while the pointer is on the row
(REQ-IHATEMONEY-007; docs/real-apps.md, "Radicale and I hate money to dev").
"""

from __future__ import annotations

from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Action, Step, Target

from .helpers import Site, plan, run

CARDS = """
<style>
  article { border: 1px solid #999; margin: 8px; padding: 8px; width: 300px }
  article ul { {hide} }
  article:hover ul { {show} }
</style>
<section>
  <article><h3>Work</h3><p>Meetings and deadlines</p>
    <ul><li><a href="#" title="Edit" onclick="out.textContent='Editing Work'; return false"><img
      alt="E" width="16" height="16"></a></li>
      <li><a href="#" title="Delete" onclick="out.textContent='Deleting Work'; return false"><img
      alt="D" width="16" height="16"></a></li></ul></article>
  <article><h3>Family</h3><p>Birthdays</p>
    <ul><li><a href="#" title="Edit" onclick="out.textContent='Editing Family'; return false"><img
      alt="E" width="16" height="16"></a></li>
      <li><a href="#" title="Delete" onclick="out.textContent='Deleting Family'; return false"><img
      alt="D" width="16" height="16"></a></li></ul></article>
</section>
<p id="out"></p>
"""

# a hidden match is waited for up to the step's timeout: the steps that fail wait less
SHORT = EngineOptions(step_timeout_ms=1_000, settle_timeout_ms=300, navigation_timeout_ms=10_000)
# a step that acts on nothing before it fails (no opener to use): its first discovery's
# answer is the message, so it need not wait as long
BRIEF = EngineOptions(step_timeout_ms=500, settle_timeout_ms=300, navigation_timeout_ms=10_000)

# the three ways CSS hides a control until its item is hovered
HIDES = (
    ("visibility: hidden", "visibility: visible"),
    ("opacity: 0", "opacity: 1"),
    ("display: none", "display: flex"),
)


def _cards(hide: str, show: str) -> str:
    return CARDS.replace("{hide}", hide).replace("{show}", show)


def test_the_card_is_pointed_at_then_its_own_control_is_clicked(tab: Page, site: Site) -> None:
    for i, (hide, show) in enumerate(HIDES):
        url = site.add(f"cards{i}.html", _cards(hide, show))
        record = run(tab, plan(url, ("click", "Delete@Family", "", "text_visible:Deleting Family")))
        assert record.verdict == "pass", (hide, render_failure(record))
        notes = " ".join(record.steps[0].notes)
        assert "pointed at" in notes and "hover" in notes, notes
        assert tab.text_content("#out") == "Deleting Family"


def test_a_cached_locator_of_a_text_link_heals_to_the_control_shown_on_hover(
    tab: Page, site: Site
) -> None:
    """Radicale 3.0.6 → 3.9.0: the recorded text link "Edit" in Work's row is gone; the card's
    icon link titled "Edit" is drawn only under the pointer. Re-discovery points at the card,
    and the heal is the link it showed."""
    v1 = site.add(
        "rows-v1.html",
        "<table><tr><td>Work</td><td><a href='#'>Edit</a></td></tr>"
        "<tr><td>Family</td><td><a href='#'>Edit</a></td></tr></table>",
    )
    tab.goto(v1)
    found = discover(tab, [(0, Target(element="Edit", region="Work"), Action.CLICK)])[0]
    assert found.locator is not None
    v2 = site.add("cards-v2.html", _cards(*HIDES[0]))
    record = run(
        tab,
        plan(v2, ("click", "Edit@Work", "", "text_visible:Editing Work")),
        pom={0: found},
        healer=HealingLadder(),
    )
    assert record.verdict == "pass", render_failure(record)
    assert tab.text_content("#out") == "Editing Work"
    heal = record.steps[0].heals[-1]
    assert heal.accepted and heal.basis is not None and "pointing at" in heal.basis


def test_a_control_the_hover_does_not_show_fails_before_acting(tab: Page, site: Site) -> None:
    # hidden for good: pointing at the card shows nothing, so nothing is clicked
    url = site.add("never.html", _cards("visibility: hidden", "visibility: hidden"))
    record = run(tab, plan(url, ("click", "Edit@Work", "", "")), options=SHORT)
    assert record.verdict == "fail"
    text = render_failure(record)
    assert "did not show it" in text and "add a step" in text, text
    assert tab.text_content("#out") == ""


def test_without_a_region_the_hidden_controls_of_every_card_are_not_guessed(
    tab: Page, site: Site
) -> None:
    url = site.add("noregion.html", _cards(*HIDES[0]))
    record = run(tab, plan(url, ("click", "Edit", "", "")), options=BRIEF)
    assert record.verdict == "fail"
    assert "pointed at" not in " ".join(record.steps[0].notes)
    assert tab.text_content("#out") == ""


def test_a_closed_menu_in_a_toolbar_item_is_not_pointed_at(tab: Page, site: Site) -> None:
    """Only a page's own ``:hover`` rule says pointing shows it: Node-RED 1.0.6's main menu
    is a closed drop-down (``display: none``, opened by a click on its ☰ button) inside a
    header toolbar's list item; "Debug messages", an item of its View submenu, was pointed
    at through that list item (nothing showed, and the corpus counted the hover as an action
    on another element). With no rule styling the menu by the item's ``:hover``, nothing is
    pointed at and the step fails before acting, as before."""
    url = site.add(
        "toolbar.html",
        '<ul class="toolbar"><li><button onclick="out.textContent=1">Deploy</button></li>'
        '<li><button class="menu-button">☰</button><ul class="dropdown" style="display:none">'
        '<li><a href="#" onclick="out.textContent=2">Debug messages</a></li>'
        '<li><a href="#">Settings</a></li></ul></li></ul><p id="out"></p>',
    )
    record = run(tab, plan(url, ("click", "Debug messages", "", "")), options=BRIEF)
    assert record.verdict == "fail"
    text = render_failure(record)
    assert "no control evidently opens it" in text and "pointing at" not in text, text
    assert not any("pointed at" in n for n in record.steps[0].notes)
    assert tab.text_content("#out") == ""


# A menu bar's item whose menu is drawn while the pointer is on it (CSS ``:hover``), fading in
# after a moment (``transition-delay``), and which widens while the pointer is on it: pointing
# at it again waits on the gate's "stable" until it stops moving.
FADING = """
<style>
  ul { list-style: none; margin: 0; padding: 0 }
  .bar > li { display: inline-block; position: relative; padding: 4px 12px;
              transition: padding-right .8s linear }
  .bar > li:hover { padding-right: 48px }
  .menu { position: absolute; top: 100%; left: 0; background: #fff; border: 1px solid #999;
          opacity: 0; visibility: hidden; transition: opacity .1s linear .25s }
  .has-menu:hover > .menu { opacity: 1; visibility: visible }
</style>
<ul class="bar">
  <li class="has-menu"><a href="#" onclick="return false">Close</a>
    <ul class="menu">
      <li><a href="#" onclick="out.textContent='Closed: submitted'; return false">Submitted</a></li>
      <li><a href="#" onclick="out.textContent='Closed: discarded'; return false">Discarded</a></li>
    </ul></li>
  <li><a href="#" onclick="return false">Update</a></li>
</ul>
<p id="out"></p>
"""


class _Openings:
    """The engine's observer: each control a step used to show its hidden element, and
    whether that element was still hidden then (the corpus's rule, bench/realapps
    run_corpus.py ``Observer.opening``: an opener used for an element on show is counted as
    a wrong-element action)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.shown_when_opened: list[bool] = []

    def __call__(self, step: Step, element: PWLocator) -> None:
        return None

    def opening(self, step: Step, element: PWLocator) -> None:
        shown = self.page.get_by_text("Submitted", exact=True).evaluate(
            "el => el.checkVisibility({opacityProperty: true, visibilityProperty: true})"
        )
        self.shown_when_opened.append(bool(shown))


def test_a_menu_the_step_before_opened_is_not_pointed_at_again(tab: Page, site: Site) -> None:
    """Review Board 5.0.7's "Close" menu (REQ-REVIEWBOARD-011: "Close | click", then
    "Submitted | click"): the click at step 1 leaves the pointer on "Close", whose menu is
    drawn by ``.has-menu:hover > .menu`` and fades in (``opacity`` over 0.2 s). Step 2's
    discovery, a moment after the click, found "Submitted" still transparent and took the
    menu's item as its opener (a hover); by the time it pointed there the menu was on show,
    so the opener opened nothing the step needed (the corpus counted it as a wrong-element
    action in 4 of 5 runs near idle: docs/real-apps.md, "Review Board's opener, and Review
    Board moves to dev").

    The rule is the web's: CSS Transitions keep a property at its old value through a
    transition's delay and move it over its duration, so an element shown under the pointer
    (CSS Selectors' ``:hover``) can be transparent when one check looks and shown at the
    next; and a menu that is open is operated by its items, not opened again (WAI-ARIA APG's
    menu button pattern: the button opens the menu, the items act; a click on the button of
    an open menu closes it). So an opener is used only while the element it is to show is
    still hidden, checked in the same page call as the opener's own gate check; an element
    on show by then is found again and acted on through the gate, without the opener. Here
    the delay is 0.25 s and the item widens for 0.8 s under the pointer (the opener's gate
    waits on "stable"), so the menu is on show before the opener could be used. Failed
    before the fix (the item was pointed at with "Submitted" on show)."""
    url = site.add("fading-menu.html", FADING)
    seen = _Openings(tab)
    record = run(
        tab,
        plan(
            url,
            ("click", "Close", "", ""),
            ("click", "Submitted", "", "text_visible:Closed: submitted"),
        ),
        observer=seen,
    )
    assert record.verdict == "pass", render_failure(record)
    assert tab.text_content("#out") == "Closed: submitted"
    assert all(not shown for shown in seen.shown_when_opened), seen.shown_when_opened
