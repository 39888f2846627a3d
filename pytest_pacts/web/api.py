"""The JSON API under ``/api`` (``docs/observer.md`` lists every endpoint with examples)."""

from __future__ import annotations

import json
from typing import TypeVar

from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from pytest_pacts.web import dto
from pytest_pacts.web.bodies import AcceptBody, RejectBody, RunBody
from pytest_pacts.web.context import json_response, observer, read, require_writer
from pytest_pacts.web.errors import Invalid, NotFound, WebError
from pytest_pacts.web.launcher import Launch, validate_request
from pytest_pacts.web.openapi import openapi_document
from pytest_pacts.web.projection.base import MAX_ID
from pytest_pacts.web.security import inside

B = TypeVar("B", bound=BaseModel)


def _int(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise Invalid(f"{name} must be a whole number; got {raw!r}") from None
    if abs(value) > MAX_ID:  # past what the store's integers hold
        raise Invalid(f"{name} is out of range; got {raw!r}")
    return value


async def _body(request: Request, model: type[B], *, optional: bool = False) -> B:
    raw = await request.body()  # at most app.MAX_BODY_BYTES: BodyLimit cuts it off
    if not raw.strip() and optional:
        return model()
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Invalid(
            f"send the body as JSON with 'Content-Type: application/json' (got {kind or 'none'})",
            code="UNSUPPORTED_MEDIA_TYPE",
        )
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise Invalid(f"the body is not valid JSON: {exc}") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        details = [
            f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in exc.errors()
        ]
        raise Invalid("the request body is not valid", details=details) from None


def _id(request: Request, name: str) -> int:
    value = request.path_params[name]
    assert isinstance(value, int)
    return value


async def health(request: Request) -> Response:
    found = await read(request, observer(request).projection.health)
    return json_response(found, 200 if found.status == "healthy" else 503)


async def runs(request: Request) -> Response:
    q = request.query_params
    page = await read(
        request,
        observer(request).projection.runs,
        req_id=q.get("req_id"),
        session=q.get("session"),
        status=q.get("status"),
        verdict=q.get("verdict"),
        since=q.get("since"),
        until=q.get("until"),
        limit=_int(request, "limit", 50),
        offset=_int(request, "offset", 0),
    )
    return json_response(page)


async def run(request: Request) -> Response:
    return json_response(
        await read(request, observer(request).projection.run, _id(request, "run_id"))
    )


async def run_steps(request: Request) -> Response:
    found = await read(request, observer(request).projection.steps, _id(request, "run_id"))
    return json_response(found)


async def requirement_runs(request: Request) -> Response:
    found = await read(
        request,
        observer(request).projection.requirement_runs,
        str(request.path_params["req_id"]),
        limit=_int(request, "limit", 50),
        offset=_int(request, "offset", 0),
    )
    return json_response(found)


async def artifacts(request: Request) -> Response:
    found = await read(request, observer(request).projection.artifacts, _id(request, "run_id"))
    return json_response(found)


async def artifact_file(request: Request) -> Response:
    run_id = _id(request, "run_id")
    position = _id(request, "position")
    name = str(request.path_params["name"])
    projection = observer(request).projection
    folder = await read(request, projection.artifact_folder, run_id, position)
    path = await run_in_threadpool(inside, projection.reports_folder, folder, name)
    if path is None:
        raise NotFound(
            f"run #{run_id} has no artifact {name!r}: only files of the run inside the "
            f"project's report folder are served (GET /api/artifacts/{run_id} lists them)"
        )
    return FileResponse(path, headers={"X-Content-Type-Options": "nosniff"})


async def proposals(request: Request) -> Response:
    q = request.query_params
    found = await read(
        request, observer(request).projection.proposals, q.get("status"), q.get("req_id")
    )
    return json_response(found)


async def proposal(request: Request) -> Response:
    found = await read(request, observer(request).projection.proposal, _id(request, "proposal_id"))
    return json_response(found)


async def accept(request: Request) -> Response:
    writer = require_writer(request)
    body = await _body(request, AcceptBody, optional=True)
    go = (body.confirm or "").strip() == "GO"
    done = await read(
        request,
        observer(request).projection.accept,
        _id(request, "proposal_id"),
        by=body.by or writer,
        go=go,
    )
    return json_response(done)


async def reject(request: Request) -> Response:
    writer = require_writer(request)
    body = await _body(request, RejectBody, optional=True)
    reason = (body.reason or "").strip() or None
    done = await read(
        request,
        observer(request).projection.reject,
        _id(request, "proposal_id"),
        by=body.by or writer,
        reason=reason,
    )
    return json_response(done)


async def start_run(request: Request) -> Response:
    require_writer(request)
    body = await _body(request, RunBody)
    state = observer(request)
    launch_request = validate_request(
        state.root, body.paths, body.session, body.base_url, body.keyword
    )
    launch = await run_in_threadpool(state.launcher.start, launch_request)
    view = await launch_view(request, launch)
    return json_response(view, 202)


async def launch_view(request: Request, launch: Launch) -> dto.LaunchView:
    state = observer(request)
    output, code, finished = state.launcher.snapshot(launch)
    runs_so_far = await read(
        request, state.projection.session_runs, launch.store_session, launch.started_at
    )
    if code is None:
        badge = dto.Badge(label="Running", tone="info")
    elif code == 0:
        badge = dto.Badge(label="Passed", tone="good")
    else:
        badge = dto.Badge(label=f"Finished with exit code {code}", tone="bad")
    return dto.LaunchView(
        id=launch.id,
        session=launch.session,
        state_label=badge.label,
        badge=badge,
        running=code is None,
        exit_code=code,
        paths=list(launch.paths),
        keyword=launch.keyword,
        base_url=launch.base_url,
        started_at=launch.started_at.isoformat(timespec="seconds"),
        finished_at=finished.isoformat(timespec="seconds") if finished else None,
        output=output,
        runs=runs_so_far,
        url=f"/live/{launch.id}",
    )


async def launch(request: Request) -> Response:
    found = observer(request).launcher.get(str(request.path_params["launch_id"]))
    if found is None:
        raise NotFound(f"no run {request.path_params['launch_id']!r} was started by this server")
    return json_response(await launch_view(request, found))


async def trends(request: Request) -> Response:
    found = await read(request, observer(request).projection.trends, _int(request, "days", 14))
    return json_response(found)


async def openapi(request: Request) -> Response:
    return Response(json.dumps(openapi_document(), indent=1), media_type="application/json")


ROUTES = [
    Route("/api/health", health, methods=["GET"]),
    Route("/api/openapi.json", openapi, methods=["GET"]),
    Route("/api/runs", runs, methods=["GET"]),
    Route("/api/runs/{run_id:int}", run, methods=["GET"]),
    Route("/api/runs/{run_id:int}/steps", run_steps, methods=["GET"]),
    Route("/api/requirements/{req_id}/runs", requirement_runs, methods=["GET"]),
    Route("/api/artifacts/{run_id:int}", artifacts, methods=["GET"]),
    Route("/api/artifacts/{run_id:int}/{position:int}/{name:path}", artifact_file, methods=["GET"]),
    Route("/api/proposals", proposals, methods=["GET"]),
    Route("/api/proposals/{proposal_id:int}", proposal, methods=["GET"]),
    Route("/api/proposals/{proposal_id:int}/accept", accept, methods=["POST"]),
    Route("/api/proposals/{proposal_id:int}/reject", reject, methods=["POST"]),
    Route("/api/run", start_run, methods=["POST"]),
    Route("/api/launches/{launch_id}", launch, methods=["GET"]),
    Route("/api/trends", trends, methods=["GET"]),
]

__all__ = ["ROUTES", "WebError", "launch_view"]
