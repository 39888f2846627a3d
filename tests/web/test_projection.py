"""The projection's labels and tones: what the pages and clients show instead of core values."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from pytest_pacts.store import open_store
from pytest_pacts.web.projection import Projection, environment_secrets

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def test_badges_for_every_verdict_and_state(tmp_path: Path) -> None:
    with open_store(tmp_path / "pacts.db") as store:
        finished = [
            ("REQ-A", "pass", False, ("Pass", "good")),
            ("REQ-B", "pass", True, ("Pass · healed", "info")),
            ("REQ-C", "partial", True, ("Partial · healed", "warn")),
            ("REQ-D", "fail", False, ("Fail", "bad")),
        ]
        for i, (req, verdict, healed, _) in enumerate(finished):
            run = store.runs.begin("s", req, now=T0 + timedelta(minutes=i))
            store.runs.finish(
                run.id,
                verdict=verdict,  # type: ignore[arg-type]
                healed=healed,
                rca_class="selector_drift",
                now=T0 + timedelta(minutes=i, seconds=3),
            )
        store.runs.begin("s", "REQ-E", now=T0 + timedelta(minutes=9))
        page = Projection(store, root=tmp_path).runs()
    shown = {r.req_id: (r.badge.label, r.badge.tone) for r in page.runs}
    assert shown == {req: badge for req, _, _, badge in finished} | {"REQ-E": ("Running", "info")}
    running = page.runs[0]
    assert running.in_flight and running.verdict_label == "-" and running.duration_ms is None
    last = page.runs[-1]
    assert last.started_label == "2026-03-01 09:00:00 UTC" and last.duration_ms == 3000.0
    assert last.rca_label == "Selector drift"


def test_secrets_are_masked_in_every_dto(tmp_path: Path) -> None:
    with open_store(tmp_path / "pacts.db") as store:
        store.runs.begin("session-with-s3cr3t-value", "REQ-A", now=T0)
        projection = Projection(store, root=tmp_path, secrets=["s3cr3t-value"])
        [run] = projection.runs().runs
        assert run.session == "session-with-***"
        assert projection.mask("a s3cr3t-value b") == "a *** b"


def test_the_working_folder_is_not_taken_for_a_secret() -> None:
    env = {
        "PWD": "/work/project",
        "OLDPWD": "/work",
        "TOX_TESTENV_PASSENV": "HOME",
        "SHOP_PASSWORD": "hunter22",
        "API_TOKEN": "t0k3n-value",
        "HOME": "/root",
    }
    assert sorted(environment_secrets(env)) == ["hunter22", "t0k3n-value"]
    assert environment_secrets(env, ["HOME"]) == ["hunter22", "t0k3n-value", "/root"]
