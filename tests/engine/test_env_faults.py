"""Environment faults are ``env_fault`` with evidence, never selector drift:
a server stopped mid-run, HTTP 500, a crashed or closed page, a page slower than the timeout.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from pytest_pacts.demo_app import DemoServer
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.outcome import RcaClass, RunRecord

from .helpers import Site, plan, run

OPTS = EngineOptions(step_timeout_ms=3_000, settle_timeout_ms=300, navigation_timeout_ms=8_000)


@pytest.fixture
def fresh(engine_browser: Browser) -> Iterator[Page]:
    """A context per test: these tests crash, close and strand their pages."""
    context = engine_browser.new_context(viewport={"width": 1000, "height": 700})
    yield context.new_page()
    context.close()


def _env(record: RunRecord, cause: str) -> str:
    assert record.verdict == "fail"
    assert record.rca.rca_class is RcaClass.ENV_FAULT, record.rca
    step = record.failed_step
    failure = step.failure if step is not None else None
    if failure is not None:
        assert failure.type.value == "env_fault"
        assert failure.cause == cause, failure
    return " | ".join(record.rca.evidence)


def test_http_500_on_the_start_url(fresh: Page, demo_v1: DemoServer) -> None:
    record = run(
        fresh, plan(demo_v1.url + "/__faults/status/500", ("click", "Login")), options=OPTS
    )
    evidence = _env(record, "http_error")
    assert "HTTP 500" in evidence and record.steps[0].status == "not_run"


def test_http_503_on_a_goto_step(fresh: Page, demo_v1: DemoServer) -> None:
    p = plan(demo_v1.url + "/", ("goto", "", "/__faults/status/503"), ("click", "Login"))
    record = run(fresh, p, options=OPTS)
    assert "503" in _env(record, "http_error")
    assert [s.status for s in record.steps] == ["failed", "not_run"]


def test_a_page_slower_than_the_timeout(fresh: Page, demo_v1: DemoServer) -> None:
    quick = EngineOptions(step_timeout_ms=500, settle_timeout_ms=200, navigation_timeout_ms=500)
    p = plan(demo_v1.url + "/", ("goto", "", "/__faults/slow?ms=3000"))
    record = run(fresh, p, options=quick)
    assert "did not finish loading within 500 ms" in _env(record, "slow_page")


def test_server_stopped_mid_run(tab: Page, site: Site) -> None:
    # The page links to a second server that stops while the run is on its way there. (A
    # server the browser already holds a keep-alive connection to would go on answering on
    # it after DemoServer.stop(): the socket outlives the listener.)
    server = DemoServer("v1").start()
    url = site.add("links.html", f'<a href="{server.url}/widgets.html">Widgets</a>')
    stopped: list[int] = []

    def stop_server(index: int, _result: DiscoveryResult) -> None:
        server.stop()
        stopped.append(index)

    p = plan(url, ("click", "Widgets", "", "navigates_to:Widgets"))
    try:
        record = run(tab, p, options=OPTS, on_discovered=stop_server)
    finally:
        server.stop()
    assert stopped == [0]
    evidence = _env(record, "connection_refused")
    assert "ERR_CONNECTION_REFUSED" in evidence or "could not be reached" in evidence
    assert "symptom: expected navigates_to:Widgets" in evidence


def test_server_down_for_a_goto(fresh: Page) -> None:
    server = DemoServer("v1").start()
    url = server.url
    server.stop()
    record = run(fresh, plan(url + "/", ("click", "Login")), options=OPTS)
    assert "refused" in _env(record, "connection_refused")


def test_a_crashed_page(fresh: Page, demo_v1: DemoServer) -> None:
    p = plan(demo_v1.url + "/", ("goto", "", "chrome://crash"), ("click", "Login"))
    record = run(fresh, p, options=OPTS)
    _env(record, "crash")
    assert record.steps[1].status == "not_run"


def test_a_page_closed_mid_run(fresh: Page, demo_v1: DemoServer) -> None:
    def close(_index: int, _result: DiscoveryResult) -> None:
        fresh.close()

    p = plan(demo_v1.url + "/", ("fill", "Username", "x"), ("click", "Login"))
    record = run(fresh, p, options=OPTS, on_discovered=close)
    _env(record, "crash")


def test_an_unresolvable_relative_url_says_how_to_fix_it(fresh: Page) -> None:
    record = run(fresh, plan("/index.html", ("click", "Login")), options=OPTS)
    assert record.verdict == "fail"
    assert "no base URL is set" in record.rca.message and "--base-url" in record.rca.message


def test_a_relative_url_joins_the_base_url(fresh: Page, demo_v1: DemoServer) -> None:
    p = plan("/widgets.html", ("wait", "", "", "title_contains:Widgets"))
    record = run(fresh, p, options=OPTS, base_url=demo_v1.url)
    assert record.verdict == "pass" and record.url == demo_v1.url + "/widgets.html"


def test_a_page_that_never_settles_still_runs(fresh: Page, demo_v1: DemoServer) -> None:
    # a request always in flight and a DOM that never stops changing: no networkidle wait
    p = plan(
        demo_v1.url + "/__faults/never-settles", ("click", "Click me", "", "text_visible:Clicked")
    )
    assert run(fresh, p, options=OPTS).verdict == "pass"


@pytest.mark.parametrize(
    ("path", "cause", "said"),
    [
        ("/__faults/status/500", "http_error", "HTTP 500"),
        # a link to a page slower than the navigation timeout: the test below
    ],
)
def test_a_click_that_navigates_into_a_fault(
    tab: Page, site: Site, demo_v1: DemoServer, path: str, cause: str, said: str
) -> None:
    url = site.add("go.html", f'<a href="{demo_v1.url}{path}">Go</a>')
    quick = EngineOptions(step_timeout_ms=500, settle_timeout_ms=200, navigation_timeout_ms=8_000)
    record = run(tab, plan(url, ("click", "Go", "", "navigates_to:Products")), options=quick)
    assert said in _env(record, cause)


def test_a_link_to_a_slow_page_gets_the_navigation_timeout(tab: Page, site: Site) -> None:
    """Playwright's click waits, within its own timeout, for the navigation it starts to
    commit (its docs, ``Locator.click``). A link whose page answers after the step timeout
    but within the navigation timeout failed as a timed-out click (``slow_page``) before
    the page had had its navigation timeout; the page a person waits for now loads and the
    expectation is checked. A page slower than the navigation timeout is still
    ``slow_page``, said with that timeout."""
    server = DemoServer("v1").start()
    try:
        url = site.add(
            "slowlinks.html",
            f'<a href="{server.url}/__faults/slow?ms=3000">Slow report</a> '
            f'<a href="{server.url}/__faults/slow?ms=9000">Slower report</a>',
        )
        slow = EngineOptions(step_timeout_ms=1_000, navigation_timeout_ms=5_000)
        record = run(tab, plan(url, ("click", "Slow report", "", "navigates_to:Slow response")),
                     options=slow)  # fmt: skip
        assert record.verdict == "pass", record.rca
        record = run(tab, plan(url, ("click", "Slower report")), options=slow)
    finally:
        server.stop()
    evidence = _env(record, "slow_page")
    assert "did not finish loading within 5000 ms" in record.rca.message
    assert "/__faults/slow?ms=9000" in evidence
