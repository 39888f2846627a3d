"""The OpenAPI 3.1 document of the JSON API, built from the DTOs and request bodies.

One table lists every endpoint; ``tests/web/test_api.py`` checks it against the app's
routes, so an endpoint cannot be added without being documented here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from pytest_pacts import __version__
from pytest_pacts.web import dto
from pytest_pacts.web.bodies import AcceptBody, RejectBody, RunBody


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    summary: str
    response: type[BaseModel] | None
    query: tuple[tuple[str, str, str], ...] = ()  # name, JSON type, description
    body: type[BaseModel] | None = None
    status: int = 200


_PAGING = (
    ("limit", "integer", "Page size, 1-500 (default 50)."),
    ("offset", "integer", "How many to skip (default 0)."),
)

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "get", "/api/health", "Server, store and browser health (503 when degraded).", dto.Health
    ),
    Endpoint("get", "/api/openapi.json", "This document.", None),
    Endpoint(
        "get",
        "/api/runs",
        "Runs, latest first, filtered and paged.",
        dto.RunPage,
        (
            ("req_id", "string", "Only this requirement."),
            ("session", "string", "Only this session."),
            ("status", "string", "running, finished or abandoned."),
            ("verdict", "string", "pass, fail or partial."),
            ("since", "string", "Started at or after (ISO 8601)."),
            ("until", "string", "Started before (ISO 8601)."),
            *_PAGING,
        ),
    ),
    Endpoint(
        "get", "/api/runs/{run_id}", "One run: verdict, RCA, steps, heals, timings.", dto.RunDetail
    ),
    Endpoint("get", "/api/runs/{run_id}/steps", "A run's steps with gate points.", dto.StepList),
    Endpoint(
        "get",
        "/api/requirements/{req_id}/runs",
        "A requirement's runs, latest first.",
        dto.RequirementRuns,
        _PAGING,
    ),
    Endpoint(
        "get",
        "/api/artifacts/{run_id}",
        "The files a run recorded: path, SHA-256, size.",
        dto.ArtifactList,
    ),
    Endpoint(
        "get",
        "/api/artifacts/{run_id}/{position}/{name}",
        "One artifact file, only from inside the run's artifact folder number position.",
        None,
    ),
    Endpoint(
        "get",
        "/api/proposals",
        "Heal proposals, latest first, with the self-heal gate's track.",
        dto.ProposalList,
        (
            ("status", "string", "pending, accepted, rejected or all (default: all)."),
            ("req_id", "string", "Only this requirement."),
        ),
    ),
    Endpoint(
        "get",
        "/api/proposals/{proposal_id}",
        "One proposal: self-heal gate, patch, diff, copy text.",
        dto.ProposalDetail,
    ),
    Endpoint(
        "post",
        "/api/proposals/{proposal_id}/accept",
        "Accept (writes the next recipe version); a major one needs confirm GO. Token needed.",
        dto.Decision,
        body=AcceptBody,
    ),
    Endpoint(
        "post",
        "/api/proposals/{proposal_id}/reject",
        "Reject; the recipe is unchanged. Token needed.",
        dto.Decision,
        body=RejectBody,
    ),
    Endpoint(
        "post",
        "/api/run",
        "Start pytest on the given paths in a subprocess (409 SESSION_CONFLICT while the "
        "session's run is in flight). Token needed.",
        dto.LaunchView,
        body=RunBody,
        status=202,
    ),
    Endpoint(
        "get",
        "/api/launches/{launch_id}",
        "A run started by this server: state, output, the runs it recorded so far.",
        dto.LaunchView,
    ),
    Endpoint(
        "get",
        "/api/trends",
        "Pass/healed/failed per day, heal rate per requirement, elements healed most.",
        dto.Trends,
        (("days", "integer", "Window in days, 1-366 (default 14)."),),
    ),
)


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{model.__name__}"}


@cache
def openapi_document() -> dict[str, Any]:
    models: list[type[BaseModel]] = [dto.ApiError]
    for e in ENDPOINTS:
        models += [m for m in (e.response, e.body) if m is not None]
    _, schemas = models_json_schema(
        [(m, "serialization") for m in dict.fromkeys(models)],
        ref_template="#/components/schemas/{model}",
    )
    paths: dict[str, dict[str, Any]] = {}
    error = {"content": {"application/json": {"schema": _ref(dto.ApiError)}}}
    for e in ENDPOINTS:
        params: list[dict[str, Any]] = [
            {"name": name.strip("{}"), "in": "path", "required": True, "schema": {"type": "string"}}
            for name in e.path.split("/")
            if name.startswith("{")
        ]
        params += [
            {"name": n, "in": "query", "required": False, "schema": {"type": t}, "description": d}
            for n, t, d in e.query
        ]
        ok: dict[str, Any] = {"description": "OK"}
        if e.response is not None:
            ok["content"] = {"application/json": {"schema": _ref(e.response)}}
        operation: dict[str, Any] = {
            "summary": e.summary,
            "parameters": params,
            "responses": {str(e.status): ok, "4XX": {"description": "Error", **error}},
        }
        if e.body is not None:
            operation["requestBody"] = {
                "required": e.body is RunBody,
                "content": {"application/json": {"schema": _ref(e.body)}},
            }
            operation["security"] = [{"token": []}]
        paths.setdefault(e.path, {})[e.method] = operation
    return {
        "openapi": "3.1.0",
        "info": {"title": "pytest-pacts observer API", "version": __version__},
        "paths": paths,
        "components": {
            "schemas": schemas.get("$defs", {}),
            "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
        },
    }
