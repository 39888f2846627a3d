"""Promotion: when a recurring exception must become a contract fix.

Fixed values:

- ``repeat_count_7d >= 2``  -> ``promotion_required``;
- ``repeat_count_30d >= 3`` -> ``promotion_required``;
- past ``exception_expiry`` -> ``promotion_required``; with no expiry given, the expiry is
  ``created_at + 30 days``.

``exception_expiry`` has exactly four forms:

1. ``YYYY-MM-DD``: expired once the current time is past that date's 00:00 UTC;
2. ``issue_count>=N``: reached when ``repeat_count_30d >= N`` (issue_count is read
   as the 30-day count);
3. ``metric:repeat_count_7d>=N``: reached when ``repeat_count_7d >= N``;
4. ``metric:repeat_count_30d>=N``: reached when ``repeat_count_30d >= N``.

Any other value is malformed: ``exception_fields_ok=false`` and ``promotion_required=true``
are forced. "Missing" is the gate's one rule (``None``, a blank string, …; docs/governance.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from pytest_pacts.governance._values import is_missing, js_trim
from pytest_pacts.models.heal import ExceptionStats

PROMOTION_THRESHOLD_7D = 2
"""``repeat_count_7d >= 2`` requires promotion: twice in a week is a pattern, not a case."""
PROMOTION_THRESHOLD_30D = 3
"""``repeat_count_30d >= 3`` requires promotion."""
DEFAULT_EXCEPTION_TTL = timedelta(days=30)
"""An exception with no expiry expires at ``created_at + 30 days``: none lives forever."""

REASON_7D = f"repeat_count_7d>={PROMOTION_THRESHOLD_7D}"
REASON_30D = f"repeat_count_30d>={PROMOTION_THRESHOLD_30D}"
REASON_EXPIRY_MALFORMED = "exception_expiry_malformed"
REASON_DEFAULT_EXPIRY = "exception_expiry_passed:created_at+30d"
NO_REASON = "-"
"""``promotion_reason`` when promotion is not required."""

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_COUNT_RULE = re.compile(r"^(issue_count|metric:repeat_count_7d|metric:repeat_count_30d)>=(\d+)$")


def _as_count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if value != value or value in (float("inf"), float("-inf")):
        return 0
    return max(int(value), 0)


def normalise_exception_stats(stats: Mapping[str, object] | None) -> ExceptionStats:
    """Repeat counts in the gate's shape, zeros when none were given.

    Accepts the gate's keys (``repeat_count_7d``/``repeat_count_30d``) or the store's
    (``count_7d``/``count_30d``).
    """
    stats = stats or {}
    count_7d = stats.get("repeat_count_7d", stats.get("count_7d"))
    count_30d = stats.get("repeat_count_30d", stats.get("count_30d"))
    return {"repeat_count_7d": _as_count(count_7d), "repeat_count_30d": _as_count(count_30d)}


def as_utc(moment: datetime) -> datetime:
    """An aware UTC datetime (a naive one is taken to be UTC already)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def parse_timestamp(value: object) -> datetime | None:
    """A ``datetime`` or an ISO 8601 string as an aware UTC datetime, else ``None``."""
    if isinstance(value, datetime):
        return as_utc(value)
    if isinstance(value, str):
        try:
            return as_utc(datetime.fromisoformat(js_trim(value)))
        except ValueError:
            return None
    return None


def _parse_iso_date(text: str) -> date | None:
    if not _ISO_DATE.match(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


@dataclass(frozen=True)
class Promotion:
    """The promotion decision: whether it is required, the rules that fired, and whether
    the expiry was well formed (a malformed one also fails ``exception_fields_ok``)."""

    required: bool
    reasons: tuple[str, ...]
    expiry_ok: bool

    def __bool__(self) -> bool:
        return self.required

    @property
    def reason(self) -> str:
        """``promotion_reason``: the fired rules joined by ``", "``, or ``"-"``."""
        return ", ".join(self.reasons) if self.reasons else NO_REASON


def _expiry_reason(
    exception_expiry: object, stats: ExceptionStats, created_at: datetime, now: datetime
) -> str | None:
    """The reason the expiry is reached, ``None`` if it is not; raises on a malformed one."""
    if is_missing(exception_expiry):
        return REASON_DEFAULT_EXPIRY if now > created_at + DEFAULT_EXCEPTION_TTL else None
    if isinstance(exception_expiry, datetime):
        day: date | None = exception_expiry.date()
    elif isinstance(exception_expiry, date):
        day = exception_expiry
    elif isinstance(exception_expiry, str):
        text = js_trim(exception_expiry)
        rule = _COUNT_RULE.match(text)
        if rule is not None:
            metric, threshold = rule.group(1), int(rule.group(2))
            count = stats["repeat_count_7d" if metric.endswith("_7d") else "repeat_count_30d"]
            return f"exception_expiry:{text}" if count >= threshold else None
        day = _parse_iso_date(text)
    else:
        day = None
    if day is None:
        raise ValueError(f"malformed exception_expiry {exception_expiry!r}")
    moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
    return f"exception_expiry_passed:{day.isoformat()}" if now > moment else None


def compute_promotion_required(
    exception_stats: Mapping[str, object] | None,
    exception_expiry: object = None,
    created_at: datetime | str | None = None,
    now: datetime | None = None,
) -> Promotion:
    """Is promotion required, and by which rules (docs/governance.md "Promotion").

    ``exception_stats`` holds the repeat counts (see :func:`normalise_exception_stats`);
    ``created_at`` is the proposal's creation time (``now`` when absent) and ``now`` the
    current time (the clock when ``None``).
    """
    current = as_utc(now) if now is not None else datetime.now(UTC)
    created = parse_timestamp(created_at) or current
    stats = normalise_exception_stats(exception_stats)
    reasons: list[str] = []
    if stats["repeat_count_7d"] >= PROMOTION_THRESHOLD_7D:
        reasons.append(REASON_7D)
    if stats["repeat_count_30d"] >= PROMOTION_THRESHOLD_30D:
        reasons.append(REASON_30D)
    try:
        expiry_reason = _expiry_reason(exception_expiry, stats, created, current)
    except ValueError:
        reasons.append(REASON_EXPIRY_MALFORMED)
        return Promotion(required=True, reasons=tuple(reasons), expiry_ok=False)
    if expiry_reason is not None:
        reasons.append(expiry_reason)
    return Promotion(required=bool(reasons), reasons=tuple(reasons), expiry_ok=True)
