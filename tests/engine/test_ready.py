"""The first action on a new page waits until the page is ready, by what can be observed.

Apps that bind their handlers late (a script injected by the load handler, a module
imported after ``load``) drop an Enter that comes first. The pages are served over real HTTP
(a small server on 127.0.0.1) so the late script is a real, slow request the engine sees.
A page that never settles (a poll every 100 ms, a long-poll) is acted on after the cap.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Browser, Page

from pytest_pacts.discovery import check_actionable
from pytest_pacts.engine import env
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.engine.env import EnvMonitor, watch_changes
from pytest_pacts.engine.waiting import READY_CAP_MS, Readiness, wait_until_ready
from pytest_pacts.models.locator import DiscoveryResult

from .helpers import css, plan, run

FORM = """<!doctype html><html><head><meta charset='utf-8'><title>Shop</title></head><body>
<h1>Search</h1>
<form id="f"><input id="q" aria-label="Search"></form><p id="out"></p>
<script>
document.getElementById('f').addEventListener('submit', (e) => e.preventDefault());
%s
</script></body></html>"""
BIND = """document.getElementById('q').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') document.getElementById('out').textContent = 'Searching for ' + e.target.value;
});"""
PAGES = {
    # the load handler injects the app's script, which the server sends 2 s later
    "/late-script.html": FORM
    % """window.addEventListener('load', () => {
  const s = document.createElement('script'); s.src = '/app.js?delay=2000'; document.head.append(s);
});""",
    # a module imported once the page has loaded (a module loader finishing after load)
    "/late-module.html": FORM
    % "window.addEventListener('load', () => import('/app.mjs?delay=2000'));",
    # never settles: a poll every 100 ms that rewrites the page
    "/polling.html": FORM
    % (
        BIND
        + """
setInterval(() => fetch('/tick').then((r) => r.text())
  .then((t) => { document.getElementById('out').dataset.tick = t; }), 100);"""
    ),
    # never settles: a long-poll that the server holds open
    "/long-poll.html": FORM % (BIND + "fetch('/hold?delay=20000');"),
    "/plain.html": FORM % BIND,
    # renders frame by frame for a while after load (a list filling in, an entrance
    # animation in scripts), then stops; counts its frames without touching the DOM
    "/renders.html": FORM
    % (
        BIND
        + """
window.__frame = 0; window.__last = -1;
const count = () => { window.__frame += 1; requestAnimationFrame(count); };
requestAnimationFrame(count);
window.addEventListener('load', () => {
  let left = 5 + Math.floor(Math.random() * 12);
  const render = () => {
    document.getElementById('out').dataset.n = left; window.__last = window.__frame;
    if (--left > 0) requestAnimationFrame(render);
  };
  requestAnimationFrame(render);
});"""
    ),
    # fetches its data once loaded, then renders it frame by frame, and binds its button's
    # handler only on its last render (an app that mounts in steps): a click while it
    # renders is lost
    "/mounts.html": """<!doctype html><html><head><meta charset='utf-8'><title>Shop</title>
</head><body><h1>Basket</h1><button id="go">Checkout</button><p id="out"></p><script>
window.addEventListener('load', () => fetch('/data?delay=100').then((r) => r.text()).then(() => {
  let left = 8 + Math.floor(Math.random() * 8);
  const render = () => {
    document.getElementById('out').dataset.n = left;
    if (--left > 0) { requestAnimationFrame(render); return; }
    document.getElementById('go').addEventListener('click', () => {
      document.getElementById('out').textContent = 'Checking out';
    });
  };
  requestAnimationFrame(render);
}));
</script></body></html>""",
    # two static pages, for a context whose scripts are disabled
    "/static-a.html": "<!doctype html><title>A</title><h1>First</h1><a href='/static-b.html'>Next</a>",
    "/static-b.html": "<!doctype html><title>B</title><h1>Second</h1><a href='/static-a.html'>Back</a>"
    "<img src='/slow.png?delay=600' alt=''>",  # parsed, not loaded, when "Back" is clicked
    # a call whose answer the page never reads (an analytics beacon, a prefetch): Chromium
    # never finishes a request whose body nobody reads
    "/fire-and-forget.html": FORM % (BIND + "fetch('/beacon').catch(() => {});"),
    # the same call, read and shown once the page has loaded
    "/reads-answer.html": FORM
    % (
        BIND
        + """
window.addEventListener('load', () => fetch('/answer?delay=300').then((r) => r.text())
  .then((t) => { document.getElementById('out').textContent = 'got ' + t; }));"""
    ),
}


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        path, _, query = self.path.partition("?")
        delay = int(query.split("delay=", 1)[1]) if "delay=" in query else 0
        time.sleep(delay / 1000)
        if path in PAGES:
            body, kind = PAGES[path], "text/html; charset=utf-8"
        elif path in ("/app.js", "/app.mjs"):
            body, kind = BIND, "text/javascript"
        else:
            body, kind = str(time.monotonic()), "text/plain"
        data = body.encode()
        try:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass  # the browser went away (a held request)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def page(engine_browser: Browser) -> Iterator[Page]:
    context = engine_browser.new_context()
    context.set_default_timeout(5_000)
    yield context.new_page()
    context.close()


OPTIONS = EngineOptions(step_timeout_ms=6_000, settle_timeout_ms=300, navigation_timeout_ms=10_000)
SEARCH = (("press", "Search", "Enter", "text_visible:Searching for"),)


@pytest.mark.parametrize("path", ["/late-script.html", "/late-module.html"])
def test_the_first_action_waits_for_a_late_bound_handler(
    page: Page, server: str, path: str
) -> None:
    record = run(page, plan(server + path, *SEARCH), options=OPTIONS)
    assert record.verdict == "pass", record.failed_step


@pytest.mark.parametrize("path", ["/polling.html", "/long-poll.html"])
def test_a_page_that_never_settles_is_acted_on_after_the_cap(
    page: Page, server: str, path: str
) -> None:
    started = time.monotonic()
    record = run(page, plan(server + path, *SEARCH), options=OPTIONS)
    took_ms = (time.monotonic() - started) * 1000
    assert record.verdict == "pass", record.failed_step
    cap = min(READY_CAP_MS, OPTIONS.step_timeout_ms / 2)
    assert took_ms < cap + 4_000  # the cap, plus loading and acting on a loaded machine


def test_a_loaded_quiet_page_is_ready_at_once(page: Page, server: str) -> None:
    """No request since ``load``: ready with no round trip, nothing waited."""
    monitor = EnvMonitor(page)
    try:
        page.goto(server + "/plain.html")
        assert wait_until_ready(page, monitor) == Readiness(0.0, True, 0)
        page.goto(server + "/late-script.html")  # its load handler fetches the app's script
        waited = wait_until_ready(page, monitor)
        assert waited.ready and waited.waited_ms > 0
    finally:
        monitor.detach()


def test_an_answered_call_whose_body_the_page_never_reads_is_not_waited_on(
    page: Page, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Readiness watches the page draw two frames after the answer's headers; a page that
    has not read the body by then is not reading it. The fallback grace is made longer than
    the readiness cap here, so only that observation can end the wait."""
    monkeypatch.setattr(env, "ANSWERED_GRACE_S", 60.0)
    monitor = EnvMonitor(page)
    try:
        with page.expect_response("**/beacon"):
            page.goto(server + "/fire-and-forget.html")
        ready = wait_until_ready(page, monitor)
        assert ready.ready and ready.open_requests == 0, ready  # not held to the cap
        assert ready.unread == 1, ready
        assert not monitor.inflight
    finally:
        monitor.detach()


def test_an_answered_call_the_page_reads_is_waited_for(
    page: Page, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same page shape, but the page reads the answer and shows it: ready only after
    that, the call finished rather than dropped."""
    monkeypatch.setattr(env, "ANSWERED_GRACE_S", 60.0)
    monitor = EnvMonitor(page)
    try:
        page.goto(server + "/reads-answer.html")
        ready = wait_until_ready(page, monitor)
        assert ready.ready and ready.unread == 0, ready
        assert page.evaluate("document.getElementById('out').textContent").startswith("got ")
    finally:
        monitor.detach()


def test_a_page_rendering_frame_by_frame_is_ready_on_its_first_quiet_frames(
    page: Page, server: str
) -> None:
    """Readiness answers once the page has drawn two frames since its last change (the
    change watch, read on every frame in the page), never before."""
    watch_changes(page)
    monitor = EnvMonitor(page)
    late = []
    try:
        for _ in range(6):
            page.goto(server + "/renders.html", wait_until="commit")
            ready = wait_until_ready(page, monitor)
            assert ready.ready, ready
            frame, last = page.evaluate("[window.__frame, window.__last]")
            assert last > 0 and page.evaluate("document.getElementById('out').dataset.n") == "1"
            late.append(frame - last)
    finally:
        monitor.detach()
    # never before two quiet frames (how soon after them is the benchmark's to show:
    # ``bench/bench_overhead.py --profile``, "readiness"; a loaded machine delays frames)
    assert min(late) >= 2, late


def test_a_cached_click_waits_until_the_page_stops_rendering(page: Page, server: str) -> None:
    """With a cached locator, readiness leaves the page's two quiet frames to the gate's
    check (watched over the frames "stable" takes anyway). A check that saw the page still
    rendering is not taken for a quiet page: the run waits for it, then clicks, and the
    handler bound on the last render gets the click."""
    clicks = (("click", "Checkout", "", "text_visible:Checking out"),)
    for _ in range(4):
        record = run(
            page, plan(server + "/mounts.html", *clicks), options=OPTIONS, pom={0: css("#go")}
        )
        assert record.verdict == "pass", record.failed_step
        assert page.evaluate("document.getElementById('out').dataset.n") == "1"


def test_a_check_asked_to_settle_watches_the_frames_a_quiet_page_needs(
    page: Page, server: str
) -> None:
    """``settle``: a passing fill check (which watches no frame for "stable") on a page not
    known quiet watches two frames itself and says the page is settled; on a page that
    changes on every frame it says it is not."""
    page.goto(server + "/plain.html")
    field = page.locator("#q")
    since = time.time() * 1000  # acted just now: no quiet spell from before counts
    quiet = check_actionable(field, "fill", since=since, settle=True)
    assert quiet.settled is True, quiet
    assert check_actionable(field, "fill", since=time.time() * 1000).settled is False
    page.evaluate(
        "(() => { const tick = () => { document.title = String(Math.random());"
        " requestAnimationFrame(tick); }; requestAnimationFrame(tick); })()"
    )
    busy = check_actionable(field, "fill", since=time.time() * 1000, settle=True)
    assert busy.settled is False, busy


def test_a_page_whose_scripts_are_disabled_is_ready_without_frames(
    engine_browser: Browser, server: str
) -> None:
    """A page whose scripts are disabled runs no callback: no animation frame, timer or
    observer a wait could watch, and nothing but parsing and loading changes it. Readiness
    on it (still loading a picture when "Back" is clicked) answered never: its in-page wait
    reached its deadline, the page was taken for hung and the run failed as an environment
    fault. It is ready once parsed, with the locators discovered and with them cached (where
    the check, which watches no frame there either, says nothing about the page settling)."""
    context = engine_browser.new_context(java_script_enabled=False)
    context.set_default_timeout(5_000)
    try:
        page = context.new_page()
        rows = (
            ("click", "Next", "", "text_visible:Second"),
            ("click", "Back", "", "text_visible:First"),
        )
        found: dict[int, DiscoveryResult] = {}
        for pom in ({}, found):
            record = run(page, plan(server + "/static-a.html", *rows), options=OPTIONS,
                         pom=dict(pom), on_discovered=found.__setitem__)  # fmt: skip
            assert record.verdict == "pass", record.rca
            # no step waited out readiness's cap (it would say so in its notes)
            assert not any(step.notes for step in record.steps), [s.notes for s in record.steps]
        assert sorted(found) == [0, 1]
    finally:
        context.close()
