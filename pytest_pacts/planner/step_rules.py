"""The rules of one step, written once.

A sheet row (``loader.py``) and a ``pacts.step(...)`` call (``inline.py``) are the same
step: an action, an ``Element@Region`` target, a value, an expected outcome, ``on_fail``.
:func:`check_step` parses them and says every rule the step breaks, each with the field it
is in and what would be right, so both word a problem alike. What only one of them has (a
block's context, a secret handed over, templates resolved against a sheet's vars) stays
with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_pacts.models import Action, OnFail
from pytest_pacts.models.requirement import Capture, Expectation, Target
from pytest_pacts.planner.steps import (
    RESPONSE_PREFIX,
    StepSyntaxError,
    clean_name,
    parse_action,
    parse_capture,
    parse_expectation,
    parse_target,
)

# what a missing value should be (the text to enter for any other action)
_VALUE_HINTS = {
    "press": "a key such as Enter",
    "select": "the option to choose",
    "extract": "the name of the var to store the value in, e.g. order_id",
}


@dataclass(frozen=True)
class Broken:
    """A rule the step breaks: the field it is in, what is wrong and what would be right."""

    field: str  # action, element, region, value, expected or on_fail
    message: str
    expected: str | None = None

    def __str__(self) -> str:
        return self.message + (f" (expected {self.expected})" if self.expected else "")


@dataclass(frozen=True)
class StepParts:
    """A step's fields, parsed."""

    action: Action
    target: Target | None
    capture: Capture | None
    expected: Expectation | None
    on_fail: OnFail


def reads_response(action: Action, element: str | None) -> bool:
    """An ``extract`` of a JSON response (``response:<url pattern> <json path>``)."""
    return action is Action.EXTRACT and (element or "").strip().lower().startswith(RESPONSE_PREFIX)


def check_step(
    action: str,
    *,
    element: str | None = None,
    region: str | None = None,
    value: str | None = None,
    expected: str | None = None,
    on_fail: str | None = None,
) -> tuple[StepParts | None, list[Broken]]:
    """The step's fields parsed, or ``None`` and every rule it breaks (in field order)."""
    broken: list[Broken] = []
    try:
        act = parse_action(action)
    except StepSyntaxError as exc:
        return None, [Broken("action", str(exc), exc.expected)]
    target, capture = _target(act, element, region, value, broken)
    if act.needs_value and not value:
        hint = _VALUE_HINTS.get(act.value, "the text to enter")
        broken.append(Broken("value", f"the {act.value!r} step has no value", hint))
    if act is Action.GOTO and not value:
        url = "an absolute URL or a path like /cart.html"
        broken.append(Broken("value", "the 'goto' step has no URL", url))
    outcome = None
    if expected:
        try:
            outcome = parse_expectation(expected)
        except StepSyntaxError as exc:
            broken.append(Broken("expected", str(exc), exc.expected))
    elif act is Action.WAIT:
        broken.append(
            Broken(
                "expected",
                "the 'wait' step has no expected outcome",
                "what to wait for, e.g. text_visible:Products",
            )
        )
    mode = OnFail.ABORT
    if on_fail:
        try:
            mode = OnFail(on_fail.strip().lower())
        except ValueError:
            broken.append(Broken("on_fail", f"on_fail is {on_fail!r}", "'abort' or 'skip'"))
    if value is not None and act not in (Action.GOTO, Action.EXTRACT):
        try:
            clean_name(value, "value")
        except StepSyntaxError as exc:
            broken.append(Broken("value", str(exc), exc.expected))
    if broken:
        return None, broken
    return StepParts(act, target, capture, outcome, mode), []


def _target(
    act: Action, element: str | None, region: str | None, value: str | None, broken: list[Broken]
) -> tuple[Target | None, Capture | None]:
    """The step's target and, for an ``extract``, what it stores; the rules they break are
    added to ``broken``."""
    capture = None
    if act is Action.EXTRACT and value:
        try:
            capture, _ = parse_capture(element, value)
        except StepSyntaxError as exc:
            broken.append(Broken(exc.field or "value", str(exc), exc.expected))
    if reads_response(act, element):
        if region:
            broken.append(
                Broken(
                    "region",
                    "a response: step has no region",
                    "response:<url pattern> <json path> in the Element column alone",
                )
            )
        return None, capture  # the step reads a JSON response, not an element
    if element:
        try:
            return parse_target(element if region is None else f"{element}@{region}"), capture
        except StepSyntaxError as exc:
            broken.append(Broken("element", str(exc), exc.expected))
    elif act is Action.EXTRACT:
        broken.append(
            Broken(
                "element",
                "the 'extract' step has no element",
                "the element whose text to store (Element@Region), or "
                "response:<url pattern> <json path>",
            )
        )
    elif act.needs_element:
        broken.append(
            Broken(
                "element",
                f"the {act.value!r} step has no element",
                "the element to act on in the Element@Region column",
            )
        )
    return None, capture
