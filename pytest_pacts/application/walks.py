"""A walk: a run of the engine without healing, a store or a record (``pacts discover
--walk``, ``pacts elements --after``): the steps are discovered and performed as the tests
perform them, and what discovery found for each is handed to ``on_discovered``."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from pytest_pacts.engine.api import Runtime, run_requirement
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.models import Plan
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.outcome import RunRecord
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS

if TYPE_CHECKING:
    from playwright.sync_api import Page


def walk_run(
    page: Page,
    plan: Plan,
    base_url: str | None,
    *,
    step_timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS,
    env: Mapping[str, str] | None = None,
    on_discovered: Callable[[int, DiscoveryResult], None] | None = None,
) -> RunRecord:
    """Run ``plan``'s steps on ``page`` with no healing (a step that fails stops the walk),
    nothing stored and nothing recorded; ``env`` replaces ``os.environ`` for value
    templates."""
    runtime = Runtime(
        env=dict(os.environ) if env is None else env,
        base_url=base_url,
        options=EngineOptions(step_timeout_ms=step_timeout_ms, max_heal_rounds=0),
        store=None,
        healer=None,
        on_discovered=on_discovered,
        record=False,
    )
    return run_requirement(plan, page, runtime)
