"""Run records built by hand, for report tests that must not wait for a browser.

``write_project`` lays out a pytester project whose plain test functions each stash a
prepared :class:`RunRecord` in ``item.stash[RUN_KEY]``, exactly as a requirement item does,
so the report hooks see what a real run gives them.
"""

from __future__ import annotations

import json
import struct
import zlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pytest_pacts.governance import propose
from pytest_pacts.models.heal import HealProposal
from pytest_pacts.models.locator import GatePoint, GateSnapshot, Locator, Strategy
from pytest_pacts.models.outcome import (
    Failure,
    FailureType,
    HealAttempt,
    HealRung,
    Rca,
    RcaClass,
    RunRecord,
    StepRecord,
)
from pytest_pacts.store import open_store

NASTY = "<script>alert('x')</script> & \"quotes\""


def png(
    path: Path, width: int = 8, height: int = 6, rgb: tuple[int, int, int] = (200, 30, 30)
) -> str:
    """Write a tiny solid-colour PNG (no imaging library needed)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    data = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return str(path)


def gate(ok: bool = True) -> GateSnapshot:
    names = ("unique", "visible", "enabled", "stable", "scoped")
    points = tuple(
        GatePoint(name=n, ok=ok or n != "visible", code="ok" if ok or n != "visible" else "obscured",
                  reason="ok" if ok or n != "visible" else "covered by #cookie-banner")
        for n in names
    )  # fmt: skip
    return GateSnapshot(points=points, count=1)


OLD = Locator(strategy=Strategy.CSS, confidence=0.7, css="#login-button")
NEW = Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Log in")
BRITTLE = Locator(strategy=Strategy.CSS, confidence=0.7, css="div > button:nth-child(3)")


def stored_proposal(
    store_path: Path, req_id: str, healed: Locator, step_index: int = 1, failed: Locator = OLD
) -> str:
    """Gate and store a proposal like the healer does; returns the store's id."""
    proposal = HealProposal(
        req_id=req_id,
        step_index=step_index,
        element_key="Login@LoginForm",
        rca_class="selector_drift",
        failure_type="not_unique",
        failed_locator=failed.model_dump(mode="json", exclude_none=True),
        healed_locator=healed.model_dump(mode="json", exclude_none=True),
        tool_name="similarity",
        score=0.91,
        runner_up_score=0.52,
        suggested_diff="--- a\n+++ b\n",
        change_plan="Replace the Login locator",
    )
    with open_store(store_path) as store:
        return propose(store, proposal).id


def record(
    req_id: str,
    *,
    verdict: Literal["pass", "fail", "partial"] = "pass",
    heal: Locator | None = None,
    proposal_id: str | None = None,
    shots: tuple[str, str] | None = None,
    message: str = "All steps executed successfully",
    track: Literal["contract", "exception"] | None = None,
) -> RunRecord:
    now = datetime.now(UTC).isoformat()
    steps = [
        StepRecord(index=0, action="fill", description='fill "Username" in "LoginForm"',
                   source="login.xlsx:Login:4", element_key="Username@LoginForm", value="***",
                   locator=Locator(strategy=Strategy.LABEL, confidence=0.92, label="Username"),
                   code='page.get_by_label("Username", exact=True)', gate=gate(),
                   expectation="field_populated", expectation_ok=True, status="passed",
                   duration_ms=41.0),
    ]  # fmt: skip
    heals: tuple[HealAttempt, ...] = ()
    if heal is not None:
        heals = (
            HealAttempt(round=1, rung=HealRung.SIMILARITY, accepted=True, reason="best match",
                        failure=FailureType.NOT_UNIQUE, old_locator=OLD, new_locator=heal,
                        score=0.91, runner_up_score=0.52, proposal_id=proposal_id,
                        track=track, screenshot_before=shots[0] if shots else None,
                        screenshot_after=shots[1] if shots else None),
        )  # fmt: skip
    failed = verdict == "fail"
    steps.append(
        StepRecord(index=1, action="click", description=f'click "Login" {NASTY}',
                   source="login.xlsx:Login:6", element_key="Login@LoginForm",
                   locator=heal or OLD, code="page.locator('#login-button')",
                   gate=gate(not failed), status="failed" if failed else ("healed" if heals else "passed"),
                   failure=Failure(type=FailureType.OBSCURED, message=f"covered {NASTY}") if failed else None,
                   heals=heals, duration_ms=120.0),
    )  # fmt: skip
    rca = Rca(
        rca_class=RcaClass.VISIBILITY_ISSUE if failed else RcaClass.SUCCESS,
        confidence=0.8 if failed else 1.0,
        message=message,
        evidence=(f"evidence {NASTY}",) if failed else (),
        recommendation="Dismiss the banner first" if failed else "",
    )
    return RunRecord(
        req_id=req_id, plan_hash="sha256:" + "ab" * 32, verdict=verdict, rca=rca,
        steps=tuple(steps), healed=bool(heals), heal_count=len(heals), heal_rounds=len(heals),
        started_at=now, finished_at=now, duration_ms=161.0, recipe_version="v001",
        url="http://127.0.0.1/", proposals=(proposal_id,) if proposal_id else (),
    )  # fmt: skip


CONFTEST = """
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_pacts.models.outcome import RunRecord
from pytest_pacts.pytest_plugin import reporting
from pytest_pacts.pytest_plugin.keys import RUN_KEY

RECORDS = json.loads((Path(__file__).parent / "records.json").read_text())


def pytest_configure(config):
    reporting.register(config)


@pytest.fixture(autouse=True)
def _pacts_record(request):
    raw = RECORDS.get(request.node.name)
    if raw is not None:
        request.node.stash[RUN_KEY] = RunRecord.model_validate(raw)
"""


def write_project(root: Path, records: dict[str, RunRecord], *, ini: str = "") -> None:
    """Tests named after the records' keys; a key starting with ``fail`` fails its test."""
    (root / "records.json").write_text(
        json.dumps({k: r.model_dump(mode="json", by_alias=True) for k, r in records.items()})
    )
    (root / "conftest.py").write_text(CONFTEST)
    body = ["from __future__ import annotations", ""]
    for name in records:
        body += [f"def {name}():", f"    assert {not name.startswith('test_fail')!r}", ""]
    (root / "test_reqs.py").write_text("\n".join(body))
    (root / "pytest.ini").write_text("[pytest]\n" + ini)
