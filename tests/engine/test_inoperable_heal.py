"""A recorded control is never healed onto an element no one can operate.

HTML gives activation behaviour to its interactive elements (a link with ``href``, a button,
form controls, ``summary``, a label for its control) and to nothing else; WAI-ARIA makes an
element operable by a widget role, and a ``generic`` element or text is not. Clicking the
words drawn inside a link or button activates that ancestor, so text inside a control stays
a right heal (MailDev 3.0.0's message subjects, a ``<span>`` inside the list's button).

MailDev 3.0.0 (held-out corpus, REQ-MAILDEV-012): the title "MailDev", a link on 2.2.1, is a
plain ``<span>`` there; re-discovery took it (0.86, no other element so named, similarity to
the recorded link 0.23) and clicked it: nothing happened. The second app is MLflow 2.22,
whose section buttons became plain headings (``test_corpus_defects.py``): no exception is
made for a heading any more (``names._title_it_carried``, removed).
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Action, Target
from pytest_pacts.models.outcome import RunRecord

from .helpers import Site, plan, run

# every click on the page is noted with the words of the element it reached first
_NOTE = """<script>document.addEventListener('click', (e) => {
  document.body.dataset.hit = e.target.textContent.trim(); e.preventDefault(); });</script>"""

V1 = (
    """<header><a href="/home" class="brand">Home title</a>
  <a href="/settings">Settings</a></header>
<main><h2>Inbox</h2><ul>
  <li><a href="/m/1" onclick="document.body.dataset.opened = '1'">Weekly bread news</a>
    <small>baker@example.com</small></li>
  <li><a href="/m/2" onclick="document.body.dataset.opened = '2'">Tax reminder</a>
    <small>office@example.com</small></li>
</ul></main>"""
    + _NOTE
)
# The redesign: the title is plain text, each message a button showing its sender first.
V2 = (
    """<header><span class="brand-text">Home title</span>
  <button type="button" aria-label="Settings">⚙</button></header>
<main><h2>Inbox</h2><div class="list">
  <button type="button" class="item" onclick="document.body.dataset.opened = '1'">
    <span class="from">baker@example.com</span><span class="subject">Weekly bread news</span>
    <span class="date">12:00</span></button>
  <button type="button" class="item" onclick="document.body.dataset.opened = '2'">
    <span class="from">office@example.com</span><span class="subject">Tax reminder</span>
    <span class="date">11:00</span></button>
</div></main>"""
    + _NOTE
)


def _healed(tab: Page, site: Site, words: str, name: str) -> RunRecord:
    tab.goto(site.add(f"{name}-v1.html", V1))
    found = discover(tab, [(0, Target(element=words), Action.CLICK)])[0]
    assert found.locator is not None and found.fingerprint is not None
    assert found.fingerprint.role == "link"
    v2 = site.add(f"{name}-v2.html", V2)
    return run(tab, plan(v2, ("click", words)), pom={0: found}, healer=HealingLadder())


def test_a_link_that_became_plain_text_is_not_healed_onto_the_text(tab: Page, site: Site) -> None:
    """Fails before: re-discovery took the span "Home title" and clicked it."""
    record = _healed(tab, site, "Home title", "title")
    assert tab.evaluate("document.body.dataset.hit") is None
    assert record.verdict != "pass"
    reasons = " ".join(h.reason for s in record.steps for h in s.heals)
    assert "neither a control nor inside one" in reasons, reasons


def test_words_inside_the_button_a_link_became_are_still_healed_onto(tab: Page, site: Site) -> None:
    """The message's subject, a span inside the list's button: clicking it is clicking the
    button (its activation behaviour runs), so the heal stands."""
    record = _healed(tab, site, "Weekly bread news", "subject")
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("document.body.dataset.opened") == "1"
    assert record.steps[0].heals[-1].accepted


def test_a_link_left_without_its_href_is_still_the_link(tab: Page, site: Site) -> None:
    """HTML's placeholder link (an ``a`` with no ``href``) is what scripts make operable
    (AngularJS ``ng-click``, React ``onClick``): it counts as the link it stands for (the
    mutation bench's ``attribute_removed`` links)."""
    tab.goto(site.add("bare-v1.html", V1))
    found = discover(tab, [(0, Target(element="Home title"), Action.CLICK)])[0]
    assert found.locator is not None
    v2 = V2.replace('<span class="brand-text">Home title</span>', "<a>Home title</a>")
    record = run(
        tab,
        plan(site.add("bare-v2.html", v2), ("click", "Home title")),
        pom={0: found},
        healer=HealingLadder(),
    )
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("document.body.dataset.hit") == "Home title"
