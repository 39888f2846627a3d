"""Plain-words renderings of model values, shared by errors, reports and the CLI."""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_pacts.models.requirement import Step

_VERBS = {
    "click": "click {target}",
    "fill": "fill {target} with {value}",
    "type": "type {value} into {target}",
    "press": "press {value} on {target}",
    "select": "select {value} in {target}",
    "check": "check {target}",
    "uncheck": "uncheck {target}",
    "hover": "hover over {target}",
    "focus": "focus {target}",
    "goto": "go to {value}",
    "wait": "wait until {expected}",
    "use": "use block {value}",
}


def describe_step(step: Step) -> str:
    """``fill "Username" in "LoginForm" with "standard_user", expect field_populated``."""
    target = "the page"
    if step.target is not None:
        target = f'"{step.target.element}"'
        if step.target.region:
            target += f' in "{step.target.region}"'
    value = f'"{step.value}"' if step.value is not None else "(no value)"
    expected = str(step.expected) if step.expected is not None else "(no expectation)"
    text = _VERBS[step.action.value].format(target=target, value=value, expected=expected)
    if step.expected is not None and step.action.value != "wait":
        text += f", expect {step.expected}"
    return text


_CANONICAL_ID = re.compile(r"^[A-Z0-9]+(?:-[A-Z0-9]+)*$")
_NOT_WORD = re.compile(r"[^A-Za-z0-9]+")


def file_stem(text: str) -> str:
    """A file-name stem for an id, distinct for distinct ids, also on case-insensitive file
    systems: ``REQ-LOGIN-001`` -> ``req_login_001``; an id that this mapping would not keep
    apart from another (lower case, dots, underscores, other characters: ``REQ-A.1``,
    ``REQ-A_1``, ``REQ-a-1``) gets ``__`` and a hash of the exact id, which a canonical id
    can never produce (it has no ``__``)."""
    stem = _NOT_WORD.sub("_", text).strip("_").lower() or "requirement"
    if _CANONICAL_ID.match(text):
        return stem
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    return f"{stem}__{digest}"
