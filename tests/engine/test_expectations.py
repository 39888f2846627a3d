"""Every expected outcome, holding and not holding."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.models.outcome import RcaClass

from .helpers import Site, plan, run

PAGE = """
<h1>Expectations</h1>
<label for="name">Name</label><input id="name">
<label><input type="checkbox" id="sub" checked> Subscribe</label>
<label><input type="checkbox" id="agree"> Agree</label>
<button id="save" disabled>Save</button> <button id="edit">Edit</button>
<button id="hid" style="display:none">Hidden action</button>
<p>Visible
   words   here</p>
<div style="display:none">Secret note</div>
<fancy-box></fancy-box>
<iframe title="Frame" srcdoc="<p>Inside the frame</p>"></iframe>
<section aria-labelledby="fruits"><h2 id="fruits">Fruits</h2>
  <ul><li>Apple <button>Buy</button></li><li>Pear <button>Buy</button></li>
      <li>Plum <button>Buy</button></li></ul></section>
<section aria-labelledby="veg"><h2 id="veg">Vegetables</h2><button>Buy</button></section>
<a href="/next.html">Next page</a>
<script>
customElements.define('fancy-box', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<span>Inside the shadow</span>'; }
});
</script>
"""
NEXT = "<h1>Second page</h1>"


@pytest.fixture(scope="module")
def url(site: Site) -> str:
    site.add("next.html", NEXT, title="Next")
    return site.add("expect.html", PAGE, title="Expectations")


def test_every_outcome_holds(shared_tab: Page, url: str) -> None:
    p = plan(
        url,
        ("fill", "Name", "Ada", "field_populated"),
        ("fill", "Name", "Ada   Lovelace", "value:ada lovelace"),
        ("wait", "", "", "text_visible:visible WORDS here"),
        ("wait", "", "", "text_visible:inside the shadow"),
        ("wait", "", "", "text_visible:Inside the frame"),
        ("wait", "", "", "text_hidden:Secret note"),
        ("wait", "", "", "url_contains:EXPECT.html"),
        ("wait", "", "", "title_contains:expectations"),
        ("wait", "", "", "element_visible:Edit"),
        ("wait", "", "", "element_hidden:Hidden action"),
        ("hover", "Subscribe", "", "checked"),
        ("uncheck", "Subscribe", "", "unchecked"),
        ("hover", "Edit", "", "enabled"),
        ("hover", "Save", "", "disabled"),
        ("wait", "", "", "count:Buy@Fruits=3"),
        ("wait", "", "", "count:Buy@Vegetables=1"),
        ("wait", "", "", "count:Sell@Fruits=0"),
        # a region that is not on the page: the element is looked for page-wide
        ("wait", "", "", "element_hidden:Delete@Dairy"),  # nothing anywhere
        ("wait", "", "", "element_hidden:Buy@Dairy"),  # only others' Buy buttons
        ("wait", "", "", "element_visible:Edit@Toolbar"),  # a renamed region
        ("click", "Next page", "", "navigates_to:second PAGE"),
    )
    record = run(shared_tab, p)
    assert record.verdict == "pass", [(s.index, s.failure) for s in record.steps if s.failure]
    assert all(s.expectation_ok for s in record.steps)


SHORT = EngineOptions(step_timeout_ms=400, settle_timeout_ms=200, navigation_timeout_ms=10_000)


@pytest.mark.parametrize(
    ("row", "seen"),
    [
        (("hover", "Name", "", "field_populated"), "holds ''"),
        (("hover", "Name", "", "value:xyz"), "not the value 'xyz'"),
        (("wait", "", "", "text_visible:Nowhere to be seen"), "no visible text"),
        (("wait", "", "", "text_visible:Secret note"), "no visible text"),  # hidden text
        (("wait", "", "", "text_hidden:Visible words"), "still visible"),
        (("wait", "", "", "url_contains:elsewhere"), "the URL is"),
        (("wait", "", "", "title_contains:nope"), "the title is 'Expectations'"),
        # a hidden element that nothing evidently opens is said to be hidden (docs/user-guide.md,
        # "Menus, tabs and disclosures")
        (("wait", "", "", "element_visible:Hidden action"), "is on the page but hidden"),
        (("wait", "", "", "element_hidden:Edit"), "is visible"),
        (("hover", "Agree", "", "checked"), "is not checked"),
        (("hover", "Subscribe", "", "unchecked"), "is checked"),
        (("hover", "Save", "", "enabled"), "is not enabled"),
        (("hover", "Edit", "", "disabled"), "is enabled"),
        (("wait", "", "", "count:Buy@Fruits=2"), "matches 3 element(s)"),
        (("wait", "", "", "count:Buy@Dairy=1"), 'the region "Dairy" is not on the page'),
        # a missing region must not make a visible element pass as hidden
        (("wait", "", "", "element_hidden:Edit@Toolbar"), '"Edit" is, visible, elsewhere'),
        (("wait", "", "", "element_visible:Buy@Dairy"), "matches 4 elements elsewhere"),
        (("wait", "", "", "element_visible:Delete@Dairy"), 'neither is "Delete"'),
        (("click", "Edit", "", "navigates_to:Second page"), "the URL did not change"),
        (("click", "Next page", "", "navigates_to:Checkout"), "is not 'checkout'"),
    ],
    ids=lambda v: v[3] if isinstance(v, tuple) else None,
)
def test_every_outcome_fails_when_it_does_not_hold(
    shared_tab: Page, url: str, row: tuple[str, ...], seen: str
) -> None:
    record = run(shared_tab, plan(url, row), options=SHORT)
    assert record.verdict == "fail"
    failure = record.steps[0].failure
    assert failure is not None and failure.type.value == "expectation_failed"
    assert seen in failure.message, failure.message
    assert record.rca.rca_class is RcaClass.ASSERTION_MISMATCH
    assert record.steps[0].expectation_ok is False


def test_a_closed_dialog_takes_its_buttons_with_it(shared_tab: Page, site: Site) -> None:
    url = site.add(
        "dialog.html",
        "<section role='dialog' aria-label='Newsletter'><p>Join us?</p>"
        "<button onclick=\"this.closest('section').remove()\">No thanks</button></section>",
    )
    p = plan(url, ("click", "No thanks@Newsletter", "", "element_hidden:No thanks@Newsletter"))
    record = run(shared_tab, p)
    assert record.verdict == "pass", [(s.index, s.failure) for s in record.steps if s.failure]


def test_expectations_wait_for_late_content(shared_tab: Page, site: Site) -> None:
    url = site.add(
        "late.html",
        "<button onclick=\"setTimeout(() => document.body.insertAdjacentHTML('beforeend',"
        " '<p>Done loading</p>'), 300)\">Load</button>",
    )
    record = run(shared_tab, plan(url, ("click", "Load", "", "text_visible:done loading")))
    assert record.verdict == "pass"
