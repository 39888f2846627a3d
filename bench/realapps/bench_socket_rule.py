"""The socket rule side by side: the same flows on one served version, each run twice in turn,
once with the rule before (a socket frame less than 2.5 s old holds the page, drawn or not)
and once with the engine's (``EnvMonitor.drawing``: a frame the page has drawn holds nothing).

Both sides run in one process on one server, in turn (A B, then B A the next round), so a
burst of load hits both alike; the engine is the same but for the one method. The store is
the corpus's: a copy of what the run on the oldest version left (``--store``, a
``store-after.sqlite`` of a ``run_corpus.py`` run), so a drifted step heals as in the corpus;
without it, an empty store (``--version``: the version served, the newest by default).

Run: ``.venv/bin/python bench/realapps/bench_socket_rule.py --app dagster --flows
REQ-DAGSTER-007,REQ-DAGSTER-009 --store /tmp/x/dagster/1.6.14/store-after.sqlite
[--rounds 3]``. Printed per flow and side: each round's first-step status and time, and the
median; the figure is after minus before, pair by pair (the sides differ only in the rule).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import run_corpus
from playwright.sync_api import sync_playwright

from pytest_pacts.discovery import register_bridge
from pytest_pacts.engine.env import EnvMonitor
from realapps.harness import load_apps, offline_launch_options

NEW = EnvMonitor.drawing


def old_drawing(
    self: EnvMonitor, patience_ms: float, quiet_ms: float | None, lag_ms: float = 0.0
) -> bool:
    """The rule before: any frame less than ``patience_ms`` old holds the page while the DOM
    changed less than that long ago."""
    if not self.socket_at or time.monotonic() - self.socket_at > patience_ms / 1000.0:
        return False
    return quiet_ms is None or quiet_ms < patience_ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--app", required=True)
    parser.add_argument("--flows", required=True, help="comma-separated req ids")
    parser.add_argument("--store", type=Path, help="a store to start from (default: empty)")
    parser.add_argument("--version", help="the version served (default: the newest)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    app = load_apps([args.app])[0]
    version = args.version or app.versions[-1]
    wanted = args.flows.split(",")
    plans = {p.req_id: p for p in run_corpus.load_file(app.flows, run_corpus.LoaderOptions(
        env=dict(app.env))).plans if p.req_id in wanted}  # fmt: skip
    order: list[tuple[str, str]] = []  # (side, req id)
    for r in range(args.rounds):
        for req in wanted:
            order += [("A", req), ("B", req)] if r % 2 == 0 else [("B", req), ("A", req)]
    sides = iter(order)
    current: dict[str, Any] = {}
    real_run = run_corpus.run_requirement

    def run(plan: Any, page: Any, runtime: Any) -> Any:
        side, _ = current["now"] = next(sides)
        EnvMonitor.drawing = NEW if side == "B" else old_drawing  # type: ignore[method-assign]
        return real_run(plan, page, runtime)

    run_corpus.run_requirement = run
    real_load = run_corpus.load_file
    run_corpus.load_file = lambda *a, **k: SimpleNamespace(  # type: ignore[assignment]
        plans=tuple(plans[req] for _, req in order)
    )
    out = Path(tempfile.mkdtemp(prefix="pacts-socket-rule-"))
    if args.store is not None:
        shutil.copy(args.store, out / "store.sqlite")
    try:
        with sync_playwright() as pw:
            register_bridge(pw.selectors)
            browser = pw.chromium.launch(**offline_launch_options())  # type: ignore[arg-type]
            try:
                results = run_corpus.run_version(
                    app, version, browser, out / "store.sqlite", out,
                    snapshots=False, step_timeout_s=10.0,
                )  # fmt: skip
            finally:
                browser.close()
    finally:
        run_corpus.load_file = real_load
        EnvMonitor.drawing = NEW  # type: ignore[method-assign]
    table: dict[tuple[str, str], list[tuple[str, float, int]]] = {}
    for (side, req), r in zip(order, results, strict=True):
        status, ms = r.step_ms.get(0, ("?", 0.0))
        table.setdefault((req, side), []).append((status, ms, r.wrong))
    print(f"{app.name} {version}, {args.rounds} rounds, first step (status ms)")
    for req in wanted:
        a, b = table[(req, "A")], table[(req, "B")]
        pairs = [bb[1] - aa[1] for aa, bb in zip(a, b, strict=True)]
        print(
            f"  {req}: before {[(s[0], round(s[1])) for s in a]} after "
            f"{[(s[0], round(s[1])) for s in b]}; after minus before, pair by pair "
            f"{[round(p) for p in pairs]} (median {statistics.median(pairs):+.0f} ms); "
            f"wrong {sum(s[2] for s in a + b)}"
        )
    shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
