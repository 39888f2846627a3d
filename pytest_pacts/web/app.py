"""The Starlette application: API routes, dashboard pages, static files, error answers."""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pytest_pacts.web import api, pages
from pytest_pacts.web.context import Observer, error_response
from pytest_pacts.web.errors import WebError

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
    app.add_middleware(SecurityHeaders)
    return app


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
