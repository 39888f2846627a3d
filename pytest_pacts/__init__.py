"""pytest-pacts: requirement sheets in, find-first, gated, self-healing browser tests out.

The names in ``__all__`` are the stable, public surface (docs/api.md); everything else is
internal and may change between versions. They are imported on first use, so ``import
pytest_pacts`` (the ``pacts`` command, ``pytest --collect-only`` of a project without
requirement files) does not load Playwright or pydantic.

The package tree follows the pipeline:

- ``models``     data shared by every stage (depends on nothing)
- ``planner``    requirement files -> validated, block-expanded plans with a plan hash
- ``discovery``  find-first locator discovery (one in-page scan per page state)
- ``engine``     executor with the five-point gate, healing ladder, verdict and RCA
- ``governance`` patch contract, heal proposals and the self-heal gate
- ``store``      SQLite / PostgreSQL persistence (the only place with SQL)
- ``reports``    JUnit, pytest-html, per-requirement artifacts (read projections)
- ``pytest_plugin`` the thin pytest adapter; ``cli`` the ``pacts`` command
- ``web``        ``pacts serve``: the dashboard and JSON API over the store (reads DTOs)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from pytest_pacts._version import __version__

__all__ = [
    "Candidate",
    "DiscoveryResult",
    "Failure",
    "FailureType",
    "Fingerprint",
    "GateSnapshot",
    "HealAttempt",
    "HealRung",
    "Locator",
    "NoBrowserError",
    "PactsError",
    "PactsHealWarning",
    "PactsStepError",
    "PactsSteps",
    "PactsStoreWarning",
    "PactsWarning",
    "PageUnresponsive",
    "Rca",
    "RcaClass",
    "RelocatedElement",
    "RequirementFailed",
    "RequirementFileError",
    "RunRecord",
    "StepRecord",
    "StoreError",
    "Strategy",
    "Unresolved",
    "Verdict",
    "__version__",
    "discover_element",
    "register_bridge",
    "relocate_element",
]

# public name -> the module that defines it
_WHERE: dict[str, str] = {
    # locators and what discovery found
    "Candidate": "pytest_pacts.models.locator",
    "DiscoveryResult": "pytest_pacts.models.locator",
    "Fingerprint": "pytest_pacts.models.locator",
    "GateSnapshot": "pytest_pacts.models.locator",
    "Locator": "pytest_pacts.models.locator",
    "Strategy": "pytest_pacts.models.locator",
    "Unresolved": "pytest_pacts.models.locator",
    # verdicts
    "Failure": "pytest_pacts.models.outcome",
    "FailureType": "pytest_pacts.models.outcome",
    "HealAttempt": "pytest_pacts.models.outcome",
    "HealRung": "pytest_pacts.models.outcome",
    "Rca": "pytest_pacts.models.outcome",
    "RcaClass": "pytest_pacts.models.outcome",
    "RunRecord": "pytest_pacts.models.outcome",
    "StepRecord": "pytest_pacts.models.outcome",
    "Verdict": "pytest_pacts.models.outcome",
    # errors and warnings
    "PactsError": "pytest_pacts.errors",
    "PactsWarning": "pytest_pacts.errors",
    "PactsHealWarning": "pytest_pacts.errors",
    "PactsStoreWarning": "pytest_pacts.errors",
    "NoBrowserError": "pytest_pacts.browser",
    "PageUnresponsive": "pytest_pacts.runtime.bounded",
    "RequirementFailed": "pytest_pacts.engine.api",
    "RequirementFileError": "pytest_pacts.planner.errors",
    "StoreError": "pytest_pacts.store.errors",
    "PactsStepError": "pytest_pacts.pytest_plugin.steps_fixture",
    # the ``pacts`` fixture's type
    "PactsSteps": "pytest_pacts.pytest_plugin.steps_fixture",
    # library entry points
    "RelocatedElement": "pytest_pacts.elements",
    "discover_element": "pytest_pacts.elements",
    "relocate_element": "pytest_pacts.elements",
    "register_bridge": "pytest_pacts.discovery",
}


def __getattr__(name: str) -> object:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'pytest_pacts' has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:
    from pytest_pacts.browser import NoBrowserError
    from pytest_pacts.discovery import register_bridge
    from pytest_pacts.elements import RelocatedElement, discover_element, relocate_element
    from pytest_pacts.engine.api import RequirementFailed
    from pytest_pacts.errors import (
        PactsError,
        PactsHealWarning,
        PactsStoreWarning,
        PactsWarning,
    )
    from pytest_pacts.models.locator import (
        Candidate,
        DiscoveryResult,
        Fingerprint,
        GateSnapshot,
        Locator,
        Strategy,
        Unresolved,
    )
    from pytest_pacts.models.outcome import (
        Failure,
        FailureType,
        HealAttempt,
        HealRung,
        Rca,
        RcaClass,
        RunRecord,
        StepRecord,
        Verdict,
    )
    from pytest_pacts.planner.errors import RequirementFileError
    from pytest_pacts.pytest_plugin.steps_fixture import PactsStepError, PactsSteps
    from pytest_pacts.runtime.bounded import PageUnresponsive
    from pytest_pacts.store.errors import StoreError
