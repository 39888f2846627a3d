"""Where one ``relocate_element`` call's time goes: every message it sends to Playwright's driver.

Run: ``.venv/bin/python bench/realapps/profile_relocation.py [--cases DIR] [--apps a,b]
[--limit N] [--json PATH] [--bridge]``; with ``PYTHONPATH=DIR`` (``git archive <commit>
pytest_pacts | tar -x -C DIR``) it profiles that code instead of this checkout's.

The same pairs as ``bench_peers.py`` (``cases.jsonl`` under ``--cases``): record on the old
snapshot with ``discover_element``, load the new one in the same page, relocate. During the
relocation every message to Playwright's driver is logged with who sent it (the innermost
pytest-pacts functions on the caller's stack, through the sync API's greenlet), its round
trip and when it was sent; also the call's own CPU time (this process) and the renderer's
busy time (DevTools ``Performance.getMetrics``, ``TaskDuration``). A message is a round
trip waited for unless it was sent ahead; ``depth`` counts the round trips one after the
other (a message sent while an earlier one was still out overlaps it). Counts and depth do
not depend on how loaded the machine is; times do.

``--bridge`` registers the bridge's selector engines first (``register_bridge``, as the
pytest plugin does): the relocation's locators are then resolved in Playwright's isolated
world only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

from playwright._impl.connection import Connection
from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "peers"))
sys.path.insert(0, str(HERE.parent))

from common import load  # noqa: E402

from pytest_pacts.browser import launch_options  # noqa: E402
from pytest_pacts.discovery import register_bridge  # noqa: E402
from pytest_pacts.elements import discover_element, relocate_element  # noqa: E402
from pytest_pacts.runtime import bounded  # noqa: E402
from realapps.bench_peers import load_pairs  # noqa: E402

_log: list[dict[str, Any]] | None = None
_real_send = Connection.send_message_to_server
_real_send_async = bounded.send_async


def _who(frame: FrameType | None) -> str:
    names: list[str] = []
    while frame is not None and len(names) < 4:
        module = str(frame.f_globals.get("__name__", ""))
        if module.startswith("pytest_pacts") and not module.endswith(("bounded", "bridge")):
            names.append(f"{module.rsplit('.', 1)[-1]}.{frame.f_code.co_name}")
        frame = frame.f_back
    return " < ".join(names)


def _caller() -> FrameType | None:
    try:
        task = asyncio.current_task()
    except RuntimeError:
        task = None
    # the sync API's call keeps its caller's frame on the task it runs (``_sync``), a call
    # sent ahead keeps it on ours (``_send_async`` below)
    for attr in ("__pw_caller_frame__", "__pacts_caller__"):
        found = getattr(task, attr, None)
        if found is not None:
            return found  # type: ignore[no-any-return]
    return sys._getframe(3)


def _logged(self: Any, obj: Any, method: str, params: Any, options: Any) -> Any:
    if _log is None or method == "__waitInfo__":
        return _real_send(self, obj, method, params, options)
    entry: dict[str, Any] = {"message": f"{obj._type}.{method}", "who": _who(_caller())}
    entry["sent"] = time.perf_counter()
    _log.append(entry)
    answer = _real_send(self, obj, method, params, options)
    answer.add_done_callback(lambda _: entry.__setitem__("answered", time.perf_counter()))
    return answer


def _send_async(target: Any, what: str, make: Any, now: Any, *args: Any, **kwargs: Any) -> Any:
    caller = sys._getframe(1)
    if make is not None:
        inner = make

        def make() -> Any:
            coroutine = inner()

            async def tagged() -> Any:
                task = asyncio.current_task()
                if task is not None:
                    task.__pacts_caller__ = caller  # type: ignore[attr-defined]
                return await coroutine

            return tagged()

    return _real_send_async(target, what, make, now, *args, **kwargs)


Connection.send_message_to_server = _logged  # type: ignore[method-assign]
bounded.send_async = _send_async


def depth(messages: list[dict[str, Any]]) -> int:
    """Round trips one after the other: a message sent before the ones out were answered
    overlaps them."""
    count, out_until = 0, float("-inf")
    for m in sorted(messages, key=lambda m: m["at"]):
        if m["at"] >= out_until:
            count += 1
            out_until = m["at"] + m["rt"]
        else:
            out_until = max(out_until, m["at"] + m["rt"])
    return count


def relocate_one(page: Any, pair: dict[str, Any], cdp: Any) -> dict[str, Any] | None:
    global _log
    old = pair["old"]
    load(page, old)
    words = old["element"] + (f"@{old['region']}" if old.get("region") else "")
    recorded = discover_element(page, words, old["action"])
    if recorded.locator is None or recorded.fingerprint is None:
        return None
    load(page, pair["new"])

    def busy() -> float:
        metrics = cdp.send("Performance.getMetrics")["metrics"]
        return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))

    before = busy()
    _log = []
    cpu, started = time.process_time(), time.perf_counter()
    found = relocate_element(page, recorded)
    ended, cpu = time.perf_counter(), time.process_time() - cpu
    log, _log = _log, None
    renderer = (busy() - before) * 1000
    messages = [
        {
            "message": e["message"],
            "who": e["who"],
            "at": (e["sent"] - started) * 1000,
            "rt": (e.get("answered", ended) - e["sent"]) * 1000,
        }
        for e in log
        if not e["message"].startswith("Route.")  # the snapshot's own requests
    ]
    kept_or_not = "kept" if found.found else "abstained"
    how = found.rung.value if found.rung is not None else kept_or_not
    return {
        "id": pair["id"],
        "how": how,
        "ms": (ended - started) * 1000,
        "cpu_ms": cpu * 1000,
        "renderer_ms": renderer,
        "depth": depth(messages),
        "messages": messages,
    }


def summary(rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for title, chosen in (
        ("recorded locator kept", [r for r in rows if r["how"] == "kept"]),
        ("the ladder ran", [r for r in rows if r["how"] != "kept"]),
    ):
        if not chosen:
            continue

        def med(key: str, chosen: list[dict[str, Any]] = chosen) -> float:
            return float(statistics.median(r[key] for r in chosen))

        sent = [len(r["messages"]) for r in chosen]
        lines.append(
            f"{title}: {len(chosen)} relocations; messages median {statistics.median(sent):.0f}"
            f" ({min(sent)}-{max(sent)}), one after the other (depth) median {med('depth'):.0f};"
            f" wall {med('ms'):.1f} ms, this process's CPU {med('cpu_ms'):.1f} ms, renderer"
            f" busy {med('renderer_ms'):.1f} ms (medians)"
        )
        kinds: Counter[str] = Counter()
        for r in chosen:
            for m in r["messages"]:
                top = m["who"].split(" < ")
                kinds[f"{m['message']} from {top[0] if top else '?'}"] += 1
        for kind, n in kinds.most_common(12):
            lines.append(f"  {n / len(chosen):5.2f} per relocation  {kind}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=HERE / "out")
    parser.add_argument("--apps", default="", help="only these apps (comma-separated)")
    parser.add_argument("--limit", type=int, default=0, help="at most N pairs (0: all)")
    parser.add_argument("--json", type=Path, default=None, help="every message, per relocation")
    parser.add_argument("--bridge", action="store_true", help="register_bridge first")
    args = parser.parse_args()
    pairs = load_pairs(args.cases.resolve(), set(filter(None, args.apps.split(","))) or None)
    if args.limit:
        pairs = pairs[: args.limit]
    rows = []
    with sync_playwright() as pw:
        if args.bridge:
            register_bridge(pw.selectors)
        browser = pw.chromium.launch(**launch_options())  # type: ignore[arg-type]
        for pair in pairs:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.set_default_timeout(5_000)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Performance.enable")
            try:
                row = relocate_one(page, pair, cdp)
            except Exception as exc:  # a snapshot that does not load is left out, said so
                print(f"{pair['id']}: {type(exc).__name__}: {exc}", file=sys.stderr)
                row = None
            finally:
                context.close()
            if row is not None:
                rows.append(row)
        browser.close()
    print("\n".join(summary(rows)))
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
