"""The extension hook of the healing ladder (SPEC.md §6 rung 6), as a pluggy hookspec.

The pytest layer adds this module with ``pluginmanager.add_hookspecs`` and passes the hook
caller to the ladder as an :data:`~pytest_pacts.engine.contracts.ExtensionHealer`:
``HealingLadder(extensions=[lambda ctx: [loc for r in hook.pacts_heal_candidates(ctx=ctx)
for loc in r]])``. Off by default: the ladder calls it at most ``extension_budget`` times
per run (``EngineOptions.extension_budget``, default 0). See ``docs/healing.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pluggy

from pytest_pacts.engine.contracts import HealContext
from pytest_pacts.models.locator import Locator

hookspec = pluggy.HookspecMarker("pacts")


@hookspec
def pacts_heal_candidates(ctx: HealContext) -> Sequence[Locator]:
    """Propose locators for the element of a failing step that the built-in rungs could not
    heal (an LLM-backed plugin, a team's own heuristics).

    ``ctx`` holds the page, the plan, the step's state (failed locator, alternates,
    fingerprint), the failure and the round. Return structured locators, best first, each
    with ``confidence`` set to how sure the implementation is (0..1); return ``[]`` when
    there is nothing to propose. Never act on the page.

    The ladder treats every proposal like any relocation: it must resolve to exactly one
    element, the abstain rule applies (the best distinct element's confidence above
    ``heal_threshold`` and ahead of the next one by ``heal_margin``, an element type that
    fits the action) and the five-point gate must pass. An exception raised here is
    recorded in the round's reason and the rung declines.
    """
    raise NotImplementedError  # pragma: no cover - a specification, pluggy never calls it
