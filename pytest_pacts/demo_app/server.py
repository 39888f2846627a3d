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

import ipaddress
import socket
import threading
from types import TracebackType

from pytest_pacts.demo_app.handler import STATIC_ROOT, DemoHTTPServer
from pytest_pacts.demo_app.shop import Sessions

RELEASES: tuple[str, ...] = ("v1", "v2")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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
        self._sessions = Sessions(session_ttl, single_session)
        self._server: DemoHTTPServer | None = None
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
        server_class = DemoHTTPServer
        if ":" in self.host:

            class _V6Server(DemoHTTPServer):
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
