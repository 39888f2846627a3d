"""Discovery before the tests opens the page as the test does (issue 15 item 2).

A page that renders its controls only with the project's context (``browser_context_args``:
a header the server requires and a locale the script checks), the requirement's own
``context`` (a session cookie, as ``storage_state``) and the project's route (the
``pytest_pacts_configure_context`` hook answers the CDN script locally) is discovered
before the tests exactly as the test discovers it at run time: the same locators, each
found independently (two stores). Against a Playwright browser server (pytest-playwright's
``connect_options``), discovery connects to it too instead of launching a Chromium, and so
does ``pacts discover --connect``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_pacts.browser import SYSTEM_CHROMIUM_ARGS, choose_browser
from pytest_pacts.discovery.pom import load_pom
from pytest_pacts.planner import load_file
from pytest_pacts.store import open_store

CONFTEST = r'''
import json, os, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

PAGE = b"""<!doctype html><html><head><title>Profil</title>
<script src="https://cdn.pacts.invalid/controls.js"></script></head>
<body><main id="app">Chargement impossible</main><script>
if (window.renderControls && navigator.language === "fr-FR"
    && document.cookie.includes("session=ok")) {
  window.renderControls(document.getElementById("app"));
}
</script></body></html>"""

CONTROLS = """window.renderControls = (root) => {
  root.innerHTML = '<form aria-label="Profil"><label>Nom <input name="nom"></label>'
    + '<button type="button" onclick="document.getElementById(\\'out\\').textContent='
    + '\\'Profil enregistr\\u00e9\\'">Enregistrer</button><p id="out"></p></form>';
};"""


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        with open("requests.log", "a") as log:  # who asked for the page, with which browser
            log.write(json.dumps([self.path, self.headers.get("User-Agent", "")]) + "\n")
        if self.headers.get("X-Team") != "qa":
            self.send_response(403)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args):
        pass


def pytest_configure(config):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    config.option.base_url = f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "fr-FR", "extra_http_headers": {"X-Team": "qa"}}


@pytest.fixture(scope="session")
def connect_options():
    ws = os.environ.get("PACTS_TEST_WS")
    return {"endpoint": ws} if ws else None


def pytest_pacts_configure_context(context, requirement):
    with open("hook.log", "a") as log:
        log.write(requirement.req_id + "\n")
    context.route(
        "https://cdn.pacts.invalid/**",
        lambda route: route.fulfill(body=CONTROLS, content_type="application/javascript"),
    )
'''

REQS = """
requirements:
  - req_id: REQ-CTX
    url: /profil
    context:
      storage_state:
        cookies:
          - {name: session, value: ok, domain: 127.0.0.1, path: /, expires: -1,
             httpOnly: false, secure: false, sameSite: Lax}
        origins: []
    steps:
      - Nom@Profil | fill | Ada | field_populated
      - Enregistrer@Profil | click | | text_visible:Profil enregistré
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    pytester.makefile(".req.yaml", profil=REQS)
    return pytester


def _pacts_lines(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if line.startswith("pacts:")]


def _discovered(store_path: Path, reqs: Path) -> dict[int, dict[str, object]]:
    (plan,) = load_file(reqs).plans
    with open_store(str(store_path)) as store:
        state, entry = load_pom(store, plan)
    assert state == "hit" and entry is not None
    return {
        index: result.locator.model_dump(mode="json", exclude_none=True)
        for index, result in entry.steps.items()
        if result.locator is not None
    }


def _run_locators(root: Path) -> dict[int, dict[str, object]]:
    (verdict,) = root.glob(".pacts/reports/*/*/verdict_REQ-CTX.json")
    data = json.loads(verdict.read_text())
    assert data["verdict"] == "pass" and not data["healed"], data
    return {int(step["step_idx"]): step["locator"] for step in data["steps"]}


def test_discovery_before_the_tests_sees_the_page_the_test_sees(
    project: pytest.Pytester,
) -> None:
    # discovery alone (the dry run opens no page of its own)
    found = project.runpytest_subprocess(
        "-q", "--pacts-dry-run", "--pacts-discover=always", "-o", "pacts_store=discovery.db"
    )
    found.assert_outcomes(passed=1)
    lines = _pacts_lines(found)
    assert lines == [
        "pacts: discovering REQ-CTX (1/1) [profil.req.yaml:2:5]",
        "pacts: discovery: 1 requirement(s) discovered (2 step locator(s) verified), 0 cached; "
        "in the tests' browser",
    ], lines
    discovered = _discovered(project.path / "discovery.db", project.path / "profil.req.yaml")
    # the test alone, on a store of its own: it discovers at run time in its own context
    run = project.runpytest_subprocess("-q", "--pacts-discover=off", "-o", "pacts_store=run.db")
    run.assert_outcomes(passed=1)
    assert discovered == _run_locators(project.path), (discovered, run.outlines)
    assert (discovered[0]["strategy"], discovered[0]["label"]) == ("label", "Nom")
    assert (discovered[1]["role"], discovered[1]["name"]) == ("button", "Enregistrer")
    # `pacts discover --as-tests` walks the flow in a pytest session of the project: the
    # same context, so both steps resolve (and are performed) there too
    walked = subprocess.run(
        [sys.executable, "-m", "pytest_pacts.cli", "discover", "profil.req.yaml", "--as-tests",
         "--json"],
        cwd=project.path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert walked.returncode == 0, walked.stdout + walked.stderr
    (report,) = json.loads(walked.stdout)
    assert [step["status"] for step in report["steps"]] == ["resolved", "resolved"], report
    # the hook customised every context: discovery's, the test's and the walk's
    assert (project.path / "hook.log").read_text().split() == ["REQ-CTX"] * 3


def _browser_server(tmp_path: Path) -> tuple[subprocess.Popen[str], str]:
    """A Playwright browser server on 127.0.0.1 (the driver's ``launch-server``), whose
    Chromium says who it is in its user agent."""
    choice = choose_browser()
    config: dict[str, object] = {
        "headless": True,
        "host": "127.0.0.1",
        "port": 0,
        "wsPath": "/pacts-remote",
        "args": [*(choice.args or SYSTEM_CHROMIUM_ARGS), "--user-agent=PactsRemoteChromium/1"],
    }
    if choice.executable_path:
        config["executablePath"] = choice.executable_path
    path = tmp_path / "server.json"
    path.write_text(json.dumps(config))
    server = subprocess.Popen(
        [sys.executable, "-m", "playwright", "launch-server", "--browser", "chromium",
         "--config", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    assert server.stdout is not None
    endpoint = server.stdout.readline().strip()
    assert endpoint.startswith("ws://127.0.0.1:"), endpoint
    return server, endpoint


def test_discovery_connects_to_the_remote_browser_the_tests_use(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    server, endpoint = _browser_server(tmp_path)
    try:
        monkeypatch.setenv("PACTS_TEST_WS", endpoint)
        result = project.runpytest_subprocess("-q", "--pacts-discover=always")
        result.assert_outcomes(passed=1)
        assert "pacts: discovery: 1 requirement(s) discovered (2 step locator(s) verified)" in (
            "\n".join(_pacts_lines(result))
        )
        # `pacts discover --connect` walks in the server's browser too: no local Chromium
        # could be launched here (the configured one does not exist)
        page = "data:text/html,<title>Remote</title><button>Envoyer</button>"
        (tmp_path / "remote.req.yaml").write_text(
            f"requirements:\n  - req_id: R\n    url: '{page}'\n    steps: ['Envoyer | click']\n"
        )
        walked = subprocess.run(
            [sys.executable, "-m", "pytest_pacts.cli", "discover", "remote.req.yaml", "--json",
             "--connect", endpoint],
            cwd=tmp_path, capture_output=True, text=True, timeout=120,
            env={**os.environ, "PACTS_BROWSER_PATH": "/nonexistent/chromium"},
        )  # fmt: skip
        assert walked.returncode == 0, walked.stdout + walked.stderr
        (report,) = json.loads(walked.stdout)
        assert [step["status"] for step in report["steps"]] == ["resolved"], report
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    # the page was asked for twice (discovery, then the test), both times by the server's
    # Chromium: no local browser was launched for either
    asked = [
        json.loads(line) for line in (project.path / "requests.log").read_text().split("\n") if line
    ]
    assert [path for path, _agent in asked] == ["/profil", "/profil"], asked
    assert all(agent == "PactsRemoteChromium/1" for _path, agent in asked), asked
