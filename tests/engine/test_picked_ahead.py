"""A later step's element picked ahead of its turn is a pick on that page state only (issue
35, item 6: identity with context).

The finder resolves every pending step of a page state in one discovery, and collection
resolves the start page's steps in one: a later step's element is picked on the page *before*
the steps in between act. Two apps showed a click in between changing what the later step
names. Verdaccio's login flows (010, 012: "Login" opens a dialog, step 4 clicks the
dialog's "Login") picked the header's "Login" on the start page; the step was right only
because the modal dialog hid the header (``aria-hidden``). MLflow's "Create" was bound on
the start page to the sidebar's create button and clicked under the dialog the step before
opened, and its "Model name" filled the list page's search box (docs/real-apps.md). A
dialog that is not modal (WAI-ARIA: ``aria-modal`` absent or false, a disclosure panel)
leaves the rest of the page in the accessibility tree, so the header's control stays a
match: it was clicked in place of the panel's. The pick is now checked again at its turn
when the page changed since it was made: one fresh discovery there decides, and two
equally good "Login" fail before acting (engine/ahead.py).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import Discoverer
from pytest_pacts.discovery.planning import discover_plan
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.requirement import Plan

from .helpers import Site, failure_of, plan, run

HEADERS = {
    # a link that opens the panel in place (``href="#"``: not a page change)
    "link": '<a href="#" onclick="hits.push(\'header\'); show(); return false">Login</a>',
    "button": "<button type=button onclick=\"hits.push('header'); show()\">Login</button>",
}
PANEL = (
    '<section aria-label="Sign in" id="panel" {hidden}>'
    "<label>Username <input name=u></label><label>Password <input type=password name=p></label>"
    "<button type=button onclick=\"hits.push('panel')\">Login</button></section>"
)
# the panel shown by unhiding it, or drawn only when the header's control is clicked
SHOW = "document.getElementById('panel').hidden = false"
DRAW = (
    "if (!document.getElementById('panel')) document.querySelector('main')"
    ".insertAdjacentHTML('beforeend', " + repr(PANEL.format(hidden="")) + ")"
)


def _page(header: str, drawn: bool) -> str:
    panel = "" if drawn else PANEL.format(hidden="hidden")
    show = DRAW if drawn else SHOW
    return (
        f"<header>{HEADERS[header]}</header><main><h1>Packages</h1>{panel}</main>"
        f"<script>window.hits = []; function show() {{ {show}; }}</script>"
    )


def _login(url: str, expected: str = "", last: str = "Login") -> Plan:
    return plan(
        url,
        ("click", "Login", "", expected),
        ("fill", "Username", "anna"),
        ("fill", "Password", "secret"),
        ("click", last),
    )


@pytest.mark.parametrize(
    ("header", "drawn", "collected"),
    [
        ("link", False, False),
        ("link", True, False),
        ("link", False, True),
        ("link", True, True),
        ("button", False, True),
    ],
)
def test_a_pick_made_before_a_click_opened_a_panel_is_not_used_at_its_turn(
    tab: Page, site: Site, header: str, drawn: bool, collected: bool
) -> None:
    """The header's "Login" opens a panel that is not modal, with its own "Login": the
    header's stays visible and enabled. Step 4's "Login" was picked ahead, with step 1, when
    the header's was the only one. At its turn the page has changed, so it is discovered
    again: two "Login" equally good, and the step fails before acting, naming the fix (a
    region). Before, the run clicked the header's control a second time and passed (picked in
    the run's batch, or by collection when step 1 expects the panel to show); with two
    identical buttons, the recorded pick matched both and healing took the header's by its
    fingerprint."""
    url = site.add(f"ahead/{header}-{drawn}-{collected}", _page(header, drawn))
    p = _login(url, "element_visible:Username" if collected else "")
    kw: dict[str, object] = {}
    if collected:
        found = discover_plan(tab, p, None)
        assert found.cacheable[3].batch_url is not None, found.cacheable  # picked ahead
        kw = {"pom": found.cacheable, "healer": HealingLadder()}
    record = run(tab, p, **kw)
    assert tab.evaluate("() => window.hits") == ["header"]
    assert record.failed_step is not None and record.failed_step.index == 3
    assert failure_of(record) == "ambiguous"
    assert "Login@" in record.failed_step.failure.message  # type: ignore[union-attr]


@pytest.mark.parametrize("drawn", [False, True])
def test_the_panel_s_control_named_by_its_region_is_clicked(
    tab: Page, site: Site, drawn: bool
) -> None:
    """What the refusal asks for: the panel's "Login" named by its region."""
    url = site.add(f"ahead/region-{drawn}", _page("link", drawn))
    record = run(tab, _login(url, last="Login@Sign in"))
    assert record.verdict == "pass", record.failed_step
    assert tab.evaluate("() => window.hits") == ["header", "panel"]


MODAL = (
    "<header id=top><button type=button onclick=\"hits.push('header'); show()\">Login</button>"
    "</header><main><h1>Packages</h1>"
    '<div role=dialog aria-modal=true aria-label="Sign in" id=panel hidden>'
    "<label>Username <input name=u></label><label>Password <input type=password name=p></label>"
    "<button type=button onclick=\"hits.push('panel')\">Login</button></div></main>"
    "<script>window.hits = []; function show() { document.getElementById('panel').hidden ="
    " false; document.getElementById('top').setAttribute('aria-hidden', 'true'); }</script>"
)


def test_a_modal_dialog_s_control_is_picked_where_it_acts(tab: Page, site: Site) -> None:
    """Verdaccio's dialog: a modal dialog hides the rest of the page from the accessibility
    tree (``aria-hidden`` on the header, as Material UI does), so at its turn the dialog's
    "Login" is the one match. It is picked there, and the store keeps the dialog's button
    (its fingerprint in the dialog), not the header's picked on the start page."""
    url = site.add("ahead/modal", MODAL)
    found: dict[int, DiscoveryResult] = {}
    record = run(tab, _login(url), on_discovered=found.__setitem__)
    assert record.verdict == "pass", record.failed_step
    assert tab.evaluate("() => window.hits") == ["header", "panel"]
    last = found[3]
    assert last.batch_url is None and last.fingerprint is not None
    assert "header" not in " ".join(last.fingerprint.ancestor_path), last.fingerprint


# How long the page is left unchanged before the run's first scan. A pick made ahead stands
# at its turn when the check shows no DOM change after the scan; the check's ``quiet_ms`` is
# read against the time its answer reached Python, so the time it took to come back counts
# as a possible change (engine/ahead.py, ``changed_since``). The page's last change is its
# load, just before the first scan: with no pause, a check whose answer came back later than
# the scan took (about 1 s of a loaded machine's delay) set the pick aside on a page that had
# not changed, and the test saw two scans (``[3, 1]``, once at load 30). The pause is wall
# time only, and the page is left alone: what the test checks is the same.
UNCHANGED_S = 2.0


class Counting(Discoverer):
    calls: list[int]

    def discover(  # type: ignore[override]
        self,
        page: Page,
        targets: Sequence[tuple[int, Target, Action]],
        *,
        at_turn: int = 0,
        values: Mapping[int, str] | None = None,
    ) -> dict[int, DiscoveryResult]:
        if not self.calls:
            time.sleep(UNCHANGED_S)
        self.calls.append(len(targets))
        return super().discover(page, targets, at_turn=at_turn, values=values)


FORM = (
    "<form onsubmit=\"hits.push('sent'); return false\">"
    "<label>Username <input name=u {oninput}></label>"
    "<label>Password <input type=password name=p></label>"
    "<button>Sign in</button></form><p id=said></p><script>window.hits = [];</script>"
)


@pytest.mark.parametrize("redraws", [False, True])
def test_a_pick_on_a_page_that_did_not_change_costs_no_second_scan(
    tab: Page, site: Site, redraws: bool
) -> None:
    """A login form whose fields take their values with no DOM change keeps the "Sign in"
    picked with them: one discovery for the three steps, as before. A form that answers the
    typing by writing into the page (a live hint) has its later picks made again at their
    turn: one scan each."""
    oninput = "oninput=\"document.getElementById('said').textContent = this.value\""
    url = site.add(f"ahead/form-{redraws}", FORM.format(oninput=oninput if redraws else ""))
    counting = Counting()
    counting.calls = []
    p = plan(url, ("fill", "Username", "anna"), ("fill", "Password", "pw"), ("click", "Sign in"))
    record = run(tab, p, discoverer=counting)
    assert record.verdict == "pass", record.failed_step
    assert tab.evaluate("() => window.hits") == ["sent"]
    assert counting.calls == ([3, 1, 1] if redraws else [3]), counting.calls
