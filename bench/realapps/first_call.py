"""Where a kept relocation's first page call goes, stage by stage, in a fresh renderer process.

Run: ``.venv/bin/python bench/realapps/first_call.py --cases DIR [--limit N]`` (DIR: a
``run_corpus.py`` output with snapshots, as ``bench_peers.py`` reads).

For each pair whose recorded locator still holds on the new page (``relocate_element``
answers it unchanged, in its one page call), that call's argument is captured, then the
new page is opened in a new browser context (a new renderer process, as ``bench_peers.py``
meets each pair) with the engine's init scripts, and the call is made in stages, each a
``Frame.evaluate`` whose renderer busy time (DevTools ``TaskDuration``) is read:

- ``eval1``: ``() => 1``, the document's first evaluate (Playwright builds its evaluation
  script there);
- ``api``: the discovery API's dispatcher (``realm.js``, its first-call check of the
  built-ins);
- ``find``: the recorded locator resolved by the page (``find.js``);
- ``makeDom``: discovery's DOM reader built;
- ``full``: the whole call (``find_check_and_rank``), then ``again`` the same call again.

Then, in another new context, ``full_first``: the whole call as the document's first (what
``relocate_element`` pays). Each stage's figure includes one evaluate's own cost (``again``
minus the in-page work); the differences between stages are what each part adds the first
time: mostly compiling the in-page functions it runs, which a renderer process does once
(a later document of the same process reuses them).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "peers"))
sys.path.insert(0, str(HERE.parent))

from common import load  # noqa: E402

from pytest_pacts import elements  # noqa: E402
from pytest_pacts.browser import launch_options  # noqa: E402
from pytest_pacts.elements import discover_element, relocate_element  # noqa: E402
from pytest_pacts.engine.env import watch_changes  # noqa: E402
from pytest_pacts.runtime import healing  # noqa: E402
from pytest_pacts.runtime.healing import install_early  # noqa: E402
from pytest_pacts.runtime.scripts import api_key  # noqa: E402
from realapps.bench_peers import load_pairs  # noqa: E402

_captured: dict[str, str] = {}

# a tree's init scripts (the change watch with the discovery API, then healing's) and its call
_DUMP = (
    "import json; from pytest_pacts.engine.env import PAGE_SCRIPT;"
    " from pytest_pacts.runtime import healing as h; _, i = h._installer();"
    " print(json.dumps({'init': [PAGE_SCRIPT, '(() => { try { ' + i + '; } catch (e) {} })();'],"
    " 'fn': h._find_check_and_rank_fn()}))"
)


def tree(path: str | None) -> dict[str, Any]:
    """The init scripts and the call of the package in ``path`` (this one when ``None``)."""
    env = {"PYTHONPATH": path} if path else {}
    out = subprocess.run(
        [sys.executable, "-c", _DUMP],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={**os.environ, **env},
    )
    return dict(json.loads(out.stdout))


_real = elements.find_check_and_rank


def _spy(
    frame: Any, find: Any, check: Any, rank: Any, locate: Any, text_if_none: bool = False
) -> Any:
    arg = {"find": find, "check": check, "rank": rank, "locate": locate}
    _captured["text"] = json.dumps({**arg, "text_if_none": text_if_none}, separators=(",", ":"))
    return _real(frame, find, check, rank, locate, text_if_none)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=40, help="at most N pairs (0: all)")
    parser.add_argument("--baseline", help="a tree to compare with, pair by pair")
    parser.add_argument("--repeat", type=int, default=1, help="with --baseline: N turns a pair")
    args = parser.parse_args()
    variants = {"this": tree(None), "baseline": tree(args.baseline)} if args.baseline else {}
    paired: dict[str, list[float]] = {f"{v} {m}": [] for v in variants for m in _MEASURES}
    pairs = load_pairs(args.cases.resolve(), None)
    pairs = pairs[: args.limit] if args.limit else pairs
    elements.find_check_and_rank = _spy  # type: ignore[assignment]
    full = healing._find_check_and_rank_fn()
    api = f"globalThis[{api_key()!r}].api()"
    stages = {
        "eval1": ("() => 1", False),
        "api": (f"() => {{ {api}; return 1; }}", False),
        "find": (
            f"(t) => {{ const e = {api}.find(JSON.parse(t).find);"
            " return Array.isArray(e) ? e.length : e; }",
            True,
        ),
        "makeDom": (f"() => {{ {api}.__modules.dom.makeDom(document); return 1; }}", False),
        "full": (full, True),
        "again": (full, True),
    }
    res: dict[str, list[float]] = {k: [] for k in (*stages, "full_first")}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**launch_options())  # type: ignore[arg-type]

        def fresh(pair: dict[str, Any]) -> tuple[Any, Any, Any]:
            context = browser.new_context()
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Performance.enable")
            watch_changes(page)
            install_early(page)
            load(page, pair["new"])

            def busy() -> float:
                metrics = cdp.send("Performance.getMetrics")["metrics"]
                return 1000 * float(
                    next(m["value"] for m in metrics if m["name"] == "TaskDuration")
                )

            return context, page, busy

        for pair in pairs:
            context = browser.new_context()
            page = context.new_page()
            old = pair["old"]
            load(page, old)
            words = old["element"] + (f"@{old['region']}" if old.get("region") else "")
            recorded = discover_element(page, words, old["action"])
            if recorded.locator is None:
                context.close()
                continue
            load(page, pair["new"])
            _captured.clear()
            found = relocate_element(page, recorded)
            context.close()
            if found.rung is not None or "text" not in _captured or not found.found:
                continue  # the ladder ran, or the page could not resolve the locator itself
            text = _captured["text"]
            if variants:
                start = len(paired["this busy"])
                for turn in range(args.repeat * 2):
                    name = list(variants)[(turn + start) % 2]
                    for what, ms in first_of(browser, pair, variants[name], text).items():
                        paired[f"{name} {what}"].append(ms)
                continue
            context, page, busy = fresh(pair)
            for name, (fn, with_arg) in stages.items():
                before = busy()
                page.main_frame.evaluate(fn, text) if with_arg else page.main_frame.evaluate(fn)
                res[name].append(busy() - before)
            context.close()
            context, page, busy = fresh(pair)
            before = busy()
            page.main_frame.evaluate(full, text)
            res["full_first"].append(busy() - before)
            context.close()
        browser.close()
    if variants:
        report(paired)
        return
    for name, values in res.items():
        if values:
            print(
                f"{name:12s} n={len(values)}"
                f" renderer busy median {statistics.median(values):.2f} ms"
            )


def first_of(browser: Any, pair: dict[str, Any], variant: dict[str, Any], text: str) -> Any:
    """``{busy, cpu, wall}`` ms of ``variant``'s call as a new document's first, in a
    new context (a new renderer process) with ``variant``'s init scripts: the renderer's
    ``TaskDuration`` (its main thread's tasks, wall: a loaded machine's waits count) and its
    main thread's CPU (``ThreadTime``)."""
    context = browser.new_context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    for script in variant["init"]:
        page.add_init_script(script)
    load(page, pair["new"])

    def metrics() -> dict[str, float]:
        return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}

    before = metrics()
    start = time.perf_counter()
    page.main_frame.evaluate(variant["fn"], text)
    wall = 1000 * (time.perf_counter() - start)
    after = metrics()
    context.close()
    took = {k: 1000 * (after[m] - before[m]) for k, m in _METRICS.items()}
    return {**took, "wall": wall}


_METRICS = {"busy": "TaskDuration", "cpu": "ThreadTime"}
_MEASURES = (*_METRICS, "wall")


def report(paired: dict[str, list[float]]) -> None:
    n = len(paired["this busy"])
    if os.environ.get("FIRST_CALL_VERBOSE"):
        for i in range(n):
            print(" ".join(f"{k}={v[i]:.1f}" for k, v in paired.items()))
    for what in _MEASURES:
        this, base = paired[f"this {what}"], paired[f"baseline {what}"]
        ratios = [a / b for a, b in zip(this, base, strict=True) if b > 0]
        print(
            f"{what:7s} n={n} this median {statistics.median(this):.2f} ms,"
            f" baseline {statistics.median(base):.2f} ms,"
            f" per pair {statistics.median(ratios):.3f}x"
        )


if __name__ == "__main__":
    main()
