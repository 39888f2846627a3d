"""Pages whose scripts replace JavaScript built-ins: the engine's reads of the page (field
values, checked state, visible text, the page's name, readiness) on a page that replaces
them the way Prototype.js does; and a clear failure where the page breaks the code that
runs in it."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.models.outcome import FailureType, RcaClass
from tests.hostile_pages import PROTOTYPE_ARRAY_FROM

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
# a library whose array methods throw: Playwright's own code in the page uses them too
BROKEN = (
    "<script>Array.prototype.some = function () { throw new TypeError('patched some'); };"
    "Array.prototype.forEach = function () { throw new TypeError('patched forEach'); };"
    "</script>"
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
    rows = (
        ("fill", "Username", "ada", "field_populated"),
        ("fill", "Username", "ada", "value:ada"),
        ("check", "Newsletter", "", "checked"),
        ("select", "Country", "Germany", "value:de"),
        ("click", "Save", "", "text_visible:Saved ada"),
        ("wait", "", "", "text_visible:Saved ada"),
        ("hover", "Next page", "", ""),
        ("click", "Next page", "", "navigates_to:Results"),
    )
    record = run(tab, plan(url, *rows))
    assert record.verdict == "pass", render_failure(record)


def test_a_page_that_breaks_playwrights_own_code_fails_as_such_not_as_a_missing_element(
    tab: Page, site: Site
) -> None:
    """Playwright resolves a locator for ``evaluate_all`` with its code in the page's own
    world, so a throwing ``Array.prototype.some`` stops every check of every locator. The
    element is there: the step says what broke, not "no element matches ... did you mean
    'Username'?"."""
    url = site.add("broken.html", _form(BROKEN))
    record = run(tab, plan(url, ("fill", "Username", "ada")))
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert step.failure.type is FailureType.ENV_FAULT
    assert step.failure.cause == "page_script"
    assert 'the scan found input "Username"' in step.failure.message
    assert "patched some" in step.failure.message
    assert record.rca.rca_class is RcaClass.UNSUPPORTED_SURFACE
    assert "did you mean" not in render_failure(record)
