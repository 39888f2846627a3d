"""The demo server: routing, content types, loopback only, fault endpoints, the CLI."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from pytest_pacts.demo_app import DemoServer, handler


def fetch(url: str) -> tuple[int, str, str]:
    """(status, content type, body) without raising on HTTP errors."""
    try:
        with urllib.request.urlopen(url, timeout=15) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read().decode()


def raw_get(base: str, path: str) -> int:
    """GET a path byte for byte (urllib would normalise ``..`` away)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.fixture(scope="module")
def v1() -> Iterator[DemoServer]:
    with DemoServer("v1") as app:
        yield app


@pytest.mark.parametrize(
    ("path", "content_type", "needle"),
    [
        ("/", "text/html; charset=utf-8", '<h1 class="login_logo">Swag Labs</h1>'),
        ("/widgets.html", "text/html; charset=utf-8", "Newsletter"),
        ("/assets/app.css", "text/css; charset=utf-8", ":root"),
        ("/assets/app.js", "text/javascript; charset=utf-8", "PACTS_UI"),
        ("/ui.js", "text/javascript; charset=utf-8", 'release: "v1"'),
        ("/assets/img/backpack.svg", "image/svg+xml", "<svg"),
    ],
)
def test_serves_release_and_shared_files_with_their_types(
    v1: DemoServer, path: str, content_type: str, needle: str
) -> None:
    status, got_type, body = fetch(v1.url + path)
    assert (status, got_type) == (200, content_type)
    assert needle in body


def post_login(base: str, user: str, password: str) -> tuple[int, str, str | None]:
    """POST the login form's request: (status, body, the Set-Cookie header)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
    try:
        body = json.dumps({"user": user, "password": password})
        connection.request("POST", "/api/login", body, {"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, answer.read().decode(), answer.getheader("Set-Cookie")
    finally:
        connection.close()


def get_with_cookie(base: str, path: str, cookie: str | None) -> tuple[int, str | None, str]:
    """GET without following redirects: (status, Location, body)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
    try:
        connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        answer = connection.getresponse()
        return answer.status, answer.getheader("Location"), answer.read().decode()
    finally:
        connection.close()


def test_shop_pages_need_a_session_that_expires() -> None:
    """The shop is behind a server-side login: no cookie, a redirect to the login page; a
    login (counted) sets an HttpOnly cookie that opens the shop until the session's age
    passes ``session_ttl`` or the server ends every session."""
    with DemoServer("v1", session_ttl=3600) as app:
        status, where, _ = get_with_cookie(app.url, "/inventory.html", None)
        assert (status, where) == (302, "/index.html?from=%2Finventory.html")
        status, body, _ = post_login(app.url, "standard_user", "wrong")
        assert status == 401 and "do not match" in json.loads(body)["error"]
        status, body, _ = post_login(app.url, "locked_out_user", "secret_sauce")
        assert status == 401 and "locked out" in json.loads(body)["error"]
        assert app.logins == []
        status, _, set_cookie = post_login(app.url, "standard_user", "secret_sauce")
        assert status == 200 and set_cookie is not None and "HttpOnly" in set_cookie
        assert "Max-Age=3600" in set_cookie
        cookie = set_cookie.split(";")[0]
        status, _, body = get_with_cookie(app.url, "/inventory.html", cookie)
        assert status == 200 and "Sauce Labs Backpack" in body
        assert app.logins == ["standard_user"]
        app.end_sessions()
        status, where, _ = get_with_cookie(app.url, "/cart.html", cookie)
        assert (status, where) == (302, "/index.html?from=%2Fcart.html")
    with DemoServer("v1", session_ttl=0) as short:  # every session has expired at once
        cookie = (post_login(short.url, "standard_user", "secret_sauce")[2] or "").split(";")[0]
        status, where, _ = get_with_cookie(short.url, "/inventory.html", cookie)
        assert (status, where) == (302, "/index.html?from=%2Finventory.html&expired=1")


def test_releases_serve_their_own_pages() -> None:
    with DemoServer("v2") as v2:
        assert v2.release == "v2"
        assert 'id="username-input"' in fetch(v2.url + "/")[2]


def test_unknown_paths_and_escapes_are_404(v1: DemoServer) -> None:
    status, content_type, body = fetch(v1.url + "/nope.html")
    assert (status, content_type) == (404, "text/html; charset=utf-8")
    assert "404 Not Found" in body
    assert raw_get(v1.url, "/../server.py") == 404
    assert raw_get(v1.url, "/assets/../../server.py") == 404
    assert raw_get(v1.url, "/%2e%2e/server.py") == 404


@pytest.mark.parametrize("code", [401, 403, 404, 500, 503])
def test_status_fault_returns_that_status_with_an_error_page(v1: DemoServer, code: int) -> None:
    status, content_type, body = fetch(f"{v1.url}/__faults/status/{code}")
    assert (status, content_type) == (code, "text/html; charset=utf-8")
    assert f"<h1>{code} " in body


def test_status_fault_rejects_what_is_not_a_status(v1: DemoServer) -> None:
    assert fetch(v1.url + "/__faults/status/abc")[0] == 400
    assert fetch(v1.url + "/__faults/status/99")[0] == 400
    assert fetch(v1.url + "/__faults/nothing")[0] == 404


def test_slow_fault_waits_the_asked_time(v1: DemoServer) -> None:
    started = time.monotonic()
    status, _, body = fetch(v1.url + "/__faults/slow?ms=300")
    assert status == 200
    assert time.monotonic() - started >= 0.3
    assert "waited 300 ms" in body
    assert fetch(v1.url + "/__faults/slow?ms=soon")[0] == 400


def test_slow_fault_is_capped(v1: DemoServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(handler, "SLOW_CAP_MS", 100)
    started = time.monotonic()
    status, _, body = fetch(v1.url + "/__faults/slow?ms=60000")
    assert status == 200
    assert time.monotonic() - started < 5
    assert "waited 100 ms" in body


def test_never_settles_keeps_mutating_and_a_request_pending(
    demo_page: Page, v1: DemoServer
) -> None:
    with pytest.raises(PlaywrightTimeoutError):
        demo_page.goto(v1.url + "/__faults/never-settles", wait_until="networkidle", timeout=1_500)
    ticker = demo_page.locator("#ticker")
    first = ticker.inner_text()
    expect(ticker).not_to_have_text(first)
    demo_page.get_by_role("button", name="Click me").click()
    expect(demo_page.get_by_role("status")).to_have_text("Clicked")


def test_stop_releases_the_port_and_is_idempotent() -> None:
    app = DemoServer("v1").start()
    url = app.url
    assert fetch(url + "/")[0] == 200
    with pytest.raises(RuntimeError, match="already running"):
        app.start()
    app.stop()
    app.stop()
    with pytest.raises(RuntimeError, match="not running"):
        _ = app.url
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "/", timeout=2)


def test_binds_loopback_only_and_knows_its_releases() -> None:
    with pytest.raises(ValueError, match="loopback"):
        DemoServer("v1", host="0.0.0.0")
    with pytest.raises(ValueError, match="v1, v2"):
        DemoServer("v3")


def test_cli_prints_the_url_and_serves() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "pytest_pacts.demo_app", "--release", "v2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        assert 'id="username-input"' in fetch(url + "/")[2]
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert process.stderr is not None
    assert process.stderr.read() == ""  # quiet: no request log


def test_stop_also_ends_keep_alive_connections() -> None:
    # A browser keeps its connection open between requests; a stopped server must not go on
    # answering on it (the "server stopped mid-run" env fault depends on it).
    app = DemoServer("v1").start()
    host, port = app.host, int(urlsplit(app.url).port or 0)
    conn = http.client.HTTPConnection(host, port, timeout=5)
    try:
        conn.request("GET", "/")
        response = conn.getresponse()
        response.read()
        assert response.status == 200 and not response.will_close
        app.stop()
        with pytest.raises((http.client.HTTPException, OSError)):
            conn.request("GET", "/")
            conn.getresponse().read()
    finally:
        conn.close()
        app.stop()


def test_order_api_places_and_reads_orders(v1: DemoServer) -> None:
    def post(body: bytes) -> tuple[int, dict[str, object]]:
        request = urllib.request.Request(
            v1.url + "/api/order", data=body, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    status, data = post(b'{"items": ["sauce-labs-backpack"], "total": "32.39"}')
    order = data["order"]
    assert status == 201 and isinstance(order, dict)
    assert order["status"] == "confirmed" and order["items"] == 1 and order["total"] == "32.39"
    assert str(order["receipt_token"]).startswith("rcpt_")
    second = post(b'{"items": ["a", "b"]}')[1]["order"]
    assert isinstance(second, dict)
    assert int(str(second["id"])[4:]) == int(str(order["id"])[4:]) + 1
    code, kind, body = fetch(f"{v1.url}/api/order?id={order['id']}")
    assert (code, kind, json.loads(body)) == (200, "application/json", {"order": order})
    assert fetch(v1.url + "/api/order?id=ORD-1")[0] == 404
    assert post(b"not json")[0] == 400
    assert post(b'{"items": []}')[0] == 400


def test_a_connection_to_the_demo_has_nagle_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """The handler writes a response's body after its headers; with Nagle's algorithm on, the
    body waited for the client's delayed ACK of the headers (RFC 1122, 4.2.3.2): about 40 ms on
    every keep-alive response, pages and assets alike."""
    seen: list[int] = []
    setup = handler.DemoHandler.setup

    def recorded(self: handler.DemoHandler) -> None:
        setup(self)
        seen.append(self.connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    monkeypatch.setattr(handler.DemoHandler, "setup", recorded)
    server = DemoServer("v1").start()
    try:
        status, _, _ = fetch(server.url + "/")
    finally:
        server.stop()
    assert status == 200
    assert seen and seen[0] != 0, "the demo's connection keeps Nagle's algorithm on"
