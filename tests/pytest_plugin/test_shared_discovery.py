"""Runners sharing one store discover each requirement once (issue 11 item 6).

``discover_once`` is what collection-time discovery calls: several runners (threads here,
each with its own store connection, as CI runners each have theirs) go through the same cold
requirements; the store's discovery leases pick one discoverer per requirement and the others
reuse its POM entry. The pytester case shows a session waiting for another runner's lease.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pytest_pacts.application import SharedDiscovery, discover_once
from pytest_pacts.discovery.planning import PomEntry
from pytest_pacts.discovery.pom import save_pom
from pytest_pacts.models import Plan
from pytest_pacts.planner import load_file
from pytest_pacts.store import open_store

REQS = "requirements:\n" + "".join(
    f"  - req_id: REQ-{n}\n    url: /\n    steps: ['Username@LoginForm | fill | user{n}']\n"
    for n in range(12)
)


def _plans(tmp_path: Path) -> list[Plan]:
    path = tmp_path / "many.req.yaml"
    path.write_text(REQS)
    return list(load_file(path).plans)


def _runners(
    target: str, plans: list[Plan], mode: str, count: int
) -> tuple[Counter[str], list[SharedDiscovery]]:
    discovered: Counter[str] = Counter()
    results: list[SharedDiscovery] = []
    lock = threading.Lock()
    barrier = threading.Barrier(count)

    def runner(offset: int) -> None:
        with open_store(target) as store:

            def discover(plan: Plan) -> None:
                time.sleep(0.05)  # a browser would be here
                with lock:
                    discovered[plan.req_id] += 1
                entry = PomEntry(
                    req_id=plan.req_id, plan_hash=plan.plan_hash, url="/", discovered_at="now"
                )
                save_pom(store, entry, 3600)

            # each runner starts at another place in the list, as shards would
            mine = plans[offset:] + plans[:offset]
            # the runners begin their phase together: one the scheduler holds past another's
            # release must not count that release as from before its phase
            began = datetime.now(UTC)
            barrier.wait(timeout=30)
            result = discover_once(store, mine, discover, mode=mode, poll_seconds=0.02, began=began)
            with lock:
                results.append(result)

    threads = [threading.Thread(target=runner, args=(n * 3,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(results) == count
    return discovered, results


@pytest.mark.parametrize("mode", ["auto", "always"])
def test_four_runners_discover_each_requirement_once(tmp_path: Path, mode: str) -> None:
    plans = _plans(tmp_path)
    target = str(tmp_path / "shared.db")
    discovered, results = _runners(target, plans, mode, 4)
    assert discovered == Counter({p.req_id: 1 for p in plans})
    assert sum(r.here for r in results) == len(plans)
    assert all(r.here + r.elsewhere == len(plans) for r in results)
    with open_store(target) as store:
        rows = store.discovery_leases.leases()
        assert {r.req_id: r.discoveries for r in rows} == {p.req_id: 1 for p in plans}
        assert all(r.released_at is not None for r in rows)


def test_a_later_runner_in_auto_mode_reuses_and_in_always_mode_discovers_again(
    tmp_path: Path,
) -> None:
    plans = _plans(tmp_path)[:3]
    target = str(tmp_path / "shared.db")
    _runners(target, plans, "auto", 1)
    again, (auto,) = _runners(target, plans, "auto", 1)
    # run_discovery leaves cached plans out of todo; given them anyway, nothing is rediscovered
    assert not again and auto.elsewhere == 3
    fresh, (always,) = _runners(target, plans, "always", 1)
    assert fresh == Counter({p.req_id: 1 for p in plans}) and always.here == 3


def test_a_session_waits_for_another_runners_lease_and_reuses_its_result(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(
        ".req.yaml",
        one="requirements:\n  - req_id: REQ-ONE\n    url: http://127.0.0.1:9/\n    steps: ['Username | fill | ada']\n",
    )
    pytester.makeini("[pytest]\npacts_store = store.db\n")
    (plan,) = load_file(pytester.path / "one.req.yaml").plans
    store_path = str(pytester.path / "store.db")
    with open_store(store_path) as store:
        assert store.discovery_leases.claim(
            plan.req_id,
            plan.plan_hash,
            holder="runner-2",
            host="ci-runner-2",
            lease=timedelta(minutes=1),
        ).granted

    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--pacts-dry-run",
         "--pacts-discover=always"],
        cwd=pytester.path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    out: list[str] = []
    try:
        for line in proc.stdout:
            out.append(line.rstrip("\n"))
            if line.startswith("pacts: waiting for"):
                # the other runner finishes only now: this session is certainly waiting
                time.sleep(0.5)
                with open_store(store_path) as store:
                    entry = PomEntry(
                        req_id=plan.req_id, plan_hash=plan.plan_hash, url="/", discovered_at="now"
                    )
                    save_pom(store, entry, 3600)
                    assert store.discovery_leases.release(
                        plan.req_id, plan.plan_hash, discovered=True, holder="runner-2"
                    )
    finally:
        proc.wait(timeout=120)
    lines = [line for line in out if line.startswith("pacts:")]
    assert lines[0] == (
        "pacts: waiting for 1 requirement(s) being discovered by another runner sharing the "
        "store (first: REQ-ONE by runner-2)"
    ), lines
    assert lines[-1].startswith(
        "pacts: discovery: 0 requirement(s) discovered (0 step locator(s) verified), 0 cached, "
        "1 discovered by another runner (waited "
    ), lines
    assert lines[-1].endswith("s); no browser used")
    assert not any("discovering" in line for line in lines)
