"""Region drift: the container a step names is renamed, the element is not (v1 -> v2)."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.engine.healing.region import RegionDriftRung
from pytest_pacts.models.outcome import HealRung
from tests.engine.healing.helpers import discovered, failing_context

FORM = """<h1>Shop</h1>
<form id="login_form"><label for="u">Username</label><input id="u">
<button type="button" id="go">Login</button></form>
<form id="search"><label for="q">Search</label><input id="q"></form>"""


def test_vanished_region_heals_to_the_page_wide_unique_element(tab: Page) -> None:
    tab.set_content(FORM)
    plan, state = discovered(tab, "Username", "fill", region="LoginForm")
    assert state.locator is not None and state.locator.region is not None
    tab.evaluate("() => { document.querySelector('#login_form').id = 'auth-form'; }")
    ctx = failing_context(tab, plan, state)
    attempt, result = HealingLadder(rungs=[RegionDriftRung()]).heal(ctx)
    assert result is not None and attempt.accepted, attempt.reason
    assert attempt.rung is HealRung.REPAIR
    assert result.locator is not None and result.locator.region is None
    assert result.evidence["region_gone"] == "LoginForm"
    # the label and the id alternate still agree on the field without the form
    assert result.evidence["agreeing_sources"] == "id/class, name"
    assert result.fingerprint is not None and result.fingerprint.id == "u"


def test_declines_when_the_element_is_not_unique_without_its_region(tab: Page) -> None:
    tab.set_content(
        FORM.replace('<label for="q">Search</label>', '<label for="q">Username</label>')
    )
    plan, state = discovered(tab, "Username", "fill", region="LoginForm")
    # the form and the field are both renamed; two fields are now labelled "Username"
    tab.evaluate("""() => { document.querySelector('#login_form').id = 'auth-form';
        document.querySelector('#u').id = 'user-2'; }""")
    ctx = failing_context(tab, plan, state)
    attempt, result = HealingLadder(rungs=[RegionDriftRung()]).heal(ctx)
    assert not attempt.accepted
    assert result is None or result.locator is None
    # the label "Username" now names only the search field: unique, but not the element
    assert "matches the recorded element only at" in attempt.reason
    assert "or two independent locators agreeing" in attempt.reason


def test_does_not_apply_while_the_region_exists(tab: Page) -> None:
    tab.set_content(FORM)
    plan, state = discovered(tab, "Username", "fill", region="LoginForm")
    tab.evaluate("() => { document.querySelector('#u').remove(); }")
    ctx = failing_context(tab, plan, state)
    assert RegionDriftRung().attempt(ctx) is None
