"""UTC time handling shared by both backends.

The API takes and returns timezone-aware UTC datetimes. SQLite has no time type, so times
are stored as fixed-width ISO-8601 text (``2026-11-22T02:44:21.123456Z``): fixed width makes
string order equal time order, which is what lets SQLite compare and index them.
"""

from __future__ import annotations

from datetime import UTC, datetime

_TEXT_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


def require_aware(value: datetime, name: str = "time") -> datetime:
    """Return ``value`` converted to UTC; refuse naive datetimes, whose zone is a guess."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(
            f"{name} must be a timezone-aware datetime (got naive {value.isoformat()}); "
            "use datetime.now(UTC) or attach a tzinfo"
        )
    return value.astimezone(UTC)


def to_text(value: datetime) -> str:
    """Fixed-width, sortable text form of an aware datetime."""
    return require_aware(value).strftime(_TEXT_FORMAT)


def from_text(value: str) -> datetime:
    """Parse the text written by :func:`to_text` back to an aware UTC datetime."""
    return datetime.strptime(value, _TEXT_FORMAT).replace(tzinfo=UTC)
