"""Find-first discovery before the runs (docs/discovery.md, "Before the tests"): the POM
cache, the browser, and the store's discovery leases shared by every runner."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from pytest_pacts.contexts import ContextSetup
from pytest_pacts.discovery.pom import load_pom, save_pom
from pytest_pacts.models import Plan
from pytest_pacts.settings import (
    DEFAULT_STEP_TIMEOUT_MS,
    PactsSettings,
)
from pytest_pacts.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser


#: How often a runner waiting for another runner's discovery looks at the store.
POLL_SECONDS = 0.25


# long because: one browser's lifetime: plans sorted, leases taken, pages opened and closed in order
def discover_plans(
    store: Store,
    plans: Iterable[Plan],
    *,
    mode: str = "auto",
    base_url: str | None = None,
    browser_path: str | None = None,
    ttl_seconds: int = PactsSettings.discovery_ttl,
    say: Callable[[str], None] = lambda _text: None,
    contexts: ContextSetup | Callable[[], ContextSetup] | None = None,
    browser: Callable[[], Browser] | None = None,
    timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS,
) -> None:
    """Discover the start page of each plan without a valid cached POM (every plan under
    ``mode="always"``) in one browser, once across every runner sharing ``store``
    (:func:`discover_once`), and cache what was verified; progress and problems go to
    ``say``. A warm cache launches no browser (docs/discovery.md).

    Each plan's page opens in a context made by ``contexts`` (the one the tests use:
    ``browser_context_args``, the requirement's ``context``, its auth session, the
    project's customisation; a function giving it is called only when a page is opened).
    ``browser`` gives the browser to use, called only when a page is opened (in a pytest
    session: the tests' own browser, launched or connected to as pytest-playwright does);
    ``None``: a Chromium of its own (:class:`~pytest_pacts.browser.StandaloneBrowser` with
    ``browser_path``). A plan that needs no page (nothing to find on its start page, or a
    relative URL with no base URL) asks for neither.

    ``timeout_ms`` is the run's step timeout: the start page's load, and each call into the
    page, get the patience a step gets (a page that stops responding is given up on as
    quickly as in the run)."""
    from pytest_pacts.browser import StandaloneBrowser
    from pytest_pacts.discovery.planning import PlanDiscovery, discover_plan, without_page

    todo: list[Plan] = []
    cached = 0
    for plan in plans:
        state, _entry = ("miss", None) if mode == "always" else load_pom(store, plan)
        if state == "hit":
            cached += 1
        else:
            todo.append(plan)
    if not todo:
        say(f"discovery: {cached} requirement(s) cached, none to discover (no browser launched)")
        return
    done: list[PlanDiscovery] = []
    position = {id(plan): n for n, plan in enumerate(todo, start=1)}

    made: list[ContextSetup] = []

    def setup() -> ContextSetup:
        # asked for when the first page opens: making it may start Playwright itself
        # (pytest-playwright's context arguments)
        if not made:
            made.append((contexts() if callable(contexts) else contexts) or ContextSetup())
        return made[0]

    no_session: set[str] = set()  # auth profiles whose login failed: said once
    with StandaloneBrowser(browser_path) as own:
        given: list[Browser] = []

        def current() -> Browser:
            if not given:
                given.append(browser() if browser is not None else own.browser)
            return given[0]

        def discover(plan: Plan) -> None:
            say(
                f"discovering {plan.req_id} ({position[id(plan)]}/{len(todo)}) "
                f"[{plan.requirement.source.render()}]"
            )
            from pytest_pacts.auth import AuthFailed

            # a plan that needs no page (nothing on its start page, or no URL to open) asks
            # for no browser, context nor login
            outcome = without_page(plan, base_url)
            try:
                if outcome is None:
                    with setup().page(current(), plan.requirement) as page:
                        outcome = discover_plan(page, plan, base_url, timeout_ms=timeout_ms)
            except AuthFailed as exc:
                # never discovered as the login page: left to discovery right before it runs
                if exc.profile not in no_session:
                    no_session.add(exc.profile)
                    say(f"  {exc.text}")
                say(f"  {plan.req_id}: not discovered (no session of auth profile {exc.profile!r})")
                return
            done.append(outcome)
            if outcome.cacheable:
                save_pom(store, outcome.entry(), ttl_seconds)
            for problem in outcome.problems:
                if problem.kind == "step":
                    # often an element shown only after earlier steps: not an error yet
                    say(
                        f"  {problem} (not resolved on the start page; it is "
                        "discovered again right before it runs)"
                    )
                else:
                    say(f"  {problem}")

        shared = discover_once(store, todo, discover, mode=mode, say=say)
        launches = own.launches
        used = bool(given)
    found = sum(len(d.cacheable) for d in done)
    elsewhere = (
        f", {shared.elsewhere} discovered by another runner (waited {shared.waited:.1f} s)"
        if shared.elsewhere
        else ""
    )
    if browser is None:
        where = f"browser launched {launches} time(s)"
    else:
        where = "in the tests' browser" if used else "no browser used"
    say(
        f"discovery: {shared.here} requirement(s) discovered ({found} step locator(s) "
        f"verified), {cached} cached{elsewhere}; {where}"
    )


@dataclass
class SharedDiscovery:
    """What :func:`discover_once` did: discovered here, by another runner, time waited."""

    here: int = 0
    elsewhere: int = 0
    waited: float = 0.0


# long because: the lease loop: claim, discover, wait for the others, in one visible order
def discover_once(
    store: Store,
    todo: Sequence[Plan],
    discover: Callable[[Plan], None],
    *,
    mode: str = "auto",
    say: Callable[[str], None] = lambda _text: None,
    poll_seconds: float = POLL_SECONDS,
    began: datetime | None = None,
) -> SharedDiscovery:
    """Call ``discover`` for each plan of ``todo`` that no other process sharing the store is
    discovering or has just discovered; wait for those that one is (docs/store.md,
    "Discovery leases").

    A plan is claimed through the store's discovery lease of ``(req_id, plan_hash)``: one
    claimer wins, the others wait until it is released and then read the POM cache it wrote.
    If the holder left nothing cached (nothing verified, or it crashed and its lease ran
    out), a waiter claims the lease and discovers itself. Under ``--pacts-discover=always``
    a result counts as fresh only if its lease was released after this phase began:
    ``began``, by default when this call starts. Runners that start together and share
    their results may pass the moment they started: a runner the scheduler holds until
    another has released a lease would otherwise begin after that release, and discover
    the requirement again.
    """
    leases = store.discovery_leases
    began = began or datetime.now(UTC)
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
