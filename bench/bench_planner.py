"""Planner scale: write a 1,000-requirement x 10-step .xlsx, then time parse+validate and a
full ``pytest --collect-only`` of it (issue 2; docs/benchmarks.md).

``load_file`` is timed reading the workbook (openpyxl), then with the document cache
(planner/readers/cache.py) cold (read and written) and warm; the first ``pytest
--collect-only`` fills the project's document cache and plan cache (planner/plan_cache.py),
the others build their items from the plans kept there.

Run: .venv/bin/python bench/bench_planner.py [--requirements 1000] [--steps 10]
Target: parse+validate+collect under 3 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pytest_pacts.planner import LoaderOptions, load_file
from pytest_pacts.scaffold.workbook import SheetRequirement, WorkbookSpec, write_workbook

STEPS = [
    ("Username@LoginForm", "fill", "{{vars.user}}", "field_populated"),
    ("Password@LoginForm", "fill", "{{env.PASSWORD:secret_sauce}}", "field_populated"),
    ("Login@LoginForm", "click", "", "navigates_to:Products"),
    ("Sort products", "select", "Price (low to high)", "value:lohi"),
    ("Add to cart@Sauce Labs Backpack", "click", "", "text_visible:Remove"),
    ("Shopping cart", "click", "", "navigates_to:Your Cart"),
    ("Checkout", "click", "", "url_contains:checkout"),
    ("First Name", "fill", "Ada", "value:Ada"),
    ("Zip/Postal Code", "press", "Enter", "text_visible:Error"),
    ("", "wait", "", "count:Remove@Your Cart=1"),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requirements", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "suite" / "big.xlsx"
        reqs = [
            SheetRequirement(
                f"REQ-{i:05d}",
                "/",
                [STEPS[j % len(STEPS)] for j in range(args.steps)],
                title=f"Requirement {i}",
                tags="smoke",
            )
            for i in range(args.requirements)
        ]
        started = time.perf_counter()
        write_workbook(path, WorkbookSpec(requirements=reqs, config={"user": "standard_user"}))
        write_s = time.perf_counter() - started
        size_mb = path.stat().st_size / 1e6
        parse: list[tuple[float, float]] = []
        for _ in range(args.repeat):
            with _timer(parse):
                loaded = load_file(path, LoaderOptions(env={}))
        assert len(loaded.plans) == args.requirements
        cache_dir = Path(tmp) / "document-cache"
        cached: list[tuple[float, float]] = []
        for _ in range(args.repeat + 1):
            with _timer(cached):
                loaded = load_file(path, LoaderOptions(env={}, cache_dir=cache_dir))
        assert len(loaded.plans) == args.requirements
        entry_mb = sum(p.stat().st_size for p in cache_dir.iterdir()) / 1e6
        collect: list[tuple[float, float]] = []
        reported: list[float] = []  # pytest's own "N tests collected in X s"
        for _ in range(args.repeat + 1):
            with _timer(collect):
                out = subprocess.run(
                    [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p",
                     "no:cacheprovider", str(path.parent)],
                    cwd=tmp, capture_output=True, text=True, check=False,
                )  # fmt: skip
            assert f"{args.requirements} tests collected" in out.stdout, out.stdout[-2000:]
            found = re.search(r"tests collected in ([\d.]+)s", out.stdout)
            reported.append(float(found.group(1)) if found else float("nan"))
    steps = args.requirements * args.steps
    print(
        f"workbook: {args.requirements} requirements x {args.steps} steps = {steps} rows, "
        f"{size_mb:.1f} MB (written in {write_s:.1f} s)"
    )
    wall, cpu = _median(parse)
    print(
        f"parse+validate (load_file), median of {args.repeat}: {wall:.2f} s wall, {cpu:.2f} s "
        f"CPU ({steps / wall:,.0f} steps/s)"
    )
    wall, cpu = _median(cached[1:])
    print(
        f"load_file with the document cache: cold {cached[0][0]:.2f} s wall, {cached[0][1]:.2f} "
        f"s CPU; warm (median of {args.repeat}) {wall:.2f} s wall, {cpu:.2f} s CPU; the entry "
        f"is {entry_mb:.1f} MB"
    )
    wall, cpu = _median(collect[1:])
    print(
        "pytest --collect-only (whole process: interpreter, plugins, parse, items): cold "
        f"document cache {collect[0][0]:.2f} s wall, {collect[0][1]:.2f} s CPU; warm (median of "
        f"{args.repeat}) {wall:.2f} s wall, {cpu:.2f} s CPU (target < 3 s); pytest reports "
        f"collecting in {reported[0]:.2f} s cold, {statistics.median(reported[1:]):.2f} s warm"
    )


@contextmanager
def _timer(into: list[tuple[float, float]]) -> Iterator[None]:
    """Appends the wall and CPU seconds of the block (this process and its children)."""

    def cpu() -> float:
        return sum(
            r.ru_utime + r.ru_stime
            for r in (
                resource.getrusage(resource.RUSAGE_SELF),
                resource.getrusage(resource.RUSAGE_CHILDREN),
            )
        )

    wall, used = time.perf_counter(), cpu()
    yield
    into.append((time.perf_counter() - wall, cpu() - used))


def _median(times: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in times), statistics.median(c for _, c in times)


if __name__ == "__main__":
    main()
