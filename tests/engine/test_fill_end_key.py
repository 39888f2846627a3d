"""A fill's End key must leave the value the fill set.

The engine ends a fill with an End key press (a keydown/keyup pair, for apps that listen to
``keyup`` alone), on the promise that End only moves the caret in a text field (HTML). A
field that implements WAI-ARIA's spinbutton keyboard pattern gives End a meaning of its own:
"End: if the spinbutton has a maximum value, sets the value to its maximum" (ARIA Authoring
Practices, "Spinbutton Pattern"). React Aria's NumberField, which marimo draws for
`mo.ui.number` (a text input with `inputmode="numeric"` and `aria-roledescription="Number
field"`, no spinbutton role on it), does so: marimo's `Seed packets | fill | 6`
(REQ-MARIMO-009, 0.9.0 and 0.25.2) left 50, the field's maximum, and the step failed "the
field did not take the value '6' (it holds '50')". Playwright's own ``fill`` sets the value
and fires ``input``, no key: a value the End key changed is put back by filling it again.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.engine.failure_text import render_failure

from .helpers import Site, plan, run

# a number field drawn the spinbutton pattern's way: Home and End set the minimum and the
# maximum, arrows step (React Aria's useNumberField on a text input)
NUMBER = """<label for="n">Seed packets</label>
<input id="n" type="text" inputmode="numeric" aria-roledescription="Number field" value="2">
<p id="out">2 seed packets</p>
<script>
const n = document.getElementById('n');
const show = () => { document.getElementById('out').textContent = n.value + ' seed packets'; };
n.addEventListener('input', show);
n.addEventListener('keydown', (e) => {
  const set = {Home: '0', End: '50'}[e.key];
  if (set === undefined) return;
  e.preventDefault(); n.value = set; show();
});
</script>"""
# a filter box that reacts to keyup alone (Flask-Admin's details filter): End stays useful
KEYUP = """<label for="q">Filter</label><input id="q" type="text">
<ul><li>Tomato</li><li>Carrot</li></ul>
<script>
const q = document.getElementById('q');
q.addEventListener('keyup', () => {
  for (const li of document.querySelectorAll('li'))
    li.hidden = !li.textContent.toLowerCase().includes(q.value.toLowerCase());
});
</script>"""


def test_a_fill_is_not_undone_by_its_end_key_on_a_spin_field(tab: Page, site: Site) -> None:
    url = site.add("number.html", NUMBER)
    record = run(tab, plan(url, ("fill", "Seed packets", "6", "text_visible:6 seed packets")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.input_value("#n") == "6"


def test_a_keyup_filter_still_sees_the_filled_value(tab: Page, site: Site) -> None:
    url = site.add("keyup.html", KEYUP)
    record = run(tab, plan(url, ("fill", "Filter", "carr", "text_hidden:Tomato")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.input_value("#q") == "carr"
