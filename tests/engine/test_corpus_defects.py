"""Engine defects the real-app corpus (bench/realapps) surfaced, each on a small fixture page.

Datasette's CodeMirror editor over its textarea, Flask-Admin's select2 widget over a hidden
select, its confirm() before a bulk delete, its keyup-only filter box, its edit modal and its
list-page "Price" link; Django 5.2's "Log out" link turned into a POST button; MLflow 2.22's
collapsible section buttons turned into the headings they carried (not healed onto).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.discovery.planning import discover_plan
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.engine.healing.resolving import resolve
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.outcome import HealRung, RunRecord

from .helpers import FAST, Site, plan, run

# -- 1. fill needs no hit test ---------------------------------------------------------------

# A code editor (CodeMirror 5 style) draws its lines over the real textarea: the pointer
# would hit the editor, but a fill does not use the pointer.
EDITOR = """
<form>
  <div style="position: relative; width: 420px; height: 90px">
    <textarea id="sql" aria-label="Custom SQL query" style="width: 400px; height: 80px"></textarea>
    <div class="CodeMirror" style="position: absolute; inset: 0; background: #fff">
      <pre><span class="cm-keyword">select</span> * from products</pre>
    </div>
  </div>
  <button type="button">Run SQL</button>
</form>
"""


def test_fill_does_not_require_the_hit_test(tab: Page, site: Site) -> None:
    url = site.add("editor.html", EDITOR)
    record = run(
        tab,
        plan(url, ("fill", "Custom SQL query", "select 1", "value:select 1")),
        healer=HealingLadder(),
    )
    assert record.verdict == "pass", render_failure(record)
    assert tab.input_value("#sql") == "select 1"
    step = record.steps[0]
    assert not step.heals  # no repair rung dismissing the editor as a "banner"
    assert step.gate is not None and all(p.ok for p in step.gate.points)


# CodeMirror 5's own input: a textarea in a zero-height box that hands what is typed to the
# editor's lines and empties itself; Ctrl+A selects the whole document.
CODE_EDITOR = """
<div class="editor" style="position: relative; width: 420px">
  <div style="overflow: hidden; position: relative; width: 3px; height: 0">
    <textarea aria-label="Custom SQL query"
              style="position: absolute; bottom: -1em; width: 1000px; height: 1em"></textarea>
  </div>
  <pre class="lines">select * from products</pre>
</div>
<script>
  const input = document.querySelector('textarea'), lines = document.querySelector('.lines');
  let all = false;
  input.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a') { all = true; e.preventDefault(); }
  });
  input.addEventListener('input', () => {
    lines.textContent = all ? input.value : lines.textContent + input.value;
    all = false;
    input.value = '';
  });
</script>
"""


# CodeMirror 5 as Datasette 0.59 ships it: what is typed goes to the editor's lines, and the
# textarea is emptied only on the next key (a fill sends no key). Reading the field right
# after the fill found the typed text still there, took the fill for done, and the query
# ran with the text appended to the old one (REQ-DATASETTE-008 on the real-app corpus).
LAZY_EDITOR = CODE_EDITOR.replace(
    "    all = false;\n    input.value = '';",
    "    all = false;",
).replace(
    "e.preventDefault(); }",
    "e.preventDefault(); }\n    input.value = '';",
)


@pytest.mark.parametrize("editor", [CODE_EDITOR, LAZY_EDITOR], ids=["empties-on-input", "on-key"])
def test_fill_replaces_the_text_of_a_code_editor(tab: Page, site: Site, editor: str) -> None:
    url = site.add(f"code-editor-{len(editor)}.html", editor)
    record = run(tab, plan(url, ("fill", "Custom SQL query", "select 1")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.inner_text(".lines") == "select 1"


def test_a_click_still_requires_the_hit_test(tab: Page, site: Site) -> None:
    covered = EDITOR.replace('<button type="button">Run SQL</button>', "").replace(
        '<textarea id="sql" aria-label="Custom SQL query" style="width: 400px; height: 80px">'
        "</textarea>",
        '<button id="under" type="button" style="width: 400px; height: 80px">Run SQL</button>',
    )
    url = site.add("covered-button.html", covered)
    record = run(tab, plan(url, ("click", "Run SQL")))
    assert record.verdict == "fail"
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert step.failure.type.value == "obscured"


# -- 2. a hidden native select behind its widget ---------------------------------------------

SELECT2 = """
<form>
  <label for="category">Category</label>
  <div class="select2-container" id="s2id_category">
    <a class="select2-choice" href="javascript:void(0)"><span class="select2-chosen">Garden</span></a>
  </div>
  <select id="category" name="category" style="display: none">
    <option value="1">Garden</option><option value="2">Kitchen</option>
  </select>
</form>
<script>
  // the widget mirrors the native select on its change event
  document.getElementById('category').addEventListener('change', (e) => {
    document.querySelector('.select2-chosen').textContent = e.target.selectedOptions[0].text;
  });
</script>
"""


def test_select_on_a_hidden_select_goes_through_its_visible_widget(tab: Page, site: Site) -> None:
    url = site.add("select2.html", SELECT2)
    record = run(tab, plan(url, ("select", "Category", "Kitchen")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.input_value("#category") == "2"
    assert tab.inner_text(".select2-chosen") == "Kitchen"


def test_a_hidden_select_without_a_widget_is_still_not_visible(tab: Page, site: Site) -> None:
    bare = SELECT2.replace('<div class="select2-container"', '<div class="note"').replace(
        '<a class="select2-choice" href="javascript:void(0)">', "<a>"
    )
    url = site.add("hidden-select.html", bare)
    record = run(tab, plan(url, ("select", "Category", "Kitchen")))
    assert record.verdict == "fail"
    assert tab.input_value("#category") == "1"


# -- 3. native dialogs are accepted ----------------------------------------------------------

CONFIRM = """
<button onclick="if (confirm('Are you sure?')) document.getElementById('out').textContent = 'Deleted'">
  Delete</button>
<button onclick="document.getElementById('out').textContent = 'Hello ' + prompt('Your name?', 'Ada')">
  Greet</button>
<p id="out">Nothing yet</p>
"""


def test_a_confirm_dialog_is_accepted_and_recorded(tab: Page, site: Site) -> None:
    url = site.add("confirm.html", CONFIRM)
    record = run(tab, plan(url, ("click", "Delete", "", "text_visible:Deleted")))
    assert record.verdict == "pass", render_failure(record)
    notes = record.steps[0].notes
    assert any("Are you sure?" in n and "accepted" in n for n in notes), notes


def test_a_prompt_gets_its_default_value(tab: Page, site: Site) -> None:
    url = site.add("prompt.html", CONFIRM)
    record = run(tab, plan(url, ("click", "Greet", "", "text_visible:Hello Ada")))
    assert record.verdict == "pass", render_failure(record)


def test_dialogs_can_be_dismissed_by_setting(tab: Page, site: Site) -> None:
    url = site.add("confirm-dismiss.html", CONFIRM)
    record = run(
        tab,
        plan(url, ("click", "Delete", "", "text_visible:Nothing yet")),
        options=replace(FAST, dialogs="dismiss"),
    )
    assert record.verdict == "pass", render_failure(record)
    assert tab.inner_text("#out") == "Nothing yet"
    assert any("dismissed" in n for n in record.steps[0].notes)


# -- 4. fill ends with the key events of a keyboard ------------------------------------------

KEYUP_FILTER = """
<input id="fa_filter" aria-label="Filter">
<ul><li>apple</li><li>banana</li><li>cherry</li></ul>
<script>
  document.getElementById('fa_filter').addEventListener('keyup', (e) => {
    const q = e.target.value.toLowerCase();
    for (const li of document.querySelectorAll('li')) li.hidden = !li.textContent.includes(q);
  });
</script>
"""


def test_fill_fires_a_keyup_for_a_keyup_only_filter(tab: Page, site: Site) -> None:
    url = site.add("keyup.html", KEYUP_FILTER)
    record = run(tab, plan(url, ("fill", "Filter", "ban", "text_hidden:apple")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.input_value("#fa_filter") == "ban"


def test_the_keyup_reaches_a_filter_inside_a_shadow_root(tab: Page, site: Site) -> None:
    """The End key goes where the focus is: a field inside a web component has it too."""
    url = site.add(
        "keyup-shadow.html",
        "<x-filter></x-filter><script>"
        "customElements.define('x-filter', class extends HTMLElement { connectedCallback() {"
        " const root = this.attachShadow({mode: 'open'});"
        " root.innerHTML = '<input aria-label=\"Filter\"><p>apple</p><p>banana</p>';"
        " root.querySelector('input').addEventListener('keyup', (e) => {"
        "  for (const p of root.querySelectorAll('p')) p.hidden = !p.textContent.includes("
        "e.target.value); }); } });</script>",
    )
    record = run(tab, plan(url, ("fill", "Filter", "ban", "text_hidden:apple")))
    assert record.verdict == "pass", render_failure(record)


def test_a_field_that_moves_the_focus_on_keeps_it_moved(tab: Page, site: Site) -> None:
    """A code box that moves on to the next box once filled (one digit each) has seen its
    value: the End key that ends a fill is not sent to it, so the focus stays on the next
    box (pressing End on the filled box focused it again)."""
    url = site.add(
        "code.html",
        '<input id="d1" aria-label="Digit 1" maxlength="1">'
        '<input id="d2" aria-label="Digit 2" maxlength="1"><script>'
        "document.getElementById('d1').addEventListener('input', () =>"
        " document.getElementById('d2').focus());</script>",
    )
    record = run(tab, plan(url, ("fill", "Digit 1", "7")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.input_value("#d1") == "7"
    assert tab.evaluate("document.activeElement.id") == "d2"


# -- 5. a link that became a button ----------------------------------------------------------


def test_a_link_that_became_a_button_heals_by_its_exact_name(tab: Page, site: Site) -> None:
    v1 = site.add("logout-v1.html", '<a href="/logout">Log out</a> <a href="/">Home</a>')
    tab.goto(v1)
    found = discover(tab, [(0, Target(element="Log out"), Action.CLICK)])[0]
    assert found.locator is not None
    v2 = site.add(
        "logout-v2.html",
        '<form onsubmit="document.body.dataset.out = 1; return false">'
        '<button type="submit">Log out</button></form> <a href="/">Home</a>',
    )
    record = run(tab, plan(v2, ("click", "Log out")), pom={0: found}, healer=HealingLadder())
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("document.body.dataset.out") == "1"
    # healed by intent (the alternate "text" or re-discovery), before similarity is asked
    assert record.steps[0].heals[-1].rung in (HealRung.ALTERNATE, HealRung.REDISCOVERY)


def test_a_removed_link_does_not_heal_to_a_button_of_another_name(tab: Page, site: Site) -> None:
    v1 = site.add("logout-v1b.html", '<a href="/logout">Log out</a> <a href="/">Home</a>')
    tab.goto(v1)
    found = discover(tab, [(0, Target(element="Log out"), Action.CLICK)])[0]
    v2 = site.add("logout-v3.html", '<form><button type="button">Sign out of all</button></form>')
    record = run(tab, plan(v2, ("click", "Log out")), pom={0: found}, healer=HealingLadder())
    assert record.verdict == "fail"


# -- 6. what an intent heal reports ----------------------------------------------------------


def test_an_intent_heal_reports_fingerprint_similarities(tab: Page, site: Site) -> None:
    v1 = site.add("save-v1.html", '<button id="save">Save</button> <button>Cancel</button>')
    tab.goto(v1)
    found = discover(tab, [(0, Target(element="Save"), Action.CLICK)])[0]
    assert found.locator is not None
    by_id = next(a for a in found.alternates if a.css == "#save")
    pom = {0: found.model_copy(update={"locator": by_id, "alternates": ()})}
    v2 = site.add("save-v2.html", '<button id="store">Save</button> <button>Cancel</button>')
    record = run(tab, plan(v2, ("click", "Save")), pom=pom, healer=HealingLadder())
    assert record.verdict == "pass", render_failure(record)
    heal = record.steps[0].heals[-1]
    assert heal.rung in (HealRung.ALTERNATE, HealRung.REDISCOVERY)
    # the score is the healed element's similarity to the recorded fingerprint (not the
    # locator's confidence), the runner-up the best other element's: comparable numbers
    assert heal.score is not None and heal.runner_up_score is not None
    assert heal.new_locator is not None
    similarity = resolve(tab, heal.new_locator, found.fingerprint).score
    assert similarity is not None and heal.score == pytest.approx(similarity, abs=0.005)
    assert heal.score > heal.runner_up_score


# -- 7. the app's own dialog is not a consent banner -----------------------------------------

MODAL = """
<button id="save" style="margin: 40px">Save</button>
<div id="fa_modal_window" class="modal" role="dialog"
     style="position: fixed; inset: 0; background: rgba(255,255,255,.95)">
  <button class="close" onclick="this.parentNode.remove()">×</button>
  <h3>Edit Record #2</h3>
  <form><label>Name * <input name="name"></label> <label>Email * <input name="email"></label></form>
</div>
"""


def test_the_repair_rung_leaves_the_apps_own_dialog_open(tab: Page, site: Site) -> None:
    url = site.add("modal.html", MODAL)
    record = run(tab, plan(url, ("click", "Save")), healer=HealingLadder())
    assert record.verdict == "fail"
    assert tab.locator("#fa_modal_window").count() == 1  # never closed
    reasons = " ".join(h.reason for h in record.steps[0].heals)
    assert "dismissed" not in reasons, reasons


# -- 8. no binding across a navigation -------------------------------------------------------

LIST_PAGE = """
<table><thead><tr><th><a href="?sort=2">Price</a></th><th>Name</th></tr></thead>
<tbody><tr><td>3.5</td><td>Garden Hose <a href="edit.html">Edit Record</a></td></tr></tbody></table>
"""
EDIT_PAGE = """
<h1>Edit Record #2</h1>
<form><label for="price">Price</label> <input id="price" value="3.5"></form>
"""


def test_steps_after_a_link_click_are_not_bound_on_the_start_page(tab: Page, site: Site) -> None:
    url = site.add("list.html", LIST_PAGE)
    site.add("edit.html", EDIT_PAGE)
    p = plan(
        url,
        ("click", "Edit Record", "", "text_visible:Edit Record #2"),
        ("focus", "Price"),
    )
    found = discover_plan(tab, p, None)
    assert 0 in found.cacheable
    assert 1 not in found.results  # after a link click: discovered when its step runs
    record = run(tab, p, pom=found.cacheable, healer=HealingLadder())
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("document.activeElement.id") == "price"


def test_a_batch_bound_locator_from_another_page_is_discovered_afresh(
    tab: Page, site: Site
) -> None:
    url = site.add("list2.html", LIST_PAGE.replace("edit.html", "edit2.html"))
    site.add("edit2.html", EDIT_PAGE)
    p = plan(
        url,
        ("click", "Edit Record", "", "text_visible:Edit Record #2"),
        ("focus", "Price"),
    )
    # what an older collection bound: both steps on the list page, in one batch
    tab.goto(url)
    batch = discover(
        tab,
        [
            (0, Target(element="Edit Record"), Action.CLICK),
            (1, Target(element="Price"), Action.FOCUS),
        ],
    )
    pom = {0: batch[0], 1: batch[1].model_copy(update={"batch_url": url})}
    record = run(tab, p, pom=pom, healer=HealingLadder())
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("document.activeElement.id") == "price"
    assert not record.steps[1].heals  # a fresh discovery, not a heal


# -- a cached locator that finds a same-named element of another kind ------------------------

SEARCH = """
<form onsubmit="document.body.dataset.out = 'searched'; return false">
  <input id="searchbar" name="q" aria-label="Search"> <input type="submit" value="Search">
</form>
"""


def test_an_impostor_with_the_recorded_name_does_not_block_the_recorded_element(
    tab: Page, site: Site
) -> None:
    """Django admin's changelist: the cached locator of "Search | click" (the submit button)
    came to find the search box, also named "Search". The box must not be acted on, and the
    button, which has the recorded name and kind, must still be healed to."""
    url = site.add("search.html", SEARCH)
    tab.goto(url)
    found = discover(tab, [(0, Target(element="Search"), Action.CLICK)])[0]
    assert found.locator is not None and found.fingerprint is not None
    assert found.fingerprint.role == "button"
    box = found.locator.model_copy(update={"role": "textbox", "name": "Search"})
    pom = {0: found.model_copy(update={"locator": box, "alternates": ()})}
    record = run(tab, plan(url, ("click", "Search")), pom=pom, healer=HealingLadder())
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("document.body.dataset.out") == "searched"


def test_the_exact_name_rule_never_leaves_the_steps_region(tab: Page, site: Site) -> None:
    """Both cards have a "Remove"; the backpack's is removed. The onesie's has the exact
    recorded name and kind and is now the only one so named, but it is outside the region."""
    card = (
        '<div class="card"><h3>{0}</h3><button onclick="window.hit = \'{0}\'">Remove</button></div>'
    )
    v1 = site.add("cards-v1.html", card.format("Backpack") + card.format("Onesie"))
    tab.goto(v1)
    found = discover(tab, [(0, Target(element="Remove", region="Backpack"), Action.CLICK)])[0]
    assert found.locator is not None
    v2 = site.add(
        "cards-v2.html", '<div class="card"><h3>Backpack</h3></div>' + card.format("Onesie")
    )
    record = run(
        tab, plan(v2, ("click", "Remove@Backpack")), pom={0: found}, healer=HealingLadder()
    )
    assert record.verdict == "fail"
    assert tab.evaluate("window.hit") is None


# -- a loose match found ahead of its turn is not kept ---------------------------------------

SIDEBAR_AND_DIALOG = """
<aside><h2>Projects</h2><span role="img" title="New project" data-test-id="create-project-button"
  onclick="document.getElementById('d').showModal()">+</span></aside>
<dialog id="d"><label for="n">Project name</label><input id="n">
  <button id="create" onclick="document.body.dataset.made = document.getElementById('n').value;
    document.getElementById('d').close(); document.getElementById('out').textContent = 'Made'"
  >Create</button></dialog><p id="out"></p>
"""


def test_a_loose_match_found_ahead_is_not_bound_for_a_later_step(tab: Page, site: Site) -> None:
    """ "Create" on the start page is only a word of the sidebar icon's test id; once the
    icon opened the dialog, "Create" is the dialog's button. A loose match found ahead of its
    step is not kept (at collection or in the run's batch); the step is discovered when it
    runs. Bound ahead, the click went to the icon under the modal (MLflow 2.4.2)."""
    url = site.add("dialog.html", SIDEBAR_AND_DIALOG)
    p = plan(
        url,
        ("click", "New project", "", "text_visible:Project name"),
        ("fill", "Project name", "fraud"),
        ("click", "Create", "", "text_visible:Made"),
    )
    found = discover_plan(tab, p, None)
    assert 2 not in found.cacheable
    record = run(tab, p, pom=found.cacheable, healer=HealingLadder())
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("document.body.dataset.made") == "fraud"
    assert not record.steps[2].heals


# -- a section's header button that became the heading it carried ---------------------------

SECTIONS_V1 = """
<div class="run-page">
  <div class="collapse"><div class="collapse-header" role="button" tabindex="0"
    onclick="this.nextElementSibling.hidden = !this.nextElementSibling.hidden"
    >Parameters (3)</div><div hidden><table><tr><td>learning_rate</td><td>0.1</td></tr>
    </table></div></div>
  <div class="collapse"><div class="collapse-header" role="button" tabindex="0"
    onclick="this.nextElementSibling.hidden = !this.nextElementSibling.hidden"
    >Metrics (2)</div><div hidden><table><tr><td>rmse</td><td>3.2</td></tr></table></div></div>
</div>
"""
# The redesign: every section open under a plain heading, and a grid's column handle that
# the recorded fingerprint ranks above the heading (its container's class, its tab stop),
# though it resembles the recorded button no more than anything else does.
SECTIONS_V2 = """
<div class="overview">
  <div role="tablist"><button role="tab">Overview</button><button role="tab">Model metrics</button>
  </div>
  <h4 class="typography css-tm29gp">Parameters (3)</h4>
  <div class="collapse"><div class="css-1iv8ha0" tabindex="0">Resize Column</div></div>
  <table><tr><td>learning_rate</td><td>0.1</td></tr></table>
  <h4 class="typography css-yfufty">Metrics (2)</h4>
  <table><tr><td>rmse</td><td>3.2</td></tr></table>
</div>
<script>document.addEventListener('click', (e) => {
  document.body.dataset.hit = e.target.textContent.trim(); });</script>
"""


def _recorded(tab: Page, site: Site, name: str, v1: str) -> DiscoveryResult:
    tab.goto(site.add(name, v1))
    found = discover(tab, [(0, Target(element="Parameters"), Action.CLICK)])[0]
    assert found.locator is not None and found.fingerprint is not None
    assert found.fingerprint.role == "button"
    return found


def _parameters(tab: Page, site: Site, name: str, v2: str, found: DiscoveryResult) -> RunRecord:
    return run(
        tab,
        plan(site.add(name, v2), ("click", "Parameters", "", "text_visible:learning_rate")),
        pom={0: found},
        healer=HealingLadder(),
    )


def test_a_header_button_that_became_its_heading_is_not_healed_onto(tab: Page, site: Site) -> None:
    """MLflow 2.22: the collapsible "Parameters (3)" button became a plain heading over a
    table that is always open. HTML gives a heading no activation behaviour: a click on it
    does nothing, so it is not what the recorded button became (``operable.inoperable``, the
    rule MailDev 3.0.0's title led to; docs/healing.md). It used to be healed onto by an
    exception made for MLflow alone (``names._title_it_carried``, removed): the step then
    "passed" on a click that did nothing. Now the heal is refused and nothing is clicked;
    the step fails and says why (MLflow 2.22.5's REQ-MLFLOW-002, -003 and -010: refusals,
    docs/real-apps.md, "The heading heal removed")."""
    found = _recorded(tab, site, "sections-v1.html", SECTIONS_V1)
    record = _parameters(tab, site, "sections-v2.html", SECTIONS_V2, found)
    assert record.verdict == "fail", render_failure(record)
    assert tab.evaluate("document.body.dataset.hit") is None
    assert not any(h.accepted for st in record.steps for h in st.heals)


def test_a_heading_that_stood_beside_the_button_is_not_its_heir(tab: Page, site: Site) -> None:
    """The heading "Parameters (3)" was on the page beside the button when the step was
    recorded, so no text alternate singled the button out: re-discovery finds the heading,
    but it is another element, and the fingerprint's ranking is not overruled for it."""
    v1 = SECTIONS_V1.replace('"run-page">', '"run-page"><h4>Parameters (3)</h4>')
    found = _recorded(tab, site, "sections-v1b.html", v1)
    assert not found.alternates
    record = _parameters(tab, site, "sections-v2b.html", SECTIONS_V2, found)
    assert record.verdict == "fail"
    assert tab.evaluate("document.body.dataset.hit") is None


def test_a_heading_is_not_taken_while_a_control_carries_the_name(tab: Page, site: Site) -> None:
    """A tab named "Parameters" is on the page too: a person operates the control, so the
    heading rule stays out of it."""
    found = _recorded(tab, site, "sections-v1c.html", SECTIONS_V1)
    v2 = SECTIONS_V2.replace(
        '<div role="tablist">', '<div role="tablist"><button role="tab">Parameters</button>'
    )
    record = _parameters(tab, site, "sections-v2c.html", v2, found)
    assert tab.evaluate("document.body.dataset.hit") is None
    assert all("now a heading" not in h.reason for s in record.steps for h in s.heals)


# -- 8. a count in a link's words ------------------------------------------------------------

# Datasette 1.0 lists fewer hidden tables than 0.59 for the same database: the link under the
# table list says "1 hidden table" where it said "5 hidden tables". The count is data.
TABLES = """
<h1>shop</h1>
<h2>Tables</h2>
<ul><li><a href="/shop/orders">orders</a> 30 rows</li>
    <li><a href="/shop/products">products</a> 240 rows</li></ul>
<p><a href="/shop?_show_hidden=1" onclick="document.body.dataset.hit = 'hidden'; return false"
   >{hidden}</a></p>
"""


def _hidden_tables(tab: Page, site: Site, words: str, now: str, name: str) -> RunRecord:
    tab.goto(site.add(f"{name}-v1.html", TABLES.format(hidden=words)))
    found = discover(tab, [(0, Target(element=words), Action.CLICK)])[0]
    assert found.locator is not None
    v2 = site.add(f"{name}-v2.html", TABLES.format(hidden=now))
    return run(tab, plan(v2, ("click", words)), pom={0: found}, healer=HealingLadder())


def test_a_link_whose_count_changed_heals_to_it(tab: Page, site: Site) -> None:
    record = _hidden_tables(tab, site, "5 hidden tables", "1 hidden table", "hidden")
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("document.body.dataset.hit") == "hidden"
    assert record.steps[0].heals[-1].accepted


def test_a_link_whose_number_names_something_else_is_not_healed_to(tab: Page, site: Site) -> None:
    """A link "Order 1001" is not "Order 1002": a number after a word names the thing. An
    order's link leads to that order (``/shop/orders/1001``), not to the address the count
    link above had: a link's unchanged address is evidence it is the same link
    (docs/healing.md, "Identity by a form name or an address"), so the page says so too."""
    tab.goto(
        site.add(
            "order-v1.html",
            TABLES.format(hidden="Order 1001").replace("/shop?_show_hidden=1", "/shop/orders/1001"),
        )
    )
    found = discover(tab, [(0, Target(element="Order 1001"), Action.CLICK)])[0]
    assert found.locator is not None
    v2 = site.add(
        "order-v2.html",
        TABLES.format(hidden="Order 1002").replace("/shop?_show_hidden=1", "/shop/orders/1002"),
    )
    record = run(tab, plan(v2, ("click", "Order 1001")), pom={0: found}, healer=HealingLadder())
    assert record.verdict == "fail"
    assert tab.evaluate("document.body.dataset.hit") is None


def test_a_cached_element_whose_count_changed_is_still_the_same_element(
    tab: Page, site: Site
) -> None:
    """The gate's identity check on a cached locator takes another count for drift, as
    healing does: the link found by its test id still says the recorded words around
    another count, so the step acts at once, with no heal round (before: "it is now a
    '1 hidden table', recorded as '5 hidden tables'", a heal round, then a proposal)."""
    link = '<a href="/shop?_show_hidden=1" data-testid="nav-extra" onclick="{click}">{words}</a>'
    click = "document.body.dataset.hit = 'hidden'; return false"
    tab.goto(site.add("count-v1.html", link.format(click=click, words="5 hidden tables")))
    found = discover(tab, [(0, Target(element="5 hidden tables"), Action.CLICK)])[0]
    by_test_id = next(a for a in (found.locator, *found.alternates) if a and a.test_id)
    pom = {0: found.model_copy(update={"locator": by_test_id, "alternates": ()})}
    v2 = site.add("count-v2.html", link.format(click=click, words="1 hidden table"))
    record = run(tab, plan(v2, ("click", "5 hidden tables")), pom=pom, healer=HealingLadder())
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("document.body.dataset.hit") == "hidden"
    assert not record.steps[0].heals
