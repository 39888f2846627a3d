"""A tiny loopback HTTP server for the bundled demo app.

It serves ``static/<release>/`` at the site root and ``static/assets/`` (shared CSS, JS and
images) at ``/assets/``, plus a few fault endpoints under ``/__faults/`` that the engine's
tests use to provoke HTTP errors, slow responses and pages that never settle. Standard library
only, so the sample conftest, the benchmarks and the tests can start it anywhere.

The shop's pages need a signed-in session, as a real shop's do: the login form posts to
``/api/login``, which checks the user and password and sets an HttpOnly session cookie; a
shop page asked for without a live session is a redirect to the login page. A session
expires ``session_ttl`` seconds after the login (``None``: never), and every successful login
is counted (:attr:`DemoServer.logins`), so tests can tell how often a suite logged in.
"""

from __future__ import annotations

import contextlib
import html
import ipaddress
import json
import mimetypes
import secrets
import socket
import sys
import threading
import time
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

STATIC_ROOT = Path(__file__).resolve().parent / "static"
RELEASES: tuple[str, ...] = ("v1", "v2")
SLOW_CAP_MS = 10_000
MAX_ORDER_BODY = 64 * 1024  # bytes a POST /api/order may send

# The accounts of the shop (docs: demo_app/README.md "Users"); one password for all.
USERS: tuple[str, ...] = (
    "standard_user",
    "locked_out_user",
    "problem_user",
    "performance_glitch_user",
)
PASSWORD = "secret_sauce"
SESSION_COOKIE = "pacts_demo_sid"
# The pages of the shop that need a session (the login page and the widgets do not).
PROTECTED_PAGES = frozenset(
    {
        "/inventory.html",
        "/cart.html",
        "/checkout-step-one.html",
        "/checkout-step-two.html",
        "/checkout-complete.html",
    }
)
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


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _message_page(title: str, body: str) -> bytes:
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>"
        '<link rel="stylesheet" href="/assets/app.css"></head>'
        f'<body class="message-page"><main class="message-box"><h1>{html.escape(title)}</h1>'
        f"<p>{html.escape(body)}</p>"
        '<p><a href="/">Back to the login page</a></p></main></body></html>\n'
    ).encode()


class _Orders:
    """The orders placed on one server: ``POST /api/order`` makes one, ``GET`` reads one.

    Ids count up from ``ORD-100001`` per server; each order carries a receipt token (a
    secret-looking field, so a requirement can show that captured bodies are never kept whole).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next = 100_001
        self._by_id: dict[str, dict[str, object]] = {}

    def place(self, items: list[str], total: str) -> dict[str, object]:
        with self._lock:
            order_id = f"ORD-{self._next}"
            self._next += 1
            order: dict[str, object] = {
                "id": order_id,
                "status": "confirmed",
                "items": len(items),
                "total": total,
                "receipt_token": "rcpt_" + secrets.token_hex(12),
            }
            self._by_id[order_id] = order
            return order

    def get(self, order_id: str) -> dict[str, object] | None:
        with self._lock:
            return self._by_id.get(order_id)


@dataclass
class _Session:
    user: str
    started: float  # time.monotonic() at the login


class _Sessions:
    """The server's signed-in sessions: id -> user, with their age and a login count."""

    def __init__(self, ttl: float | None = None, single_session: bool = False) -> None:
        self.ttl = ttl
        self.single_session = single_session  # a new login of a user ends its older session
        self._by_id: dict[str, _Session] = {}
        self._lock = threading.Lock()
        self.logins: list[str] = []

    def start(self, user: str) -> str:
        sid = secrets.token_urlsafe(24)
        with self._lock:
            if self.single_session:
                for old in [k for k, v in self._by_id.items() if v.user == user]:
                    del self._by_id[old]
            self._by_id[sid] = _Session(user, time.monotonic())
            self.logins.append(user)
        return sid

    def user(self, sid: str | None) -> tuple[str | None, bool]:
        """The user of a live session, and whether ``sid`` named one that has expired."""
        if not sid:
            return None, False
        with self._lock:
            found = self._by_id.get(sid)
            if found is None:
                return None, False
            if self.ttl is not None and time.monotonic() - found.started > self.ttl:
                del self._by_id[sid]
                return None, True
            return found.user, False

    def end(self, sid: str | None) -> None:
        with self._lock:
            self._by_id.pop(sid or "", None)

    def end_all(self) -> None:
        with self._lock:
            self._by_id.clear()


def check_login(user: str, password: str) -> str:
    """The login form's error message for these credentials, or "" when they sign in."""
    if not user:
        return "Epic sadface: Username is required"
    if not password:
        return "Epic sadface: Password is required"
    if user not in USERS or password != PASSWORD:
        return "Epic sadface: Username and password do not match any user in this service"
    if user == "locked_out_user":
        return "Epic sadface: Sorry, this user has been locked out."
    return ""


class _DemoHTTPServer(ThreadingHTTPServer):
    """The HTTP server with what its handlers need: the roots and a stop signal."""

    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        release_root: Path,
        sessions: _Sessions | None = None,
    ) -> None:
        self.release_root = release_root
        self.assets_root = STATIC_ROOT / "assets"
        self.sessions = sessions or _Sessions()
        self.stopping = threading.Event()
        self.orders = _Orders()
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()
        super().__init__(address, _DemoHandler)

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


class _DemoHandler(BaseHTTPRequestHandler):
    server_version = "PactsDemo/1"
    # Keep-alive (every response has a Content-Length) saves a connection per asset; an idle
    # connection gives its thread back after `timeout` seconds.
    protocol_version = "HTTP/1.1"
    timeout = 30

    @property
    def demo(self) -> _DemoHTTPServer:
        assert isinstance(self.server, _DemoHTTPServer)
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


class DemoServer:
    """Serve one release of the demo app on loopback in a daemon thread.

    ``with DemoServer("v2") as app: page.goto(app.url + "/")``. ``port=0``
    picks a free port; ``url`` has no trailing slash. ``session_ttl``: seconds a login's
    session lives (``None``: until logout or :meth:`end_sessions`); ``single_session``: a
    new login of a user ends that user's older session (apps that forbid two at once).
    """

    def __init__(
        self,
        release: str = "v1",
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        session_ttl: float | None = None,
        single_session: bool = False,
    ) -> None:
        if release not in RELEASES:
            raise ValueError(
                f"Unknown demo app release {release!r}; choose one of {', '.join(RELEASES)}."
            )
        if not _is_loopback(host):
            raise ValueError(
                f"The demo app binds to loopback only; {host!r} is not a loopback address. "
                "Use 127.0.0.1, ::1 or localhost."
            )
        self.release = release
        self.host = host
        self._port = port
        self._sessions = _Sessions(session_ttl, single_session)
        self._server: _DemoHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The bound port (the requested one until started)."""
        if self._server is None:
            return self._port
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        """Base URL, e.g. ``http://127.0.0.1:54321``; only valid once started."""
        if self._server is None:
            raise RuntimeError("The demo server is not running; call start() or use `with`.")
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def start(self) -> DemoServer:
        """Bind and serve in a daemon thread; returns self. Starting twice is an error."""
        if self._server is not None:
            raise RuntimeError("The demo server is already running.")
        server_class = _DemoHTTPServer
        if ":" in self.host:

            class _V6Server(_DemoHTTPServer):
                address_family = socket.AF_INET6

            server_class = _V6Server
        self._server = server_class(
            (self.host, self._port), STATIC_ROOT / self.release, self._sessions
        )
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.1},
            name=f"pacts-demo-{self.release}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port; safe to call twice."""
        server, thread = self._server, self._thread
        if server is None:
            return
        server.stopping.set()
        server.shutdown()
        server.server_close()
        server.close_connections()
        if thread is not None:
            thread.join(timeout=5)
        self._server, self._thread = None, None

    @property
    def logins(self) -> list[str]:
        """The user of every successful login so far, in order."""
        return list(self._sessions.logins)

    def end_sessions(self) -> None:
        """End every signed-in session (an administrator signing everyone out): the next
        shop page of each is a redirect to the login page."""
        self._sessions.end_all()

    def __enter__(self) -> DemoServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = self.url if self._server is not None else "stopped"
        return f"DemoServer(release={self.release!r}, {state})"
