"""The Starlette application: API routes, dashboard pages, static files, error answers."""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pytest_pacts.web import api, pages
from pytest_pacts.web.context import Observer, error_response, may_read
from pytest_pacts.web.errors import TooLarge, Unauthorized, WebError
from pytest_pacts.web.security import host_ok

STATIC = Path(__file__).parent / "static"

# No inline script or style anywhere: a strict policy closes the door an injected string
# would need.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


async def _web_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, WebError)
    if _is_api(request):
        return error_response(exc)
    return pages.render(request, "error.html.j2", status_code=exc.status, error=exc)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(exc.status_code, "HTTP_ERROR")
    error = WebError(
        f"{request.method} {request.url.path}: {exc.detail}"
        + (" (GET /api/openapi.json lists the API)" if exc.status_code == 404 else ""),
        code=code,
    )
    error.status = exc.status_code
    if _is_api(request):
        return error_response(error)
    return pages.render(request, "error.html.j2", status_code=exc.status_code, error=error)


def create_app(state: Observer) -> Starlette:
    """The observer app over ``state``; the caller owns the store and the launcher."""
    app = Starlette(
        routes=[*api.ROUTES, *pages.ROUTES, Mount("/static", StaticFiles(directory=STATIC))],
        exception_handlers={WebError: _web_error, HTTPException: _http_error},
    )
    app.state.observer = state
    # the last added runs first: the Host is checked before anything else is looked at
    app.add_middleware(ReadGuard)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HostCheck, allowed=state.allowed_hosts)
    return app


async def _send_error(scope: Scope, receive: Receive, send: Send, error: WebError) -> None:
    response = error_response(error)
    response.headers.update(SECURITY_HEADERS)
    await response(scope, receive, send)


class HostCheck:
    """Refuses (421) a request whose ``Host`` does not name this server (``security.host_ok``):
    a page of another site whose name was re-pointed at this address (DNS rebinding)
    reaches the socket but not the app."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host")
        server = scope.get("server")
        local = (str(server[0]), int(server[1])) if server and server[1] is not None else None
        if host_ok(host, local, self.allowed):
            await self.app(scope, receive, send)
            return
        error = WebError(
            f"this server does not answer to the host {host!r}: open it by the address it "
            "listens on (or localhost), or start it with --allowed-host NAME for a name "
            "that points at it (a proxy's name)",
            code="WRONG_HOST",
        )
        error.status = 421 if host else 400
        await _send_error(scope, receive, send, error)


# The largest request body read: the sign-in form holds one token; API bodies are small JSON.
MAX_LOGIN_BYTES = 4 * 1024
MAX_BODY_BYTES = 64 * 1024


def body_limit(path: str) -> int:
    return MAX_LOGIN_BYTES if path == "/login" else MAX_BODY_BYTES


def _too_large(limit: int) -> TooLarge:
    return TooLarge(
        f"the request body is larger than {limit} bytes, the most this server reads "
        "(docs/observer.md)"
    )


class BodyLimit:
    """Bounds every request body before it is read: a declared ``Content-Length`` over the
    limit is answered 413 at once (the body is never read), and a streamed (chunked) body
    is counted as it arrives and cut off with 413 at the limit."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = body_limit(scope["path"])
        declared = Headers(scope=scope).get("content-length")
        if declared is not None:
            digits = declared.strip()
            error: WebError | None = None
            if not digits.isascii() or not digits.isdigit():
                error = WebError(f"Content-Length {declared!r} is not a number", code="BAD_LENGTH")
            elif len(digits) > 18 or int(digits) > limit:
                error = _too_large(limit)
            if error is not None:
                await _send_error(scope, receive, send, error)
                return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _too_large(limit)  # answered by the app's WebError handler
            return message

        await self.app(scope, bounded, send)


# Reachable without the token even when reads need it: signing in, and what the sign-in
# page and a monitor need.
OPEN_PATHS = ("/login", "/logout", "/api/health")


class ReadGuard:
    """When reads need the token (bound beyond loopback), a read without the token or the
    session cookie is 401 (API) or sent to ``/login`` (pages). Writes are held by
    :func:`~pytest_pacts.web.context.require_writer` either way."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        request = Request(scope)
        if path in OPEN_PATHS or path.startswith("/static/") or may_read(request):
            await self.app(scope, receive, send)
            return
        if path.startswith("/api/"):
            await _send_error(
                scope,
                receive,
                send,
                Unauthorized(
                    "this server listens beyond loopback, so reading needs the token too: "
                    "send 'Authorization: Bearer <token>' (the token `pacts serve` printed "
                    "at start, or $PACTS_SERVE_TOKEN)",
                    code="TOKEN_REQUIRED",
                ),
            )
            return
        await RedirectResponse("/login", status_code=303)(scope, receive, send)


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response (a plain ASGI middleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, sending)
