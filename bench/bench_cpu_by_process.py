"""Where a command's CPU goes, by kind of process: Chromium's renderers, its browser and GPU
processes, Playwright's Node.js driver, Python, PostgreSQL.

Run: ``.venv/bin/python bench/bench_cpu_by_process.py -- <command ...>``, for example
``.venv/bin/python bench/bench_cpu_by_process.py -- .venv/bin/pytest -n 2 -p no:cacheprovider
-q tests/engine/test_samples.py``; put ``PACTS_BROWSER_PATH=/usr/bin/<binary>`` in front to
compare browsers. Linux only (reads ``/proc``).

Every ``--every`` seconds (default 0.3) it reads the CPU time (user + system) of each process
that started after it did, and adds what each used since the last read to its kind. A
process that lives shorter than one interval is counted from its first read only, so short
processes are undercounted a little; the figures are for comparing runs with each other.
It prints the command's wall time and exit code, then each kind's CPU seconds and share.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import Counter

_CHROMIUM_TYPES = ("renderer", "gpu-process", "utility", "zygote")


def _kind(pid: str) -> str | None:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            parts = handle.read().split(b"\0")
    except OSError:
        return None
    line = b" ".join(parts).decode(errors="replace")
    program = os.path.basename(parts[0].decode(errors="replace")) if parts else ""
    if "chrom" in program or "chrom" in line.split(" ", 1)[0]:
        for kind in _CHROMIUM_TYPES:
            if f"--type={kind}" in line:
                return f"chromium {kind}"
        return "chromium browser"
    if program.startswith("node") or "playwright/driver" in line:
        return "node (Playwright's driver)"
    if program.startswith("python") or "pytest" in program:
        return "python"
    if "postgres" in line:
        return "postgresql"
    return f"other ({program[:24] or '?'})"


def _cpu_ticks(pid: str) -> tuple[int, int] | None:
    """(user + system ticks, start time) of ``pid``, or ``None`` when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[11]) + int(fields[12]), int(fields[19])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=float, default=0.3, help="seconds between reads")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to measure after --")
    if not os.path.isdir("/proc/self"):
        parser.error("this benchmark reads /proc (Linux only)")
    hz = os.sysconf("SC_CLK_TCK")
    before = {p for p in os.listdir("/proc") if p.isdigit()}
    seen: dict[tuple[str, int], int] = {}
    used: Counter[str] = Counter()
    started = time.monotonic()
    process = subprocess.Popen(command)
    while True:
        for pid in (p for p in os.listdir("/proc") if p.isdigit() and p not in before):
            ticks = _cpu_ticks(pid)
            if ticks is None:
                continue
            total, start = ticks
            key = (pid, start)
            delta = total - seen.get(key, 0)
            seen[key] = total
            if delta > 0:
                kind = _kind(pid)
                if kind is not None:
                    used[kind] += delta
        if process.poll() is not None:
            break
        time.sleep(args.every)
    wall = time.monotonic() - started
    cpu = sum(used.values()) / hz
    print(f"command: {' '.join(command)}")
    print(f"wall {wall:.1f} s, exit {process.returncode}; CPU seen {cpu:.1f} s", end="")
    print(f" ({100 * cpu / (wall * (os.cpu_count() or 1)):.0f}% of {os.cpu_count()} CPUs)")
    for kind, ticks in used.most_common():
        print(f"  {ticks / hz:8.1f} s  {100 * ticks / max(sum(used.values()), 1):5.1f}%  {kind}")
    return 0 if process.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
