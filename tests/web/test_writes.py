"""Accept and reject through the API: the governance code of ``pacts heals``, on SQLite and
PostgreSQL; a major proposal needs GO."""

from __future__ import annotations

from pytest_pacts.store import open_store

from .conftest import REQ, Server
from .helpers import add_major_proposal


def _pending(server: Server) -> list[dict[str, object]]:
    found: list[dict[str, object]] = server.client.get(
        "/api/proposals", params={"status": "pending"}
    ).json()["proposals"]
    return found


def test_accept_writes_the_next_recipe_version(server: Server, store_target: str) -> None:
    proposal = _pending(server)[-1]  # the oldest
    response = server.client.post(
        f"/api/proposals/{proposal['id']}/accept", headers=server.auth, json={"by": "qa-lead"}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["outcome_label"] == "Accepted" and body["recipe_version"] == "v002"
    assert body["message"] == (
        f"accepted heal proposal #{proposal['id']} (minor) by qa-lead: recipe {REQ} v001 -> v002"
    )
    detail = server.client.get(f"/api/proposals/{proposal['id']}").json()
    assert detail["summary"]["status_label"] == "Accepted"
    assert detail["summary"]["decided_by"] == "qa-lead"
    assert detail["recipe_version_written"] == "v002"
    with open_store(store_target) as store:
        latest = store.recipes.latest(REQ)
        assert latest is not None and latest.version == "v002"
        assert latest.proposal_id == proposal["id"]
    again = server.client.post(f"/api/proposals/{proposal['id']}/accept", headers=server.auth)
    assert again.status_code == 409 and again.json()["error"] == "NOT_PENDING"


def test_reject_keeps_the_reason_and_the_recipe(server: Server, store_target: str) -> None:
    proposal = _pending(server)[0]
    response = server.client.post(
        f"/api/proposals/{proposal['id']}/reject",
        headers=server.auth,
        json={"reason": "the new id is a test build artefact"},
    )
    assert response.status_code == 200, response.text
    assert response.json()["message"] == (
        f"rejected heal proposal #{proposal['id']} ({REQ}) by api: "
        "the new id is a test build artefact"
    )
    detail = server.client.get(f"/api/proposals/{proposal['id']}").json()
    assert detail["summary"]["status_label"] == "Rejected"
    assert detail["decision_reason"] == "the new id is a test build artefact"
    with open_store(store_target) as store:
        latest = store.recipes.latest(REQ)
        assert latest is not None and latest.version == "v001"


def test_a_major_proposal_needs_go(server: Server, store_target: str) -> None:
    major = add_major_proposal(store_target)
    listed = next(p for p in _pending(server) if p["id"] == major)
    assert listed["major"] and listed["severity_label"] == "Major"
    refused = server.client.post(
        f"/api/proposals/{major}/accept", headers=server.auth, json={"confirm": "yes"}
    )
    assert refused.status_code == 409
    assert refused.json()["error"] == "NEEDS_GO"
    assert "workflow.s005.expect" in refused.json()["message"]
    assert server.client.get(f"/api/proposals/{major}").json()["summary"]["pending"]
    done = server.client.post(
        f"/api/proposals/{major}/accept", headers=server.auth, json={"confirm": "GO"}
    )
    assert done.status_code == 200, done.text
    assert "(major)" in done.json()["message"]


def test_unknown_proposal_is_404(sqlite_server: Server) -> None:
    response = sqlite_server.client.post(
        "/api/proposals/9999/accept", headers=sqlite_server.auth, json={}
    )
    assert response.status_code == 404 and "no heal proposal #9999" in response.json()["message"]
