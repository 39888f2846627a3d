"""Code run in worker processes by the concurrency and crash tests.

Kept apart from the test modules so the workers import only the store, not a test module.
"""

from __future__ import annotations

import multiprocessing
import os
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier

from pytest_pacts.models import Plan
from pytest_pacts.store import HealingEvidence, SessionConflict, open_store

RUNS_PER_WORKER = 15
STEPS_PER_RUN = 3
EVENTS_PER_RUN = 2
SHARED_ATTEMPTS = 6
LEASES = 20


def context() -> ForkServerContext:
    """How the tests start these workers: each forked from one clean server process that
    imported this module (and so the store) once, not the test's own process (its
    Playwright and store threads) and not a new interpreter per worker (a spawned child
    started Python and imported pytest and the store again: about half a second of CPU
    each, for some fifty workers in the two modules). Each worker is still an OS process
    of its own with its own connections."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([__name__])
    return ctx


def open_only(target: str, barrier: Barrier) -> int:
    """Open (and so migrate) a possibly brand-new store at the same moment as the others."""
    barrier.wait(timeout=60)
    with open_store(target) as store:
        return store.schema_version()


def open_each(targets: list[str], barrier: Barrier) -> list[int]:
    """Open each of ``targets`` in turn, a possibly brand-new store each time, at the same
    moment as the others (one round per target: the barrier releases every round)."""
    versions = []
    for target in targets:
        versions.append(open_only(target, barrier))
    return versions


def write_load(target: str, worker: int, barrier: Barrier) -> tuple[int, int]:
    """Write runs, steps, artifacts, metrics, audit events and healing records, all
    workers at once; also race for one shared session. Returns (shared wins, conflicts)."""
    with open_store(target) as store:
        barrier.wait(timeout=60)
        for n in range(RUNS_PER_WORKER):
            run = store.runs.begin(f"session-{worker}", f"REQ-{n}", plan_hash=f"h{n}")
            for step in range(STEPS_PER_RUN):
                store.runs.add_step(
                    run.id,
                    step_index=step,
                    action="click",
                    status="passed",
                    element_key=f"Button{step}@Form",
                    locator={"strategy": "role", "name": f"w{worker}r{n}s{step}"},
                    gate={"unique": True, "visible": True},
                )
            store.runs.add_artifact(run.id, "screenshot", f"/tmp/w{worker}-{n}.png")
            store.runs.add_metric(run.id, "duration_ms", float(n))
            for e in range(EVENTS_PER_RUN):
                store.audit.record(
                    "RUN_STEP_LOGGED",
                    {"worker": worker, "run": n, "event": e},
                    req_id=f"REQ-{n}",
                    exception_fingerprint=f"fp-{worker}",
                )
            store.healing.record(
                "Shared@Page",
                {"css": "#shared"},
                HealingEvidence("http://127.0.0.1/", {"css": "#old"}, "none"),
            )
            store.runs.finish(run.id, verdict="pass")
        # Every worker appends one version to the same recipe at about the same time.
        store.recipes.add_version("REQ-RECIPE", {"worker": worker}, plan_hash="shared")
        wins = conflicts = 0
        for _ in range(SHARED_ATTEMPTS):
            try:
                shared = store.runs.begin("shared-session", "REQ-SHARED")
            except SessionConflict:
                conflicts += 1
                continue
            wins += 1
            store.runs.add_step(shared.id, step_index=0, action="fill", status="passed")
            store.runs.finish(shared.id, verdict="pass")
        return wins, conflicts


def claim_discovery(target: str, worker: int, barrier: Barrier) -> list[str]:
    """Claim the same discovery leases as every other worker, at once; once all have tried,
    release what was won as discovered. Returns the requirements this worker won."""
    won: list[str] = []
    with open_store(target) as store:
        leases = store.discovery_leases
        barrier.wait(timeout=60)
        for n in range(LEASES):
            claim = leases.claim(f"REQ-{n}", "h", holder=f"worker-{worker}")
            if claim.granted:
                won.append(f"REQ-{n}")
        barrier.wait(timeout=60)  # nobody releases before everyone has tried every lease
        for req_id in won:
            assert leases.release(req_id, "h", discovered=True, holder=f"worker-{worker}")
    return won


def discover_always(target: str, worker: int, barrier: Barrier) -> list[str]:
    """Collection-time discovery under ``--pacts-discover=always`` (``discover_once``) over
    the same cold requirements as every other worker, each starting at another place in the
    list as shards would. Returns the requirements this worker discovered.

    The workers begin their phase together (a moment each takes before the barrier, as
    runners started at once would), and worker 0 starts claiming (its first three) only
    once the others are done: as a process the scheduler holds past another's release can be. Its phase was
    taken to begin when it called ``discover_once``, after that release, and it discovered
    the requirement again (the likely cause of this test's one failure, at load 30)."""
    import time
    from datetime import UTC, datetime

    from pytest_pacts.application import discover_once
    from pytest_pacts.discovery.planning import PomEntry
    from pytest_pacts.discovery.pom import save_pom

    done: list[str] = []
    with open_store(target) as store:
        plans = [_plan(n) for n in range(LEASES)]
        mine = plans[worker * 3 :] + plans[: worker * 3]

        def discover(plan: Plan) -> None:
            time.sleep(0.02)  # a browser would be here
            done.append(plan.req_id)
            entry = PomEntry(
                req_id=plan.req_id, plan_hash=plan.plan_hash, url="/", discovered_at="now"
            )
            save_pom(store, entry, 3600)

        began = datetime.now(UTC)
        barrier.wait(timeout=60)
        if worker == 0:
            barrier.wait(timeout=60)  # the others have done their whole phase
            mine = mine[:3]  # enough to see whether it discovers again, at a tenth the cost
        discover_once(store, mine, discover, mode="always", poll_seconds=0.01, began=began)
        if worker != 0:
            barrier.wait(timeout=60)
    return done


def _plan(n: int) -> Plan:
    from pytest_pacts.models import SourceRef
    from pytest_pacts.planner.inline import inline_plan, inline_step

    source = SourceRef(path="leases.req.yaml", line=n + 1)
    step = inline_step(0, None, "wait", None, "url_contains:/", "abort", source, env={})
    return inline_plan(f"REQ-{n}", "/", (step,), source)


def die_mid_transaction(target: str, conn: Connection) -> None:
    """Open a transaction, write many rows in it, tell the parent, then wait to be killed."""
    with open_store(target) as store, store.transaction():
        run = store.runs.begin("crash-session", "REQ-CRASH")
        for step in range(50):
            store.runs.add_step(run.id, step_index=step, action="click", status="passed")
        store.audit.record("CRASH_TEST", {"pid": os.getpid()}, req_id="REQ-CRASH")
        store.recipes.add_version("REQ-CRASH", {"steps": [1, 2, 3]}, plan_hash="crash")
        conn.send("in-transaction")
        conn.recv()  # never answered: the parent sends SIGKILL instead


def report(queue: Queue[tuple[str, object]], name: str, *args: object) -> None:
    """Run ``name(*args)`` and put ``("ok", result)`` or ``("error", text)`` on ``queue``."""
    try:
        queue.put(("ok", globals()[name](*args)))
    except BaseException as exc:  # the parent asserts on it; a child traceback is lost
        queue.put(("error", f"{type(exc).__name__}: {exc}"))
