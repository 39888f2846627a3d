"""Benchmark: the self-heal gate's 7/30-day repeat count on a large audit table.

Inserts 100,000 audit events (1,000 exception fingerprints over 60 days, 80% of them
RUNTIME_PATCH_PROPOSAL_CREATED), then times ``store.audit.exception_stats`` for one
fingerprint and prints the database's query plan, which must name the composite index
``audit_events_type_fp_created``. The counts are checked
against the same events counted in Python, so a fast wrong answer cannot pass.

    .venv/bin/python bench/bench_store.py                    # SQLite, temp file
    .venv/bin/python bench/bench_store.py --dsn postgresql://user@127.0.0.1:5432/db
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pytest_pacts.store import PROPOSAL_CREATED_EVENT, NewAuditEvent, Store, open_store

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def make_events(count: int, fingerprints: int, seed: int) -> list[NewAuditEvent]:
    rng = random.Random(seed)
    events = []
    for i in range(count):
        created = NOW - timedelta(seconds=rng.uniform(-86_400, 60 * 86_400))
        event_type = PROPOSAL_CREATED_EVENT if rng.random() < 0.8 else "RUNTIME_PATCH_APPLIED"
        fp = f"ex:selector_drift:REQ-{rng.randrange(fingerprints):04d}.Button@Form:nth_child"
        events.append(
            NewAuditEvent(
                event_type=event_type,
                payload={"i": i, "self_heal_gate": {"exception_fingerprint": fp}},
                created_at=created,
                req_id=f"REQ-{i % 500}",
                exception_fingerprint=fp,
            )
        )
    return events


def expected(events: list[NewAuditEvent], fp: str) -> dict[str, int]:
    def count(days: int) -> int:
        return sum(
            1
            for e in events
            if e.event_type == PROPOSAL_CREATED_EVENT
            and e.exception_fingerprint == fp
            and e.created_at is not None
            and NOW - timedelta(days=days) <= e.created_at < NOW
        )

    return {"count_7d": count(7), "count_30d": count(30)}


def run(store: Store, events: list[NewAuditEvent], repeats: int) -> None:
    started = time.perf_counter()
    store.audit.record_many(events)
    insert_s = time.perf_counter() - started
    fp = events[0].exception_fingerprint
    assert fp is not None
    stats = store.audit.exception_stats(fp, NOW)
    assert stats == expected(events, fp), (stats, expected(events, fp))

    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        store.audit.exception_stats(fp, NOW)
        samples.append(time.perf_counter() - t0)
    samples.sort()
    median_us = statistics.median(samples) * 1e6
    p95_us = samples[int(len(samples) * 0.95) - 1] * 1e6

    print(f"backend: {store.backend_name} ({store.location})")
    print(f"insert {len(events):,} audit events (one transaction): {insert_s:.2f} s")
    print(f"exception_stats({fp!r}) = {dict(stats)}")
    print(f"repeat-count query, {repeats} runs: median {median_us:.0f} µs, p95 {p95_us:.0f} µs")
    print("query plan:")
    for line in store.audit.explain_exception_stats(fp, NOW):
        print(f"  {line}")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--fingerprints", type=int, default=1_000)
    parser.add_argument("--repeats", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--dsn", help="also run against this PostgreSQL database (it is written)")
    args = parser.parse_args()

    events = make_events(args.events, args.fingerprints, args.seed)
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "bench.db") as store:
        run(store, events, args.repeats)
    if args.dsn:
        with open_store(args.dsn) as store:
            run(store, events, args.repeats)


if __name__ == "__main__":
    main()
