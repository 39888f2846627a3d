"""Memory of a long suite: N requirements under ``pytest -n 2``, each worker's memory sampled.

The sample suite's shopping flows (``sample_requirements/shopping.req.yaml``) are copied N
times over (``REQ-CART-001-R0001`` ...) into a temporary project that is otherwise the sample
project (its conftest serves the demo app, its ini, blocks and settings), and run as a user
runs them: ``pytest -n 2`` with reports, one SQLite store. A small plugin loaded into every
worker (``-p pacts_memprobe``) records, every ``--every`` finished requirements, the worker's
own resident memory and the proportional memory (PSS) of the browser it drives (every
process below the worker: Playwright's driver and Chromium's processes).

Growth is the least-squares slope per 100 requirements after the first ``--warmup`` of each
worker (imports, the first pages and the browser's caches are warm-up), printed per worker,
with the samples. Linux only (``/proc``).

Run: ``.venv/bin/python bench/bench_memory.py [--requirements 500] [--every 50]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_requirements"

PROBE = '''
"""Loaded into every xdist worker by bench_memory.py: memory samples every N requirements."""
import json, os
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")
OUT = Path(os.environ["PACTS_MEMPROBE_OUT"])
EVERY = int(os.environ.get("PACTS_MEMPROBE_EVERY", "50"))
_done = 0


def _rss(pid):
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    except OSError:
        return 0


def _pss(pid):
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return _rss(pid)


def _descendants(pid):
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                kids = (task / "children").read_text().split()
            except OSError:
                continue
            for kid in kids:
                out.append(int(kid))
                todo.append(int(kid))
    return out


def pytest_runtest_logfinish(nodeid, location):
    global _done
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return  # the controller: its reports are the workers' runs
    _done += 1
    if _done % EVERY:
        return
    me = os.getpid()
    row = {
        "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
        "done": _done,
        "rss": _rss(me),
        "browser_pss": sum(_pss(p) for p in _descendants(me)),
    }
    with OUT.open("a") as f:
        f.write(json.dumps(row) + "\\n")
'''


def make_project(folder: Path, count: int) -> Path:
    """The sample project with its requirement files replaced by ``count`` copies of the
    shopping flows."""
    shutil.copytree(SAMPLES, folder, ignore=shutil.ignore_patterns(".pacts", "__pycache__"))
    source = yaml.safe_load((SAMPLES / "shopping.req.yaml").read_text())
    for path in folder.iterdir():
        if (
            path.is_file()
            and path.suffix in {".xlsx", ".json", ".yaml", ".yml"}
            and (".req." in path.name or path.suffix == ".xlsx")
        ):
            path.unlink()
    originals = source["requirements"]
    many = []
    for i in range(count):
        req = dict(originals[i % len(originals)])
        req["req_id"] = f"{req['req_id']}-R{i:04d}"
        many.append(req)
    doc = {k: v for k, v in source.items() if k not in {"requirements", "$schema"}}
    doc["requirements"] = many
    (folder / "many.req.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    (folder / "pacts_memprobe.py").write_text(PROBE)
    return folder


def failures(junit: Path) -> list[str]:
    """The text of each failed requirement in the run's JUnit file (where it failed and why),
    so a failure under load can be read, not only counted."""
    if not junit.exists():
        return []
    import xml.etree.ElementTree as ET

    out = []
    for case in ET.parse(junit).iter("testcase"):
        for bad in (*case.iter("failure"), *case.iter("error")):
            out.append(bad.get("message", "") + "\n" + (bad.text or ""))
    return out


def slope_per_100(points: list[tuple[int, int]]) -> float:
    """Least-squares slope of bytes against requirements, per 100 requirements."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    if var == 0:
        return 0.0
    cov = sum((x - mx) * (y - my) for x, y in points)
    return cov / var * 100


def mib(value: float) -> str:
    return f"{value / 2**20:+.1f}" if value < 0 else f"{value / 2**20:.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requirements", type=int, default=500)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        project = make_project(Path(tmp) / "project", args.requirements)
        out = Path(tmp) / "memory.jsonl"
        env = {
            **os.environ,
            "PACTS_MEMPROBE_OUT": str(out),
            "PACTS_MEMPROBE_EVERY": str(args.every),
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(project), os.environ.get("PYTHONPATH", "")) if p
            ),
        }
        command = [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            "-p", "pacts_memprobe", "-n", str(args.workers), "--junitxml", "junit.xml",
        ]  # fmt: skip
        load = os.getloadavg()
        print(
            f"{args.requirements} requirements, -n {args.workers}, a sample every "
            f"{args.every}; load average {load[0]:.1f} on {os.cpu_count()} CPUs"
        )
        started = time.monotonic()
        done = subprocess.run(
            command, cwd=project, env=env, capture_output=True, text=True, check=False
        )
        seconds = time.monotonic() - started
        tail = done.stdout.strip().splitlines()[-1:] or ["(no output)"]
        print(f"pytest exit {done.returncode} in {seconds:.0f} s: {tail[0]}")
        # a requirement that failed is named with its first line: a long run under load
        # should say which one, not only how many
        for line in done.stdout.splitlines():
            if line.startswith(("FAILED ", "ERROR ")):
                print(f"  {line[:300]}")
        for failure in failures(project / "junit.xml"):
            print("    " + "\n    ".join(failure.splitlines()[:16]))
        rows: list[dict[str, Any]] = [
            json.loads(line) for line in out.read_text().splitlines() if line.strip()
        ] if out.exists() else []  # fmt: skip
    by_worker: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_worker.setdefault(row["worker"], []).append(row)
    for worker, samples in sorted(by_worker.items()):
        print(f"\nworker {worker}: requirements done, worker RSS MiB, browser PSS MiB")
        for s in samples:
            # a worker's last requirement finishes after the session's teardown, which has
            # closed the browser: no browser below the worker is "closed", not 0 MiB
            shown = mib(s["browser_pss"]) if s["browser_pss"] else "(closed)"
            print(f"  {s['done']:5d}  {mib(s['rss']):>7}  {shown:>8}")
        late = [s for s in samples if s["done"] > args.warmup]
        own = slope_per_100([(s["done"], s["rss"]) for s in late])
        browser = slope_per_100([(s["done"], s["browser_pss"]) for s in late if s["browser_pss"]])
        print(
            f"  growth per 100 requirements after the first {args.warmup}: worker "
            f"{mib(own)} MiB, browser {mib(browser)} MiB"
        )
    if not rows:
        print(done.stdout[-3000:], done.stderr[-3000:])
        return 1
    return 0 if done.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
