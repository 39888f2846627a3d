"""Data models shared by every stage. They import nothing from the rest of the package."""

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
