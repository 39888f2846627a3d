"""Collection start-up: ``pytest --collect-only`` of the samples with the plugin vs without.

Run: ``.venv/bin/python bench/bench_collect.py [--repeat 9] [--store PATH] [--cold]``.

IDEs run ``pytest --collect-only`` all the time, so the plugin's share of a pytest start-up
matters. Both sides are fresh ``pytest --collect-only -q`` processes on
``sample_requirements/``, interleaved (the order alternates per repetition): **A** with
``-p no:pacts`` (pytest, pytest-playwright, pytest-html, xdist and the samples' conftest,
which starts the demo server: the same start-up without the plugin), **B** with the plugin,
which also reads and validates the six requirement files and builds their items. B runs with
a warm store (one full run of the samples first fills it, unless ``--store`` names one), a
warm document cache and plan cache (``sample_requirements/.pacts/cache/documents`` and
``plans``, filled by the first collection), as a developer's project has, and with compiled
modules cached, as Python does by default (``--no-bytecode``: compiled at every start-up,
as ``PYTHONDONTWRITEBYTECODE=1`` leaves it). Printed: median wall and CPU (user + system of
the process, from ``getrusage``) of each side and their ratio; CPU is the figure to quote on
a loaded machine. Target: B ≤ 1.2× A (issue 40; 1.5× before). ``--cold``: B's caches
(``.pacts/cache``) are deleted before each of its runs, as at a project's first collection
or after every file changed (for information; the target is the warm figure).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_requirements"
CACHES = SAMPLES / ".pacts" / "cache"  # the document and plan caches of the samples


def timed(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one ``python -m pytest ...`` process (which must not fail)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 5):  # 5: nothing collected (no requirement without the plugin)
        raise SystemExit(f"pytest {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--store", help="a store already filled by a run of the samples")
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="as PYTHONDONTWRITEBYTECODE=1 leaves it: every module compiled at every start-up",
    )
    parser.add_argument(
        "--cold", action="store_true", help="delete the samples' caches before each plugin run"
    )
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        store = args.store or str(Path(tmp) / "pacts.db")
        env = {**os.environ, "PACTS_STORE": store, "PACTS_DEMO_RELEASE": "v1"}
        if args.no_bytecode:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        else:
            # compiled modules cached as on a developer's machine (pytest caches the modules
            # it rewrites for assertions there too), outside the working tree
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        if args.store is None:
            wall, _ = timed(
                ["-q", "-p", "no:cacheprovider", f"-o=pacts_report_dir={tmp}/reports",
                 str(SAMPLES)], env,
            )  # fmt: skip
            print(f"warm-up run of the samples filled the store ({wall:.0f} s)")
        collect = ["--collect-only", "-q", "-p", "no:cacheprovider", str(SAMPLES)]
        for extra in ([], ["-p", "no:pacts"]):  # fills the bytecode cache of both sides
            timed([*collect, *extra], env)
        sides: dict[str, list[tuple[float, float]]] = {"plain": [], "pacts": []}
        for n in range(args.repeat):
            order = ("plain", "pacts") if n % 2 == 0 else ("pacts", "plain")
            for side in order:
                extra = ["-p", "no:pacts"] if side == "plain" else []
                if side == "pacts" and args.cold:
                    shutil.rmtree(CACHES, ignore_errors=True)
                sides[side].append(timed([*collect, *extra], env))
    for side, label in (("plain", "-p no:pacts"), ("pacts", "with the plugin")):
        walls = [w for w, _ in sides[side]]
        cpus = [c for _, c in sides[side]]
        print(f"{label:16} wall median {statistics.median(walls):.2f} s, "
              f"CPU median {statistics.median(cpus):.2f} s")  # fmt: skip
    wall_ratio = [b[0] / a[0] for a, b in zip(sides["plain"], sides["pacts"], strict=True)]
    cpu_ratio = [b[1] / a[1] for a, b in zip(sides["plain"], sides["pacts"], strict=True)]
    if args.cold:
        print("(cold: the plugin's runs without their document and plan caches)")
    print(f"collect-only with the plugin / without: CPU {statistics.median(cpu_ratio):.2f}x, "
          f"wall {statistics.median(wall_ratio):.2f}x (median of {args.repeat} pairs; "
          "target ≤ 1.2x)")  # fmt: skip
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
