"""pytest-pacts' own hooks, added with ``pytest_addhooks``.

Implement them in a conftest or a plugin like any pytest hook. Every name starts with
``pytest_``: pytest's plugin manager only treats ``pytest_``-prefixed names as hooks, so an
implementation by any other name would silently never be called.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # the engine is loaded when a requirement runs, not at start-up
    from playwright.sync_api import BrowserContext

    from pytest_pacts.engine.contracts import HealContext
    from pytest_pacts.models.locator import Locator
    from pytest_pacts.models.requirement import Requirement


@pytest.hookspec
def pytest_pacts_heal_candidates(ctx: HealContext) -> Sequence[Locator]:  # type: ignore[empty-body]
    """Propose locators for a failing step the built-in healing rungs could not heal.

    Called by the healing ladder's extension rung (after the built-in rungs declined), off
    by default: it is called at most ``pacts_extension_budget`` times per run, with all
    implementations' answers joined (``docs/healing.md``, "The extension hook"). ``ctx``
    holds the page, the plan, the step's state (failed locator, alternates, fingerprint),
    the failure and the round. Return
    structured locators, best first, with ``confidence`` set; return ``[]`` for nothing.
    Never act on the page. Every proposal still has to pass the abstain rule (threshold,
    margin over the runner-up, a type that fits the action) and the five-point gate.
    """


@pytest.hookspec
def pytest_pacts_configure_context(context: BrowserContext, requirement: Requirement) -> None:
    """Customise a new browser context of a requirement before its first page opens.

    Called for every context a requirement's page lives in: the test's own at run time
    (pytest-playwright's ``context``) and the one find-first discovery opens before the tests,
    so a page that needs it (routes answering CDN URLs from local files, headers set with
    ``context.set_extra_http_headers``, ``context.add_init_script``, cookies) is discovered
    as the test will see it. ``requirement`` is the requirement as written (``req_id``,
    ``tags``, ``context``, ``url``). Options of ``browser.new_context`` belong in
    pytest-playwright's ``browser_context_args`` fixture, which both use too
    (``docs/user-guide.md``, "Browser context"). Return nothing.
    """
