"""The demo server's HTTP side: the static pages of a release, the shop's API (login,
logout, orders) and the fault endpoints under ``/__faults/`` the engine's tests use.
"""

from __future__ import annotations

import contextlib
import html
import json
import mimetypes
import socket
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from pytest_pacts.demo_app.shop import (
    PROTECTED_PAGES,
    SESSION_COOKIE,
    Orders,
    Sessions,
    check_login,
)

STATIC_ROOT = Path(__file__).resolve().parent / "static"
SLOW_CAP_MS = 10_000
MAX_ORDER_BODY = 64 * 1024  # bytes a POST /api/order may send
MAX_LOGIN_BODY = 4096

# mimetypes depends on the host's tables (Windows registry, /etc/mime.types); the browser
# refuses module scripts and stylesheets served with the wrong type, so pin the ones we ship.
_CONTENT_TYPES: dict[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".csv": "text/csv; charset=utf-8",
}

_NEVER_SETTLES_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Never settles</title></head>
<body>
<h1>Never settles</h1>
<p>This page keeps changing its DOM and always has a request in flight.</p>
<p id="ticker" aria-live="off">Tick 0</p>
<button type="button" id="click-me">Click me</button>
<p id="clicked" role="status"></p>
<script>
  let ticks = 0;
  setInterval(() => {
    ticks += 1;
    document.getElementById("ticker").textContent = "Tick " + ticks;
    const mark = document.createElement("span");
    mark.className = "tick";
    document.body.appendChild(mark);
    if (document.querySelectorAll(".tick").length > 50) {
      document.querySelector(".tick").remove();
    }
  }, 100);
  // Chain slow requests so that one is always pending (network never idles).
  function hang() {
    fetch("/__faults/slow?ms=10000", {cache: "no-store"}).then(hang, () => setTimeout(hang, 500));
  }
  hang();
  document.getElementById("click-me").addEventListener("click", () => {
    document.getElementById("clicked").textContent = "Clicked";
  });
</script>
</body></html>
"""


def _message_page(title: str, body: str) -> bytes:
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>"
        '<link rel="stylesheet" href="/assets/app.css"></head>'
        f'<body class="message-page"><main class="message-box"><h1>{html.escape(title)}</h1>'
        f"<p>{html.escape(body)}</p>"
        '<p><a href="/">Back to the login page</a></p></main></body></html>\n'
    ).encode()


class DemoHTTPServer(ThreadingHTTPServer):
    """The HTTP server with what its handlers need: the roots and a stop signal."""

    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        release_root: Path,
        sessions: Sessions | None = None,
    ) -> None:
        self.release_root = release_root
        self.assets_root = STATIC_ROOT / "assets"
        self.sessions = sessions or Sessions()
        self.stopping = threading.Event()
        self.orders = Orders()
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()
        super().__init__(address, DemoHandler)

    # Connections are tracked so that stopping the server ends them too: a browser's
    # keep-alive connection would otherwise still be answered by its handler thread, and a
    # "server stopped mid-run" would not look stopped to the page.
    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        with self._open_lock:
            open_now = list(self._open)
        for sock in open_now:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: object, client_address: object) -> None:
        # A browser closing a connection mid-response (navigation, test teardown) is normal
        # here; anything else still gets the standard traceback.
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class DemoHandler(BaseHTTPRequestHandler):
    server_version = "PactsDemo/1"
    # Keep-alive (every response has a Content-Length) saves a connection per asset; an idle
    # connection gives its thread back after `timeout` seconds.
    protocol_version = "HTTP/1.1"
    timeout = 30
    # TCP_NODELAY on each connection: the body is written after the headers, and with Nagle's
    # algorithm on it waited for the client's delayed ACK of the headers, about 40 ms on
    # every keep-alive response (socketserver's ``StreamRequestHandler`` option)
    disable_nagle_algorithm = True

    @property
    def demo(self) -> DemoHTTPServer:
        assert isinstance(self.server, DemoHTTPServer)
        return self.server

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: no request log on stderr."""

    def do_GET(self) -> None:
        self._dispatch(send_body=True)

    def do_HEAD(self) -> None:
        self._dispatch(send_body=False)

    def do_POST(self) -> None:
        parts = urlsplit(self.path)
        if parts.path in ("/api/login", "/api/logout"):
            self._session_post(parts.path)
            return
        if parts.path != "/api/order":
            self._json(HTTPStatus.NOT_FOUND, {"error": f"no such endpoint: POST {parts.path}"})
            return
        raw_length = self.headers.get("Content-Length", "0")
        length = int(raw_length) if raw_length.isdigit() else -1
        if not 0 <= length <= MAX_ORDER_BODY:
            self.close_connection = True
            self._json(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": "body too large"})
            return
        try:
            data = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            self._json(HTTPStatus.BAD_REQUEST, {"error": "the body is not JSON"})
            return
        items = data.get("items") if isinstance(data, dict) else None
        if not isinstance(items, list) or not items:
            self._json(HTTPStatus.BAD_REQUEST, {"error": "an order needs items"})
            return
        total = data.get("total")
        order = self.demo.orders.place([str(i) for i in items], str(total or ""))
        self._json(HTTPStatus.CREATED, {"order": order})

    # -- session -----------------------------------------------------------------------

    def _session_post(self, path: str) -> None:
        raw_length = self.headers.get("Content-Length", "0")
        length = int(raw_length) if raw_length.isdigit() else -1
        if not 0 <= length <= MAX_LOGIN_BODY:
            self.close_connection = True
            self._json_cookie(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": "body too large"})
            return
        raw = self.rfile.read(length) if length > 0 else b""
        if path == "/api/login":
            self._login(raw)
        else:
            self.demo.sessions.end(self._session_id())
            self._json_cookie(HTTPStatus.OK, {"ok": True}, f"{SESSION_COOKIE}=; Max-Age=0")

    def _session_id(self) -> str | None:
        for part in (self.headers.get("Cookie") or "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == SESSION_COOKIE:
                return value
        return None

    def _login(self, raw: bytes) -> None:
        try:
            data = json.loads(raw.decode("utf-8") or "{}")
        except (UnicodeDecodeError, ValueError):
            data = None
        if not isinstance(data, dict):
            self._json_cookie(HTTPStatus.BAD_REQUEST, {"error": "Expected a JSON object"})
            return
        user = str(data.get("user") or "").strip()
        error = check_login(user, str(data.get("password") or ""))
        if error:
            self._json_cookie(HTTPStatus.UNAUTHORIZED, {"error": error})
            return
        sid = self.demo.sessions.start(user)
        ttl = self.demo.sessions.ttl
        cookie = f"{SESSION_COOKIE}={sid}; HttpOnly; SameSite=Lax"
        if ttl is not None:
            cookie += f"; Max-Age={max(1, int(ttl))}"
        self._json_cookie(HTTPStatus.OK, {"user": user}, cookie)

    def _json_cookie(self, status: int, body: dict[str, object], cookie: str | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        if cookie is not None:
            self.send_header("Set-Cookie", cookie + "; Path=/")
        self.end_headers()
        self.wfile.write(data)

    def _redirect(self, location: str) -> None:
        self.send_response(HTTPStatus.FOUND)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()

    # -- routing -----------------------------------------------------------------------

    def _dispatch(self, *, send_body: bool) -> None:
        parts = urlsplit(self.path)
        path = unquote(parts.path)
        if path.startswith("/__faults/"):
            self._fault(path.removeprefix("/__faults/"), parse_qs(parts.query), send_body)
            return
        if path == "/api/order":
            order_id = parse_qs(parts.query).get("id", [""])[0]
            order = self.demo.orders.get(order_id)
            if order is None:
                self._json(HTTPStatus.NOT_FOUND, {"error": f"no order {order_id!r}"}, send_body)
            else:
                self._json(HTTPStatus.OK, {"order": order}, send_body)
            return
        if path in PROTECTED_PAGES:
            user, expired = self.demo.sessions.user(self._session_id())
            if user is None:
                where = "/index.html?from=" + quote(path, safe="")
                self._redirect(where + ("&expired=1" if expired else ""))
                return
        file = self._resolve(path)
        if file is None:
            self._send(
                HTTPStatus.NOT_FOUND,
                _message_page("404 Not Found", f"There is no page at {path}."),
                "text/html; charset=utf-8",
                send_body,
            )
            return
        content_type = _CONTENT_TYPES.get(file.suffix.lower())
        if content_type is None:
            content_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        self._send(HTTPStatus.OK, file.read_bytes(), content_type, send_body)

    def _resolve(self, path: str) -> Path | None:
        """The file for a URL path, or None; never a file outside the served roots."""
        if path in ("", "/"):
            path = "/index.html"
        if path.startswith("/assets/"):
            root, relative = self.demo.assets_root, path.removeprefix("/assets/")
        else:
            root, relative = self.demo.release_root, path.lstrip("/")
        candidate = (root / relative).resolve()
        if not candidate.is_relative_to(root.resolve()) or not candidate.is_file():
            return None
        return candidate

    def _fault(self, name: str, query: dict[str, list[str]], send_body: bool) -> None:
        html_type = "text/html; charset=utf-8"
        if name.startswith("status/"):
            raw = name.removeprefix("status/")
            code = int(raw) if raw.isdigit() else 0
            if not 200 <= code <= 599:
                body = _message_page("400 Bad Request", f"Not an HTTP status: {raw!r}.")
                self._send(HTTPStatus.BAD_REQUEST, body, html_type, send_body)
                return
            try:
                phrase = HTTPStatus(code).phrase
            except ValueError:
                phrase = "Injected status"
            title = f"{code} {phrase}"
            self._send(code, _message_page(title, "An injected fault."), html_type, send_body)
            return
        if name == "slow":
            raw = query.get("ms", ["1000"])[0]
            if not raw.isdigit():
                body = _message_page("400 Bad Request", f"ms must be a whole number: {raw!r}.")
                self._send(HTTPStatus.BAD_REQUEST, body, html_type, send_body)
                return
            waited = min(int(raw), SLOW_CAP_MS)
            # Waiting on the stop signal rather than sleeping lets stop() return at once.
            self.demo.stopping.wait(waited / 1000)
            body = _message_page("Slow response", f"This response waited {waited} ms.")
            self._send(HTTPStatus.OK, body, html_type, send_body)
            return
        if name == "never-settles":
            self._send(HTTPStatus.OK, _NEVER_SETTLES_PAGE.encode(), html_type, send_body)
            return
        body = _message_page("404 Not Found", f"No such fault: {name!r}.")
        self._send(HTTPStatus.NOT_FOUND, body, html_type, send_body)

    def _json(self, status: int, data: object, send_body: bool = True) -> None:
        body = json.dumps(data).encode()
        self._send(status, body, "application/json", send_body)

    def _send(self, status: int, body: bytes, content_type: str, send_body: bool) -> None:
        self.send_response(status)
        has_body = status >= 200 and status not in (204, 304)
        if has_body:
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if send_body and has_body:
            self.wfile.write(body)
