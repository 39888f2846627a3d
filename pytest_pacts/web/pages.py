"""The dashboard: server-rendered pages over the same projection as the API.

Pages read only DTOs; the small script (``static/pacts.js``) does the writes (accept,
reject, start a run) through the API with the page's CSRF token, and polls the live view.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode

from jinja2 import Environment, FileSystemLoader
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from pytest_pacts import __version__
from pytest_pacts.web.context import observer, read, signed_in
from pytest_pacts.web.errors import Forbidden, Invalid, NotFound
from pytest_pacts.web.projection.base import MAX_ID
from pytest_pacts.web.security import COOKIE, same_origin

# Every value is escaped whatever the template's suffix: Starlette's default environment
# escapes only *.html/*.htm/*.xml templates (jinja2.select_autoescape), and these are
# *.html.j2. No template uses |safe or Markup (tests/web/test_injection.py).
TEMPLATES = Jinja2Templates(
    env=Environment(
        loader=FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=True,
        auto_reload=False,
    )
)
PAGE_SIZE = 50


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
    state = observer(request)
    writer = signed_in(request)
    context.update(
        version=__version__,
        store=state.projection.location,
        signed_in=writer,
        reads_open=not state.reads_need_token,
        csrf=state.guard.csrf_token if writer else "",
    )
    return TEMPLATES.TemplateResponse(request, name, context, status_code=status_code)


def _int(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name, "")
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise Invalid(f"{name} must be a whole number; got {raw!r}") from None
    if abs(value) > MAX_ID:  # past what the store's integers hold
        raise Invalid(f"{name} is out of range; got {raw!r}")
    return value


async def runs_page(request: Request) -> Response:
    q = request.query_params
    filters = {k: q.get(k, "") for k in ("req_id", "verdict", "status", "session")}
    page = await read(
        request,
        observer(request).projection.runs,
        **{k: v or None for k, v in filters.items()},
        limit=PAGE_SIZE,
        offset=_int(request, "offset", 0),
    )
    following = (
        "?" + urlencode({**{k: v for k, v in filters.items() if v}, "offset": page.next_offset})
        if page.next_offset is not None
        else None
    )
    return render(
        request,
        "runs.html.j2",
        page=page,
        filters=filters,
        next_url=following,
        verdicts=observer(request).projection.verdict_options(),
    )


async def run_page(request: Request) -> Response:
    run_id = request.path_params["run_id"]
    detail = await read(request, observer(request).projection.run, run_id)
    files = await read(request, observer(request).projection.artifacts, run_id)
    return render(request, "run.html.j2", detail=detail, files=files)


async def requirement_page(request: Request) -> Response:
    req_id = str(request.path_params["req_id"])
    found = await read(request, observer(request).projection.requirement_runs, req_id)
    return render(request, "requirement.html.j2", found=found)


async def trends_page(request: Request) -> Response:
    found = await read(request, observer(request).projection.trends, _int(request, "days", 14))
    peak = max([d.passed + d.healed + d.failed for d in found.days] + [1])
    return render(request, "trends.html.j2", trends=found, peak=peak)


async def proposals_page(request: Request) -> Response:
    status = request.query_params.get("status", "pending")
    found = await read(request, observer(request).projection.proposals, status)
    return render(
        request,
        "proposals.html.j2",
        found=found,
        status=status,
        statuses=observer(request).projection.proposal_status_options(),
    )


async def proposal_page(request: Request) -> Response:
    found = await read(request, observer(request).projection.proposal, request.path_params["id"])
    return render(request, "proposal.html.j2", p=found)


async def live_start_page(request: Request) -> Response:
    return render(request, "live_start.html.j2")


async def live_page(request: Request) -> Response:
    launch_id = str(request.path_params["launch_id"])
    if observer(request).launcher.get(launch_id) is None:
        raise NotFound(f"no run {launch_id!r} was started by this server")
    return render(request, "live.html.j2", launch_id=launch_id)


async def login_page(request: Request) -> Response:
    return render(request, "login.html.j2", problem=None)


def _same_site(request: Request) -> None:
    if not same_origin(
        request.headers.get("origin"), request.headers.get("host"), request.url.scheme
    ):
        raise Forbidden("this form was sent from another site", code="CROSS_ORIGIN")


async def login(request: Request) -> Response:
    _same_site(request)
    state = observer(request)
    raw = await request.body()  # at most app.MAX_LOGIN_BYTES: BodyLimit cuts it off
    # a one-field urlencoded form; parsed here rather than adding a multipart dependency
    token = parse_qs(raw.decode("utf-8", "replace")).get("token", [""])[0]
    if not state.guard.token_ok(token.strip()):
        return render(
            request,
            "login.html.j2",
            status_code=401,
            problem="That is not the token this server printed at start; copy it again from "
            "the terminal running `pacts serve` (or $PACTS_SERVE_TOKEN).",
        )
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(
        COOKIE,
        state.guard.cookie_value,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/",
    )
    return response


async def logout(request: Request) -> Response:
    _same_site(request)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(COOKIE, path="/")
    return response


ROUTES = [
    Route("/", runs_page, methods=["GET"]),
    Route("/runs/{run_id:int}", run_page, methods=["GET"]),
    Route("/requirements/{req_id}", requirement_page, methods=["GET"]),
    Route("/trends", trends_page, methods=["GET"]),
    Route("/proposals", proposals_page, methods=["GET"]),
    Route("/proposals/{id:int}", proposal_page, methods=["GET"]),
    Route("/live", live_start_page, methods=["GET"]),
    Route("/live/{launch_id}", live_page, methods=["GET"]),
    Route("/login", login_page, methods=["GET"]),
    Route("/login", login, methods=["POST"]),
    Route("/logout", logout, methods=["POST"]),
]
