"""What every route needs: the projection, the launcher, the write guard, and the helpers
that turn a DTO or a :class:`~pytest_pacts.web.errors.WebError` into a response."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ParamSpec, TypeVar

from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from pytest_pacts.web import dto
from pytest_pacts.web.errors import Forbidden, Unauthorized, WebError
from pytest_pacts.web.launcher import Launcher
from pytest_pacts.web.projection import Projection
from pytest_pacts.web.security import COOKIE, CSRF_HEADER, Guard, same_origin

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class Observer:
    """The server's state, one per app (``app.state.observer``).

    ``allowed_hosts`` are the ``Host`` names served besides the address the connection
    reached (``--allowed-host``); ``reads_need_token`` is true when bound beyond loopback
    (unless ``--open-reads``): then reading needs the token too (``docs/observer.md``)."""

    projection: Projection
    launcher: Launcher
    guard: Guard
    root: Path
    allowed_hosts: tuple[str, ...] = ()
    reads_need_token: bool = False


def observer(request: Request) -> Observer:
    found = request.app.state.observer
    assert isinstance(found, Observer)
    return found


async def read(request: Request, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Call a projection method off the event loop, store failures translated."""
    projection = observer(request).projection

    def call() -> R:
        with projection.translated():
            return fn(*args, **kwargs)

    return await run_in_threadpool(call)


def json_response(model: BaseModel, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


def error_response(exc: WebError) -> Response:
    body = dto.ApiError(error=exc.code, message=exc.message, details=exc.details)
    return json_response(body, exc.status)


def signed_in(request: Request) -> bool:
    return observer(request).guard.cookie_ok(request.cookies.get(COOKIE))


def may_read(request: Request) -> bool:
    """Reading is open, or the request carries the token (bearer) or the session cookie."""
    state = observer(request)
    return (
        not state.reads_need_token
        or state.guard.bearer_ok(request.headers.get("authorization"))
        or state.guard.cookie_ok(request.cookies.get(COOKIE))
    )


def require_writer(request: Request) -> str:
    """Who is writing ("api" or "dashboard"), or raise 401/403 (see ``security``)."""
    guard = observer(request).guard
    if not same_origin(
        request.headers.get("origin"), request.headers.get("host"), request.url.scheme
    ):
        raise Forbidden(
            "this request comes from another site; write from the dashboard itself or with "
            "an API token",
            code="CROSS_ORIGIN",
        )
    if guard.bearer_ok(request.headers.get("authorization")):
        return "api"
    if guard.cookie_ok(request.cookies.get(COOKIE)):
        if guard.csrf_ok(request.headers.get(CSRF_HEADER)):
            return "dashboard"
        raise Forbidden(
            "the CSRF token is missing or wrong: reload the page and try again",
            code="CSRF",
        )
    raise Unauthorized(
        "writing needs the token `pacts serve` printed at start (or $PACTS_SERVE_TOKEN): "
        "send 'Authorization: Bearer <token>', or sign in on /login",
        code="TOKEN_REQUIRED",
    )
