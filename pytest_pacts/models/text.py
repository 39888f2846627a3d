"""Plain-words renderings of model values, shared by errors, reports and the CLI."""

from __future__ import annotations

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
