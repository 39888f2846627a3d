"""A step found ahead of its turn keeps its element once it has run on that page (issue 35,
held-out changedetection.io 0.45.26 -> 0.60.10, REQ-CDIO-011).

``Import[2] | click`` (the menu's "IMPORT" link is the first "Import", the import form's
button the second) was discovered on 0.45.26 in one batch with the step before it, so the
store kept it marked with the page it was found on (``/import``). 0.60.10 serves the import
form at another address, so the mark said "another page's element" and the step was
discovered afresh, where its ordinal no longer applies (the menu's item is now "Import lists
of web pages": one "Import" left): "asks for number 2, but 1 element match", although the
recorded ``role button "Import"`` finds the form's button alone.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Target
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.requirement import Plan

from .helpers import Site, plan, run

LIST = '<nav><a href="{href}">{menu}</a></nav><main><a href="{href}">Open the importer</a></main>'
IMPORT = (
    '<nav><a href="{href}">{menu}</a></nav><main><form onsubmit="return false">'
    '<textarea placeholder="https://"></textarea>'
    "<button onclick=\"hits.push('import')\">Import</button></form></main>"
    "<script>window.hits = [];</script>"
)


def _plan(url: str) -> Plan:
    p = plan(url, ("click", "Open the importer"), ("fill", "https://", "http://a"), ("click", "x"))
    last = p.steps[2].model_copy(update={"target": Target(element="Import", ordinal=2)})
    steps = (*p.steps[:2], last)
    requirement = p.requirement.model_copy(update={"steps": steps})
    return p.model_copy(update={"steps": steps, "requirement": requirement})


def test_a_step_bound_ahead_is_kept_once_it_ran_on_that_page(tab: Page, site: Site) -> None:
    """Playwright's ``get_by_role`` finds an element by what it is, wherever the page lives:
    a binding made ahead of its turn (one discovery for the steps of one page) is marked
    with that page's address only until its step runs there; from then on it is the step's
    own element, as if discovered at its turn, and the store keeps it without the mark. A
    newer version that moved the page to another address (changedetection.io's
    ``/import``; a route renamed in any app) then uses it, and the identity check and
    healing judge it as any recorded element."""
    imp1 = site.add("v1/import", IMPORT.format(href="/v1/import", menu="IMPORT"))
    url1 = site.add("v1/list", LIST.format(href=imp1, menu="IMPORT"))
    menu2 = "Import lists of web pages"
    imp2 = site.add("v2/imports", IMPORT.format(href="/v2/imports", menu=menu2))
    url2 = site.add("v2/list", LIST.format(href=imp2, menu=menu2))
    kept: dict[int, DiscoveryResult] = {}
    first = run(tab, _plan(url1), on_discovered=kept.__setitem__)
    assert first.verdict == "pass", first.failed_step
    assert tab.evaluate("() => window.hits") == ["import"]
    assert 2 in kept and kept[2].batch_url is None, kept.get(2)
    record = run(tab, _plan(url2), pom=kept, healer=HealingLadder())
    assert record.verdict == "pass", record.failed_step
    assert tab.evaluate("() => window.hits") == ["import"]
