"""What an action set off, said when "the URL did not change" (engine/pagesays.py, ``set_off``).

A sign-in that fails as "the URL did not change" with the form still filled and no message
(issue 38 item 4, Wagtail, not reproduced: docs/real-apps.md) has several causes a person
cannot tell apart from the screenshot: the click reached another element, the page cancelled
the form's submit (HTML: a ``submit`` event whose default is prevented sends nothing), or the
browser was asked to navigate and no new page came (HTTP 204 No Content, a navigation that
failed). The failure's evidence now names which, from the trusted click and ``submit`` events
the page received since the action and the navigation requests the monitor saw.
"""

from __future__ import annotations

from playwright.sync_api import Page, Route

from pytest_pacts.engine.contracts import EngineOptions

from .helpers import Site, plan, run

QUICK = EngineOptions(step_timeout_ms=1_000, settle_timeout_ms=300, navigation_timeout_ms=5_000)

FORM = """<form id="login" action="{action}" method="post"{cancel}>
<label>Username <input name="u"></label><button>Sign in</button></form>"""


def _evidence(tab: Page, url: str) -> tuple[str, ...]:
    steps = [("fill", "Username", "ada"), ("click", "Sign in", "", "navigates_to:Dashboard")]
    record = run(tab, plan(url, *steps), options=QUICK)
    failed = record.failed_step
    assert failed is not None and failed.failure is not None
    assert failed.failure.message.startswith("expected navigates_to:Dashboard, but the URL")
    return failed.failure.evidence


def test_the_url_did_not_change_says_what_the_click_set_off(tab: Page, site: Site) -> None:
    cancelled = site.add(
        "cancel.html", FORM.format(action="dash", cancel=' onsubmit="event.preventDefault()"')
    )
    evidence = _evidence(tab, cancelled)
    assert 'the click reached button "Sign in"' in evidence
    assert "the form form#login was submitted and the page cancelled it (preventDefault)" in (
        evidence
    )
    assert "no navigation was requested since the action" in evidence

    def no_content(route: Route) -> None:
        route.fulfill(status=204, body="")

    tab.route("**/nothing", no_content)
    answered = site.add("nothing.html", FORM.format(action="nothing", cancel=""))
    evidence = _evidence(tab, answered)
    assert "the form form#login was submitted" in evidence
    # Chromium ends a navigation answered 204 No Content as aborted: the page stays
    assert (
        "a navigation was requested and did not load: http://pacts.test/nothing "
        "(net::ERR_ABORTED)" in evidence
    )
