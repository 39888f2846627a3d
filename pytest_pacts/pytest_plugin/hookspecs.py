"""pytest-pacts' own hooks, added with ``pytest_addhooks`` (PLATFORM.md plugin conventions).

Implement them in a conftest or a plugin like any pytest hook.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pytest_pacts.engine.contracts import HealContext
from pytest_pacts.models.locator import Locator


@pytest.hookspec
def pacts_heal_candidates(ctx: HealContext) -> Sequence[Locator]:  # type: ignore[empty-body]
    """Propose locators for a failing step the built-in healing rungs could not heal.

    Rung 6 of the healing ladder (SPEC.md §6), off by default: it is called at most
    ``pacts_extension_budget`` times per run. ``ctx`` holds the page, the plan, the step's
    state (failed locator, alternates, fingerprint), the failure and the round. Return
    structured locators, best first, with ``confidence`` set; return ``[]`` for nothing.
    Never act on the page. Every proposal still has to pass the abstain rule (threshold,
    margin over the runner-up, a type that fits the action) and the five-point gate.
    """
