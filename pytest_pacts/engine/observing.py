"""The run's observer: told each element a step is about to act on, before the action.

Benchmarks check it against a ground-truth selector; nothing in the engine depends on it.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Locator as PWLocator

from pytest_pacts.errors import PactsError
from pytest_pacts.models import Step

__all__ = ["ActionObserver", "ObserverFailed", "tell_observer"]

#: Told the element a step is about to act on, after the gate passed and before the action.
ActionObserver = Callable[[Step, PWLocator], None]


class ObserverFailed(PactsError):
    """The run's :data:`ActionObserver` raised: the run stops there, before the action.

    The observer is the caller's code (a benchmark checking each element against its truth
    file); its error is its caller's to see, so it is not turned into a step failure that a
    benchmark would count as a miss. It says where it happened; the observer's own
    exception is chained (``__cause__``)."""


def tell_observer(observer: ActionObserver | None, step: Step, element: PWLocator) -> None:
    """Tell ``observer`` the element ``step`` is about to act on; see :class:`ObserverFailed`."""
    if observer is None:
        return
    try:
        observer(step, element)
    except Exception as exc:
        where = f"step {step.index + 1} ({step.action.value}"
        if step.target is not None:
            where += f' "{step.target.element}"'
        raise ObserverFailed(
            f"the run's observer raised {type(exc).__name__}: {exc} at {where}, "
            f"{step.source}), before the action; nothing was done to the element"
        ) from exc
