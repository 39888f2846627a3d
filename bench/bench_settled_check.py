"""A drifted locator's first check: settled read from the change watch, or two frames watched.

Run: ``.venv/bin/python bench/bench_settled_check.py [--repeat 60]``.

``relocate_element``'s first check of a recorded locator that matches nothing must also say
whether the page is settled (else the element may still be coming). With ``since=0`` (what
``relocate_element`` passes since issue 40) the check reads it from the page's change watch
(``js/watch.js``, in every document from its first moment) when the watch saw the page
drawn twice with no DOM change; without ``since`` it watches two more animation frames
itself (what the check did before). Both sides check the same locator on the same quiet
page in one Chromium, interleaved (the order alternates per repetition). Printed: the median
and p90 of each side's round trip, the median of the per-pair differences, and what each
side said of the page (both must say "settled").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from playwright.sync_api import sync_playwright

from pytest_pacts.browser import launch_options
from pytest_pacts.discovery import check_actionable
from pytest_pacts.engine.gate import IN_PAGE_RULE
from pytest_pacts.runtime.scripts import init_script

PAGE = "data:text/html,<main><h1>Shop</h1><button id=go>Go</button></main>"


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, -(-9 * len(ordered) // 10) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=60)
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} CPUs")
    sides: dict[str, list[float]] = {"watch": [], "frames": []}
    said: dict[str, set[object]] = {"watch": set(), "frames": set()}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**launch_options())  # type: ignore[arg-type]
        page = browser.new_page()
        page.add_init_script(init_script())  # as discover_element leaves it to the page
        page.goto(PAGE)
        page.wait_for_timeout(300)  # a quiet page: drawn since its last change
        gone = page.locator("#submit")  # the recorded locator, which matches nothing now
        for n in range(args.repeat):
            order = ("watch", "frames") if n % 2 == 0 else ("frames", "watch")
            for side in order:
                started = time.perf_counter()
                snapshot = check_actionable(
                    gone, "click", still=False, rule=IN_PAGE_RULE,
                    since=0.0 if side == "watch" else None,
                )  # fmt: skip
                sides[side].append((time.perf_counter() - started) * 1000)
                said[side].add(snapshot.settled)
        browser.close()
    for side, label in (("watch", "since=0 (the change watch)"), ("frames", "two frames watched")):
        times = sides[side]
        print(f"{label:28} median {statistics.median(times):6.1f} ms, p90 {p90(times):6.1f} ms, "
              f"settled: {sorted(map(str, said[side]))}")  # fmt: skip
    saved = [b - a for a, b in zip(sides["watch"], sides["frames"], strict=True)]
    print(f"saved per check: median {statistics.median(saved):.1f} ms ({args.repeat} pairs)")
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
