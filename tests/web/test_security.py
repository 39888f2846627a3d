"""Write token, CSRF-safe browser sessions, confined artifact paths, validated bodies and
no secret in any answer (docs/observer.md, "Security")."""

from __future__ import annotations

import http.client
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from pytest_pacts.store import open_store
from pytest_pacts.web.security import is_loopback

from .conftest import TOKEN, Filled, Server, make_project, serving

WRITES = (
    "/api/run",
    "/api/proposals/1/accept",
    "/api/proposals/1/reject",
)


def _raw_get(server: Server, path: str) -> tuple[int, bytes]:
    """GET ``path`` byte for byte (httpx would normalise ``..`` away before sending)."""
    parts = urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def _sign_in(server: Server) -> str:
    """Sign in through the form; returns the page's CSRF token."""
    response = server.client.post("/login", data={"token": TOKEN})
    assert response.status_code == 303
    page = server.client.get("/").text
    found = re.search(r'<meta name="pacts-csrf" content="([0-9a-f]+)">', page)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("path", WRITES)
def test_writes_without_a_token_are_refused(sqlite_server: Server, path: str) -> None:
    client = sqlite_server.client
    missing = client.post(path, json={"paths": ["web.req.yaml"]})
    assert missing.status_code == 401 and missing.json()["error"] == "TOKEN_REQUIRED"
    wrong = client.post(path, headers={"Authorization": "Bearer not-the-token"}, json={})
    assert wrong.status_code == 401
    assert (
        client.get("/api/proposals", params={"status": "pending"}).json()["counts"]["accepted"] == 0
    )


def test_browser_session_needs_the_csrf_header_and_the_same_origin(sqlite_server: Server) -> None:
    client = sqlite_server.client
    assert 'content=""' in client.get("/").text  # no CSRF token before signing in
    wrong = client.post("/login", data={"token": "guess-guess-guess-guess"})
    assert wrong.status_code == 401 and "not the token" in wrong.text
    csrf = _sign_in(sqlite_server)
    cookie = next(c for c in client.cookies.jar if c.name == "pacts_session")
    assert cookie.value is not None and TOKEN not in cookie.value
    assert cookie.has_nonstandard_attr("HttpOnly")
    assert (cookie.get_nonstandard_attr("SameSite") or "").lower() == "strict"

    no_header = client.post("/api/proposals/1/reject", json={})
    assert no_header.status_code == 403 and no_header.json()["error"] == "CSRF"
    bad_header = client.post("/api/proposals/1/reject", headers={"X-Pacts-CSRF": "0" * 64})
    assert bad_header.status_code == 403
    other_site = client.post(
        "/api/proposals/1/reject",
        headers={"X-Pacts-CSRF": csrf, "Origin": "http://evil.example"},
        json={},
    )
    assert other_site.status_code == 403 and other_site.json()["error"] == "CROSS_ORIGIN"
    # even the token does not make a cross-site request acceptable
    with_token = client.post(
        "/api/proposals/1/reject",
        headers={"Authorization": f"Bearer {TOKEN}", "Origin": "http://evil.example"},
    )
    assert with_token.status_code == 403
    ok = client.post(
        "/api/proposals/1/reject",
        headers={"X-Pacts-CSRF": csrf, "Origin": sqlite_server.url},
        json={"reason": "from the dashboard"},
    )
    assert ok.status_code == 200, ok.text
    assert "by dashboard" in ok.json()["message"]


@pytest.mark.parametrize(
    "name",
    [
        "../../../../../../etc/passwd",
        "%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "%2E%2E%2F%2E%2E%2F%2E%2E%2F%2E%2E%2Fpacts.db",
        "..%2f..%2f..%2fpacts.db",
        "/etc/passwd",
        "%2Fetc%2Fpasswd",
        "..%5c..%5cpacts.db",
        "escape.png",
    ],
)
def test_artifact_paths_cannot_leave_the_run_folder(
    sqlite_server: Server, filled: Filled, name: str
) -> None:
    run_id = sqlite_server.client.get("/api/runs").json()["runs"][0]["id"]
    listing = sqlite_server.client.get(f"/api/artifacts/{run_id}").json()
    for position, shown in enumerate(listing["folders"]):
        link = filled.project / shown / "escape.png"
        if not link.exists():
            link.symlink_to(filled.db)  # a symlink inside the folder pointing out of it
        status, body = _raw_get(sqlite_server, f"/api/artifacts/{run_id}/{position}/{name}")
        assert status in (404, 400), (status, body[:200])
        assert b"root:" not in body and b"SQLite format" not in body
    for path in (f"/api/artifacts/{run_id}/99/{name}", f"/api/artifacts/{run_id}/{name}"):
        status, body = _raw_get(sqlite_server, path)
        assert status == 404 and b"SQLite format" not in body


def test_only_files_inside_the_projects_report_folder_are_served(
    filled: Filled, tmp_path: Path
) -> None:
    """The store (or a report index) may name any path; the folder served from is never
    taken from it: a file is served only when, with every symlink followed, it lies in
    the report folder of the server's own project. Observed before: a store row naming
    /etc/hostname made /etc/passwd and /etc/shadow answer 200."""
    project = make_project(tmp_path / "project")
    reports = project / ".pacts" / "reports"
    shots = reports / "20260101T000000Z-aaaaaa" / "screenshots"
    shots.mkdir(parents=True)
    own = shots / "own.png"
    own.write_bytes(b"\x89PNG\r\n\x1a\n own")
    (shots / "out.png").symlink_to("/etc/passwd")  # a file of a run folder, linked out
    (reports / "swapped").symlink_to("/etc", target_is_directory=True)  # a run folder, swapped
    db = project / ".pacts" / "pacts.db"
    db.write_bytes(filled.db.read_bytes())
    outside = {
        "stored": "/etc/hostname",
        "swapped": str(reports / "swapped" / "hostname"),
        "linked": str(shots / "out.png"),
        "relative": "../../../../../../../../etc/hostname",
    }
    with open_store(db) as store:
        run = store.runs.begin("s", "REQ-FILES-001")
        store.runs.add_artifact(run.id, "screenshot_own", str(own))
        for kind, path in outside.items():
            store.runs.add_artifact(run.id, kind, path)
        store.runs.finish(run.id, verdict="fail", rca_class="data_issue")
    with serving(str(db), project) as server:
        listing = server.client.get(f"/api/artifacts/{run.id}").json()
        by_kind = {a["kind_label"]: a for a in listing["artifacts"]}
        mine = by_kind["Own (screenshot)"]
        assert server.client.get(mine["url"]).content == own.read_bytes()
        for kind in outside:
            shown = by_kind[kind.capitalize()]
            assert shown["url"] is None and shown["size_bytes"] is None, shown
            assert shown["sha256"] is None and "not served" in shown["note"], shown
        assert "not served" in server.client.get(f"/runs/{run.id}").text
        names = ["hostname", "passwd", "shadow", "out.png", "../passwd", "%2e%2e/passwd"]
        names += ["%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/etc/passwd", "%2Fetc%2Fpasswd"]
        for position in range(len(listing["folders"]) + 1):
            for name in names:
                status, body = _raw_get(server, f"/api/artifacts/{run.id}/{position}/{name}")
                assert status in (400, 404), (position, name, status, body[:100])
                assert b"root:" not in body, (position, name)


def test_the_report_folder_can_be_named(filled: Filled, tmp_path: Path) -> None:
    """A project whose ``pacts_report_dir`` is not the default: ``--report-dir`` names it,
    and then only it is served."""
    project = make_project(tmp_path / "project")
    named = project / "out" / "reports" / "run-1"
    default = project / ".pacts" / "reports" / "run-1"
    for folder in (named, default):
        folder.mkdir(parents=True)
        (folder / "shot.png").write_bytes(b"\x89PNG\r\n\x1a\n " + folder.parts[-3].encode())
    db = project / ".pacts" / "pacts.db"
    db.write_bytes(filled.db.read_bytes())
    with open_store(db) as store:
        run = store.runs.begin("s", "REQ-FILES-002")
        store.runs.add_artifact(run.id, "screenshot_named", str(named / "shot.png"))
        store.runs.add_artifact(run.id, "screenshot_default", str(default / "shot.png"))
        store.runs.finish(run.id, verdict="pass", rca_class="success")
    with serving(str(db), project, report_dir="out/reports") as server:
        listing = server.client.get(f"/api/artifacts/{run.id}").json()["artifacts"]
        urls = {a["kind_label"]: a["url"] for a in listing}
        assert urls["Default (screenshot)"] is None
        assert server.client.get(urls["Named (screenshot)"]).content.endswith(b"out")


def test_bodies_are_validated_with_clear_errors(sqlite_server: Server) -> None:
    client, auth = sqlite_server.client, sqlite_server.auth
    cases: list[tuple[dict[str, Any], str]] = [
        (
            {"content": b"{not json", "headers": {"Content-Type": "application/json"}},
            "not valid JSON",
        ),
        (
            {"content": b"paths=a", "headers": {"Content-Type": "text/plain"}},
            "Content-Type: application/json",
        ),
        ({"json": {"paths": []}}, "paths: List should have at least 1 item"),
        (
            {"json": {"paths": ["web.req.yaml"], "shell": "rm -rf /"}},
            "shell: Extra inputs are not permitted",
        ),
        ({"json": {"paths": ["../outside.yaml"]}}, "must be relative to the project folder"),
        ({"json": {"paths": ["/etc/passwd"]}}, "must be relative to the project folder"),
        ({"json": {"paths": ["missing.req.yaml"]}}, "does not exist"),
        (
            {"json": {"paths": ["web.req.yaml"], "base_url": "ftp://x"}},
            "must be an http:// or https:// URL",
        ),
        ({"json": {"paths": ["web.req.yaml"], "session": "a b"}}, "session: 'a b' must be"),
    ]
    for kwargs, words in cases:
        headers = {**auth, **kwargs.pop("headers", {})}
        response = client.post("/api/run", headers=headers, **kwargs)
        assert response.status_code == 422, (words, response.text)
        body = response.json()
        assert words in body["message"] + " ".join(body["details"]), (words, body)


def test_no_secret_value_in_any_answer(
    filled: Filled, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "hunter2-correct-horse"
    monkeypatch.setenv("SHOP_ADMIN_PASSWORD", secret)
    db = tmp_path / "pacts.db"
    db.write_bytes(filled.db.read_bytes())
    with open_store(db) as store:  # a run whose record leaked the value by accident
        run = store.runs.begin("s", "REQ-LEAK-001")
        store.runs.add_step(
            run.id,
            step_index=0,
            action="fill",
            status="failed",
            element_key=f"Password {secret}",
            locator={"strategy": "css", "css": f"input[value='{secret}']"},
        )
        store.runs.finish(run.id, verdict="fail", rca_class="data_issue")
    with serving(str(db), filled.project) as running:
        client = running.client
        _sign_in(running)
        answers = [
            client.get(f"/api/runs/{run.id}"),
            client.get(f"/api/runs/{run.id}/steps"),
            client.get("/api/runs"),
            client.get(f"/runs/{run.id}"),
            client.get("/"),
            client.get("/proposals"),
            client.get("/trends"),
            client.get("/api/health"),
        ]
        for answer in answers:
            assert answer.status_code == 200, answer.request.url
            assert secret not in answer.text, answer.request.url
            assert TOKEN not in answer.text, answer.request.url
        step = answers[1].json()["steps"][0]
        assert step["element"] == "Password ***" and "***" in step["locator"]


def _with_host(server: Server, host: str | None, path: str = "/", method: str = "GET") -> int:
    """The status of a request sent with exactly this ``Host`` header (none: ``None``)."""
    parts = urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            conn.putheader("Host", host)
        conn.putheader("Authorization", f"Bearer {TOKEN}")
        conn.putheader("Content-Length", "0")
        conn.endheaders()
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


PATHS = ("/", "/api/runs", "/api/health", "/static/pacts.css", "/login")


def test_a_host_that_does_not_name_the_server_is_refused(sqlite_server: Server) -> None:
    """DNS rebinding: a page of another site re-points its own name at 127.0.0.1 and then
    reads the server as same-origin; the browser still sends that name as ``Host``
    (RFC 9110 7.2), so only the names of this server are served."""
    port = urlsplit(sqlite_server.url).port
    for host in (
        f"127.0.0.1:{port}",
        f"localhost:{port}",
        f"LOCALHOST.:{port}",
        f"[::1]:{port}",
        f"127.0.0.2:{port}",
    ):
        for path in PATHS:
            assert _with_host(sqlite_server, host, path) == 200, (host, path)
    for host in (
        f"evil.example:{port}",
        "evil.example",
        f"localhost.evil.example:{port}",
        f"127.0.0.1.nip.io:{port}",
        "127.0.0.1:1",
        "127.0.0.1",
        f"127.0.0.1:{port}:{port}",
        f"::1:{port}",
        f"[::1:{port}",
    ):
        for path in PATHS:
            assert _with_host(sqlite_server, host, path) == 421, (host, path)
        # the token does not make another host acceptable
        assert _with_host(sqlite_server, host, "/api/proposals/1/reject", "POST") == 421
    assert _with_host(sqlite_server, None, "/") == 400
    assert _with_host(sqlite_server, "", "/") == 400


def test_allowed_hosts_add_names(filled: Filled, tmp_path: Path) -> None:
    db = tmp_path / "pacts.db"
    db.write_bytes(filled.db.read_bytes())
    allowed = ["pacts.example", "proxy.example:8443"]
    with serving(str(db), filled.project, allowed_hosts=allowed) as server:
        for host in ("pacts.example", "pacts.example:1234", "proxy.example:8443"):
            assert _with_host(server, host, "/api/runs") == 200, host
        for host in ("proxy.example", "proxy.example:80", "other.example"):
            assert _with_host(server, host, "/api/runs") == 421, host


def test_reads_need_the_token_when_bound_beyond_loopback(filled: Filled, tmp_path: Path) -> None:
    """What ``pacts serve --host <not loopback>`` serves (without ``--open-reads``)."""
    db = tmp_path / "pacts.db"
    db.write_bytes(filled.db.read_bytes())
    with serving(str(db), filled.project, reads_need_token=True) as server:
        client = server.client
        run_id = client.get("/api/runs", headers=server.auth).json()["runs"][0]["id"]
        for path in ("/api/runs", f"/api/runs/{run_id}", "/api/proposals", "/api/trends"):
            refused = client.get(path)
            assert refused.status_code == 401, path
            assert refused.json()["error"] == "TOKEN_REQUIRED"
            assert client.get(path, headers=server.auth).status_code == 200, path
        for path in ("/", f"/runs/{run_id}", "/proposals", "/trends", "/live"):
            sent = client.get(path)
            assert sent.status_code == 303 and sent.headers["location"] == "/login", path
        assert client.get(f"/api/artifacts/{run_id}").status_code == 401
        for path in ("/api/health", "/static/pacts.css", "/login"):
            assert client.get(path).status_code == 200, path
        assert "reading needs it too" in client.get("/login").text
        _sign_in(server)
        for path in ("/", f"/runs/{run_id}", "/api/runs"):
            assert client.get(path).status_code == 200, path


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.1", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.20", False),
        ("dashboard.internal", False),
    ],
)
def test_which_addresses_are_loopback(host: str, loopback: bool) -> None:
    """Bound to anything but these, reading needs the token (``pacts serve`` decides)."""
    assert is_loopback(host) is loopback
