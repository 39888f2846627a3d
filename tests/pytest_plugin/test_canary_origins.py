"""Each origin of a secret, in a Playwright trace (``--tracing on``) and every other artifact
(issue 36 item 1).

A small app (served by the project's conftest below, on a free loopback port) logs in with a
password, answers with a session cookie and an API token the page keeps in localStorage and
sends as an ``Authorization`` header, and shows an API key fetched with it. One unique canary
goes through each origin:

- a template **default** (``{{env.NAME:default}}`` with ``NAME`` unset), as the samples type
  their password;
- the auth profile's **saved session**: its cookie (``Cookie`` and ``Set-Cookie`` headers)
  and its localStorage token (sent as ``Authorization: Bearer``);
- a **secret extract** of a value the page shows (never typed), and the response body that
  carried it;
- ``pacts.step(..., secret=True)`` in a hand-written test.

Every file the session writes is read (zip archives member by member, the store dumped as
SQL), in plain, JSON-escaped, URL- and base64-encoded forms.
"""

from __future__ import annotations

import base64
import json
import sqlite3
import zipfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page

DEFAULT = "cnry-dflt-4b7e91"  # typed from {{env.PACTS_CANARY_UNSET:...}}
SID = "cnry-sid-a8d03f5c7e21"  # the session cookie the login sets
TOKEN = "cnry-token-61f0d2b9c4"  # the API token the login page keeps in localStorage
APIKEY = "cnry-apikey-3e9a7c"  # shown by the home page, read by a secret extract
STEPSECRET = "cnry-step-0c55d1"  # typed by pacts.step(..., secret=True)

SIGNUP = """<!doctype html><html><head><title>Sign up</title></head><body><main>
<h1>Sign up</h1>
<form id="f"><label>Username <input id="u" name="u"></label>
<label>Password <input id="p" name="p" type="password"></label>
<label>Note <input id="n" name="n"></label>
<button type="submit">Sign up</button></form><p id="out" role="status"></p>
<script>
document.getElementById('f').addEventListener('submit', async (e) => {
  e.preventDefault();
  const r = await fetch('/api/signup', {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({user: document.getElementById('u').value,
                          password: document.getElementById('p').value})});
  const d = await r.json();
  document.getElementById('out').textContent = d.ok ? 'Signed up' : 'Refused';
});
</script></main></body></html>"""

CONFTEST = r'''
import http.server, json, os, threading
import pytest

PAGES = {
    "/login.html": """<!doctype html><html><head><title>Sign in</title></head><body><main>
<h1>Sign in</h1>
<form id="f"><label>Username <input id="u" name="u"></label>
<label>Password <input id="p" name="p" type="password"></label>
<label>Note <input id="n" name="n"></label>
<button type="submit">Log in</button></form>
<script>
document.getElementById('f').addEventListener('submit', async (e) => {
  e.preventDefault();
  const r = await fetch('/api/login', {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({user: document.getElementById('u').value,
                          password: document.getElementById('p').value})});
  if (r.ok) { const d = await r.json(); localStorage.setItem('api_token', d.token);
              location.href = '/home.html'; }
  else { document.body.insertAdjacentHTML('beforeend', '<p role="alert">Wrong password</p>'); }
});
</script></main></body></html>""",
    "/home.html": """<!doctype html><html><head><title>Home</title></head><body><main>
<h1>Home</h1><button type="button" id="show">Show API key</button>
<p>Your API key: <output id="key" aria-label="API key"></output></p>
<script>
const auth = {headers: {'Authorization': 'Bearer ' + localStorage.getItem('api_token')}};
fetch('/api/me', auth).then(r => r.json()).then(d => {
  document.querySelector('h1').textContent = 'Welcome ' + d.name; });
document.getElementById('show').addEventListener('click', () => fetch('/api/key', auth)
  .then(r => r.json()).then(d => { document.getElementById('key').textContent = d.api_key; }));
</script></main></body></html>""",
    "/signup.html": """@SIGNUP@""",
}


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def _send(self, status, body, kind="application/json", headers=()):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path in PAGES:
            return self._send(200, PAGES[path], "text/html")
        if path in ("/api/me", "/api/key"):
            ok = "sid=SID" in (self.headers.get("Cookie") or "") and (
                self.headers.get("Authorization") == "Bearer TOKEN")
            if not ok:
                return self._send(401, json.dumps({"error": "not signed in"}))
            if path == "/api/me":
                return self._send(200, json.dumps({"name": "Ann"}))
            return self._send(200, json.dumps({"api_key": "APIKEY"}))
        self._send(404, "{}")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        data = json.loads(self.rfile.read(length) or b"{}")
        if self.path == "/api/login" and data.get("password") == "DEFAULT":
            return self._send(200, json.dumps({"token": "TOKEN"}),
                              headers=[("Set-Cookie", "sid=SID; Path=/; HttpOnly")])
        if self.path == "/api/signup":  # a response body that holds what was sent
            return self._send(200, json.dumps({"ok": True, "password": data.get("password")}))
        self._send(401, json.dumps({"error": "wrong password"}))


_SERVER = pytest.StashKey[http.server.ThreadingHTTPServer]()


def pytest_configure(config):
    url = os.environ.get("CANARY_APP_URL")
    if not url:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        config.stash[_SERVER] = server
        url = "http://127.0.0.1:%d" % server.server_address[1]
        os.environ["CANARY_APP_URL"] = url
    config.option.base_url = url


def pytest_unconfigure(config):
    server = config.stash.get(_SERVER, None)
    if server is not None:
        server.shutdown()
'''
CONFTEST = CONFTEST.replace("@SIGNUP@", SIGNUP)
for _name, _value in {
    "DEFAULT": DEFAULT,
    "SID": SID,
    "TOKEN": TOKEN,
    "APIKEY": APIKEY,
}.items():
    CONFTEST = CONFTEST.replace(_name, _value)

AUTH = """
profiles:
  member:
    url: /login.html
    steps:
      - "Username | fill | ann"
      - "Password | fill | {{env.PACTS_CANARY_UNSET:@DFLT@}}"
      - "Log in | click | | navigates_to:Home"
    verify: {url: /home.html, expect: "text_visible:Welcome Ann"}
""".replace("@DFLT@", DEFAULT)

REQS = """
requirements:
  - req_id: REQ-DEFAULT
    url: /signup.html
    steps:
      - "Username | fill | ann"
      - "Password | fill | {{env.PACTS_CANARY_UNSET:@DFLT@}}"
      # a text field that shows it (the trace's DOM snapshot keeps the field's value)
      - "Note | fill | {{env.PACTS_CANARY_UNSET:@DFLT@}}"
      - "Sign up | click | | text_visible:Signed up"
  - req_id: REQ-SESSION
    auth: member
    url: /home.html
    steps:
      - "| wait | | text_visible:Welcome Ann"
      - "Show API key | click | | text_visible:cnry-apikey"
      - "API key | extract | api_key; secret"
""".replace("@DFLT@", DEFAULT)

HAND = """
def test_hand_written(page, pacts, base_url):
    page.goto(base_url + "/login.html")
    pacts.step("Username", "fill", "ann")
    pacts.step("Note", "fill", "STEPSECRET", secret=True)
    pacts.step("Password", "fill", "STEPSECRET", secret=True)
""".replace("STEPSECRET", STEPSECRET)


def _forms(secret: str) -> list[bytes]:
    """The forms a value takes on its way into a trace or a report."""
    raw = secret.encode()
    return [
        raw,
        quote(secret, safe="").encode(),
        json.dumps(secret)[1:-1].encode(),
        base64.b64encode(raw),
        base64.b64encode(b"x" + raw)[4:],  # shifted by one and two bytes: any alignment
        base64.b64encode(b"xx" + raw)[4:],
    ]


def _blobs(root: Path) -> list[tuple[str, bytes]]:
    """Every file under ``root`` (zip archives member by member, the store as SQL), except
    the sources, their bytecode and the private session folder."""
    out: list[tuple[str, bytes]] = []
    for path in (p for p in root.rglob("*") if p.is_file()):
        if path.suffix in (".db-wal", ".db-shm") or path.name in ("pacts-auth.yaml",):
            continue
        if path.name in ("conftest.py", "test_hand.py", "origins.req.yaml"):
            continue
        if "__pycache__" in path.parts:
            continue  # Python's bytecode of those sources (the test command writes bytecode)
        if ".pacts" in path.parts and "auth" in path.parts:
            continue  # the saved session itself: private, 0600
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                out += [(f"{path}!{n}", archive.read(n)) for n in archive.namelist()]
        elif path.suffix == ".db":
            with sqlite3.connect(path) as db:
                out.append((str(path), "\n".join(db.iterdump()).encode()))
        else:
            out.append((str(path), path.read_bytes()))
    return out


@pytest.fixture(scope="module")
def origins_run(
    module_pytester: Callable[[], pytest.Pytester],
) -> tuple[pytest.Pytester, pytest.RunResult]:
    """One session of the project, shared by the tests below (each asserts its own part):
    traces and screenshots on, JUnit and self-contained HTML written, the auth profile's
    session saved (a whole session with Chromium costs several seconds of CPU; the three
    tests ran one each, the same requirements with fewer options)."""
    project = module_pytester()
    project.makeconftest(CONFTEST)
    (project.path / "pacts-auth.yaml").write_text(AUTH)
    (project.path / "origins.req.yaml").write_text(REQS)
    (project.path / "test_hand.py").write_text(HAND)
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("PACTS_CANARY_UNSET", raising=False)
        mp.delenv("CANARY_APP_URL", raising=False)
        result = project.runpytest_subprocess(
            "-p", "no:cacheprovider", "--tracing=on", "--screenshot=on",
            "--junitxml=out/junit.xml", "--html=out/report.html", "--self-contained-html",
            "--pacts-step-timeout=5",
        )  # fmt: skip
    return project, result


def test_no_canary_of_any_origin_in_traces_or_artifacts(
    origins_run: tuple[pytest.Pytester, pytest.RunResult],
) -> None:
    project, result = origins_run
    result.assert_outcomes(passed=3)
    traces = list((project.path / "test-results").rglob("trace*.zip"))
    assert len(traces) == 3, traces
    blobs = _blobs(project.path)
    members = [name for name, _ in blobs if "!" in name]
    assert len(members) >= 12  # the traces were opened
    leaks = sorted(
        {
            f"{secret} in {name}"
            for name, data in blobs
            for secret in (DEFAULT, SID, TOKEN, APIKEY, STEPSECRET)
            for form in _forms(secret)
            if form in data
        }
    )
    assert not leaks, "\n".join(leaks)
    # the canaries did go through the traces, as *** (the trace stays useful)
    text = b"".join(data for name, data in blobs if name.endswith(".trace"))
    assert b'"value":"***"' in text
    for stream in (result.stdout.str(), result.stderr.str()):
        for secret in (DEFAULT, SID, TOKEN, APIKEY, STEPSECRET):
            assert secret not in stream


def test_a_secret_a_field_shows_is_covered_in_the_last_screenshot(
    origins_run: tuple[pytest.Pytester, pytest.RunResult], tab: Page
) -> None:
    """A secret typed into a field that shows it (the Note field) is drawn like any text:
    pytest-playwright's ``--screenshot`` picture at the end of the test showed it. The field
    is covered when the run is over. Checked by its pixels: the field as it looks holding
    the canary (rendered here, in the same Chromium and viewport) is searched for in the
    last screenshot with the image-target matcher, which finds it in a control picture."""
    from pytest_pacts.engine import vision

    project, result = origins_run
    result.assert_outcomes(passed=3)
    (last,) = (
        p
        for p in (project.path / "test-results").rglob("test-finished-*.png")
        if "req-default" in p.parent.name
    )
    tab.set_viewport_size({"width": 1280, "height": 720})
    tab.set_content(SIGNUP)
    tab.fill("#n", DEFAULT)
    tab.locator("#n").blur()  # as at the end of the run: the last click was on the button
    field = tab.locator("#n").screenshot()
    template = vision.decode(field)
    control = vision.match(vision.decode(tab.screenshot()), template)
    assert control.verdict == "ok", control  # the matcher finds the field holding it
    found = vision.match(vision.decode(last.read_bytes()), template)
    assert found.verdict == "weak", found  # not in the last screenshot


def test_the_saved_session_holds_what_the_trace_masks(
    origins_run: tuple[pytest.Pytester, pytest.RunResult],
) -> None:
    """The check above is not vacuous: the session the profile saved in that same run holds
    the cookie and the token (and the trace would carry them in its headers)."""
    project, result = origins_run
    result.assert_outcomes(passed=3)
    (state,) = (project.path / ".pacts" / "auth").glob("*.state.json")
    saved = state.read_text()
    assert SID in saved and TOKEN in saved
