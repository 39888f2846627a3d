"""Flakiness: run the sample suite N times against the demo app and compare the verdicts.

Target: the demo suite gives identical verdicts on 10 consecutive runs. Each run is a
fresh pytest process with a store of its own in a temporary folder (the project's
``sample_requirements/.pacts`` is left alone); the verdicts and heal rounds are read from the
JUnit properties.

- ``--release v1`` (default): every run starts from an empty store, so discovery, execution
  and recipes all happen every time.
- ``--release v2 --heal``: the healing path. One run on v1 fills a store; every measured run
  on v2 starts from a copy of it, so each one heals the same drift from the same cached plans
  (the demo's second half). The heal rounds per requirement must be identical too.

Run: .venv/bin/python bench/bench_flakiness.py [--runs 10] [--release v1|v2] [--heal]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def verdicts(junit: Path) -> dict[str, str]:
    """``{test name: "verdict/heal rounds"}`` from the JUnit properties."""
    out: dict[str, str] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        out[str(case.get("name"))] = (
            f"{props.get('pacts_verdict', '?')}/{props.get('pacts_heal_rounds', '?')}"
        )
    return out


def run_suite(release: str, store: Path, reports: Path, junit: Path) -> int:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "sample_requirements/", "-q",
         "-p", "no:cacheprovider", f"--junitxml={junit}", f"-o=pacts_report_dir={reports}"],
        cwd=ROOT, capture_output=True, text=True, check=False,
        env={**os.environ, "PACTS_DEMO_RELEASE": release, "PACTS_STORE": str(store / "pacts.db")},
    )  # fmt: skip
    return done.returncode


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--release", default="v1", choices=("v1", "v2"))
    parser.add_argument("--heal", action="store_true", help="seed every run from one v1 run")
    args = parser.parse_args()
    results: list[dict[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        seed = base / "seed"
        seed.mkdir()
        if args.heal:
            code = run_suite("v1", seed, base / "seed-reports", base / "seed.xml")
            print(f"seed run on v1: exit {code}, {verdicts(base / 'seed.xml')}")
        for n in range(1, args.runs + 1):
            store = base / f"store{n}"
            shutil.copytree(seed, store)
            junit = base / f"run{n}.xml"
            started = time.perf_counter()
            code = run_suite(args.release, store, base / f"reports{n}", junit)
            results.append(verdicts(junit))
            print(f"run {n}: exit {code} {results[-1]}  ({time.perf_counter() - started:.0f} s)")
    same = all(r == results[0] for r in results)
    what = f"{args.release}{' healing from a v1 store' if args.heal else ''}"
    print(f"{args.runs} runs on {what}: verdicts and heal rounds "
          f"{'IDENTICAL' if same else 'DIFFER'}")  # fmt: skip
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
