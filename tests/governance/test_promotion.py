"""Promotion: thresholds, expiry formats, and promotion_reason."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from pytest_pacts.governance import compute_promotion_required, normalise_exception_stats

from .conftest import T0

LATER = T0 + timedelta(days=1)


def stats(d7: int, d30: int) -> dict[str, int]:
    return {"count_7d": d7, "count_30d": d30}


@pytest.mark.parametrize(
    ("d7", "d30", "required", "reasons"),
    [
        (0, 0, False, ()),
        (1, 1, False, ()),  # 7d: one below the boundary
        (2, 2, True, ("repeat_count_7d>=2",)),  # 7d: on the boundary
        (1, 2, False, ()),  # 30d: one below
        (1, 3, True, ("repeat_count_30d>=3",)),  # 30d: on the boundary
        (2, 3, True, ("repeat_count_7d>=2", "repeat_count_30d>=3")),  # both fired, both named
    ],
)
def test_repeat_thresholds(d7: int, d30: int, required: bool, reasons: tuple[str, ...]) -> None:
    result = compute_promotion_required(stats(d7, d30), None, T0, LATER)
    assert (result.required, result.reasons, result.expiry_ok) == (required, reasons, True)
    assert result.reason == (", ".join(reasons) if reasons else "-")


def test_seed_key_names_are_accepted() -> None:
    result = compute_promotion_required({"repeat_count_7d": 2, "repeat_count_30d": 0}, None, T0, T0)
    assert result.reasons == ("repeat_count_7d>=2",)


@pytest.mark.parametrize(
    ("raw", "normalised"),
    [
        (None, {"repeat_count_7d": 0, "repeat_count_30d": 0}),
        ({}, {"repeat_count_7d": 0, "repeat_count_30d": 0}),
        ({"count_7d": 1, "count_30d": 4}, {"repeat_count_7d": 1, "repeat_count_30d": 4}),
        ({"repeat_count_7d": 2.0}, {"repeat_count_7d": 2, "repeat_count_30d": 0}),
        ({"count_7d": "3", "count_30d": True}, {"repeat_count_7d": 0, "repeat_count_30d": 0}),
        (
            {"count_7d": -2, "count_30d": float("nan")},
            {"repeat_count_7d": 0, "repeat_count_30d": 0},
        ),
    ],
)
def test_normalise_exception_stats(raw: dict[str, object] | None, normalised: object) -> None:
    assert normalise_exception_stats(raw) == normalised


# Default expiry: created_at + 30 days ------------------------------------------------------


@pytest.mark.parametrize("missing", [None, "", "   ", [], {}])
@pytest.mark.parametrize(
    ("after", "expired"),
    [
        (timedelta(days=30), False),  # exactly at created_at + 30d: not yet past
        (timedelta(days=30, seconds=1), True),
        (timedelta(days=29, hours=23), False),
    ],
)
def test_default_expiry(missing: object, after: timedelta, expired: bool) -> None:
    result = compute_promotion_required(None, missing, T0, T0 + after)
    assert result.required is expired
    assert result.expiry_ok
    assert result.reasons == (("exception_expiry_passed:created_at+30d",) if expired else ())


def test_default_expiry_reads_created_at_as_iso_text_and_naive_as_utc() -> None:
    iso = "2026-03-01T12:00:00Z"
    assert compute_promotion_required(None, None, iso, T0 + timedelta(days=31)).required
    naive = datetime(2026, 3, 1, 12, 0)
    assert not compute_promotion_required(None, None, naive, T0 + timedelta(days=29)).required


# The four expiry formats --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expiry", "now", "expired"),
    [
        ("2026-04-01", datetime(2026, 3, 31, 23, 59, tzinfo=UTC), False),
        ("2026-04-01", datetime(2026, 4, 1, 0, 0, tzinfo=UTC), False),  # the moment itself
        ("2026-04-01", datetime(2026, 4, 1, 0, 0, 1, tzinfo=UTC), True),
        (" 2026-04-01 ", datetime(2026, 4, 2, tzinfo=UTC), True),  # trimmed
        (date(2026, 4, 1), datetime(2026, 4, 2, tzinfo=UTC), True),
    ],
)
def test_iso_date_expiry(expiry: object, now: datetime, expired: bool) -> None:
    result = compute_promotion_required(None, expiry, T0, now)
    assert (result.required, result.expiry_ok) == (expired, True)
    assert result.reasons == (("exception_expiry_passed:2026-04-01",) if expired else ())


@pytest.mark.parametrize(
    ("expiry", "d7", "d30", "fired"),
    [
        ("issue_count>=20", 0, 19, False),  # issue_count is the 30-day count
        ("issue_count>=20", 0, 20, True),
        ("issue_count>=20", 25, 0, False),  # the 7-day count is not read
        ("metric:repeat_count_7d>=1", 0, 5, False),
        ("metric:repeat_count_7d>=1", 1, 1, True),
        ("metric:repeat_count_30d>=5", 1, 4, False),
        ("metric:repeat_count_30d>=5", 1, 5, True),
    ],
)
def test_count_expiry(expiry: str, d7: int, d30: int, fired: bool) -> None:
    result = compute_promotion_required(stats(d7, d30), expiry, T0, LATER)
    assert result.expiry_ok
    assert (f"exception_expiry:{expiry}" in result.reasons) is fired


@pytest.mark.parametrize(
    "expiry",
    [
        "2026-4-1",
        "2026-02-30",  # not a calendar date
        "01/04/2026",
        "2026-04-01T00:00:00Z",  # a timestamp is not the date form
        "issue_count>20",
        "issue_count >= 20",
        "issue_count>=",
        "issue_count>=-1",
        "repeat_count_30d>=3",  # the metric form needs its "metric:" prefix
        "metric:repeat_count_1d>=3",
        "soon",
        42,
        ["2026-04-01"],
        True,
    ],
)
def test_malformed_expiry_forces_promotion(expiry: object) -> None:
    result = compute_promotion_required(None, expiry, T0, LATER)
    assert (result.required, result.expiry_ok) == (True, False)
    assert result.reasons == ("exception_expiry_malformed",)


def test_malformed_expiry_keeps_the_other_reasons() -> None:
    result = compute_promotion_required(stats(2, 3), "never", T0, LATER)
    assert result.reason == "repeat_count_7d>=2, repeat_count_30d>=3, exception_expiry_malformed"


def test_promotion_is_truthy_when_required() -> None:
    assert compute_promotion_required(stats(2, 0), None, T0, T0)
    assert not compute_promotion_required(stats(1, 0), None, T0, T0)


def test_missing_created_at_means_now() -> None:
    assert not compute_promotion_required(None, None, None, LATER).required
