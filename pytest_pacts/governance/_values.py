"""Value rules shared by the gate: "missing" and JavaScript-like coercions.

The gate was first written in JavaScript (``String(x || "-")``, ``trim()``,
``Number.isFinite``); these helpers give the same answers for the JSON values a payload
can hold, so the gate's fixed rules behave as they do there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from pydantic import BaseModel

from pytest_pacts.models.heal import HealProposal, Violation

Payload = Mapping[str, object]
"""A proposal or violation as the gate reads it: a JSON object (docs/governance.md)."""


def js_trim(text: str) -> str:
    """``text.trim()`` as JavaScript does it: Unicode whitespace and U+FEFF, which
    ``str.strip()`` alone keeps."""
    return text.strip().strip("\ufeff").strip()


def is_missing(value: object) -> bool:
    """Missing, exactly (docs/governance.md "Missing values").

    - ``None`` (JSON ``null``, or the key absent) is missing;
    - a string is missing when ``trim()`` leaves it empty;
    - a list (array) is missing when it is empty;
    - a mapping (object) is missing when it has no keys;
    - a number is missing when it is not finite (``Number.isFinite`` is false: NaN, ±inf).

    Anything else (``True``/``False`` included) is present.
    """
    if value is None:
        return True
    if isinstance(value, str):
        return js_trim(value) == ""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return False
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, list | tuple):
        return len(value) == 0
    if isinstance(value, Mapping):
        return len(value) == 0
    return False


def js_truthy(value: object) -> bool:
    """JavaScript truthiness of a JSON value (``""``, ``0``, ``NaN``, ``null``, ``false``)."""
    if value is None or value is False:
        return False
    if isinstance(value, str):
        return value != ""
    if isinstance(value, bool):
        return True
    if isinstance(value, int | float):
        return value != 0 and not (isinstance(value, float) and math.isnan(value))
    return True


def js_string(value: object) -> str:
    """``String(value)`` for JSON values, as JavaScript renders them."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return ",".join("" if item is None else js_string(item) for item in value)
    if isinstance(value, Mapping):
        return "[object Object]"
    return str(value)


def js_or_dash(value: object) -> str:
    """``String(value || "-")``."""
    return js_string(value) if js_truthy(value) else "-"


def as_payload(value: HealProposal | Violation | BaseModel | Payload | None) -> Payload:
    """A model or a plain dict, as the JSON object the gate's rules read."""
    if value is None:
        return {}
    if isinstance(value, BaseModel):
        dumped: dict[str, object] = value.model_dump(mode="json")
        return dumped
    return value


def get_mapping(payload: Payload, key: str) -> Payload:
    """``payload[key]`` when it is a JSON object, else an empty one (``obj?.key``)."""
    value = payload.get(key)
    if isinstance(value, Mapping):
        return value
    return {}


def string_leaves(value: object) -> list[str]:
    """Every string inside a JSON value, depth first (a list or object is read through)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [text for item in value for text in string_leaves(item)]
    if isinstance(value, Mapping):
        return [text for item in value.values() for text in string_leaves(item)]
    return []
