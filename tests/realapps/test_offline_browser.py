"""The corpus's browsers resolve no host name but the loopback ones
(``realapps.harness.offline_launch_options``): an app page's request for an outside host (a
CDN, a web-font host, an error reporter) fails at once instead of sending a DNS query off the
machine, and pages on 127.0.0.1 and ``localhost`` load as before. A real Chromium, launched
with the corpus's own options; a loopback server of this test."""

from __future__ import annotations

import http.server
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Playwright

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from realapps.harness import LOOPBACK_ONLY, offline_launch_options  # noqa: E402


class _Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"<!doctype html><title>here</title><p>served on loopback</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def port() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_the_corpus_browser_reaches_loopback_and_resolves_no_other_host(
    playwright: Playwright, port: int
) -> None:
    options = offline_launch_options()
    assert LOOPBACK_ONLY in options["args"]
    browser = playwright.chromium.launch(**options)
    try:
        page = browser.new_page()
        for host in ("127.0.0.1", "localhost"):
            response = page.goto(f"http://{host}:{port}/", timeout=15_000)
            assert response is not None and response.status == 200
            assert page.title() == "here"
        # a name under the reserved .invalid domain (RFC 2606) never resolves anywhere;
        # cdn.jsdelivr.net is what Kiwi TCMS's editor asks for: neither is looked up
        for url in ("http://cdn.jsdelivr.net/", "http://bakery.invalid/"):
            with pytest.raises(PlaywrightError, match="ERR_NAME_NOT_RESOLVED"):
                page.goto(url, timeout=15_000)
    finally:
        browser.close()
