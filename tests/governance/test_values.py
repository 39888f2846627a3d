"""The gate's "missing", per type, and the JavaScript coercions the fingerprint uses."""

from __future__ import annotations

import math

import pytest

from pytest_pacts.governance._values import is_missing, js_or_dash, js_string, js_trim


@pytest.mark.parametrize(
    ("value", "missing"),
    [
        (None, True),  # null / undefined
        ("", True),  # string: trim() empty
        ("   ", True),
        ("\t\n\u3000", True),  # Unicode whitespace
        ("\ufeff ", True),  # JavaScript's trim() strips U+FEFF too
        ("x", False),
        ("  x  ", False),
        ([], True),  # array: length 0
        ((), True),
        ([None], False),  # a non-empty array is present, whatever it holds
        ({}, True),  # object: no keys
        ({"k": None}, False),
        (0, False),  # number: finite is present, zero included
        (-1.5, False),
        (math.nan, True),  # Number.isFinite false
        (math.inf, True),
        (-math.inf, True),
        (False, False),  # booleans are present
        (True, False),
    ],
)
def test_missing_value_rules(value: object, missing: bool) -> None:
    assert is_missing(value) is missing


def test_js_trim_strips_what_javascript_strips() -> None:
    assert js_trim("\ufeff  a b \n") == "a b"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "null"),
        (True, "true"),
        (3, "3"),
        (3.0, "3"),
        (2.5, "2.5"),
        (math.nan, "NaN"),
        ("s", "s"),
        (["a", None, 1], "a,,1"),
        ({"a": 1}, "[object Object]"),
    ],
)
def test_js_string(value: object, text: str) -> None:
    assert js_string(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [(None, "-"), ("", "-"), (0, "-"), (False, "-"), (math.nan, "-"), ("  ", "  "), (7, "7")],
)
def test_js_or_dash_follows_javascript_falsiness(value: object, text: str) -> None:
    assert js_or_dash(value) == text
