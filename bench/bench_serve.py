"""Benchmark: ``pacts serve`` API latency for the runs list on a store with 10,000 runs.

Fills a store through the repository API (10,000 finished runs of 200 requirements over 60
days, 1 in 5 healed), serves it with the real app under uvicorn on a free loopback port,
and times real HTTP requests with httpx, one at a time after a warm-up: the first page of
``GET /api/runs`` (50 runs, latest first, with the total), a deep page (offset 5,000), a
requirement's runs, and one run's detail. The answers are checked (the total, the order,
the filter), so a fast wrong answer cannot pass.

    .venv/bin/python bench/bench_serve.py                      # SQLite, temp file
    .venv/bin/python bench/bench_serve.py --postgres           # a throwaway PostgreSQL cluster
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import uvicorn

from pytest_pacts.store import Store, open_store
from pytest_pacts.web.server import bind, build

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
VERDICTS = ("pass", "pass", "pass", "fail", "partial")


def fill(store: Store, runs: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    with store.transaction():
        for i in range(runs):
            started = NOW - timedelta(seconds=rng.uniform(0, 60 * 86_400))
            run = store.runs.begin(f"ci-{i % 7}", f"REQ-{i % 200:04d}", now=started)
            healed = i % 5 == 0
            store.runs.finish(
                run.id,
                verdict="pass" if healed else rng.choice(VERDICTS),
                rca_class="selector_drift" if healed else "success",
                healed=healed,
                heal_count=1 if healed else 0,
                now=started + timedelta(seconds=rng.uniform(2, 40)),
            )


@contextmanager
def served(target: str, root: Path) -> Iterator[str]:
    built = build(target, root=root, token="bench-token-0123456789")
    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(built.app, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        built.close()
        sock.close()


def timed(client: httpx.Client, path: str, requests: int) -> tuple[list[float], httpx.Response]:
    for _ in range(10):
        client.get(path)  # warm-up: connection, caches, the code paths
    samples = []
    last = None
    for _ in range(requests):
        t0 = time.perf_counter()
        last = client.get(path)
        samples.append((time.perf_counter() - t0) * 1000)
        last.raise_for_status()
    assert last is not None
    return samples, last


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[18]


def measure(target: str, runs: int, requests: int, label: str) -> bool:
    t0 = time.perf_counter()
    with open_store(target) as store:
        fill(store, runs)
    print(f"{label}: {runs} runs written in {time.perf_counter() - t0:.1f} s")
    ok = True
    with (
        tempfile.TemporaryDirectory() as root,
        served(target, Path(root)) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        cases = [
            ("runs list, first page (50)", "/api/runs"),
            ("runs list, offset 5000", "/api/runs?offset=5000"),
            ("one requirement's runs", "/api/requirements/REQ-0042/runs"),
        ]
        for name, path in cases:
            samples, last = timed(client, path, requests)
            body = last.json()
            runs_shown = body["runs"]
            starts = [r["started_at"] for r in runs_shown]
            good = starts == sorted(starts, reverse=True) and len(runs_shown) == 50
            if path == "/api/runs":
                good = good and body["total"] == runs
            if "REQ-0042" in path:
                good = good and {r["req_id"] for r in runs_shown} == {"REQ-0042"}
                good = good and body["total"] == runs // 200
            ok = ok and good
            print(
                f"  {name:32} median {statistics.median(samples):6.2f} ms   "
                f"p95 {p95(samples):6.2f} ms   ({requests} requests){'' if good else '  WRONG'}"
            )
        run_id = client.get("/api/runs").json()["runs"][0]["id"]
        samples, _ = timed(client, f"/api/runs/{run_id}", requests)
        print(
            f"  {'one run (detail)':32} median {statistics.median(samples):6.2f} ms   "
            f"p95 {p95(samples):6.2f} ms   ({requests} requests)"
        )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--postgres", action="store_true", help="also on a throwaway cluster")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        ok = measure(str(Path(tmp) / "pacts.db"), args.runs, args.requests, "SQLite") and ok
    if args.postgres:
        sys.path.insert(0, str(Path(__file__).parent))
        from pg_cluster import throwaway_cluster

        with throwaway_cluster() as dsn:
            ok = measure(dsn, args.runs, args.requests, "PostgreSQL") and ok
    print("all answers checked: OK" if ok else "some answers were WRONG")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
