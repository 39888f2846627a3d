"""Planner scale: write a 1,000-requirement x 10-step .xlsx, then time parse+validate and a
full ``pytest --collect-only`` of it (issue 2; docs/benchmarks.md).

Run: .venv/bin/python bench/bench_planner.py [--requirements 1000] [--steps 10]
Target: parse+validate+collect under 3 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
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
        parse: list[float] = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            loaded = load_file(path, LoaderOptions(env={}))
            parse.append(time.perf_counter() - started)
        assert len(loaded.plans) == args.requirements
        collect: list[float] = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            out = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pytest",
                    "--collect-only",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    str(path.parent),
                ],
                cwd=tmp,
                capture_output=True,
                text=True,
                check=False,
            )
            collect.append(time.perf_counter() - started)
            assert f"{args.requirements} tests collected" in out.stdout, out.stdout[-2000:]
    steps = args.requirements * args.steps
    print(
        f"workbook: {args.requirements} requirements x {args.steps} steps = {steps} rows, "
        f"{size_mb:.1f} MB (written in {write_s:.1f} s)"
    )
    print(
        f"parse+validate (load_file), median of {args.repeat}: "
        f"{statistics.median(parse):.2f} s ({steps / statistics.median(parse):,.0f} steps/s)"
    )
    print(
        f"pytest --collect-only (whole process: interpreter, plugins, parse, items), median "
        f"of {args.repeat}: {statistics.median(collect):.2f} s  (target < 3 s)"
    )


if __name__ == "__main__":
    main()
