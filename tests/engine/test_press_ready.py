"""A key pressed on a new page waits for it to be ready, as the first click does.

A loader that starts fetching the app's code in its ``load`` handler binds the key handlers
a moment after ``load``. The first click (or any step with an element) looked at the page
before acting (its discovery and its check, one round trip each), so the request was seen
and waited for; a key pressed on the page, with no element, went at once and the app never
saw it (issue 35, class 7).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from playwright.sync_api import Page

from pytest_pacts.engine.failure_text import render_failure

from .helpers import plan, run

PAGE = """
<ul id="out"></ul>
<script>
  window.addEventListener('load', () => {
    const s = document.createElement('script');
    s.src = 'ORIGIN/loader.js';
    document.head.append(s);
  });
</script>
"""
LOADER = """
const s = document.createElement('script');
s.src = 'ORIGIN/app.js';
document.head.append(s);
"""
APP = """
document.addEventListener('keydown', (e) => {
  const li = document.createElement('li');
  li.textContent = 'key ' + e.key;
  document.querySelector('#out').append(li);
});
"""


def test_the_first_key_press_waits_for_a_loader_started_on_load(tab: Page) -> None:
    """HTML's ``load`` event fires before what its handlers start fetching (HTML, parsing's
    "The end": the document's load is its own resources, not those requested from the
    handler): module loaders (RequireJS, SystemJS) and lazy bundles bind their handlers
    then. Playwright's ``keyboard.press`` goes to whatever listens at that moment, so the
    engine waits for the page as it does before a first click: the key is received."""
    page = f"<!doctype html><html><body>{PAGE}</body></html>"
    with _served({"/keys.html": page, "/loader.js": LOADER, "/app.js": APP}) as origin:
        record = run(tab, plan(f"{origin}/keys.html", ("press", "", "Enter")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.inner_text("#out") == "key Enter"


@contextmanager
def _served(bodies: dict[str, str]) -> Iterator[str]:
    """A loopback server answering each file a moment late (a module loader's fetch over a
    real network), on a thread of its own: it does not wait for the test's Playwright calls
    as a route handler would."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            time.sleep(0.2)  # the network's latency, not a synchronisation
            body = bodies[self.path].replace("ORIGIN", origin).encode()
            self.send_response(200)
            kind = "text/html" if self.path.endswith(".html") else "text/javascript"
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield origin
    finally:
        server.shutdown()
        server.server_close()
