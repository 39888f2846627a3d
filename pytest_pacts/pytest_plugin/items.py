"""The requirement item: a requirement as a ``pytest.Function``.

Its own module so that collection (``collect.py``, which builds items) and execution
(``execution.py``, whose test body reads the item's plan) both import it without importing
each other.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest._code.code import TerminalRepr

from pytest_pacts.models import Plan

__all__ = ["RequirementItem"]


class RequirementItem(pytest.Function):
    """A requirement as a test. ``plan`` is the validated, block-expanded plan."""

    def __init__(self, *, plan: Plan, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.plan = plan
        for tag in plan.requirement.tags:
            self.add_marker(tag)
        if plan.requirement.context:
            # pytest-playwright reads per-item context options from this marker
            self.add_marker(pytest.mark.browser_context_args(**plan.requirement.context))
        self.user_properties.append(("pacts_plan_hash", plan.plan_hash))

    def reportinfo(self) -> tuple[Path, int, str]:
        req = self.plan.requirement
        title = f": {req.title}" if req.title else ""
        return self.path, req.source.zero_based_line, f"{req.req_id}{title}"

    def repr_failure(  # type: ignore[override]
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> str | TerminalRepr:
        # imported here: collection, which builds items, never loads the engine
        from pytest_pacts.engine.api import RequirementFailed

        if isinstance(excinfo.value, RequirementFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)
