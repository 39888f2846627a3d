"""A click on plain text is weak evidence: fresh discovery refuses it when nothing else says so.

HTML gives activation behaviour to its interactive elements (a link with ``href``, a button,
an input, a select, a textarea, a summary, a label for its control) and to nothing else; WAI-ARIA
makes an element operable by a widget role; a page that makes other elements clickable by
script most often shows it (CSS ``cursor: pointer``, a ``tabindex`` so the keyboard reaches
it, an inline ``onclick``). A click target with none of these, its own or an
ancestor's, scores x``INERT_FACTOR`` (0.85, ``models/locator.py``), and the evidence rule's
threshold and margin decide: a caption named by its text (0.86) falls to 0.73, under the
threshold, and is refused before acting.

Locust 2.32.0 (REQ-LOCUST-002, first run, docs/real-apps.md "New held-out app: Locust"):
``Failures | click`` clicked the header's caption ``<span>`` "FAILURES" (text 0.86) because
the tab it named was not drawn yet. MailDev 3.0.0 (REQ-MAILDEV-012) healed the link "MailDev"
onto the title's plain ``<span>`` (the heal path's rule, ``engine/healing/operable.py``);
this is the same rule for fresh discovery. The first test failed before the change (the
caption was clicked and the step passed).
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.models import Step

from .helpers import Site, failure_of, plan, run

HEADER = """
<header>
  <div class="stat"><span class="caption">FAILURES</span> <span>0%</span></div>
  <div class="stat"><span class="caption">RPS</span> <span>0</span></div>
</header>
<nav>{tab}</nav>
<div id="card" style="{card}">Open report</div>
<p id="out">none</p>
<script>
function out(t) {{ document.getElementById('out').textContent = t; }}
document.querySelector('.caption').addEventListener('click', () => out('caption'));
document.getElementById('card').addEventListener('click', () => out('card'));
</script>
"""
TAB = '<a href="#failures" onclick="out(\'tab\')">Failures</a>'


def test_a_caption_alone_is_refused_before_acting(tab: Page, site: Site) -> None:
    url = site.add("plain-caption.html", HEADER.format(tab="", card=""))
    record = run(tab, plan(url, ("click", "Failures")))
    assert record.verdict != "pass", "the caption was clicked"
    assert failure_of(record) == "not_found", render_failure(record)
    assert "0.73" in render_failure(record)
    assert tab.inner_text("#out") == "none"


def test_the_control_of_the_same_words_is_the_pick(tab: Page, site: Site) -> None:
    url = site.add("plain-caption-tab.html", HEADER.format(tab=TAB, card=""))
    record = run(tab, plan(url, ("click", "Failures")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.inner_text("#out") == "tab"


def test_text_shown_clickable_is_clicked(tab: Page, site: Site) -> None:
    # a card made clickable by script that shows it by its cursor (CSS ``cursor: pointer``)
    url = site.add("plain-card-pointer.html", HEADER.format(tab="", card="cursor: pointer"))
    record = run(tab, plan(url, ("click", "Open report")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.inner_text("#out") == "card"


def test_text_that_shows_no_sign_is_refused_even_with_a_listener(tab: Page, site: Site) -> None:
    # a listener added by script cannot be read from the page (only through the browser's
    # debugging protocol): with no sign shown, the click is not taken
    url = site.add("plain-card.html", HEADER.format(tab="", card=""))
    record = run(tab, plan(url, ("click", "Open report")))
    assert failure_of(record) == "not_found", render_failure(record)
    assert tab.inner_text("#out") == "none"


# A click on words drawn deep inside a control activates it (the event's path reaches the
# button): MailDev 3.0.0's message list, a <button> around nested <div>s around the subject's
# <span>, named by the span's text (the button's own name, the whole row, is too long to hold
# the words as a name). Inside a control at any depth, the text is the control's.
NESTED = """
<ul><li><button type="button" onclick="document.getElementById('out').textContent = 'opened'">
  <div><div><div><span>orders@bakery.invalid</span></div><div><span>Your order ANNA1 is
  confirmed</span></div></div><div><span>Thank you for your order. It will be ready at 8 am
  on Friday, at the shop on Baker Street.</span></div></div>
</button></li></ul>
<p id="out">none</p>
"""


def test_text_deep_inside_a_control_is_the_controls(tab: Page, site: Site) -> None:
    url = site.add("plain-nested.html", NESTED)
    record = run(tab, plan(url, ("click", "Your order ANNA1 is confirmed")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.inner_text("#out") == "opened"


# Words the pointer passes by: a list row's link around a <div> drawn with CSS
# ``pointer-events: none`` around the collection's name (Directus 10.13.4 and 11.3.5's Data
# Model, REQ-DIRECTUS-011, docs/real-apps.md "Directus's captions and untouchable words"). The
# hit test at the words answers the link (CSSOM View, ``elementFromPoint``: an element with
# ``pointer-events: none`` is no hit target), which takes the click: Playwright's "receives
# events" is the link's, the retargeted element ("button-link"). The step acts on, and tells
# its observer, that link when its name holds the words; else it acts on nothing.
UNTOUCHABLE = """
<a href="#recipes" id="row" style="display: flex; width: 400px; padding: 8px" {label}
   onclick="document.getElementById('out').textContent = 'link'">
  <div style="pointer-events: none"><span class="name">recipes</span>
  <span class="note">What the bakery bakes</span></div>
</a>
<p id="out">none</p>
<script>
window.clicked = [];
addEventListener('click', (e) => window.clicked.push(e.target.id || e.target.className), true);
</script>
"""


def _told(told: list[str]) -> Callable[[Step, PWLocator], None]:
    return lambda _step, el: told.append(el.evaluate("e => e.id || e.className", timeout=2000))


def test_words_the_pointer_passes_by_are_acted_on_as_their_link(tab: Page, site: Site) -> None:
    """Before the change the gate passed the ``<span>`` (its link takes the hit) and the step
    told its observer the span while the click landed on the link (a stray click)."""
    url = site.add("untouchable.html", UNTOUCHABLE.format(label=""))
    told: list[str] = []
    record = run(tab, plan(url, ("click", "recipes")), observer=_told(told))
    assert record.verdict == "pass", render_failure(record)
    assert told == ["row"], told
    assert tab.evaluate("window.clicked") == ["row"]
    gate = record.steps[0].gate
    assert gate is not None and "acted on as that" in gate.points[1].reason, gate


def test_words_passed_by_to_a_link_named_otherwise_are_not_clicked(tab: Page, site: Site) -> None:
    # the link's name (its aria-label) does not say the words: it is not what they name
    url = site.add("untouchable-other.html", UNTOUCHABLE.format(label='aria-label="Delete"'))
    record = run(tab, plan(url, ("click", "recipes")))
    assert record.verdict != "pass"
    assert "named otherwise" in render_failure(record), render_failure(record)
    assert tab.evaluate("window.clicked") == []
    assert tab.inner_text("#out") == "none"


# A field's caption that is no <label>: a component library draws the words above its
# drop-down's box in a <div> of their own, with a click handler of their own (Directus 10.13.4
# and 11.3.5's item form, REQ-DIRECTUS-006: the caption opens the field's menu; the box, an
# unlabelled read-only <input>, opens the list). The words name the field (accname: a caption
# names its control; HTML: activating a <label> activates its control), so a click goes to the
# one control of the group they caption, as a fill's does (the relational rule); with two, it
# is ambiguous; it never clicks the caption. Directus's input takes no pointer events (CSS
# ``pointer-events: none``): the box it is drawn in takes the click, and is what is told.
FIELD = """
<div class="form">
 <div class="field">
  <div class="menu"><div class="field-label" style="cursor: pointer"><span class="field-name">
   <div class="name">{caption}</div><span class="icon"></span></span></div></div>
  <div class="interface"><div class="box" style="cursor: pointer; border: 1px solid">
   <input readonly placeholder="Select an item..." style="border: 0; {events}">{second}</div>
   <ul id="list" hidden><li>Bread</li><li>Pastry</li></ul></div>
 </div>
 <div class="field"><div class="field-label"><span>Name</span></div><input placeholder="Name"></div>
</div>
<p id="out">none</p>
<script>
const out = (t) => {{ document.getElementById('out').textContent = t; }};
document.querySelector('.field-label').addEventListener('click', () => out('caption'));
document.querySelector('.box').addEventListener('click', () => {{
  out('box'); document.getElementById('list').hidden = false; }});
</script>
"""


def test_a_click_on_a_fields_caption_goes_to_its_one_control(tab: Page, site: Site) -> None:
    """Before the change the caption's text was the pick (0.86) and its own menu opened."""
    for events, acted in (("", ""), ("pointer-events: none", "box")):  # "": the <input>
        page = FIELD.format(caption="Category", second="", events=events)
        url = site.add(f"caption-field-{acted}.html", page)
        told: list[str] = []
        tab.goto(url)  # (a fresh document: the list hidden again)
        record = run(
            tab, plan(url, ("click", "Category", "", "text_visible:Pastry")), observer=_told(told)
        )
        assert record.verdict == "pass", render_failure(record)
        assert tab.inner_text("#out") == "box"
        assert told == [acted], told


def test_a_caption_over_two_controls_is_ambiguous(tab: Page, site: Site) -> None:
    second = (
        '<select aria-hidden="false"><option>more than</option><option>less than</option></select>'
    )
    url = site.add("caption-two.html", FIELD.format(caption="Stock", second=second, events=""))
    record = run(tab, plan(url, ("click", "Stock")))
    assert failure_of(record) == "ambiguous", render_failure(record)
    assert tab.inner_text("#out") == "none"


def test_words_over_a_panel_that_says_more_are_no_caption(tab: Page, site: Site) -> None:
    # a clickable heading-like text over a panel with words of its own and one field: the
    # text is no caption of the field (the group says more), and is clicked as itself
    page = FIELD.format(caption="Advanced", second="", events="").replace(
        '<ul id="list"', '<p>Only change these if told to.</p><ul id="list"'
    )
    url = site.add("caption-panel.html", page)
    record = run(tab, plan(url, ("click", "Advanced")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.inner_text("#out") == "caption"
