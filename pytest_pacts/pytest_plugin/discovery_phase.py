"""Find first, at collection (docs/discovery.md), as pytest hooks.

- A normal run discovers the start page of every selected requirement whose plan is not
  cached (``--pacts-discover=auto``), or of every one (``always``).
- Under xdist the controller does it once in ``pytest_sessionstart`` (it never collects, so
  it reads the requirement files itself) before workers start; workers never discover at
  collection. The results travel through the store, shared by every process.
- Runners sharing one store (CI shards, several controllers) discover each requirement once:
  a discovery lease in the store picks one discoverer, the others wait and reuse its result.
- What discovering is (the POM cache, the browser, the leases) is the application layer's
  (``application.discover_plans``); this module decides when, and for which plans.
- ``--collect-only`` (IDE discovery) discovers nothing unless ``always``.
- A warm cache with unchanged plan hashes launches no browser.
- Node IDs and order never depend on discovery: it runs after collection is final.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from pytest_pacts.models import Plan
from pytest_pacts.planner import RequirementFileError, load_file
from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.collect import RequirementItem, loader_options, wants_file
from pytest_pacts.pytest_plugin.store_access import get_store

_SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".pacts", ".tox"}


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _is_xdist_controller(config: pytest.Config) -> bool:
    return (
        not _is_worker(config)
        and config.pluginmanager.hasplugin("xdist")
        and getattr(config.option, "numprocesses", None) not in (None, 0)
        and getattr(config.option, "dist", "no") != "no"
    )


def _mode(config: pytest.Config) -> str:
    mode = options.settings(config).discover
    if config.option.collectonly and mode != "always":
        return "off"
    return mode


def _say(config: pytest.Config, text: str) -> None:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"pacts: {text}")


def run_discovery(config: pytest.Config, plans: Iterable[Plan]) -> None:
    """Discover what needs it (the application layer's :func:`discover_plans`), reporting
    progress and problems on the terminal."""
    mode = _mode(config)
    if mode == "off":
        return
    # imported here: ``--collect-only`` discovers nothing and loads none of it
    from pytest_pacts.application import discover_plans
    from pytest_pacts.pytest_plugin.context_setup import context_setup

    settings = options.settings(config)
    discover_plans(
        get_store(config),
        plans,
        mode=mode,
        base_url=settings.base_url,
        browser_path=settings.browser_path,
        ttl_seconds=settings.discovery_ttl,
        say=lambda text: _say(config, text),
        contexts=context_setup(config, {}),
    )


def pytest_collection_finish(session: pytest.Session) -> None:
    # after every plugin's pytest_collection_modifyitems: -k/-m and pytest-split's
    # --splits/--group have deselected what this run will not execute
    config = session.config
    if _is_worker(config):
        return  # the controller discovered before workers started
    plans = [item.plan for item in session.items if isinstance(item, RequirementItem)]
    if plans:
        run_discovery(config, plans)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    if not _is_xdist_controller(config) or _mode(config) == "off":
        return
    plans = list(_plans_from_args(config))
    if plans:
        run_discovery(config, plans)


def _plans_from_args(config: pytest.Config) -> Iterable[Plan]:
    """The controller reads requirement files itself (xdist controllers never collect)."""
    base = config.invocation_params.dir
    seen: set[Path] = set()
    loader = loader_options(config)
    for arg in config.args:
        path = (base / arg.split("::", 1)[0]).resolve()
        files = (
            [path]
            if path.is_file()
            else sorted(
                p
                for p in path.rglob("*")
                if p.is_file() and not (_SKIP_DIRS & set(p.relative_to(path).parts))
            )
        )
        for file in files:
            if file in seen or not wants_file(config, file):
                continue
            seen.add(file)
            display = (
                file.relative_to(config.rootpath).as_posix()
                if file.is_relative_to(config.rootpath)
                else str(file)
            )
            try:
                yield from load_file(file, loader, display=display).plans
            except (RequirementFileError, OSError):
                continue  # collection in the workers reports it, located


def pytest_unconfigure(config: pytest.Config) -> None:
    from pytest_pacts.pytest_plugin.store_access import close_store

    close_store(config)
