"""A requirement's browser context in a pytest session: the fixtures and hooks that shape it.

The one :class:`~pytest_pacts.contexts.ContextSetup` of a session, used by the test at run
time (``browser_fixture.py``: pytest-playwright's ``context`` gets its options and the
project's customisation) and by find-first discovery before the tests
(``discovery_phase.py``), so both open the same page:

- the base options are pytest-playwright's ``browser_context_args`` fixture (the project's
  override in a conftest, ``--base-url``, ``--device``);
- the requirement's ``context`` comes next;
- the session of the requirement's auth profile comes last (``storage_state``);
- the project's customisation is the ``pytest_pacts_configure_context`` hook.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import pytest

from pytest_pacts.contexts import ContextSetup

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

    from pytest_pacts.models.requirement import Requirement

__all__ = ["context_setup"]


def context_setup(
    config: pytest.Config, base: Mapping[str, object], *, sessions: bool = True
) -> ContextSetup:
    """How this session makes a requirement's context, over ``base`` (the value of the
    ``browser_context_args`` fixture); with ``sessions``, a requirement with an auth profile
    starts from its profile's saved session (``auth_access.py``)."""
    hook = config.hook

    def configure(context: BrowserContext, requirement: Requirement) -> None:
        hook.pytest_pacts_configure_context(context=context, requirement=requirement)

    def session(requirement: Requirement, browser: Browser | None) -> object | None:
        from pytest_pacts.pytest_plugin.auth_access import storage_state

        return storage_state(config, requirement, browser)

    return ContextSetup(
        base=dict(base), session=session if sessions else None, configure=(configure,)
    )
