"""A caption names the control nearest to it: a relation never reaches past it to a farther one.

HTML's ``label`` element captions one labelable element (its labeled control), and a
caption the page ties to nothing is read as naming the control beside it. So, for a step
with no region (the words are the control's own caption), the relational pick takes the
nearest control to the words: the smallest container around them that holds any form
control (HTML's labelable elements: button, input, meter, output, progress, select,
textarea; ARIA's input widgets). When that control is not of the kind the action needs,
the relation fails (the step is refused); it never climbs past it to a farther control
of the right kind, which is another field's.

marimo 0.25.2 (REQ-MARIMO-008): ``Helpers | select | Chloe``; "Helpers" captions a
multi-select drawn as a ``<button aria-haspopup=dialog>`` (not a combobox), and the climb
from the words went on to a column as wide as the page whose one combobox was the
"Vegetable" ``<select>``: a wrong-element action (``relational`` 0.85). The same shape is
any form whose field a drop-down rule does not recognise (a pop-over multi-select, a date
picker's button) above another field of the kind asked for; Lektor's "ID" field, refused,
left the form's Title as the only other one ("A refusal there ends the rule",
resolve.js's ``relational``), the same rule one level lower.

Nor does the climb enter a container that holds another field's ``<label>`` (one that
says other words): that container is the form, past the words' own field. marimo's run
showed it: the words also start the summary line "Helpers: nobody; ..." in another cell,
and the climb from that line reached the column holding the Vegetable field.

Before the change: discovery took the Vegetable select (``relational``), and the run chose
in it (the first test; the third fails on the nearest-control rule alone). The positive case
(a caption beside a select of its own) passes before and after.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import Discoverer
from pytest_pacts.models import Action, Target

from .helpers import Site, plan, run

FORM = """
<div class="column" style="display: flex; flex-direction: column; gap: 8px">
  <div class="field"><div class="label"><span class="paragraph">Vegetable</span></div>
    <select id="veg" onchange="document.querySelector('#out').textContent = 'veg ' + this.value">
      <option>Tomato</option><option>Carrot</option><option>Chloe</option></select></div>
  <div class="picker"><div class="label"><span class="paragraph">Helpers</span></div>
    <div class="root"><button id="helpers" type="button" aria-haspopup="dialog"
      aria-expanded="false">Select...</button></div></div>
</div>
<p id="out">none</p>
"""


def test_a_caption_whose_control_is_of_another_kind_picks_nothing(tab: Page, site: Site) -> None:
    url = site.add("nearest-control.html", FORM)
    tab.goto(url)
    found = Discoverer().discover(tab, [(0, Target(element="Helpers"), Action.SELECT)])[0]
    assert found.locator is None, found.locator
    record = run(tab, plan(url, ("select", "Helpers", "Chloe")))
    assert record.verdict != "pass"
    assert tab.inner_text("#out") == "none"
    assert tab.locator("#veg").input_value() == "Tomato"


def test_a_caption_beside_its_own_select_still_names_it(tab: Page, site: Site) -> None:
    url = site.add("nearest-control-ok.html", FORM)
    record = run(tab, plan(url, ("select", "Vegetable", "Carrot", "text_visible:veg Carrot")))
    assert record.verdict == "pass", record.failed_step


# marimo's summary line "Helpers: nobody; ..." says the words too, in another cell, and the
# fields' captions are <label>s: the climb from that line reached the column that holds the
# "Vegetable" field (its label not yet naming the select while the notebook was drawn)
SUMMARY = """
<div class="column" style="display: flex; flex-direction: column; gap: 8px">
  <div class="field"><label class="caption">Vegetable</label>
    <select id="veg" onchange="document.querySelector('#out').textContent = 'veg ' + this.value">
      <option>Tomato</option><option>Carrot</option><option>Chloe</option></select></div>
  <div class="picker"><label class="caption">Helpers</label>
    <div class="root"><button id="helpers" type="button" aria-haspopup="dialog"
      aria-expanded="false">Select...</button></div></div>
  <div class="output"><span class="paragraph">Helpers: nobody; 2 seed packets</span></div>
</div>
<p id="out">none</p>
"""


def test_the_climb_never_enters_a_container_with_another_fields_label(
    tab: Page, site: Site
) -> None:
    url = site.add("nearest-control-label.html", SUMMARY)
    tab.goto(url)
    found = Discoverer().discover(tab, [(0, Target(element="Helpers"), Action.SELECT)])[0]
    assert found.locator is None, found.locator
    assert tab.locator("#veg").input_value() == "Tomato"
