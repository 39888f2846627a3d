"""A requirement's browser context in a pytest session: the fixtures and hooks that shape it.

The one :class:`~pytest_pacts.contexts.ContextSetup` of a session, used by the test at run
time (``browser_fixture.py``: pytest-playwright's ``context`` gets its options and the
project's customisation) and by find-first discovery before the tests
(``discovery_phase.py``), so both open the same page:

- the base options are pytest-playwright's ``browser_context_args`` fixture (the project's
  override in a conftest, ``--base-url``, ``--device``);
- the requirement's ``context`` comes next;
- the project's customisation is the ``pytest_pacts_configure_context`` hook.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import pytest

from pytest_pacts.contexts import ContextSetup
from pytest_pacts.models.requirement import Requirement

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

__all__ = ["context_setup"]


def context_setup(config: pytest.Config, base: Mapping[str, object]) -> ContextSetup:
    """How this session makes a requirement's context, over ``base`` (the value of the
    ``browser_context_args`` fixture)."""
    hook = config.hook

    def configure(context: BrowserContext, requirement: Requirement) -> None:
        hook.pytest_pacts_configure_context(context=context, requirement=requirement)

    return ContextSetup(base=dict(base), configure=(configure,))
