"""Find first, at collection (docs/discovery.md), as pytest hooks.

- A normal run discovers the start page of every selected requirement whose plan is not
  cached (``--pacts-discover=auto``), or of every one (``always``).
- Under xdist the controller does it once in ``pytest_sessionstart`` (it never collects, so
  it reads the requirement files itself) before workers start; workers never discover at
  collection. The results travel through the store, shared by every process.
- Runners sharing one store (CI shards, several controllers) discover each requirement once:
  a discovery lease in the store picks one discoverer, the others wait and reuse its result.
- ``--collect-only`` (IDE discovery) discovers nothing unless ``always``.
- A warm cache with unchanged plan hashes launches no browser.
- Node IDs and order never depend on discovery: it runs after collection is final.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pytest_pacts.browser import StandaloneBrowser
from pytest_pacts.discovery.planning import PlanDiscovery, discover_plan
from pytest_pacts.discovery.pom import load_pom, save_pom
from pytest_pacts.models import Plan
from pytest_pacts.planner import RequirementFileError, load_file
from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.collect import RequirementItem, loader_options, wants_file
from pytest_pacts.pytest_plugin.store_access import get_store
from pytest_pacts.store import Store

#: How often a runner waiting for another runner's discovery looks at the store.
_POLL_SECONDS = 0.25
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
    """Discover what needs it, report progress and problems, write the POM cache."""
    mode = _mode(config)
    if mode == "off":
        return
    settings = options.settings(config)
    store = get_store(config)
    ttl_seconds = settings.discovery_ttl
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
    base_url = settings.base_url
    done: list[PlanDiscovery] = []
    position = {id(plan): n for n, plan in enumerate(todo, start=1)}

    with StandaloneBrowser(settings.browser_path) as browser:

        def discover(plan: Plan) -> None:
            _say(
                config,
                f"discovering {plan.req_id} ({position[id(plan)]}/{len(todo)}) "
                f"[{plan.requirement.source.render()}]",
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

        shared = discover_once(store, todo, discover, mode=mode, say=lambda t: _say(config, t))
        launches = browser.launches
    found = sum(len(d.cacheable) for d in done)
    elsewhere = (
        f", {shared.elsewhere} discovered by another runner (waited {shared.waited:.1f} s)"
        if shared.elsewhere
        else ""
    )
    _say(
        config,
        f"discovery: {shared.here} requirement(s) discovered ({found} step locator(s) "
        f"verified), {cached} cached{elsewhere}; browser launched {launches} time(s)",
    )


@dataclass
class SharedDiscovery:
    """What :func:`discover_once` did: discovered here, by another runner, time waited."""

    here: int = 0
    elsewhere: int = 0
    waited: float = 0.0


def discover_once(
    store: Store,
    todo: Sequence[Plan],
    discover: Callable[[Plan], None],
    *,
    mode: str = "auto",
    say: Callable[[str], None] = lambda _text: None,
    poll_seconds: float = _POLL_SECONDS,
) -> SharedDiscovery:
    """Call ``discover`` for each plan of ``todo`` that no other process sharing the store is
    discovering or has just discovered; wait for those that one is (docs/store.md,
    "Discovery leases").

    A plan is claimed through the store's discovery lease of ``(req_id, plan_hash)``: one
    claimer wins, the others wait until it is released and then read the POM cache it wrote.
    If the holder left nothing cached (nothing verified, or it crashed and its lease ran
    out), a waiter claims the lease and discovers itself. Under ``--pacts-discover=always``
    a result counts as fresh only if its lease was released after this phase began.
    """
    leases = store.discovery_leases
    began = datetime.now(UTC)
    result = SharedDiscovery()
    pending = deque(todo)
    waiting: list[Plan] = []
    waiting_since: float | None = None
    while pending or waiting:
        if pending:
            plan = pending.popleft()
            claim = leases.claim(plan.req_id, plan.plan_hash)
            if not claim.granted:
                waiting.append(plan)
                continue
            fresh = mode != "always" or (
                claim.previous_released_at is not None and claim.previous_released_at >= began
            )
            if fresh and load_pom(store, plan)[0] == "hit":
                leases.release(plan.req_id, plan.plan_hash, discovered=False)
                result.elsewhere += 1
                continue
            discovered = False
            try:
                discover(plan)
                discovered = True
            finally:
                leases.release(plan.req_id, plan.plan_hash, discovered=discovered)
            result.here += 1
            continue
        if waiting_since is None:
            waiting_since = time.monotonic()
            first = leases.get(waiting[0].req_id, waiting[0].plan_hash)
            holder = f" (first: {waiting[0].req_id} by {first.holder})" if first else ""
            say(
                f"waiting for {len(waiting)} requirement(s) being discovered by another "
                f"runner sharing the store{holder}"
            )
        time.sleep(poll_seconds)
        still: list[Plan] = []
        for plan in waiting:
            lease = leases.get(plan.req_id, plan.plan_hash)
            if lease is not None and not leases.is_free(lease):
                still.append(plan)
            elif load_pom(store, plan)[0] == "hit":
                result.elsewhere += 1
            else:
                pending.append(plan)  # its holder left nothing cached: discover it here
        waiting = still
    if waiting_since is not None:
        result.waited = time.monotonic() - waiting_since
    return result


def _context_options(plan: Plan) -> dict[str, object]:
    return dict(plan.requirement.context)


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
