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

from pytest_pacts import elements  # noqa: E402
from pytest_pacts.browser import launch_options  # noqa: E402
from pytest_pacts.discovery import register_bridge, to_playwright  # noqa: E402
from pytest_pacts.discovery.render import page_query  # noqa: E402
from pytest_pacts.elements import discover_element, relocate_element  # noqa: E402
from pytest_pacts.runtime import bounded  # noqa: E402
from pytest_pacts.runtime.healing import FIND  # noqa: E402
from pytest_pacts.runtime.scripts import api_key  # noqa: E402
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


def relocate_one(
    page: Any, pair: dict[str, Any], cdp: Any, agree: bool = False, again: bool = False
) -> dict[str, Any] | None:
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
    repeated = _again(page, recorded, busy) if again else {}
    kept_or_not = "kept" if found.found else "abstained"
    how = found.rung.value if found.rung is not None else kept_or_not
    return {
        "id": pair["id"],
        "how": how,
        "strategy": recorded.locator.describe(),
        "answer": found.locator.describe() if found.locator is not None else None,
        "element": _element(page, found.locator),
        **({"agree": _agreement(page, recorded)} if agree else {}),
        "ms": (ended - started) * 1000,
        "cpu_ms": cpu * 1000,
        "renderer_ms": renderer,
        "depth": depth(messages),
        "messages": messages,
        **repeated,
    }


def _again(page: Any, recorded: Any, busy: Any) -> dict[str, float]:
    """The same relocation once more in the same document (``--again``): what the first one
    paid for the document itself (its in-page code compiled on first use, Playwright's
    evaluation script installed in the new document) is not paid again."""
    before = busy()
    started = time.perf_counter()
    relocate_element(page, recorded)
    ms = (time.perf_counter() - started) * 1000
    return {"again_ms": ms, "again_renderer_ms": (busy() - before) * 1000}


def _element(page: Any, locator: Any) -> str | None:
    """What the answer resolves to through Playwright, read after the timing: the element's
    tag, id and first words (to compare two codes' answers pair by pair)."""
    if locator is None:
        return None
    try:
        return str(
            to_playwright(page, locator).evaluate_all(
                "els => els.map((e) => `${e.tagName}#${e.id}:${(e.textContent || '')"
                ".trim().slice(0, 30)}`).join('|')"
            )
        )
    except Exception as exc:  # an answer Playwright cannot resolve is itself a finding
        return f"error: {type(exc).__name__}"


_AGREE = (
    "([find, key]) => { const d = globalThis[key]; if (!d) return 'no in-page code';"
    " const mine = (FIND)(find, d.api()); const pw = globalThis.__pacts_pw || [];"
    " if (!Array.isArray(mine)) return 'not here';"
    " return mine.length === pw.length && mine.every((e) => pw.includes(e)) ? 'same'"
    " : `differs: in page ${mine.length}, Playwright ${pw.length}`; }"
)


def _agreement(page: Any, recorded: Any) -> list[str]:
    """For the recorded locator and each alternate that the page resolves itself
    (``page_query``): whether the page's resolution is Playwright's, element by element,
    on the page relocated (read after the timing)."""
    out = []
    for loc in (recorded.locator, *recorded.alternates):
        query = page_query(loc)
        if query is None:
            continue
        try:
            to_playwright(page, loc).evaluate_all("els => { globalThis.__pacts_pw = els; }")
            said = page.evaluate(_AGREE.replace("FIND", FIND), [query, api_key()])
        except Exception as exc:
            said = f"error: {type(exc).__name__}"
        out.append(f"{loc.strategy.value}: {said}")
    return out


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
        if all("again_ms" in r for r in chosen):
            lines.append(
                f"  the same call again in the same document: wall {med('again_ms'):.1f} ms,"
                f" renderer busy {med('again_renderer_ms'):.1f} ms (medians)"
            )
    return lines


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _in_page(row: dict[str, Any]) -> bool:
    """Whether the relocation's first message was the one call that resolves in the page."""
    return any("find_check_and_rank" in m["who"] for m in row["messages"][:1])


def paired(rows: list[dict[str, Any]]) -> list[str]:
    """The two modes pair by pair: the same answer, and the time of each where the recorded
    locator was kept and where it was not (median, p90, the median of the per-pair ratios)."""
    by: dict[str, dict[str, dict[str, Any]]] = {}
    for r in rows:
        by.setdefault(r["id"], {})[r["mode"]] = r
    both = [p for p in by.values() if "before" in p and "in page" in p]
    lines = [f"paired: {len(both)} pairs relocated both ways"]
    differ = [
        (p["before"]["id"], p["before"]["how"], p["in page"]["how"])
        for p in both
        if (p["before"]["how"], p["before"]["element"])
        != (p["in page"]["how"], p["in page"]["element"])
    ]
    lines.append(f"  answers that differ (rung or element): {len(differ)}")
    lines += [f"    {i}: {a} -> {b}" for i, a, b in differ]
    said = Counter(
        f"{a.split(': ', 1)[0]} {a.split(': ', 1)[1].split(':')[0]}"
        for p in both
        for a in p["in page"].get("agree", ())
    )
    lines.append(f"  the page's own resolution against Playwright's (--agree): {dict(said)}")
    wrong = [
        p["in page"]["id"]
        for p in both
        for a in p["in page"].get("agree", ())
        if "same" not in a and "not here" not in a
    ]
    lines.append(f"  in-page resolutions that are not Playwright's: {len(wrong)} {wrong}")
    for title, chosen in (
        ("kept (no drift)", [p for p in both if p["before"]["how"] == "kept"]),
        ("drifted (the ladder ran before)", [p for p in both if p["before"]["how"] != "kept"]),
    ):
        if not chosen:
            continue
        taken = [p for p in chosen if _in_page(p["in page"])]
        for key in ("ms", "cpu_ms", "renderer_ms"):
            b = [p["before"][key] for p in chosen]
            a = [p["in page"][key] for p in chosen]
            ratio = statistics.median(
                p["in page"][key] / max(p["before"][key], 0.01) for p in chosen
            )
            lines.append(
                f"  {title} ({len(chosen)}, {len(taken)} resolved in page) {key}: before median"
                f" {statistics.median(b):.1f} p90 {_pct(b, 0.9):.1f}; in page median"
                f" {statistics.median(a):.1f} p90 {_pct(a, 0.9):.1f}; per pair {ratio:.2f}x"
            )
        first = [p["in page"]["messages"][0]["rt"] for p in taken if p["in page"]["messages"]]
        before = [p["before"]["messages"][0]["rt"] for p in taken if p["before"]["messages"]]
        if first and before:
            lines.append(
                f"    the first message's round trip where resolved in page: before median"
                f" {statistics.median(before):.1f} ms, in page {statistics.median(first):.1f} ms"
            )
        decided = [p for p in taken if p["in page"]["how"] == "similarity"]
        groups = (
            ("resolved in page", taken),
            ("... the one call's ranking decided", decided),
            ("not", [p for p in chosen if p not in taken]),
        )
        for label, sub in groups:
            if not sub:
                continue
            b = [p["before"]["ms"] for p in sub]
            a = [p["in page"]["ms"] for p in sub]
            msgs = [len(p["in page"]["messages"]) for p in sub]
            lines.append(
                f"    {label} ({len(sub)}): wall before {statistics.median(b):.1f} / p90"
                f" {_pct(b, 0.9):.1f}, in page {statistics.median(a):.1f}"
                f" / p90 {_pct(a, 0.9):.1f} ms;"
                f" messages in page median {statistics.median(msgs):.0f}"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=HERE / "out")
    parser.add_argument("--apps", default="", help="only these apps (comma-separated)")
    parser.add_argument("--limit", type=int, default=0, help="at most N pairs (0: all)")
    parser.add_argument("--json", type=Path, default=None, help="every message, per relocation")
    parser.add_argument("--bridge", action="store_true", help="register_bridge first")
    parser.add_argument(
        "--paired",
        action="store_true",
        help="each pair relocated twice, in-page resolution off and on, the order alternating",
    )
    parser.add_argument(
        "--rank",
        choices=("off", "on", "both"),
        default="off",
        help="the one call also ranks a drifted page (elements.IN_PAGE_RANK); both: a third way",
    )
    parser.add_argument(
        "--only", type=Path, default=None, help="only the pairs that ran the ladder in this JSON"
    )
    parser.add_argument(
        "--agree", action="store_true", help="compare the in-page resolution with Playwright's"
    )
    parser.add_argument(
        "--again", action="store_true", help="relocate once more in the same document"
    )
    args = parser.parse_args()
    pairs = load_pairs(args.cases.resolve(), set(filter(None, args.apps.split(","))) or None)
    if args.limit:
        pairs = pairs[: args.limit]
    if args.only is not None:
        ran = {r["id"] for r in json.loads(args.only.read_text()) if r["how"] != "kept"}
        pairs = [p for p in pairs if p["id"] in ran]
    rows = []
    with sync_playwright() as pw:
        if args.bridge:
            register_bridge(pw.selectors)
        browser = pw.chromium.launch(**launch_options())  # type: ignore[arg-type]
        for n, pair in enumerate(pairs):
            modes: tuple[str | None, ...] = (None,)
            if args.paired:
                modes = ("before", "in page") if n % 2 == 0 else ("in page", "before")
            if args.rank == "both":
                modes = (*modes, "in page, ranked")
                modes = modes[n % 3 :] + modes[: n % 3]
            for mode in modes:
                if mode is not None:
                    elements.IN_PAGE = mode != "before"
                    elements.IN_PAGE_RANK = mode == "in page, ranked" or args.rank == "on"
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                context.set_default_timeout(5_000)
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Performance.enable")
                try:
                    row = relocate_one(
                        page, pair, cdp, args.agree and mode == "in page", args.again
                    )
                except Exception as exc:  # a snapshot that does not load is left out, said so
                    print(f"{pair['id']}: {type(exc).__name__}: {exc}", file=sys.stderr)
                    row = None
                finally:
                    context.close()
                if row is not None:
                    row["mode"] = mode or "this code"
                    rows.append(row)
        browser.close()
    for mode in dict.fromkeys(r["mode"] for r in rows):
        print(f"== {mode}")
        print("\n".join(summary([r for r in rows if r["mode"] == mode])))
    if args.paired:
        print("\n".join(paired(rows)))
    if args.rank == "both":
        ranked = [dict(r, mode="in page") for r in rows if r["mode"] == "in page, ranked"]
        print("== the one call with the ranking, against before:")
        print("\n".join(paired([r for r in rows if r["mode"] == "before"] + ranked)))
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
