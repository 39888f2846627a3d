"""Playwright's private attributes the runtime reads are still there, and do what it takes
them for (``runtime/playwright_private.py``).

Without them the runtime keeps working the slow way: no call sent ahead, and no deadline on a
call into a page, so a hung page would stop the run. Nobody would notice that from a run; this
test says it, naming the Playwright version, on the first upgrade that renames them.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from playwright.sync_api import Page, Request, Response

from pytest_pacts.runtime import playwright_private as private


def test_playwright_has_the_private_attributes_the_runtime_reads(tab: Page) -> None:
    tab.set_content("<button>Buy</button>")
    session = tab.context.new_cdp_session(tab)
    try:
        gone = private.missing(
            page=tab, frame=tab.main_frame, locator=tab.locator("button"), cdp_session=session
        )
        assert not gone, private.missing_message(gone)
        # ... and they are what the runtime takes them for
        loop = private.event_loop(tab)
        assert isinstance(loop, asyncio.AbstractEventLoop) and private.can_run(tab)
        assert private.identity(tab) is private.identity(tab.main_frame.page)
        frame = private.impl(tab.main_frame)
        assert frame is not None
        assert private.run(tab, frame.evaluate("() => 6 * 7", None)) == 42
        button = private.impl(tab.locator("button"))
        assert button is not None
        assert private.run(tab, button.count()) == 1
        assert private.run(tab, private.bounding_box(button, 1000)) is not None
        cdp = private.impl(session)
        answer = private.run(
            tab, private.cdp_send(cdp, "Runtime.evaluate", {"expression": "1 + 1"})
        )
        assert answer["result"]["value"] == 2
    finally:
        session.detach()


def test_a_missing_attribute_is_named_with_the_playwright_version() -> None:
    gone = private.missing(page=object(), locator=object())
    assert gone == ["page._impl_obj", "page._loop", "page._sync", "locator._impl_obj"]
    message = private.missing_message(gone)
    assert f"Playwright {private.playwright_version()} has no page._impl_obj" in message
    assert "runtime/playwright_private.py" in message
    assert private.event_loop(object()) is None and not private.can_run(object())
    assert private.identity(tab := object()) is tab


def test_a_heard_listener_gets_what_the_driver_sends_and_asks_for_nothing(tab: Page) -> None:
    """``hear`` (what ``EnvMonitor`` hears a request's answer and end with): the driver sends
    a navigation's events, and every later event of a request whose ``request`` event it sent
    (Playwright's ``BrowserContextDispatcher``: an ``existingDispatcher`` is followed), and no
    other without a subscription; a heard listener asks for none, and does not keep an
    ordinary listener from asking for its own."""
    # served over real HTTP: a route would make the driver follow every request it routes
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Ok)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        _followed_as_documented(tab, origin)
    finally:
        server.shutdown()
        server.server_close()


class _Ok(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", "9")
        self.end_headers()
        self.wfile.write(b"<p>ok</p>")

    def log_message(self, *args: object) -> None:
        pass


def _followed_as_documented(tab: Page, origin: str) -> None:
    heard: list[str] = []

    def hears(response: Response) -> None:
        heard.append(response.url.rsplit("/", 1)[-1])

    assert private.hear(tab, "response", hears)
    tab.goto(origin + "/start")

    def fetched(name: str, until: Callable[[], bool], tries: int = 50) -> None:
        tab.evaluate("(n) => fetch('/' + n).then((r) => r.text())", name)
        for _ in range(tries):  # the events come on their own: a few round trips at most
            if until():
                return
            tab.evaluate("1")

    fetched("alone", lambda: False, tries=5)
    assert heard == ["start"]  # the navigation's; the fetch's was never sent
    started: list[str] = []

    def on_request(request: Request) -> None:
        started.append(request.url)

    tab.on("request", on_request)  # ordinary: asks for every request's ``request`` event
    fetched("followed", lambda: len(heard) > 1)
    assert heard == ["start", "followed"] and len(started) == 1
    tab.remove_listener("request", on_request)
    ordinary: list[str] = []
    tab.on("response", lambda r: ordinary.append(r.url))  # ordinary: asks for every response
    fetched("both", lambda: bool(ordinary) and heard[-1] == "both")
    assert heard[-1] == "both" and len(ordinary) == 1
    private.unhear(tab, "response", hears)
    fetched("unheard", lambda: len(ordinary) > 1)
    assert heard[-1] == "both" and len(ordinary) == 2
