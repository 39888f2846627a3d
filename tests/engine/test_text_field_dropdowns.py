"""Drop-downs whose markup does not say what they are (WAI-ARIA 1.2's combobox pattern, left
unmarked or marked wrongly): a ``select`` step opens a text field its words name exactly and
chooses in the one list of options it opens; never in a list that was on show before, nor
where two lists are on show and none is tied to the field (docs/engine.md, "Drop-downs")."""

from __future__ import annotations

import dataclasses

from playwright.sync_api import Page

from .helpers import FAST, Site, plan
from .helpers import run as run_fast

ROOMY = dataclasses.replace(FAST, step_timeout_ms=8_000)

# Each field draws its list of options (a ``ul role=listbox`` at the end of <body>, no id)
# while it has the focus; an option is taken on the press, as Gradio's are.
DRAWER = """
<p id="picked">none</p>
<script>
const OPTIONS = {recipe: ['Pancakes', 'Tomato soup', 'Lemon cake'], cuisine: ['Italian', 'Thai'],
  kind: ['Soup', 'Cake']};
for (const [id, names] of Object.entries(OPTIONS)) {
  const input = document.getElementById(id);
  if (!input) continue;
  let list = null;
  input.addEventListener('focus', () => {
    list = document.createElement('ul'); list.setAttribute('role', 'listbox');
    for (const n of names) {
      const o = document.createElement('li'); o.setAttribute('role', 'option'); o.textContent = n;
      o.addEventListener('mousedown', (e) => {
        e.preventDefault(); input.value = n; input.blur();
        document.getElementById('picked').textContent = id + ': ' + n;
      });
      list.appendChild(o);
    }
    document.body.appendChild(list);
  });
  input.addEventListener('blur', () => { if (list) list.remove(); list = null; });
}
</script>
"""

# Gradio 3.50's drop-down: a plain <input> in the <label> that names it (role textbox),
# above a data table drawn as an ARIA grid (Gradio's dataframes).
PLAIN = (
    '<label><span>Recipe</span><input id="recipe" value="Pancakes"></label>'
    '<table role="grid"><tr><td role="gridcell">Lemon cake</td></tr></table>'
) + DRAWER

# Gradio 4-5's: an <input role=listbox> whose aria-controls names no element; and an
# <input role=combobox> whose aria-controls names no element either.
MISMARKED = (
    '<input id="cuisine" role="listbox" aria-label="Cuisine" aria-controls="dropdown-options"'
    ' aria-expanded="false" value="Italian">'
    '<label for="kind">Kind</label>'
    '<input id="kind" role="combobox" aria-controls="kind-options" aria-expanded="false">'
) + DRAWER

# A list of options always on show, beside a field that opens one and a field that opens none.
CROWDED = (
    '<ul role="listbox" aria-label="Recent"><li role="option">Teal</li>'
    '<li role="option">Lemon cake</li></ul>'
    '<label><span>Recipe</span><input id="recipe" value="Pancakes"></label>'
    '<label for="notes">Notes</label><input id="notes">'
    '<div id="who" role="combobox" aria-haspopup="listbox" aria-owns="who-list">'
    '<label for="who-in">Person</label><input id="who-in" autocomplete="off"></div>'
    '<div id="who-list" role="listbox" hidden><div role="option">Bob</div></div>'
    '<script>who.onclick = () => { document.getElementById("who-list").hidden = false; };'
    ' document.querySelector("#who-list [role=option]").onclick = () => {'
    ' document.getElementById("who-in").value = "Bob";'
    ' document.getElementById("who-list").hidden = true; };'
    ' for (const o of document.querySelectorAll("[aria-label=Recent] li"))'
    ' o.addEventListener("mousedown", () => { document.title = "clicked"; });</script>'
) + DRAWER


def test_a_text_field_that_opens_a_list_is_chosen_in_it(tab: Page, site: Site) -> None:
    """WAI-ARIA 1.2's combobox pattern without its role (Gradio 3.50.2's REQ-GRADIO-002: "no
    element on the page matches 'Recipe' for select"): the words name exactly one text field
    and no drop-down, so the field is clicked, and the one list of options that opens then is
    its list (HTML-AAM maps a text field tied to a list, ``<input list>``, to a combobox). A
    grid no field names is a table of data (WAI-ARIA: rows of gridcells), no list of options:
    Gradio's dataframes were counted as lists before."""
    url = site.add("plain.html", PLAIN)
    record = run_fast(
        tab, plan(url, ("select", "Recipe", "Lemon cake", "value:Lemon cake")), options=ROOMY
    )
    assert record.verdict == "pass", [(s.index, s.failure) for s in record.steps if s.failure]
    assert tab.locator("#picked").inner_text() == "recipe: Lemon cake"


def test_an_input_listbox_and_a_dangling_aria_controls_open_their_list(
    tab: Page, site: Site
) -> None:
    """An <input> is a void element (HTML): given ``role=listbox`` it owns no options, so it is
    the field that opens the list (Gradio 5.50.0's REQ-GRADIO-002: "it lists no options"). An
    ``aria-controls`` whose IDREF names no element gives no relation (WAI-ARIA 1.2, ID
    reference list), so the one list of options on show is the field's."""
    url = site.add("mismarked.html", MISMARKED)
    record = run_fast(
        tab,
        plan(url, ("select", "Cuisine", "Thai", "value:Thai"), ("select", "Kind", "Soup")),
        options=ROOMY,
    )
    assert record.verdict == "pass", [(s.index, s.failure) for s in record.steps if s.failure]
    assert tab.locator("#cuisine").input_value() == "Thai"
    assert tab.locator("#picked").inner_text() == "kind: Soup"


def test_a_text_field_chooses_in_no_list_it_did_not_open(tab: Page, site: Site) -> None:
    """Never a guess: a text field that opens nothing has no list, though one is on show (it
    was there before the click), and one that opens a list beside another that none ties to
    it has no evident list; each fails before an option is chosen, saying why (not "check the
    spelling": its words name the field). The field inside a combobox (WAI-ARIA 1.1's pattern,
    Vuetify's: doccano 1.6.2's "User Search APIs") is no text field of its own."""
    url = site.add("crowded.html", CROWDED)
    none = run_fast(tab, plan(url, ("select", "Notes", "Teal")))
    assert none.verdict == "fail"
    assert "is a text field" in none.rca.message, none.rca.message
    assert "showed no list of options when clicked" in none.rca.message
    two = run_fast(tab, plan(url, ("select", "Recipe", "Lemon cake")))
    assert two.verdict == "fail"
    assert "2 lists of options are shown" in two.rca.message, two.rca.message
    assert tab.title() != "clicked"
    assert tab.locator("#picked").inner_text() == "none"
    assert tab.locator("#recipe").input_value() == "Pancakes"
    # the field inside a combobox (WAI-ARIA 1.1's pattern: a combobox holding a textbox) is
    # no text field of its own: it is never opened as one (doccano 1.6.2's autocomplete)
    inner = run_fast(tab, plan(url, ("select", "Person", "Bob")))
    assert "text field" not in inner.rca.message and "lists" not in inner.rca.message
    assert tab.locator("#who-in").input_value() == ""


# marimo 0.9.0's multi-select: the words beside a pop-over button (aria-haspopup=dialog).
POPOVER = '<span>Helpers</span><div aria-haspopup="dialog" tabindex="0">Select...</div>'


def test_words_that_name_an_element_of_another_kind_are_not_called_misspelt(
    tab: Page, site: Site
) -> None:
    """A ``select`` whose words name only an element no select operates (marimo 0.9.0's
    REQ-MARIMO-008, Gradio 3.50.2's REQ-GRADIO-002 before the text field rule: "check the
    Element cell's spelling") fails naming that element, and its root cause says the words are
    on the page: the action or the page's markup is the doubt, not the spelling."""
    url = site.add("popover.html", POPOVER)
    record = run_fast(tab, plan(url, ("select", "Helpers", "Chloe")))
    assert record.verdict == "fail"
    assert 'names span "Helpers", which is no element a select step operates' in (
        record.rca.message
    ), record.rca.message
    assert record.rca.rca_class == "data_issue"
    assert "spelling" not in (record.rca.recommendation or ""), record.rca.recommendation
