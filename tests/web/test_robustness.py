"""The server stays answerable: health does not wait behind another writer of the store,
and no id a client can type is a 500 (docs/observer.md, "Threat model")."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from urllib.parse import quote

import httpx
import pytest
from starlette.routing import Route

from .conftest import Server

# Holds the SQLite write lock (BEGIN IMMEDIATE) until killed, as a pytest run recording a
# step, or `pacts heals accept` in another terminal, does for a moment.
WRITER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(120)
"""


@pytest.fixture
def writer(sqlite_server: Server) -> Iterator[subprocess.Popen[str]]:
    db = sqlite_server.built.observer.projection.location.removeprefix("sqlite:///")
    process = subprocess.Popen(
        [sys.executable, "-c", WRITER, db], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "locked"
        yield process
    finally:
        process.kill()
        process.wait(timeout=10)


def test_health_answers_while_another_process_holds_the_write_lock(
    sqlite_server: Server, writer: subprocess.Popen[str]
) -> None:
    """Observed before: 30 s (the store's busy timeout), because the health check read
    the schema version inside a write transaction. A timeout of 5 s bounds the wait here;
    the health check's own bound is 1 s."""
    with httpx.Client(base_url=sqlite_server.url, timeout=5) as client:
        answer = client.get("/api/health")
        assert answer.status_code == 200, answer.text
        assert answer.json()["status"] == "healthy"
        # and the pages read without the write lock too
        for path in ("/api/runs", "/", "/proposals", "/trends"):
            assert client.get(path).status_code == 200, path


def test_health_says_busy_while_the_servers_own_connection_waits_for_a_writer(
    sqlite_server: Server, writer: subprocess.Popen[str]
) -> None:
    """A review decision waits (up to the busy timeout) for the other writer, holding the
    server's connection: health says "busy" instead of queueing behind it."""
    server = sqlite_server
    pending = server.client.get("/api/proposals").json()["proposals"][0]["id"]
    lock = server.built.observer.projection._store.backend._lock  # type: ignore[attr-defined]
    decided: list[int] = []

    def reject() -> None:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            answer = client.post(f"/api/proposals/{pending}/reject", headers=server.auth)
            decided.append(answer.status_code)

    thread = threading.Thread(target=reject)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while lock.acquire(blocking=False):  # until the decision holds the connection
            lock.release()
            assert time.monotonic() < deadline, "the decision never took the connection"
            time.sleep(0.02)
        with httpx.Client(base_url=server.url, timeout=5) as client:
            answer = client.get("/api/health")
        assert answer.status_code == 503, answer.text
        assert answer.json()["status"] == "busy"
        assert answer.json()["services"]["store"].startswith("busy: ")
    finally:
        writer.kill()
        thread.join(timeout=60)
    assert decided == [200]  # once the other writer is gone, the decision goes through


BAD_IDS = [
    "99999999999999999999",  # 20 digits: past SQLite's and PostgreSQL's 64-bit integers
    "9223372036854775808",  # 2**63
    "18446744073709551616",  # 2**64
    "0",
    "-1",
    "abc",
    "1.5",
    "1e3",
    "0x10",
    "%C2%B9",  # superscript one
    "%D9%A1%D9%A2",  # Arabic-Indic digits
    "%EF%BC%91",  # a fullwidth 1
    "%00",
    "%20",
]


def test_no_id_is_a_server_error(sqlite_server: Server) -> None:
    """Every route that takes an id (enumerated from the app, so a new one is included),
    with ids that overflow, are negative, not numbers or not ASCII: 404 (or 401/405 for
    a write without the token), never 500."""
    server = sqlite_server
    routes = [
        r
        for r in server.built.app.routes
        if isinstance(r, Route) and r.param_convertors and r.methods
    ]
    assert len(routes) >= 10
    seen = 0
    for route in routes:
        for bad in BAD_IDS:
            path = route.path
            for name in route.param_convertors:
                for suffix in ("", ":int", ":path"):
                    path = path.replace(f"{{{name}{suffix}}}", bad)
            for method in sorted(route.methods or ()):
                if method == "HEAD":
                    continue
                answer = server.client.request(method, path, headers=server.auth)
                seen += 1
                assert answer.status_code == 404, (method, path, answer.status_code, answer.text)
    assert seen > 100
    for query in ("offset", "limit"):
        for value in ("99999999999999999999", "-99999999999999999999", "x"):
            answer = server.client.get(f"/api/runs?{query}={quote(value)}")
            assert answer.status_code == 422, (query, value, answer.text)
            page = server.client.get(f"/?{query}={quote(value)}")
            assert page.status_code in (200, 422), (query, value, page.text[:300])
    for value in ("99999999999999999999", "-5", "x"):
        assert server.client.get(f"/api/trends?days={value}").status_code == 422
        assert server.client.get(f"/trends?days={value}").status_code == 422
    assert server.client.get("/api/health").status_code == 200
