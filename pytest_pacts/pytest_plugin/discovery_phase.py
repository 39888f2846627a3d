"""Find first, at collection (SPEC.md §4 "When"), as pytest hooks.

- A normal run discovers the start page of every selected requirement whose plan is not
  cached (``--pacts-discover=auto``), or of every one (``always``).
- Under xdist the controller does it once in ``pytest_sessionstart`` (it never collects, so
  it reads the requirement files itself) before workers start; workers never discover at
  collection. The results travel through the store, shared by every process.
- ``--collect-only`` (IDE discovery) discovers nothing unless ``always``.
- A warm cache with unchanged plan hashes launches no browser.
- Node IDs and order never depend on discovery: it runs after collection is final.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from pytest_pacts.discovery.planning import DiscoveryBrowser, PlanDiscovery, discover_plan
from pytest_pacts.discovery.pom import load_pom, save_pom
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
    mode = options.get_str(config, "pacts_discover") or "auto"
    if config.option.collectonly and mode != "always":
        return "off"
    return mode


def _say(config: pytest.Config, text: str) -> None:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"pacts: {text}")


def run_discovery(config: pytest.Config, plans: Iterable[Plan]) -> None:
    """Discover what needs it, report progress and problems, write the POM cache."""
    mode = _mode(config)
    if mode == "off":
        return
    store = get_store(config)
    ttl = options.get(config, "pacts_discovery_ttl")
    ttl_seconds = int(ttl) if isinstance(ttl, (int, float)) else 3600
    todo: list[Plan] = []
    cached = 0
    for plan in plans:
        state, _entry = ("miss", None) if mode == "always" else load_pom(store, plan)
        if state == "hit":
            cached += 1
        else:
            todo.append(plan)
    if not todo:
        _say(
            config,
            f"discovery: {cached} requirement(s) cached, none to discover (no browser launched)",
        )
        return
    base_url = config.getoption("base_url", default=None) or None
    done: list[PlanDiscovery] = []
    with DiscoveryBrowser(options.get_str(config, "pacts_browser_path")) as browser:
        for n, plan in enumerate(todo, start=1):
            _say(
                config,
                f"discovering {plan.req_id} ({n}/{len(todo)}) [{plan.requirement.source.render()}]",
            )
            with browser.page(_context_options(plan)) as page:
                outcome = discover_plan(page, plan, base_url)
            done.append(outcome)
            if outcome.cacheable:
                save_pom(store, outcome.entry(), ttl_seconds)
            for problem in outcome.problems:
                if problem.kind == "step":
                    # often an element shown only after earlier steps: not an error yet
                    _say(
                        config,
                        f"  {problem} (not resolved on the start page; it is "
                        "discovered again right before it runs)",
                    )
                else:
                    _say(config, f"  {problem}")
        launches = browser.launches
    found = sum(len(d.cacheable) for d in done)
    _say(
        config,
        f"discovery: {len(todo)} requirement(s) discovered ({found} step locator(s) "
        f"verified), {cached} cached; browser launched {launches} time(s)",
    )


def _context_options(plan: Plan) -> dict[str, object]:
    return dict(plan.requirement.context)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _is_worker(config):
        return  # the controller discovered before workers started
    plans = [item.plan for item in items if isinstance(item, RequirementItem)]
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
