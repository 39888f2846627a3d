"""CPU time of the processes a relocation runs in, for ``bench_peers.py --cpu`` (Linux only).

A page call's time is spent in four kinds of process one after the other: this Python
process, Playwright's driver (node), the browser's own process and the page's renderer.
Their CPU times tell what a change of the in-page code can reach (the renderer) and what it
cannot (the rest), and unlike wall times they hold on a loaded machine. Each thread's CPU is
read from ``/proc/<pid>/task/<tid>/schedstat`` (nanoseconds): :func:`processes` lists this
process and its descendants once, before the timed call; :func:`cpu_ms` reads them, and the
difference of two readings is what the call cost each kind.
"""

from __future__ import annotations

import os

# a process's kind: this one, Playwright's driver, the browser's own process, a renderer, or
# another of the browser's (GPU, network, zygote: "other")
KINDS = ("python", "driver", "browser", "renderer")


def _children() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        out.setdefault(parent, []).append(int(name))
    return out


def _kind(pid: int) -> str:
    if pid == os.getpid():
        return "python"
    try:
        with open(f"/proc/{pid}/cmdline", encoding="utf-8", errors="replace") as f:
            # Chromium's child processes rewrite their command line as one string
            args = f.read().replace("\0", " ").split()
    except OSError:
        return "other"
    if not args:
        return "other"
    if os.path.basename(args[0]) == "node":
        return "driver"
    types = [a[len("--type=") :] for a in args if a.startswith("--type=")]
    if types:
        return "renderer" if types[0] == "renderer" else "other"
    return "browser" if "chrom" in os.path.basename(args[0]) else "other"


def processes() -> list[tuple[int, str]]:
    """This process and its descendants, each with its kind."""
    children = _children()
    found, todo = [os.getpid()], [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return [(pid, _kind(pid)) for pid in found]


def cpu_ms(listed: list[tuple[int, str]]) -> dict[str, float]:
    """The CPU time each kind of process has used so far (ms), over all its threads."""
    out = dict.fromkeys(KINDS, 0.0)
    for pid, kind in listed:
        if kind not in out:
            continue
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue  # gone: a closed context's renderer
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat", encoding="utf-8") as f:
                    out[kind] += int(f.read().split()[0]) / 1e6
            except (OSError, ValueError, IndexError):
                continue
    return out


def spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {k: round(after[k] - before[k], 3) for k in KINDS}
