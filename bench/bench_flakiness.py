"""Flakiness: run the sample suite N times against the demo app and compare the verdicts.

SPEC.md §17: "the demo suite gives identical verdicts on 10 consecutive runs". Each run is a
fresh pytest process with an empty store (so discovery, execution and recipes all happen
every time); the verdicts are read from the JUnit properties.

Run: .venv/bin/python bench/bench_flakiness.py [--runs 10] [--release v1]
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
    out: dict[str, str] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        out[str(case.get("name"))] = str(props.get("pacts_verdict", "?"))
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--release", default="v1")
    args = parser.parse_args()
    results: list[dict[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(1, args.runs + 1):
            shutil.rmtree(ROOT / "sample_requirements" / ".pacts", ignore_errors=True)
            junit = Path(tmp) / f"run{n}.xml"
            started = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "pytest", "sample_requirements/", "-q",
                 "-p", "no:cacheprovider", f"--junitxml={junit}"],
                cwd=ROOT, env={**os.environ, "PACTS_DEMO_RELEASE": args.release},
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            results.append(verdicts(junit))
            print(f"run {n}: {results[-1]}  ({time.perf_counter() - started:.0f} s)")
    same = all(r == results[0] for r in results)
    print(f"{args.runs} runs on {args.release}: verdicts "
          f"{'IDENTICAL' if same else 'DIFFER'}")  # fmt: skip
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
