"""Typed readers for driver values: rows arrive as ``object`` and leave as checked types."""

from __future__ import annotations

from datetime import datetime

from pytest_pacts.store.backend import Backend
from pytest_pacts.store.records import JSONObject, JSONValue


def as_int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer column value, got {value!r}")
    return value


def opt_int(value: object) -> int | None:
    return None if value is None else as_int(value)


def as_float(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"expected a numeric column value, got {value!r}")
    return float(value)


def opt_float(value: object) -> float | None:
    return None if value is None else as_float(value)


def as_str(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a text column value, got {value!r}")
    return value


def opt_str(value: object) -> str | None:
    return None if value is None else as_str(value)


def as_bool(value: object) -> bool:
    # SQLite stores BOOLEAN as 0/1; PostgreSQL returns bool.
    if isinstance(value, bool):
        return value
    return as_int(value) != 0


def as_ts(db: Backend, value: object) -> datetime:
    return db.ts_out(value)


def opt_ts(db: Backend, value: object) -> datetime | None:
    return None if value is None else db.ts_out(value)


def as_object(db: Backend, value: object) -> JSONObject:
    loaded: JSONValue = db.json_out(value)
    if not isinstance(loaded, dict):
        raise TypeError(f"expected a JSON object column value, got {loaded!r}")
    return loaded


def placeholders(count: int) -> str:
    return ", ".join("?" * count)
