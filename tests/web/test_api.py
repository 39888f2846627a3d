"""The JSON API against the real server on a real store filled by real runs, on SQLite and
PostgreSQL, through a real HTTP client."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from starlette.routing import Route

from pytest_pacts.web import api
from pytest_pacts.web.openapi import openapi_document

from .conftest import REQ, Server, serving


def test_health_reports_store_and_browser(server: Server) -> None:
    response = server.client.get("/api/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "healthy"
    assert body["services"]["store"].startswith("connected (")
    assert set(body["services"]) == {"store", "browser"}
    assert body["version"]


def test_health_is_degraded_with_503_when_the_store_breaks(tmp_path: Path) -> None:
    db = tmp_path / "broken.db"
    from pytest_pacts.store import open_store

    open_store(db).close()
    with serving(str(db), tmp_path) as running:
        assert running.client.get("/api/health").status_code == 200
        # the file under the open connection stops being a database
        db.write_bytes(b"this is not a database file" * 400)
        response = running.client.get("/api/health")
        assert response.status_code == 503
        body = response.json()
        assert body["status"] == "degraded"
        assert body["services"]["store"].startswith("unreachable: ")
        runs = running.client.get("/api/runs")
        assert runs.status_code == 503 and runs.json()["error"] == "STORE_UNAVAILABLE"


def test_health_is_degraded_when_the_postgresql_schema_goes_away(
    postgres_cluster: Any, tmp_path: Path
) -> None:
    import psycopg

    schema = f"gone_{os.getpid()}"
    with psycopg.connect(postgres_cluster.dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    dsn = postgres_cluster.dsn(schema=schema)
    with serving(dsn, tmp_path) as running:
        assert running.client.get("/api/health").json()["status"] == "healthy"
        with psycopg.connect(postgres_cluster.dsn(), autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
        response = running.client.get("/api/health")
        assert response.status_code == 503, response.text
        assert response.json()["services"]["store"].startswith("unreachable: ")
        assert running.client.get("/api/runs").json()["error"] == "STORE_UNAVAILABLE"


def test_runs_list_latest_first_with_filters_and_paging(server: Server) -> None:
    body = server.client.get("/api/runs").json()
    assert body["total"] == 2 and body["next_offset"] is None
    latest, first = body["runs"]
    assert latest["started_at"] > first["started_at"]
    assert latest["req_id"] == first["req_id"] == REQ
    # v2 drifted: the later run healed; v1 passed clean
    assert latest["healed"] and latest["heal_count"] >= 1
    assert latest["badge"] == {"label": "Pass · healed", "tone": "info"}
    assert first["badge"] == {"label": "Pass", "tone": "good"} and not first["healed"]
    assert latest["rca_label"] == "Selector drift"
    assert latest["duration_ms"] > 0 and latest["url"] == f"/runs/{latest['id']}"

    page = server.client.get("/api/runs", params={"limit": 1}).json()
    assert [r["id"] for r in page["runs"]] == [latest["id"]] and page["next_offset"] == 1
    page2 = server.client.get("/api/runs", params={"limit": 1, "offset": 1}).json()
    assert [r["id"] for r in page2["runs"]] == [first["id"]] and page2["next_offset"] is None
    assert server.client.get("/api/runs", params={"verdict": "fail"}).json()["total"] == 0
    assert server.client.get("/api/runs", params={"req_id": "REQ-NONE"}).json()["runs"] == []
    since = server.client.get("/api/runs", params={"since": latest["started_at"]}).json()
    assert [r["id"] for r in since["runs"]] == [latest["id"]]


def test_bad_filters_are_422_with_what_to_send(server: Server) -> None:
    for params, words in (
        ({"verdict": "green"}, "verdict must be one of pass, fail, partial; got 'green'"),
        ({"limit": "0"}, "limit must be between 1 and 500; got 0"),
        ({"limit": "ten"}, "limit must be a whole number; got 'ten'"),
        ({"since": "yesterday"}, "since must be an ISO 8601 date or time"),
    ):
        response = server.client.get("/api/runs", params=params)
        assert response.status_code == 422, params
        assert response.json()["error"] == "INVALID"
        assert words in response.json()["message"]


def test_run_detail_steps_gate_and_heal_cards(server: Server) -> None:
    latest = server.client.get("/api/runs").json()["runs"][0]
    detail = server.client.get(f"/api/runs/{latest['id']}").json()
    assert detail["run"] == latest
    steps = detail["steps"]
    assert [s["number"] for s in steps] == sorted(s["number"] for s in steps)
    assert steps[0]["action_label"] == "Fill" and steps[0]["element"] == "Username@LoginForm"
    healed = [s for s in steps if s["heal_round"]]
    assert healed and all(s["badge"]["label"] == "Healed" for s in healed)
    gate = steps[0]["gate"]
    assert [g["label"] for g in gate] == ["Unique", "Visible", "Enabled", "Stable", "Scoped"]
    assert all(g["ok"] for g in gate)
    cards = detail["heals"]
    assert {c["step_number"] for c in cards} == {s["number"] for s in healed}
    # a vanished locator's heal only reads the page: one picture, the element highlighted
    with_shots = [c for c in cards if c["after_url"] and not c["before_url"]]
    assert with_shots, cards
    shot = server.client.get(with_shots[0]["after_url"])
    assert shot.status_code == 200 and shot.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert detail["proposals"] and {p["req_id"] for p in detail["proposals"]} == {REQ}
    assert server.client.get(f"/api/runs/{latest['id']}/steps").json()["steps"] == steps


def test_unknown_run_and_requirement_are_404(server: Server) -> None:
    response = server.client.get("/api/runs/999999")
    assert response.status_code == 404
    assert response.json() == {
        "error": "NOT_FOUND",
        "message": "no run #999999 in the store; GET /api/runs lists them",
        "details": [],
    }
    assert server.client.get("/api/requirements/REQ-NONE/runs").status_code == 404
    assert server.client.get("/api/nothing").json()["error"] == "NOT_FOUND"
    page = server.client.get("/runs/999999")
    assert page.status_code == 404 and "no run #999999 in the store" in page.text
    assert "<h1>404 · NOT_FOUND</h1>" in page.text


def test_requirement_runs_latest_first(server: Server) -> None:
    body = server.client.get(f"/api/requirements/{REQ}/runs").json()
    assert body["req_id"] == REQ and body["total"] == 2
    starts = [r["started_at"] for r in body["runs"]]
    assert starts == sorted(starts, reverse=True)


def test_artifacts_listed_with_hash_and_size_and_served(server: Server) -> None:
    latest = server.client.get("/api/runs").json()["runs"][0]
    listing = server.client.get(f"/api/artifacts/{latest['id']}").json()
    # the screenshots' folder and the report folder of this run
    assert len(listing["folders"]) == 2 and all(f.startswith(".pacts/") for f in listing["folders"])
    files = listing["artifacts"]
    kinds = {a["kind_label"] for a in files}
    # the report hooks' files, found through the run index, next to the screenshots
    assert {"Verdict JSON", "Step log", "Summary"} <= kinds
    assert any(k.endswith("(screenshot)") for k in kinds)
    verdict = next(a for a in files if a["kind_label"] == "Verdict JSON")
    assert (
        verdict["name"].startswith(".pacts/reports/")
        and verdict["media_type"] == "application/json"
    )
    assert server.client.get(verdict["url"]).json()["req_id"] == REQ
    for artifact in [verdict, *files[:3]]:
        served = server.client.get(artifact["url"])
        assert served.status_code == 200
        assert len(served.content) == artifact["size_bytes"]
        assert artifact["sha256"] == "sha256:" + hashlib.sha256(served.content).hexdigest()
        assert served.headers["x-content-type-options"] == "nosniff"
    # the first run's report files are its own, not the latest run's
    first = server.client.get("/api/runs").json()["runs"][1]
    older = server.client.get(f"/api/artifacts/{first['id']}").json()["artifacts"]
    older_verdict = next(a for a in older if a["kind_label"] == "Verdict JSON")
    assert older_verdict["name"] != verdict["name"]


def test_proposals_list_and_detail_with_the_self_heal_gate(server: Server) -> None:
    listing = server.client.get("/api/proposals").json()
    proposals = listing["proposals"]
    assert proposals and listing["counts"]["pending"] == len(proposals)
    first = proposals[0]
    assert first["pending"] and first["badge"]["label"] == "Pending"
    assert first["track_badge"]["label"] in ("Contract", "Exception")
    detail = server.client.get(f"/api/proposals/{first['id']}").json()
    assert detail["summary"] == first
    gate = detail["self_heal_gate"]
    assert gate["track"] in ("contract", "exception") and "exception_fingerprint" in gate
    assert detail["patch"] and detail["patch"][0].startswith("replace selectors.")
    assert detail["suggested_diff"].startswith("--- recipes/")
    assert f"Heal proposal {first['id']}" in detail["copy_text"]
    assert detail["latest_recipe_version"] == "v001" and not detail["stale"]
    [seen] = detail["occurrences"]  # one run healed it once
    assert seen["req_id"] == REQ and seen["step_number"] == first["step_number"]
    assert seen["seen_at"].endswith(" UTC")
    assert (
        server.client.get("/api/proposals", params={"status": "accepted"}).json()["proposals"] == []
    )
    assert server.client.get("/api/proposals", params={"status": "maybe"}).status_code == 422


def test_trends_count_the_runs_per_day_and_heals(server: Server) -> None:
    body = server.client.get("/api/trends", params={"days": 7}).json()
    assert body["window_days"] == 7 and len(body["days"]) == 7
    # the module's two runs, summed over the window: they may fall on two days
    # when the suite runs across midnight UTC
    totals = tuple(sum(d[k] for d in body["days"]) for k in ("passed", "healed", "failed"))
    assert totals == (1, 1, 0)
    latest_day = server.client.get("/api/runs").json()["runs"][0]["started_at"][:10]
    assert body["days"][-1]["day"] >= latest_day
    assert body["heal_rates"] == [{"req_id": REQ, "runs": 2, "healed": 1, "rate": 0.5}]
    latest = server.client.get("/api/runs").json()["runs"][0]
    healed_steps = [
        s["element"]
        for s in server.client.get(f"/api/runs/{latest['id']}/steps").json()["steps"]
        if s["heal_round"]
    ]
    assert sorted((e["element"], e["heals"]) for e in body["elements"]) == sorted(
        (element, 1) for element in healed_steps
    )
    assert server.client.get("/api/trends", params={"days": 0}).status_code == 422


def test_the_openapi_document_lists_every_api_route(sqlite_server: Server) -> None:
    document = sqlite_server.client.get("/api/openapi.json").json()
    assert document["openapi"].startswith("3.1") and document == openapi_document()
    documented = {
        (method.upper(), path) for path, ops in document["paths"].items() for method in ops
    }
    served = set()
    for route in api.ROUTES:
        assert isinstance(route, Route)
        path = route.path.replace(":int}", "}").replace(":path}", "}")
        served |= {(m, path) for m in (route.methods or set()) if m != "HEAD"}
    assert served == documented
    schemas = document["components"]["schemas"]
    assert {"RunPage", "RunDetail", "ApiError", "RunBody"} <= set(schemas)
