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

from playwright.sync_api import Page

from pytest_pacts.engine.failure_text import render_failure

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
