"""A ``wait`` step that names an element: ``Walk dog | wait | | text_visible:1 item left``.

The step waits for its element to be visible (discovered like any other, gated for
visibility only: nothing acts on it), then checks its outcome.
"""

from __future__ import annotations

from playwright.sync_api import Page

from .helpers import Site, failure_of, plan, run

TODOS = """
<h1>todos</h1>
<input id="new" placeholder="What needs to be done?">
<ul id="list"></ul>
<footer><span id="left"></span></footer>
<div id="veil" style="position:fixed;inset:0;background:rgba(0,0,0,.2);display:none"></div>
<script>
document.getElementById('new').addEventListener('keydown', (e) => {
  if (e.key !== 'Enter') return;
  const text = e.target.value; e.target.value = '';
  // the item and its counter arrive a little later, as a store round trip would
  setTimeout(() => {
    const li = document.createElement('li');
    li.innerHTML = '<label>' + text + '</label>';
    document.getElementById('list').append(li);
    document.getElementById('left').textContent = '1 item left';
    document.getElementById('veil').style.display = 'block';  // a covering veil
  }, 400);
});
</script>
"""


def test_a_wait_step_waits_for_its_element_then_checks(tab: Page, site: Site) -> None:
    url = site.add("wait-todos.html", TODOS)
    p = plan(
        url,
        ("fill", "What needs to be done?", "Walk dog"),
        ("press", "What needs to be done?", "Enter"),
        ("wait", "Walk dog", "", "text_visible:1 item left"),
    )
    record = run(tab, p)
    assert record.verdict == "pass", record.failed_step
    waited = record.steps[2]
    assert waited.status == "passed"
    assert waited.locator is not None and "Walk dog" in waited.locator.describe()


def test_a_wait_step_fails_when_its_element_never_shows(tab: Page, site: Site) -> None:
    url = site.add(
        "wait-hidden.html",
        "<h1>Hidden</h1><p id='p' style='display:none'>Walk dog</p><p>1 item left</p>",
    )
    record = run(tab, plan(url, ("wait", "Walk dog", "", "text_visible:1 item left")))
    assert record.verdict == "fail"
    assert failure_of(record) in {"not_visible", "not_unique", "not_found"}
