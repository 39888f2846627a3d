"""The auth sessions of a pytest process (docs/user-guide.md, "Log in once").

One :class:`~pytest_pacts.auth.Sessions` per process, built by the application layer the
first time a requirement with an auth profile needs a context (collection-time discovery or
its test). Every process of a run shares the run id (a failed login is not retried in it);
an xdist worker takes the account of its number (rotation).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.store_access import get_store
from pytest_pacts.pytest_plugin.workers import worker_slot

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from pytest_pacts.auth import Sessions
    from pytest_pacts.models.requirement import Requirement

__all__ = ["sessions", "storage_state"]

_KEY = pytest.StashKey["Sessions"]()


def sessions(config: pytest.Config) -> Sessions:
    """This process's auth sessions (built on first use)."""
    found = config.stash.get(_KEY, None)
    if found is not None:
        return found
    from pytest_pacts.application import auth_sessions
    from pytest_pacts.pytest_plugin.progress import say
    from pytest_pacts.pytest_plugin.reporting import run_label
    from pytest_pacts.pytest_plugin.validation import loader_options

    built = auth_sessions(
        options.settings(config),
        config.rootpath,
        lambda: get_store(config),
        loader=loader_options(config),
        run_id=run_label(config) or "",
        slot=worker_slot(config),
        say=say(config),  # past pytest's capture; a worker's lines go to the controller
    )
    config.stash[_KEY] = built
    return built


def storage_state(
    config: pytest.Config, requirement: Requirement, browser: Browser | None
) -> object | None:
    """The storage state ``requirement``'s context starts from (``None``: no auth profile);
    raises :class:`~pytest_pacts.auth.AuthFailed`."""
    if not requirement.auth:
        return None
    return sessions(config).storage_state(requirement, browser)


def use_base_url(config: pytest.Config, base_url: str | None) -> None:
    """The run's base URL as the ``base_url`` fixture gives it (a project may override the
    fixture): a profile without its own ``base_url`` logs in there."""
    if base_url:
        sessions(config).base_url = base_url
