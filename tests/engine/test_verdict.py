"""Verdict, the RCA mapping table and the failure text for a person."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.verdict import RCA_TABLE, build_verdict, classify, verdict_of
from pytest_pacts.models.locator import Candidate, GatePoint, GateSnapshot, Locator, Strategy
from pytest_pacts.models.outcome import (
    Failure,
    FailureCause,
    FailureType,
    HealAttempt,
    HealRung,
    RcaClass,
    StepRecord,
)

from .helpers import plan

F = FailureType
R = RcaClass


@pytest.mark.parametrize(
    ("failure", "cause", "heals", "rca"),
    [
        (F.NOT_UNIQUE, None, 0, R.SELECTOR_DRIFT),
        (F.NOT_UNIQUE, None, 2, R.SELECTOR_DRIFT),
        (F.TIMEOUT, None, 1, R.SELECTOR_DRIFT),  # timeout after reprobe
        (F.TIMEOUT, None, 0, R.TIMING_INSTABILITY),
        (F.UNSTABLE, None, 0, R.TIMING_INSTABILITY),
        (F.DETACHED, None, 0, R.TIMING_INSTABILITY),
        (F.NOT_VISIBLE, None, 0, R.VISIBILITY_ISSUE),
        (F.OBSCURED, None, 3, R.VISIBILITY_ISSUE),
        (F.DISABLED, None, 0, R.ENABLEMENT_ISSUE),
        (F.EXPECTATION_FAILED, None, 0, R.ASSERTION_MISMATCH),
        (F.EXPECTATION_FAILED, "value_rejected", 0, R.DATA_ISSUE),
        (F.EXPECTATION_FAILED, "configuration", 0, R.DATA_ISSUE),
        (F.ENV_FAULT, "connection_refused", 0, R.ENV_FAULT),
        (F.ENV_FAULT, "http_error", 0, R.ENV_FAULT),
        (F.ENV_FAULT, "crash", 0, R.ENV_FAULT),
        (F.ENV_FAULT, "slow_page", 0, R.ENV_FAULT),
        (F.NAVIGATION_ERROR, None, 0, R.ENV_FAULT),
        (F.CAPTCHA_OR_2FA, None, 0, R.ENV_FAULT),
    ],
)
def test_rca_mapping(failure: F, cause: FailureCause | None, heals: int, rca: R) -> None:
    result = classify(Failure(type=failure, message="m", cause=cause), heals)
    assert result.rca_class is rca
    assert 0.0 < result.confidence <= 1.0
    assert result.recommendation
    assert result.evidence[0].startswith(failure.value)


def test_every_failure_type_but_none_has_a_row() -> None:
    assert set(RCA_TABLE) == set(F) - {F.NONE}


def test_env_faults_are_never_selector_drift() -> None:
    causes: tuple[FailureCause, ...] = ("connection_refused", "http_error", "crash", "slow_page")
    for cause in causes:
        for heals in (0, 3):
            rca = classify(Failure(type=F.ENV_FAULT, message="m", cause=cause), heals)
            assert rca.rca_class is R.ENV_FAULT


def test_heal_attempts_raise_drift_confidence_and_show_in_evidence() -> None:
    plain = classify(Failure(type=F.NOT_UNIQUE, message="m"))
    after = classify(Failure(type=F.NOT_UNIQUE, message="m"), 2)
    assert after.confidence > plain.confidence
    assert any("2 heal round(s)" in e for e in after.evidence)


def _record(status: str, **kw: Any) -> StepRecord:
    return StepRecord(
        index=0,
        action="click",
        description='click "Login"',
        source="login.xlsx:Login:6",
        status=status,
        **kw,
    )


@pytest.mark.parametrize(
    ("statuses", "start_failed", "verdict"),
    [
        (["passed", "healed"], False, "pass"),
        (["passed", "skipped", "passed"], False, "partial"),
        (["passed", "skipped", "failed", "not_run"], False, "fail"),
        (["not_run"], True, "fail"),
    ],
)
def test_verdict_of(statuses: list[str], start_failed: bool, verdict: str) -> None:
    steps = [_record(s) for s in statuses]
    assert verdict_of(steps, start_failed) == verdict


def _gate() -> GateSnapshot:
    return GateSnapshot(
        count=0,
        points=(
            GatePoint(name="unique", ok=False, code="none", reason="no element matches"),
            GatePoint(name="visible", ok=False, code="skipped", reason="not checked"),
        ),
    )


def test_failure_text_is_written_for_a_person() -> None:
    p = plan("/", ("click", "Login@LoginForm"), ("click", "Logout"))
    locator = Locator(strategy=Strategy.CSS, confidence=0.7, css="#login-button")
    failure = Failure(
        type=F.NOT_UNIQUE,
        message="the locator css #login-button matches no element (count=0)",
        gate=_gate(),
        candidates=(Candidate(description='button "Log in" (#signin-btn)', score=0.71),),
    )
    heal = HealAttempt(
        round=1,
        rung=HealRung.SIMILARITY,
        accepted=False,
        reason="best 0.71 below threshold 0.75",
        failure=F.NOT_UNIQUE,
        score=0.71,
        runner_up_score=0.40,
    )
    steps = [
        _record(
            "failed",
            locator=locator,
            code='page.locator("#login-button")',
            failure=failure,
            heals=(heal,),
        ),
        StepRecord(
            index=1, action="click", description='click "Logout"', source="x:2", status="not_run"
        ),
    ]
    record = build_verdict(
        p,
        steps,
        start_failure=None,
        started_at=datetime.now(UTC),
        duration_ms=1.0,
        url="/",
        artifacts={"screenshot_x": "/tmp/x.png"},
    )
    assert record.verdict == "fail"
    assert record.rca.rca_class is R.SELECTOR_DRIFT
    text = render_failure(record)
    for expected in (
        "login.xlsx:Login:6",  # the failing row
        'click "Login"',  # the step in words
        'page.locator("#login-button")',  # the locator as code
        "unique   FAIL no element matches",  # the gate, point by point
        "root cause: selector_drift",
        "what to do:",
        'button "Log in" (#signin-btn) (score 0.71',  # the candidates
        "heal round 1 (similarity): not applied, score 0.71 vs runner-up 0.40",
        "1 later step(s) did not run",
        "/tmp/x.png",
    ):
        assert expected in text, (expected, text)
    assert "Traceback" not in text and 'File "' not in text


def test_a_healed_pass_keeps_the_cause_of_the_heal() -> None:
    p = plan("/", ("click", "Login"))
    heal = HealAttempt(
        round=1, rung=HealRung.ALTERNATE, accepted=True, reason="alternate", failure=F.NOT_UNIQUE
    )
    record = build_verdict(
        p,
        [_record("healed", heals=(heal,))],
        start_failure=None,
        started_at=datetime.now(UTC),
        duration_ms=1.0,
        url="/",
        artifacts={},
    )
    assert (record.verdict, record.healed, record.heal_count) == ("pass", True, 1)
    assert record.rca.rca_class is R.SELECTOR_DRIFT
    assert render_failure(record) == "REQ-T: pass (1 steps, healed 1x)"


def test_a_clean_pass_is_success() -> None:
    p = plan("/", ("click", "Login"))
    record = build_verdict(
        p,
        [_record("passed")],
        start_failure=None,
        started_at=datetime.now(UTC),
        duration_ms=1.0,
        url="/",
        artifacts={},
    )
    assert record.rca.rca_class is R.SUCCESS and record.rca.confidence == 1.0


@pytest.mark.parametrize(
    ("failure", "heals"), [(F.NOT_UNIQUE, 0), (F.NOT_UNIQUE, 2), (F.TIMEOUT, 1)]
)
def test_nothing_recorded_is_never_selector_drift(failure: F, heals: int) -> None:
    """A step that never had a locator (a first run) did not drift: the advice names what to
    write, never a heal proposal (issue 39)."""
    rca = classify(Failure(type=failure, message="m"), heals, recorded=False)
    assert rca.rca_class is R.DATA_ISSUE
    assert "proposal" not in rca.recommendation and "Nothing was recorded" in rca.recommendation
    assert classify(Failure(type=failure, message="m"), heals).rca_class is R.SELECTOR_DRIFT
