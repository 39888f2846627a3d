"""The value a discovery scan is told with a step's target: a ``select`` step's option.

A select step's value is evidence about its element (docs/discovery.md, "The evidence
rule"): a native ``<select>`` or an ARIA listbox whose options include none the value names
cannot take the step (HTML's option list; Playwright's ``select_option`` fails on a select
without the option), so among elements tied at the deciding level it is no rival of one that
can (``runtime/js/resolve.js``, ``lacks``). Only a value written out in the sheet is sent: a
template (``{{vars.size}}``) is resolved only when the step acts, so its option is unknown
here and nothing is told apart by it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

from pytest_pacts.discovery.scans import scanned_action
from pytest_pacts.models.requirement import Action, Step, Target
from pytest_pacts.planner.templating import TEMPLATE_RE

K = TypeVar("K", bound=Hashable)


def offered_value(step: Step) -> str | None:
    """The option a ``select`` step names, as written; ``None`` for another action, no
    value, or a value with a template in it."""
    if step.action is not Action.SELECT or not step.value or TEMPLATE_RE.search(step.value):
        return None
    return step.value


def values_of(steps: Iterable[tuple[K, Step]]) -> dict[K, str]:
    """``{key: option}`` for the keyed steps that name one (:func:`offered_value`)."""
    return {key: value for key, step in steps if (value := offered_value(step)) is not None}


def scanned_steps(
    targets: Sequence[tuple[K, Target, Action]], at_turn: int, values: Mapping[K, str] | None
) -> list[dict[str, object]]:
    """The steps as the in-page scan reads them (``js/resolve.js``): keyed by their place,
    the action the scan resolves for (``scans.scanned_action``), whether each is the step
    that acts next (the first ``at_turn``), and a select step's option (``values``)."""
    steps: list[dict[str, object]] = []
    for i, (key, target, action) in enumerate(targets):
        step: dict[str, object] = {
            "key": str(i),
            "element": target.element,
            "region": target.region,
            "ordinal": target.ordinal,
            "action": scanned_action(action),
            "at_turn": i < at_turn,
        }
        value = (values or {}).get(key)
        if value is not None:
            step["value"] = value
        steps.append(step)
    return steps
