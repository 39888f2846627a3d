"""Soak: the sample suite over and over, measuring what grows.

Two lives, each on a store of its own (SQLite in a temp folder, or ``--dsn`` PostgreSQL, one
schema per part):

1. **Long-lived worker**: ONE Python process with ONE browser runs every sample plan
   (``sample_requirements/`` on demo v1) through ``run_requirement`` per cycle, the way an
   xdist worker or a service lives; per cycle it reports this process's RSS, the browser's
   RSS (all its processes), open file descriptors (``/proc/self/fd``), threads, the store
   size and the verdicts.
2. **CI cycles**: ``pytest sample_requirements/`` as a fresh subprocess per cycle, all on one
   shared store; per cycle the wall time, the subprocess's peak RSS, the store size and the
   verdicts (JUnit).

Growth is measured from the end of cycle 1 (imports, first discovery and recipe writing are
warm-up) to the end of the last cycle, and also given per 100 requirement runs. Any verdict
that differs from cycle 1's is listed. Linux only (``/proc``).

Run: ``.venv/bin/python bench/bench_soak.py [--cycles 5] [--part worker|ci|both]
[--dsn postgresql://…]``; ``--cycles 100`` for a long soak.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_requirements"
PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass
class Cycle:
    n: int
    seconds: float
    verdicts: dict[str, str]
    store_bytes: int
    rows: dict[str, int]
    rss: int = 0  # bytes: this process (worker) or the subprocess's peak (ci)
    browser_rss: int = 0
    fds: int = 0
    threads: int = 0


@dataclass
class Part:
    name: str
    per_cycle: int = 0
    cycles: list[Cycle] = field(default_factory=list)


# -- measuring --------------------------------------------------------------------------
def rss_of(pid: int | str) -> int:
    """Resident bytes of one process (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/statm").read_text().split()
    except OSError:
        return 0
    return int(fields[1]) * PAGE


def pss_of(pid: int) -> int:
    """Proportional set size (shared pages split among their users), else RSS."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return rss_of(pid)
    match = re.search(r"^Pss:\s+(\d+) kB", text, re.M)
    return int(match.group(1)) * 1024 if match else rss_of(pid)


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # the command may hold spaces and parentheses: the ppid follows the last ')'
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def threads() -> int:
    match = re.search(r"^Threads:\s+(\d+)", Path("/proc/self/status").read_text(), re.M)
    return int(match.group(1)) if match else 0


TABLES = ("runs", "run_steps", "audit_events", "healing_memory", "recipe_versions", "pom_cache")


def store_size(target: str) -> tuple[int, dict[str, int]]:
    """Bytes the store's data takes (SQLite: pages in use, WAL included; PostgreSQL: the
    schema's tables with indexes and TOAST) and the row count of the growing tables."""
    from pytest_pacts.store import open_store

    with open_store(target) as store:
        db = store.backend
        if store.backend_name == "postgresql":
            row = db.fetchone(
                "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
            )
            size = int(str(row[0])) if row else 0
        else:
            pages, page_size = db.fetchone("PRAGMA page_count"), db.fetchone("PRAGMA page_size")
            size = int(str(pages[0])) * int(str(page_size[0])) if pages and page_size else 0
        rows = {t: int(str((db.fetchone(f"SELECT COUNT(*) FROM {t}") or (0,))[0])) for t in TABLES}
    return size, rows


def mib(value: float) -> str:
    return f"{value / 2**20:.1f} MiB"


# -- part 1: one long-lived process, one browser -----------------------------------------
def sample_plans() -> list[object]:
    from pytest_pacts.planner import LoaderOptions, load_file
    from pytest_pacts.planner.loader import load_blocks_file

    env = dict(os.environ)
    blocks = load_blocks_file(SAMPLES / "blocks" / "common.blocks.yaml", LoaderOptions(env=env))
    options = LoaderOptions(env=env, shared_blocks=blocks)
    plans: list[object] = []
    for name in ("login.xlsx", "shopping.req.yaml", "widgets.req.json"):
        plans += load_file(SAMPLES / name, options, display=name).plans
    return plans


def worker_part(cycles: int, target: str) -> Part:
    from playwright.sync_api import sync_playwright

    from pytest_pacts.application import RunSettings, conclude_run, prepare_run
    from pytest_pacts.browser import launch_options
    from pytest_pacts.demo_app import DemoServer
    from pytest_pacts.discovery import register_bridge
    from pytest_pacts.engine.api import run_requirement
    from pytest_pacts.models import Plan
    from pytest_pacts.store import open_store

    plans = [p for p in sample_plans() if isinstance(p, Plan)]
    part = Part("worker", per_cycle=len(plans))
    me = os.getpid()
    with DemoServer("v1") as app, sync_playwright() as pw, open_store(target) as store:
        register_bridge(pw.selectors)  # as the plugin does
        browser = pw.chromium.launch(**launch_options())  # type: ignore[arg-type]
        settings = RunSettings(base_url=app.url, session_id="soak-worker")
        for n in range(1, cycles + 1):
            started = time.perf_counter()
            seen: dict[str, str] = {}
            for plan in plans:
                context = browser.new_context(**dict(plan.requirement.context))  # type: ignore[arg-type]
                try:
                    page = context.new_page()
                    prepared = prepare_run(store, plan, settings)
                    record = run_requirement(plan, page, prepared.runtime)
                    conclude_run(prepared, record)
                finally:
                    context.close()
                seen[plan.req_id] = f"{record.verdict}/{record.heal_rounds}"
            gc.collect()
            kids = descendants(me)
            size, rows = store_size(target)
            cycle = Cycle(
                n=n,
                seconds=time.perf_counter() - started,
                verdicts=seen,
                store_bytes=size,
                rows=rows,
                rss=rss_of(me),
                browser_rss=sum(pss_of(pid) for pid in kids),
                fds=len(os.listdir("/proc/self/fd")),
                threads=threads(),
            )
            part.cycles.append(cycle)
            print(
                f"  worker cycle {n}: {cycle.seconds:.1f} s, RSS {mib(cycle.rss)}, browser PSS "
                f"{mib(cycle.browser_rss)} in {len(kids)} processes, {cycle.fds} fds, "
                f"{cycle.threads} threads, store {mib(cycle.store_bytes)}, {_tally(seen)}",
                flush=True,
            )
        browser.close()
    return part


# -- part 2: a fresh pytest per cycle on one shared store -------------------------------
def junit_verdicts(junit: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    if not junit.exists():
        return out
    for case in ET.parse(junit).getroot().iter("testcase"):
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        out[str(case.get("name"))] = (
            f"{props.get('pacts_verdict', '?')}/{props.get('pacts_heal_rounds', '?')}"
        )
    return out


def ci_part(cycles: int, target: str, base: Path) -> Part:
    part = Part("ci")
    env = {**os.environ, "PACTS_STORE": target, "PACTS_DEMO_RELEASE": "v1"}
    env.pop("PACTS_DEMO_URL", None)
    for n in range(1, cycles + 1):
        junit = base / f"ci{n}.xml"
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "pytest", "sample_requirements/", "-q",
             "-p", "no:cacheprovider", f"--junitxml={junit}",
             f"-o=pacts_report_dir={base / 'reports'}"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _pid, _status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(_status)
        seen = junit_verdicts(junit)
        part.per_cycle = max(part.per_cycle, len(seen))
        size, rows = store_size(target)
        cycle = Cycle(
            n=n,
            seconds=time.perf_counter() - started,
            verdicts=seen,
            store_bytes=size,
            rows=rows,
            rss=usage.ru_maxrss * 1024,  # peak of the pytest process or a waited child
        )
        part.cycles.append(cycle)
        print(
            f"  ci cycle {n}: exit {proc.returncode}, {cycle.seconds:.1f} s, peak RSS "
            f"{mib(cycle.rss)}, store {mib(cycle.store_bytes)}, {_tally(seen)}",
            flush=True,
        )
    return part


# -- report -----------------------------------------------------------------------------
def _tally(verdicts: dict[str, str]) -> str:
    counts: dict[str, int] = {}
    for value in verdicts.values():
        key = value.split("/", 1)[0]
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))


def changes(part: Part) -> list[str]:
    first = part.cycles[0].verdicts
    out: list[str] = []
    for cycle in part.cycles[1:]:
        for req, value in sorted(cycle.verdicts.items()):
            if first.get(req) != value:
                out.append(f"cycle {cycle.n}: {req} {first.get(req)} -> {value}")
        out += [f"cycle {cycle.n}: {req} missing" for req in first if req not in cycle.verdicts]
    return out


def summarise(part: Part) -> list[str]:
    first, last = part.cycles[0], part.cycles[-1]
    runs = part.per_cycle * (len(part.cycles) - 1)
    lines = [f"{part.name}: {len(part.cycles)} cycles x {part.per_cycle} requirements"]

    def growth(label: str, a: float, b: float, unit: str = "bytes") -> None:
        delta = b - a
        if unit == "count":
            shown = f"{a:.0f} -> {b:.0f} ({delta:+.0f}"
            per100 = f", {delta / runs * 100:+.1f} per 100 requirement runs)" if runs else ")"
        else:
            shown = f"{mib(a)} -> {mib(b)} ({delta / 2**20:+.2f} MiB"
            per100 = f", {delta / runs * 100 / 2**20:+.2f} MiB per 100 requirement runs)"
            per100 = per100 if runs else ")"
        lines.append(f"  {label}: {shown}{per100}")

    if part.name == "worker":
        growth("RSS of the process (after cycle 1 -> last)", first.rss, last.rss)
        growth("browser PSS (all its processes)", first.browser_rss, last.browser_rss)
        growth("open fds", first.fds, last.fds, "count")
        growth("threads", first.threads, last.threads, "count")
    else:
        growth("peak RSS of pytest (cycle 1 -> last)", first.rss, last.rss)
    growth("store size", first.store_bytes, last.store_bytes)
    if len(part.cycles) > 1:
        added = {t: (last.rows[t] - first.rows[t]) / (len(part.cycles) - 1) for t in TABLES}
        lines.append(
            "  rows added per cycle: " + ", ".join(f"{t} {v:+.0f}" for t, v in added.items())
        )
    times = [c.seconds for c in part.cycles]
    lines.append(
        f"  cycle time: first {times[0]:.1f} s, last {times[-1]:.1f} s, max {max(times):.1f} s"
    )
    found = changes(part)
    lines.append(f"  verdict changes across cycles: {len(found)}")
    lines += [f"    {line}" for line in found[:20]]
    return lines


@contextmanager
def targets(dsn: str | None, base: Path) -> Iterator[tuple[str, str]]:
    """(worker store, ci store): two SQLite files, or two schemas of ``dsn``."""
    if not dsn:
        yield str(base / "worker.db"), str(base / "ci.db")
        return
    import psycopg

    tag = f"{os.getpid()}"
    names = (f"soak_worker_{tag}", f"soak_ci_{tag}")
    with psycopg.connect(dsn, autocommit=True) as conn:
        for name in names:
            conn.execute(f"CREATE SCHEMA {name}")
    sep = "&" if "?" in dsn else "?"
    try:
        yield tuple(f"{dsn}{sep}options=-csearch_path%3D{n}" for n in names)  # type: ignore[misc]
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            for name in names:
                conn.execute(f"DROP SCHEMA {name} CASCADE")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cycles", type=int, default=5)
    parser.add_argument("--part", choices=("worker", "ci", "both"), default="both")
    parser.add_argument("--dsn", help="a PostgreSQL database to use instead of SQLite files")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="pacts-soak-"))
    parts: list[Part] = []
    try:
        with targets(args.dsn, base) as (worker_store, ci_store):
            if args.part in ("worker", "both"):
                print(f"long-lived worker: one process, one browser, store {worker_store}")
                parts.append(worker_part(args.cycles, worker_store))
            if args.part in ("ci", "both"):
                print(f"CI cycles: pytest sample_requirements/ per cycle, store {ci_store}")
                parts.append(ci_part(args.cycles, ci_store, base))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print()
    stable = True
    for part in parts:
        print("\n".join(summarise(part)))
        stable = stable and not changes(part)
    return 0 if stable else 1


if __name__ == "__main__":
    sys.exit(main())
