"""The plugin registers the bridge (``pytest_pacts.register_bridge``) with the session's
Playwright: a real pytest session on a page whose array methods throw, where Playwright's
selector code in the page's own world (``Locator.evaluate_all``) stops at the first
step, passes because the gate and discovery get their elements from Playwright's isolated
world (docs/discovery.md, "The bridge")."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import pytest

PAGE = (
    "<title>Account</title>"
    "<script>Array.prototype.some = function () { throw new TypeError('patched some'); };"
    "Array.prototype.forEach = function () { throw new TypeError('patched forEach'); };</script>"
    "<form onsubmit=\"document.querySelector('#out').textContent = 'Saved ' + this.user.value;"
    ' return false"><label for="u">Username</label><input id="u" name="user">'
    "<button>Save</button></form><p id='out'></p>"
)


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(PAGE.encode())

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()


def test_a_session_runs_on_a_page_whose_array_methods_throw(
    pytester: pytest.Pytester, server: str
) -> None:
    pytester.makefile(
        ".req.yaml",
        account=(
            f"req_id: REQ-ACCOUNT\nurl: {server}/account\nsteps:\n"
            "  - Username | fill | ada | value:ada\n"
            "  - Save | click | | text_visible:Saved ada\n"
        ),
    )
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    result = pytester.runpytest_subprocess("-q", timeout=240)
    result.assert_outcomes(passed=1)
