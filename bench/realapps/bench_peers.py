"""Peers side by side, element level: record on the old version's page, relocate on the new.

Run: ``.venv/bin/python bench/realapps/bench_peers.py [--cases DIR] [--tools a,b]
[--apps a,b] [--split dev|heldout|all] [--json PATH] [--limit N] [--repeat N]
[--baseline DIR] [--cpu]``.

Two pytest-pacts tools: ``pytest-pacts`` relocates as a run does (the gate on the cached
locator, then healing rounds), ``pacts-api`` as a hand-written test calls the library
(``relocate_element``; it also reports the messages it sends to Playwright's driver per
relocation, "calls": round trips, a count the load does not change, and "first ms", the
first one's round trip: the recorded locator's check). ``--baseline DIR``
adds ``pacts-api@baseline``: the same call imported from
another checkout (``git archive main pytest_pacts | tar -x -C DIR``), in the same run.
``--repeat N`` runs the tools N times in alternating order, each pair's time the median.
``--cpu`` adds, for ``pacts-api``, the CPU time each relocation cost this driver's Python,
Playwright's driver, the browser and the renderer (``peers/process_cpu.py``; medians per
section): the figures that hold on a loaded machine. Its second reading is inside the timed
call, so leave it off where the time itself is measured.

Cases are the ``cases.jsonl`` lines under ``--cases`` (default ``bench/realapps/out``, where
``run_corpus.py`` and ``demo_cases.py`` write them): ``<app>/<version>/cases.jsonl``. The
oldest version's case of a requirement step is paired with every newer version's case of
the same app, requirement and step.

Every tool gets the same thing: the old snapshot, the ground-truth element on it (the
case's truth selector) to record, then the new snapshot, where it must answer with one
element or abstain. Each tool runs in a subprocess with the python of its own virtual
environment (``peers/<tool>_driver.py``; peers are installed from PyPI into the corpus
cache by ``harness.ensure_venv``), reading jobs as JSON lines on stdin; the environment it
gets has no model keys, so no tool can call a model. Only the relocation call is timed.
After a tool answered, the truth element of the new page is marked with a temporary
attribute and compared by identity with the answer: *correct* (the truth element),
*wrong* (any other element), *abstained* (no answer, raised "not found", or an answer that
matches no element or several, on which an action would fail). When the element is gone
in the new version (truth ``null``), abstaining is correct and any answer is wrong.

The pair asks the flow's question (``pairing.py``): the step's ordinal goes with its words
(``Enter code to paste.[2]``; taken from the flow for a case written without it); the truth
is the truth file's as it is now; its address tests (``a[href="/plant/"]``) are resolved
against the saved page's base address, which holds every link as an absolute address; a
truth naming an element and what is inside it (``X, X *``) is its outermost element, found
alone by one part of the selector (``X``), which every tool records from and is judged
against; both snapshots are served at one address (``peers/common.py``), as an upgraded app
keeps its own. Pairs whose truth still does not find one element are left out, each with
its reason.

pytest-pacts does not record from a selector: it records by discovering the step's words
(with the ordinal) on the old page, and a discovery that does not single out the truth
element is a *record failure* (reported, and not relocated). Pairs are split into *no
drift* (the old truth selector still finds the right element on the new page) and
*drifted*.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from realapps.harness import HERE, TRUTH, ensure_venv, load_apps, offline_launch_options
from realapps.pairing import (
    absolute_urls,
    current_truths,
    flow_ordinals,
    give_ordinals,
    selector_parts,
    step_words,
)
from realapps.peers.common import load
from realapps.run_corpus import load_truth
from realapps.split import declared, split_of

PEERS_DIR = HERE / "peers"
PLAYWRIGHT = "playwright==1.65.2"  # the same driver version as ours, in every peer's venv
VIEWPORT = {"width": 1280, "height": 800}
MARK = "data-peers-truth"


@dataclass(frozen=True)
class Tool:
    name: str
    driver: str
    requirements: tuple[str, ...] = ()  # empty: the project's own venv
    source: str = ""  # another checkout of pytest-pacts to import (``--baseline``)
    # how a step's ordinal (``Delete[2]``) reaches the tool: "words" (in the step's words it
    # discovers from), "recorded" (it records the truth element itself, so it knows which
    # one), "none" (its API has no ordinal: it gets the same words without it)
    ordinal: str = "words"

    def python(self) -> str:
        if not self.requirements:
            return sys.executable
        venv = ensure_venv("peer-" + self.name, list(self.requirements))
        return str(venv / "bin" / "python")


TOOLS = (
    Tool("pytest-pacts", "pacts_driver.py"),
    # the library API (relocate_element), as a hand-written Playwright test calls it
    Tool("pacts-api", "pacts_api_driver.py"),
    Tool(
        "pytest-breadcrumb",
        "breadcrumb_driver.py",
        ("pytest-breadcrumb==0.1.0a2", PLAYWRIGHT),
        ordinal="recorded",
    ),
    Tool(
        "mendwright", "mendwright_driver.py", ("mendwright==0.9.0", PLAYWRIGHT), ordinal="recorded"
    ),
    # healix asks for logquill>=1.0, but logquill 2.0 dropped logquill.levels, which it imports
    Tool(
        "healix",
        "healix_driver.py",
        ("healix==2.0.0", "logquill==1.0.0", PLAYWRIGHT),
        ordinal="recorded",
    ),
    # it keeps the old selector (which names the element) and a description, which has no
    # ordinal: it gets the step's words without it
    Tool(
        "playwright-healer",
        "healer_driver.py",
        ("playwright-healer==1.0.7", PLAYWRIGHT),
        ordinal="none",
    ),
)
ORDINAL_HOW = {
    "words": "in the step's words",
    "recorded": "records the truth element itself",
    "none": "cannot take one: the same words without it (and the truth selector)",
}


def version_key(version: str) -> tuple[object, ...]:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", version) if p)


def known_apps() -> dict[str, Any]:
    try:
        return {app.name: app for app in load_apps()}
    except Exception:  # an app module being written right now must not stop the benchmark
        return {}


def ordinals_of(app: Any) -> dict[tuple[str, int], int]:
    """The app's flow steps that pick one of identical elements by an ordinal."""
    if app is None:
        return {}
    try:
        return flow_ordinals(app.flows, app.env)
    except Exception as exc:  # a flow file that does not load: said, and no ordinals
        print(f"  {app.name}: ordinals not read from its flows ({exc})", file=sys.stderr)
        return {}


def snapshot_path(raw: str, cases_dir: Path) -> Path:
    path = Path(raw)
    if path.is_absolute():
        return path
    for base in (HERE, cases_dir, cases_dir.parent):
        if (base / path).exists():
            return (base / path).resolve()
    return (HERE / path).resolve()


def load_pairs(cases_dir: Path, apps: set[str] | None) -> list[dict[str, Any]]:
    """Old-version case x newer-version case of the same app, requirement and step."""
    known = known_apps()
    pairs: list[dict[str, Any]] = []
    for app_dir in sorted(p for p in cases_dir.iterdir() if p.is_dir()):
        if apps and app_dir.name not in apps:
            continue
        ordinals = ordinals_of(known.get(app_dir.name))
        truth = load_truth(TRUTH / f"{app_dir.name}.yaml")
        by_version: dict[str, dict[tuple[str, int], dict[str, Any]]] = {}
        for file in app_dir.glob("*/cases.jsonl"):
            cases = {}
            for line in file.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    case = json.loads(line)
                    case["snapshot"] = str(snapshot_path(case["snapshot"], cases_dir))
                    cases[(case["req_id"], int(case["step"]))] = case
            give_ordinals(cases.values(), ordinals)  # cases written before they carried it
            current_truths(cases.values(), truth)
            by_version[file.parent.name] = cases
        listed = known[app_dir.name].versions if app_dir.name in known else ()
        versions = sorted(by_version, key=lambda v: (listed.index(v), ()) if v in listed
                          else (len(listed), version_key(v)))  # fmt: skip
        if len(versions) < 2:
            continue
        oldest = by_version[versions[0]]
        for newer in versions[1:]:
            for key, old in sorted(oldest.items()):
                new = by_version[newer].get(key)
                if new is not None:
                    pid = f"{app_dir.name}/{old['version']}->{new['version']}/{key[0]}/{key[1]}"
                    pairs.append({"id": pid, "old": old, "new": new})
    return pairs


def mark_no_drift(pairs: list[dict[str, Any]]) -> None:
    """``no_drift``: the old truth selector finds exactly the truth element on the new page.
    Also ``floor_ms``: how long Playwright takes to answer its first selector query in the
    new page, in a fresh context as every tool gets (it builds its selector code in each new
    document then): what any call that resolves a locator through Playwright pays first."""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**offline_launch_options())  # type: ignore[arg-type]
        for pair in pairs:
            context = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
            try:
                _mark(context.new_page(), pair)
            finally:
                context.close()
        browser.close()


# the one match that holds every other match (a truth that names an element and what is
# inside it), or null
_OUTERMOST_JS = """els => {
    const roots = els.filter(e => !els.some(o => o !== e && o.contains(e)));
    return roots.length === 1 ? roots[0] : null;
}"""


def truth_element(page: Any, written: str) -> tuple[str | None, str, str]:
    """A selector that finds exactly the truth element on the page as loaded now, from the
    truth file's selector: its address tests resolved against the page's base address
    (``pairing.absolute_urls``) and, when it names an element and what is inside it, the
    part that finds the outermost element alone (the whole selector, resolved, is then the
    case's ``truth_set``: what counts as that element when acted on). Returns (selector or
    None, the written part it came from, why not / how it was changed)."""
    base = str(page.evaluate("() => document.baseURI"))
    resolved = absolute_urls(written, base)
    how = "addresses resolved" if resolved != written else ""
    found = page.locator(resolved)
    count = found.count()
    if count == 1:
        return resolved, written, how
    if count == 0:
        return None, written, "finds no element"
    handles = found.element_handles()
    try:
        root = page.evaluate_handle(_OUTERMOST_JS, handles)
        if root.as_element() is None:
            return None, written, f"finds {count} elements, not one and what is inside it"
        for part in selector_parts(written):
            candidate = absolute_urls(part, base)
            one = page.locator(candidate)
            if one.count() == 1 and one.evaluate("(el, root) => el === root", root):
                return candidate, part, ", ".join(filter(None, (how, "the outermost element")))
        return None, written, f"finds {count} elements; no part of it finds the outermost alone"
    finally:
        for handle in handles:
            handle.dispose()


def _mark(page: Any, pair: dict[str, Any]) -> None:
    old, new = pair["old"], pair["new"]
    pair["no_drift"] = False
    pair["unusable"] = ""
    pair["pairing"] = ["ordinal"] if new.get("ordinal") else []
    old_written, new_written = old["truth"], new["truth"]
    old.setdefault("truth_written", old_written)
    new.setdefault("truth_written", new_written)
    load(page, old)
    if old_written is None:
        pair["unusable"] = "no truth on the old version"
        return
    old_sel, old_part, how = truth_element(page, old_written)
    if old_sel is None:
        pair["unusable"] = f"the old truth selector {how} on its snapshot"
        return
    old["truth"] = old_sel
    old["truth_set"] = absolute_urls(old_written, str(page.evaluate("() => document.baseURI")))
    pair["pairing"] += [f"old: {how}"] if how else []
    load(page, new)
    started = time.perf_counter()
    page.locator("html").count()
    pair["floor_ms"] = (time.perf_counter() - started) * 1000
    if new_written is None:
        return
    new_sel, _, how = truth_element(page, new_written)
    if new_sel is None:
        pair["unusable"] = f"the new truth selector {how} on its snapshot"
        return
    new["truth"] = new_sel
    pair["pairing"] += [f"new: {how}"] if how else []
    # the old selector as written, on the new page (its addresses resolved there)
    base = str(page.evaluate("() => document.baseURI"))
    new["truth_set"] = absolute_urls(new_written, base)
    before, truth = page.locator(absolute_urls(old_part, base)), page.locator(new["truth_set"])
    if before.count() == 1:
        truth.evaluate_all(f"els => els.forEach(el => el.setAttribute('{MARK}', ''))")
        pair["no_drift"] = bool(before.evaluate(f"el => el.hasAttribute('{MARK}')"))
        page.evaluate(f"() => document.querySelectorAll('[{MARK}]')"
                      f".forEach(e => e.removeAttribute('{MARK}'))")  # fmt: skip


def run_tool(
    tool: Tool, pairs: list[dict[str, Any]], cpu: bool = False
) -> dict[str, dict[str, Any]]:
    try:
        python = tool.python()
    except subprocess.CalledProcessError as exc:
        print(f"  {tool.name}: install failed ({exc})", file=sys.stderr)
        return {}
    config = {"launch": offline_launch_options(), "viewport": VIEWPORT}
    jobs = [json.dumps(config)] + [
        json.dumps({"id": p["id"], "old": p["old"], "new": p["new"]}) for p in pairs
    ]
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PLAYWRIGHT_BROWSERS_PATH")
    env = {k: os.environ[k] for k in keep if k in os.environ}  # no model keys, no proxies
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if tool.source:
        env["PYTHONPATH"] = tool.source  # ahead of the editable install of this checkout
    if cpu:
        env["PEERS_CPU"] = "1"  # peers/process_cpu.py, read by the pacts-api driver
    with tempfile.TemporaryDirectory(prefix=f"peers-{tool.name}-") as cwd:
        proc = subprocess.run(
            [python, str(PEERS_DIR / tool.driver)],
            input="\n".join(jobs) + "\n",
            capture_output=True,
            text=True,
            cwd=cwd,
            env=env,
            timeout=60 * 60,
            check=False,
        )
    results = {}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            result = json.loads(line)
            results[result["id"]] = result
    if proc.returncode != 0 or len(results) < len(pairs):
        tail = "\n".join(proc.stderr.splitlines()[-15:])
        print(f"  {tool.name}: exit {proc.returncode}, {len(results)}/{len(pairs)} answers\n"
              f"{tail}", file=sys.stderr)  # fmt: skip
    return results


def verdict(pair: dict[str, Any], result: dict[str, Any] | None) -> str:
    if result is None:
        return "error"
    if not result["record_ok"]:
        return "record_failed"
    if "driver error" in result.get("detail", ""):
        return "error"
    if pair["new"]["truth"] is None:
        return "wrong" if result["answered"] and result["count"] else "correct"
    if not result["answered"] or result["count"] != 1:
        return "abstained"
    return "correct" if result["is_truth"] else "wrong"


def merged(results: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """One tool's runs as one: the first run's answers, each pair's time the median over
    the runs; an answer that differs between runs is said so in its detail."""
    out: dict[str, dict[str, Any]] = {}
    for pid, first in results[0].items():
        seen = [r[pid] for r in results if pid in r]
        times = [a["ms"] for a in seen if a.get("ms") is not None]
        answer = {**first, "ms": statistics.median(times) if times else None}
        if len({(a.get("answered"), a.get("count"), a.get("is_truth")) for a in seen}) > 1:
            answer["detail"] = answer.get("detail", "") + " | the answer differed between runs"
        out[pid] = answer
    return out


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, -(-9 * len(ordered) // 10) - 1)]


def table(rows: list[tuple[str, list[dict[str, Any]]]], title: str) -> list[str]:
    head = "{:<20}{:>7}{:>9}{:>7}{:>11}{:>9}{:>8}{:>12}{:>9}{:>8}{:>10}"
    out = [f"\n{title}", head.format("tool", "pairs", "correct", "wrong", "abstained",
                                     "record✗", "error", "median ms", "p90 ms",
                                     "calls", "first ms")]  # fmt: skip
    for name, answers in rows:
        c = Counter(a["verdict"] for a in answers)
        times = [a["ms"] for a in answers if a.get("ms") is not None]
        median = f"{statistics.median(times):.1f}" if times else "-"
        tail = f"{p90(times):.1f}" if times else "-"
        # messages to Playwright's driver per relocation (median), for a driver that counts them
        counted = [a["calls"] for a in answers if a.get("calls") is not None]
        calls = f"{statistics.median(counted):.0f}" if counted else "-"
        # the first message's round trip (the recorded locator's check), for a driver that
        # times it
        firsts = [a["first_ms"] for a in answers if a.get("first_ms") is not None]
        first = f"{statistics.median(firsts):.1f}" if firsts else "-"
        out.append(head.format(name, len(answers), c["correct"], c["wrong"], c["abstained"],
                               c["record_failed"], c["error"], median, tail,
                               calls, first))  # fmt: skip
    return out


def cpu_lines(rows: list[tuple[str, list[dict[str, Any]]]]) -> list[str]:
    """Each tool's median CPU time per relocation and process kind (``--cpu``), and the
    median of their sum."""
    out = []
    for name, answers in rows:
        cpus = [a["cpu_ms"] for a in answers if a.get("cpu_ms")]
        if cpus:
            kinds = ", ".join(f"{k} {statistics.median(c[k] for c in cpus):.2f}" for k in cpus[0])
            total = statistics.median(sum(c.values()) for c in cpus)
            out.append(f"  {name} CPU per relocation, median ms: {kinds}; sum {total:.2f}")
    return out


def floor_line(chosen: list[dict[str, Any]]) -> str:
    """Playwright's first selector query in each new page (``mark_no_drift``)."""
    floors = [r["floor_ms"] for r in chosen if r.get("floor_ms") is not None]
    if not floors:
        return ""
    median = statistics.median(floors)
    return (
        "Playwright's first selector query in each new page (its selector code built "
        f"there): median {median:.1f} ms, p90 {p90(floors):.1f} ms"
    )


def ordinal_lines(records: list[dict[str, Any]], tools: list[Tool]) -> list[str]:
    """The pairs whose step picks one of identical elements by an ordinal, per tool: how the
    ordinal reached it and what it answered."""
    picked = [r for r in records if r.get("ordinal")]
    if not picked:
        return []
    shown = ", ".join(r["words"] for r in picked[:4]) + (", ..." if len(picked) > 4 else "")
    out = [f"\nSteps with an ordinal: {len(picked)} pairs ({shown})"]
    for tool in tools:
        c = Counter(r["answers"][tool.name]["verdict"] for r in picked)
        said = ", ".join(f"{k} {n}" for k, n in sorted(c.items()))
        out.append(f"  {tool.name:<20} {said}  (the ordinal: {ORDINAL_HOW[tool.ordinal]})")
    return out


def pairing_lines(records: list[dict[str, Any]], unusable: list[dict[str, Any]]) -> list[str]:
    """How many kept pairs needed a truth put in the page's terms, and why pairs left out."""
    notes: Counter[str] = Counter()
    for r in records:  # each pair once per kind of change, old or new side
        notes.update({k for n in r.get("pairing", ()) for k in n.split(": ", 1)[-1].split(", ")})
    out = []
    if notes:
        out.append("Pairs whose truth was put in the saved page's terms: "
                   + ", ".join(f"{k} {n}" for k, n in sorted(notes.items())))  # fmt: skip
    why = Counter(p["unusable"] for p in unusable)
    out += [f"left out ({n}): {k}" for k, n in sorted(why.items())]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=HERE / "out")
    parser.add_argument("--tools", default=",".join(t.name for t in TOOLS))
    parser.add_argument("--apps", default="", help="only these apps (comma-separated)")
    parser.add_argument(
        "--split", choices=("dev", "heldout", "all"), default="all",
        help="only the apps of this split (split.py; default: all)",
    )  # fmt: skip
    parser.add_argument("--json", type=Path, default=None, help="default: <cases>/peers.json")
    parser.add_argument("--limit", type=int, default=0, help="at most N pairs (0: all)")
    parser.add_argument(
        "--repeat", type=int, default=1,
        help="run the tools N times, in turn and in alternating order; each pair's time is "
        "its median over the runs (on a loaded machine)",
    )  # fmt: skip
    parser.add_argument(
        "--baseline", type=Path, default=None,
        help="another checkout of pytest-pacts (e.g. `git worktree add` or `git archive` of "
        "main): its relocate_element runs as tool 'pacts-api@baseline', beside this one",
    )  # fmt: skip
    parser.add_argument(
        "--cpu", action="store_true",
        help="pacts-api: each relocation's CPU time per process (Python, Playwright's driver, "
        "browser, renderer), medians per section; read inside the timed call",
    )  # fmt: skip
    args = parser.parse_args()
    cases_dir = args.cases.resolve()
    apps = set(filter(None, args.apps.split(","))) or None
    if args.split != "all":
        apps = {a for a in (apps or declared(args.split)) if split_of(a) == args.split}
    pairs = load_pairs(cases_dir, apps)
    if args.limit:
        pairs = pairs[: args.limit]
    if not pairs:
        sys.exit(f"no pairs of cases under {cases_dir} (need two versions of an app)")
    mark_no_drift(pairs)
    unusable = [p for p in pairs if p["unusable"]]
    pairs = [p for p in pairs if not p["unusable"]]
    if unusable:
        print(f"left out {len(unusable)} pairs whose truth selector does not resolve on the "
              f"snapshot, e.g. {unusable[0]['id']}: {unusable[0]['unusable']}")  # fmt: skip
    wanted = [t for t in TOOLS if t.name in args.tools.split(",")]
    if args.baseline is not None:
        base = Tool(
            "pacts-api@baseline", "pacts_api_driver.py", source=str(args.baseline.resolve())
        )
        wanted.insert(0, base)
    per_tool: dict[str, dict[str, dict[str, Any]]] = {}
    runs: dict[str, list[dict[str, dict[str, Any]]]] = {t.name: [] for t in wanted}
    for turn in range(max(1, args.repeat)):
        for tool in wanted if turn % 2 == 0 else wanted[::-1]:
            print(f"running {tool.name} on {len(pairs)} pairs ...", flush=True)
            runs[tool.name].append(run_tool(tool, pairs, args.cpu))
    for name, results in runs.items():
        per_tool[name] = merged(results)
    records = []
    for pair in pairs:
        answers = {}
        for name, results in per_tool.items():
            result = results.get(pair["id"])
            answers[name] = {**(result or {}), "verdict": verdict(pair, result)}
            answers[name].pop("id", None)
        records.append({"id": pair["id"], "no_drift": pair["no_drift"],
                        "element": pair["new"]["element"], "region": pair["new"]["region"],
                        "ordinal": pair["new"].get("ordinal"),
                        "words": step_words(pair["new"]["element"] or "", pair["new"]["region"],
                                            pair["new"].get("ordinal")),
                        "pairing": pair["pairing"],
                        "old_written": pair["old"]["truth_written"],
                        "new_written": pair["new"]["truth_written"],
                        "action": pair["new"]["action"], "floor_ms": pair.get("floor_ms"),
                        "old_truth": pair["old"]["truth"],
                        "new_truth": pair["new"]["truth"], "old_snapshot": pair["old"]["snapshot"],
                        "new_snapshot": pair["new"]["snapshot"], "answers": answers})  # fmt: skip
    apps = sorted({r["id"].split("/")[0] for r in records})
    lines = [f"Element-level relocation, {len(records)} pairs ({', '.join(apps)}): "
             f"{sum(not r['no_drift'] for r in records)} drifted, "
             f"{sum(r['no_drift'] for r in records)} no drift; {len(unusable)} left out "
             "(truth selector does not resolve on the snapshot)"]  # fmt: skip
    for title, keep in (("Drifted (the old selector no longer finds the element)",
                         lambda r: not r["no_drift"]),
                        ("No drift (the old selector still finds it)", lambda r: r["no_drift"]),
                        ("All pairs", lambda r: True)):  # fmt: skip
        chosen = [r for r in records if keep(r)]
        if chosen:
            lines += table([(n, [r["answers"][n] for r in chosen]) for n in per_tool], title)
            lines += cpu_lines([(n, [r["answers"][n] for r in chosen]) for n in per_tool])
            lines += [line for line in (floor_line(chosen),) if line]
    lines += ordinal_lines(records, [t for t in wanted if t.name in per_tool])
    lines += pairing_lines(records, unusable)
    print("\n".join(lines))
    path = args.json or cases_dir / "peers.json"
    path.write_text(
        json.dumps(
            {
                "summary": lines,
                "pairs": records,
                "left_out": [
                    {
                        "id": p["id"],
                        "why": p["unusable"],
                        "old_truth": p["old"]["truth"],
                        "new_truth": p["new"]["truth"],
                    }
                    for p in unusable
                ],
            },
            indent=1,
        ),
        encoding="utf-8",
    )
    print(f"\nper-pair answers: {path}")


if __name__ == "__main__":
    main()
