"""Data models shared by every stage. They import nothing from the rest of the package.

The requirement models (pydantic) load when one of them is first used, not when a light
module of the package is imported: ``settings.py`` reads the evidence rule's defaults from
``models/evidence.py``, and the ``pacts`` command builds its parser from the settings
without loading pydantic (tests/cli/test_cli_imports.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_pacts.models.requirement import (
        Action,
        BlockDef,
        Capture,
        Expectation,
        ExpectationKind,
        OnFail,
        Plan,
        Requirement,
        ResponseRef,
        SourceRef,
        Step,
        Target,
    )

__all__ = [
    "Action",
    "BlockDef",
    "Capture",
    "Expectation",
    "ExpectationKind",
    "OnFail",
    "Plan",
    "Requirement",
    "ResponseRef",
    "SourceRef",
    "Step",
    "Target",
]


def __getattr__(name: str) -> object:
    if name in __all__:
        from pytest_pacts.models import requirement

        return getattr(requirement, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
