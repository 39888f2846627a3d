"""A regular expression from a sheet is matched with a time limit (issue 36 item 5).

``regex=(a+)+$`` on forty ``a`` and a ``b`` backtracked in Python's ``re`` for hours and hung
the whole session: the next requirement never ran and the run's row stayed ``running``.
Nested repetition backtracks exponentially in any backtracking engine (Python's ``re``,
JavaScript's ``RegExp``, PCRE); the step now fails with the pattern, the limit and advice,
and the run goes on.
"""

from __future__ import annotations

import sqlite3

import pytest

CONFTEST = r"""
import http.server, os, threading
import pytest

PAGE = ("<!doctype html><title>Codes</title><main><h1>Codes</h1>"
        "<p>Code: <output aria-label='Code'>" + "a" * 40 + "b</output></p>"
        "<p>Order: <output aria-label='Order'>ORD-123456</output></p></main>")


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        data = PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


_SERVER = pytest.StashKey[http.server.ThreadingHTTPServer]()


def pytest_configure(config):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    config.stash[_SERVER] = server
    config.option.base_url = "http://127.0.0.1:%d" % server.server_address[1]


def pytest_unconfigure(config):
    config.stash[_SERVER].shutdown()
"""

REQS = r"""
requirements:
  - req_id: REQ-EVIL-NESTED
    url: /codes.html
    steps:
      - {element: Code, action: extract, value: "code; regex=(a|aa)+$"}
  - req_id: REQ-EVIL-PLUS
    url: /codes.html
    steps:
      - "Code | extract | code; regex=(a+)+$"
  - req_id: REQ-NEXT
    url: /codes.html
    steps:
      - 'Order | extract | digits; regex=ORD-(\d+)'
      - "| wait | | text_visible:{{vars.digits}}"
"""


def test_a_backtracking_regex_fails_its_step_and_the_run_goes_on(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(CONFTEST)
    (pytester.path / "codes.req.yaml").write_text(REQS)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--pacts-step-timeout=3", timeout=240
    )
    # (a+)+$ is matched at once by the bounded engine (it finds no match: the text ends in
    # b); (a|aa)+$ runs out of time
    result.assert_outcomes(passed=1, failed=2)
    out = result.stdout.str()
    assert "the regex (a|aa)+$ did not finish matching a 41-character text within 1 s" in out
    assert "without a repetition inside a repetition" in out
    assert "expected a value matching the regex (a+)+$" in out
    with sqlite3.connect(pytester.path / ".pacts" / "pacts.db") as db:
        states = dict(db.execute("SELECT req_id, status FROM runs").fetchall())
    assert "running" not in states.values(), states
