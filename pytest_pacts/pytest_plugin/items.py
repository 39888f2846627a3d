"""The requirement item: a requirement as a ``pytest.Function``.

Its own module so that collection (``collect.py``, which builds items) and execution
(``execution.py``, whose test body reads the item's plan) both import it without importing
each other.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from _pytest._code.code import TerminalRepr

if TYPE_CHECKING:
    from pytest_pacts.models import Plan
    from pytest_pacts.planner.plan_cache import PlainPlan

__all__ = ["RequirementItem"]


class RequirementItem(pytest.Function):
    """A requirement as a test. ``planned`` is the validated, block-expanded plan as plain
    data (what collection reads, often from the plan cache); :attr:`plan` is the model,
    built when the requirement runs."""

    def __init__(self, *, planned: PlainPlan, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.planned = planned
        for tag in planned.tags:
            self.add_marker(tag)
        if planned.context:
            # pytest-playwright reads per-item context options from this marker
            self.add_marker(pytest.mark.browser_context_args(**planned.context))
        self.user_properties.append(("pacts_plan_hash", planned.plan_hash))

    @property
    def plan(self) -> Plan:
        """The requirement's plan (built from the plain data on first use: pydantic is
        imported by a run, never by collection)."""
        return self.planned.plan

    def reportinfo(self) -> tuple[Path, int, str]:
        planned = self.planned
        title = f": {planned.title}" if planned.title else ""
        return self.path, planned.line, f"{planned.req_id}{title}"

    def repr_failure(  # type: ignore[override]
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> str | TerminalRepr:
        # imported here: collection, which builds items, never loads the engine
        from pytest_pacts.engine.api import RequirementFailed

        if isinstance(excinfo.value, RequirementFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)
