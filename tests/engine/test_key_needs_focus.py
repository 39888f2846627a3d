"""A key is pressed only on an element that can take focus (HTML's focusable areas).

HTML, "Focus": key events go to the focused area of the document, and only focusable areas
take focus (an element with a ``tabindex`` attribute, an editing host, a link with
``href``, a button, an input, a select, a textarea, a summary, an iframe, ...).
Playwright's ``locator.press`` focuses its element first; focusing anything else does
nothing, so the key goes wherever the focus already was, never to that element. So for a
``press`` a plain text is never a candidate: not at discovery (collection, ``pacts
discover``/``pacts elements``, healing's re-discovery all resolve through the same
scorer), and the gate refuses a recorded locator that lands on one.

marimo 0.9.0 (REQ-MARIMO-001): ``Garden name | fill | Back yard`` filled the text box
beside its caption ``<span class="paragraph">Garden name</span>`` (a caption tied to
nothing), then ``Garden name | press | Enter`` took the caption's words (``text`` 0.86) over
the box (``relational`` 0.85): a wrong-element action. A key on any such words is the
same class on every app whose captions are not ``<label for>`` (Radicale 3.0.6's forms,
Roundup's login box: a caption beside its field).

Before the change both tests failed: discovery took the span (``text``), and the gate let
the span through (the step "passed", the Enter aimed at the caption).
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import Discoverer
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import Strategy

from .helpers import Site, css, failure_of, plan, run

CAPTIONED = """
<div class="cell">
  <div class="mo-label"><span class="paragraph">Garden name</span></div>
  <input id="box" type="text"
    onkeydown="if (event.key === 'Enter') document.querySelector('#out').textContent = 'saved ' + this.value">
</div>
<p id="out">none</p>
"""


def test_a_caption_is_never_the_element_a_key_is_pressed_on(tab: Page, site: Site) -> None:
    url = site.add("key-caption.html", CAPTIONED)
    tab.goto(url)
    found = Discoverer().discover(tab, [(0, Target(element="Garden name"), Action.PRESS)])[0]
    assert found.locator is None or found.locator.strategy.value != "text", found.locator
    # a click the same words name is not refused for the focus (only a key needs it): the
    # words caption the box, alone in their group, so a click goes to the box (a caption that
    # is no <label>, docs/discovery.md), never to the caption
    clicked = Discoverer().discover(tab, [(0, Target(element="Garden name"), Action.CLICK)])[0]
    assert clicked.locator is not None and clicked.locator.strategy is Strategy.RELATIONAL


def test_the_gate_refuses_a_key_on_an_element_that_cannot_take_focus(tab: Page, site: Site) -> None:
    url = site.add("key-caption-gate.html", CAPTIONED)
    p = plan(url, ("press", "Garden name", "Enter"))
    record = run(tab, p, pom={0: css("span.paragraph", "Garden name", "press")})
    assert record.verdict != "pass"
    assert failure_of(record) == "not_unique", record.failed_step
    assert tab.inner_text("#out") == "none"
