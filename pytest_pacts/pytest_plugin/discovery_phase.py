"""Find first, before the first requirement runs (docs/discovery.md), as a session fixture.

- A run discovers the start page of every selected requirement whose plan is not cached
  (``--pacts-discover=auto``), or of every one (``always``), in the session-scoped autouse
  fixture ``_pacts_find_first``: it runs before the first test, after collection is final
  (``-k``, ``-m``, pytest-split's ``--group`` have deselected what will not run), so node IDs
  and order never depend on discovery.
- Being a fixture, it opens pages exactly as the tests do: in pytest-playwright's ``browser``
  (launched with ``browser_type_launch_args``, or connected to through ``connect_options``),
  with ``browser_context_args``, the requirement's ``context`` and the
  ``pytest_pacts_configure_context`` hook (``context_setup.py``), against the ``base_url``
  fixture. Without pytest-playwright (``-p no:playwright`` with ``--pacts-dry-run``) it
  launches a Chromium of its own.
- Under xdist every worker runs it; a discovery lease per requirement in the store (shared by
  every process, and by runners sharing one store: CI shards) picks one discoverer, the
  others wait and reuse its result. The controller prints each worker's lines at the end of
  the run.
- What discovering is (the POM cache, the leases) is the application layer's
  (``application.discover_plans``); this module decides when, and for which plans.
- ``--collect-only`` (IDE discovery) runs no fixture, so it never discovers and opens no
  browser. A warm cache with unchanged plan hashes launches no browser either.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.collect import RequirementItem
from pytest_pacts.pytest_plugin.progress import WORKER_LINES
from pytest_pacts.pytest_plugin.progress import say as _say
from pytest_pacts.pytest_plugin.store_access import get_store
from pytest_pacts.settings import base_url_of

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from pytest_pacts.contexts import ContextSetup
    from pytest_pacts.models import Plan


@pytest.fixture(scope="session", autouse=True)
def _pacts_find_first(request: pytest.FixtureRequest) -> Iterator[None]:
    """Discover what needs it before the first test (:func:`discover_plans`), in the tests'
    browser and contexts; a warm cache asks for no browser."""
    config = request.config
    mode = options.settings(config).discover
    plans = [item.plan for item in request.session.items if isinstance(item, RequirementItem)]
    if mode != "off" and plans:
        try:
            _discover(request, plans, mode)
        except Exception as exc:  # the tests still run: each discovers its steps itself
            first = (str(exc).splitlines() or [type(exc).__name__])[0]
            _say(config)(
                f"discovery before the tests failed: {first}; each requirement discovers "
                "its steps when it runs"
            )
    yield


def _discover(request: pytest.FixtureRequest, plans: list[Plan], mode: str) -> None:
    # imported here: --collect-only runs no fixture and loads none of it
    from pytest_pacts.application import discover_plans
    from pytest_pacts.pytest_plugin.context_setup import context_setup

    config = request.config
    settings = options.settings(config)
    playwright = config.pluginmanager.hasplugin("playwright")
    fixture = request.getfixturevalue("base_url") if playwright else None
    base_url = base_url_of(fixture, settings.base_url)

    def contexts() -> ContextSetup:
        if any(plan.requirement.auth for plan in plans):
            from pytest_pacts.pytest_plugin.auth_access import use_base_url

            use_base_url(config, base_url)  # where a profile without its own logs in
        base = request.getfixturevalue("browser_context_args") if playwright else {}
        # what records a test's artifacts (video, HAR) is the test's, not discovery's
        shaping = {k: v for k, v in base.items() if not k.startswith("record_")}
        return context_setup(config, shaping)

    def browser() -> Browser:
        found: Browser = request.getfixturevalue("browser")
        return found

    discover_plans(
        get_store(config),
        plans,
        mode=mode,
        base_url=base_url,
        browser_path=settings.browser_path,
        ttl_seconds=settings.discovery_ttl,
        say=_say(config),
        contexts=contexts,
        browser=browser if playwright else None,
        timeout_ms=settings.step_timeout * 1000,
    )


_FROM_WORKERS = pytest.StashKey[list[str]]()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist controller: keep what a worker's discovery said, for the summary."""
    lines = getattr(node, "workeroutput", {}).get(WORKER_LINES) or []
    name = getattr(getattr(node, "gateway", None), "id", "worker")
    kept = node.config.stash.setdefault(_FROM_WORKERS, [])
    kept.extend(f"pacts: [{name}] {line}" for line in lines)


@pytest.hookimpl(tryfirst=True)
def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """xdist controller: what each worker's discovery said (a worker's terminal is not
    shown)."""
    for line in config.stash.get(_FROM_WORKERS, []):
        terminalreporter.write_line(line)


def pytest_unconfigure(config: pytest.Config) -> None:
    from pytest_pacts.pytest_plugin.store_access import close_store

    close_store(config)
