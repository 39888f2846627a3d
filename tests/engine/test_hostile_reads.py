"""Pages whose scripts replace JavaScript built-ins: every kind of step and expectation on a
page that replaces them the way Prototype.js does, and on one whose array methods throw;
and a clear failure where, without the bridge, the page breaks Playwright's own code."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.models.outcome import FailureType, RcaClass
from pytest_pacts.runtime import bridge as _js
from tests.hostile_pages import BROKEN_ARRAYS, PROTOTYPE_ARRAY_FROM

from .helpers import Site, plan, run

# what Prototype.js 1.7 replaces or adds (its ``Array.from``, the ``toJSON`` methods) and a
# replaced ``JSON.stringify``
PROTOTYPE_LIKE = (
    "<script>"
    + PROTOTYPE_ARRAY_FROM
    + "Array.prototype.toJSON = function () { return 'patched'; };"
    + "String.prototype.toJSON = function () { return 'patched'; };"
    + "JSON.stringify = function () { return 'patched'; };"
    + "</script>"
)


ROWS = (
    ("fill", "Username", "ada", "field_populated"),
    ("fill", "Username", "ada", "value:ada"),
    ("check", "Newsletter", "", "checked"),
    ("select", "Country", "Germany", "value:de"),
    ("click", "Save", "", "text_visible:Saved ada"),
    ("wait", "", "", "text_visible:Saved ada"),
    ("hover", "Next page", "", ""),
    ("click", "Next page", "", "navigates_to:Results"),
)


def _form(patch: str) -> str:
    return (
        patch + '<div class="title">Account</div><form onsubmit="'
        "document.querySelector('#out').textContent = 'Saved ' + this.user.value; "
        'return false"><label for="u">Username</label><input id="u" name="user">'
        '<label><input type="checkbox" id="news"> Newsletter</label>'
        '<label for="c">Country</label><select id="c"><option value="fr">France</option>'
        '<option value="de">Germany</option></select><button>Save</button></form>'
        '<p id="out"></p><a href="/next.html">Next page</a>'
    )


def test_every_kind_of_step_runs_on_a_page_that_replaces_built_ins_as_prototype_does(
    tab: Page, site: Site
) -> None:
    url = site.add("form.html", _form(PROTOTYPE_LIKE), title="App")
    site.add("next.html", PROTOTYPE_LIKE + '<span class="page-title">Results</span>', "App")
    record = run(tab, plan(url, *ROWS))
    assert record.verdict == "pass", render_failure(record)


def test_every_kind_of_step_runs_on_a_page_whose_array_methods_throw(tab: Page, site: Site) -> None:
    """Playwright's selector code runs in its isolated world for every call of the run (the
    bridge, ``runtime/bridge.py``), so a library's broken ``Array.prototype.some`` and
    ``forEach`` stop neither it nor the in-page code (in a fresh realm)."""
    url = site.add("broken.html", _form(BROKEN_ARRAYS), title="App")
    site.add("next.html", BROKEN_ARRAYS + '<span class="page-title">Results</span>', "App")
    record = run(tab, plan(url, *ROWS))
    assert record.verdict == "pass", render_failure(record)


def test_without_the_bridge_a_page_that_breaks_playwrights_code_fails_as_such(
    tab: Page, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the bridge (a Playwright it is not registered with), ``evaluate_all``
    resolves locators with Playwright's code in the page's own world, which the page's
    throwing ``Array.prototype.some`` stops for every locator. The element is there: the
    step says what broke, not "no element matches ... did you mean 'Username'?"."""
    monkeypatch.setattr(_js, "BRIDGE_ENGINE", "pacts_not_registered")
    url = site.add("broken.html", _form(BROKEN_ARRAYS))
    record = run(tab, plan(url, ("fill", "Username", "ada")))
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert step.failure.type is FailureType.ENV_FAULT
    assert step.failure.cause == "page_script"
    assert 'the scan found input "Username"' in step.failure.message
    assert "patched some" in step.failure.message
    assert record.rca.rca_class is RcaClass.UNSUPPORTED_SURFACE
    assert "did you mean" not in render_failure(record)


# buildbot-www 3.x's shape: an ES5-era polyfill's test, installed unconditionally
INSTANCEOF_IS_ARRAY = (
    "<script>Array.isArray = function (x) { return x instanceof Array; };</script>"
)


def test_every_kind_of_step_runs_on_a_page_whose_array_test_is_instanceof(
    tab: Page, site: Site
) -> None:
    """ECMAScript's ``Array.isArray`` answers for an array of any realm, ``instanceof Array``
    only for the caller's own. A page that replaces the first by the second replaces a
    built-in, so the in-page code answers from a fresh realm (``js/realm.js``); its arrays
    must come back as arrays all the same. Before, Playwright's serializer, asking the page's
    ``Array.isArray``, sent the visible text's two strings as an object: every
    ``text_visible`` failed (Buildbot 3.11.9: 12 of 14 flows) although the text was shown."""
    url = site.add("form.html", _form(INSTANCEOF_IS_ARRAY), title="App")
    site.add("next.html", INSTANCEOF_IS_ARRAY + '<span class="page-title">Results</span>', "App")
    record = run(tab, plan(url, *ROWS))
    assert record.verdict == "pass", render_failure(record)
