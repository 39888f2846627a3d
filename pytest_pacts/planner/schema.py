"""The one published JSON Schema for requirement files, and human messages for its errors.

The schema ships in the package (``requirements.schema.json``) and in ``docs/`` so editors
can validate files through ``$schema``. jsonschema's own messages are terse ("'x' is not of
type 'object'"); :func:`validate` rewrites them as ``what is wrong; expected ...``.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterator
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, cast

import fastjsonschema

from pytest_pacts.planner.readers.base import JsonLike, PathKey

if TYPE_CHECKING:  # imported to word the errors of an invalid file, never for a valid one
    from jsonschema import Draft202012Validator, ValidationError

SCHEMA_FILE = "requirements.schema.json"
_TYPE_WORDS = {
    "string": "text",
    "number": "a number",
    "integer": "a whole number",
    "boolean": "true or false",
    "object": "a mapping (object)",
    "array": "a list",
    "null": "nothing",
}


@cache
def schema() -> dict[str, JsonLike]:
    text = resources.files("pytest_pacts.planner").joinpath(SCHEMA_FILE).read_text("utf-8")
    return cast(dict[str, JsonLike], json.loads(text))


@cache
def _collection_validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    # Readers normalise single-requirement files to the collection form first, so errors
    # are reported against one branch instead of jsonschema's vague "anyOf" failure.
    full = schema()
    return Draft202012Validator({"$ref": "#/$defs/collection", "$defs": full["$defs"]})


@cache
def _fast_check() -> Callable[[JsonLike], object]:
    # fastjsonschema compiles the schema to Python: ~25x faster than jsonschema on a
    # 10,000-step workbook. It only says *whether* a document is valid; jsonschema then
    # words the errors (which is rare and only for invalid files).
    full = schema()
    compiled: Callable[[JsonLike], object] = fastjsonschema.compile(
        {"$ref": "#/$defs/collection", "$defs": full["$defs"]}
    )
    return compiled


def _type_name(value: object) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing"


def _where(path: PathKey) -> str:
    named = [p for p in path if isinstance(p, str)]
    return f"field {named[-1]!r}" if named else "the file"


def _message(error: ValidationError) -> tuple[str, str | None]:
    path = tuple(error.absolute_path)
    kind = error.validator
    if kind == "required":
        missing = str(error.message).split("'")[1] if "'" in error.message else "?"
        return f"missing required field {missing!r}", None
    if kind == "additionalProperties":
        schema_part = cast(dict[str, object], error.schema)
        allowed = sorted(cast(dict[str, object], schema_part.get("properties", {})))
        extra = [k for k in cast(dict[str, object], error.instance) if k not in allowed]
        hints = []
        for key in extra:
            close = difflib.get_close_matches(key, allowed, n=1)
            hints.append(f"{key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        return "unknown field " + ", ".join(hints), "one of " + ", ".join(allowed)
    if kind == "type":
        wanted = cast(object, error.validator_value)
        names = [wanted] if isinstance(wanted, str) else list(cast(list[str], wanted))
        return (
            f"{_where(path)} is {_type_name(error.instance)}",
            " or ".join(_TYPE_WORDS.get(str(n), str(n)) for n in names),
        )
    if kind == "minItems":
        return f"{_where(path)} is empty", "at least one item"
    if kind == "minLength":
        return f"{_where(path)} is empty", "a non-empty value"
    if kind == "enum":
        return f"{_where(path)} is {error.instance!r}", "one of " + ", ".join(
            repr(v) for v in cast(list[object], error.validator_value)
        )
    if kind == "pattern":
        return f"{error.instance!r} is not a valid name", "letters, digits, _ and -"
    if kind in ("anyOf", "oneOf"):
        if (path and path[-2:-1] == ("steps",)) or (len(path) >= 2 and path[-2] == "steps"):
            return (
                f"a step is {_type_name(error.instance)}",
                "a 'Element@Region | action | value | expected' string or a step mapping",
            )
        best = error.context[0] if error.context else None
        if best is not None:
            return _message(best)
    return error.message, None


def validate(data: JsonLike) -> Iterator[tuple[PathKey, str, str | None]]:
    """Schema problems as ``(path, message, expected)``, in document order."""
    try:
        _fast_check()(data)
        return
    except fastjsonschema.JsonSchemaException:
        pass
    errors = sorted(
        _collection_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]
    )
    for error in errors:
        if (
            error.validator in ("anyOf", "oneOf")
            and error.context
            and isinstance(error.instance, dict)
        ):
            # A step given as a mapping: report the mapping branch's own failures, not
            # "is not a string" from the pipe-string branch.
            branch = [e for e in error.context if list(e.relative_schema_path)[:1] == [1]]
            for sub in branch or error.context[:1]:
                message, expected = _message(sub)
                yield tuple(sub.absolute_path), message, expected
            continue
        message, expected = _message(error)
        yield tuple(error.absolute_path), message, expected
