"""Execution overhead: a 20-step requirement through ``run_requirement`` vs the
same flow as hand-written plain Playwright calls (what the generated test does).

Run: ``.venv/bin/python bench/bench_overhead.py [--repeat N]``. Both run in one browser
against the bundled demo app (v1), alternating, each repetition in a fresh context; the
figure is the ratio of median wall times (target ≤ 1.05×), and pair by pair (the two
sides of each repetition run in turn, the order alternating) the wall and CPU ratios, the
figures to quote on a loaded machine (issue 40's warm clean path: ≤ 1.03×). The engine
runs warm (locators from the POM cached by one discovery run first: a requirement that
passed once runs with no discovery); the cold ratio (discovery included) is printed for information.
``run_requirement (traced)`` is the warm run with the trace bundle recorded as the plugin does
by default (each step's text, box, DOM hash, requests and a small picture written to a
temporary folder): its ratio to the warm run is the cost of the per-step recording.

``--by-process`` also reads each repetition's CPU by kind of process (this Python process with
the demo server, Playwright's driver, the browser's own process, the page's renderer, the
browser's other processes), each thread's ``schedstat`` before and after the run, and prints
each kind's median per run and its warm / plain ratio pair by pair: which process the clean
path's extra CPU is spent in.

``--profile`` then runs both sides a few more times with their calls timed (not part of the
figures) and prints where each spends its time: the engine's readiness waits, gate checks
and actions by action, expectations and navigation; the plain flow's Playwright calls.

``--messages`` (instead of the timing) runs each side once, warm, and counts the messages
Playwright's client sends its driver and receives from it, by method: each is JSON built,
sent, parsed and validated on both sides, so this process's and the driver's CPU go with the
count (docs/benchmarks.md, 2026-11-30, the fourteenth and fifteenth rounds).

``--scripts`` (instead of the timing) runs each side once in a child process with
Playwright's protocol log on (``DEBUG=pw:protocol``) and prints what the log shows: the page
calls each side makes (``Runtime.callFunctionOn``, and the most made by the function each
runs: a feature's reads keep their count whatever the load, where the totals move with the
gate's repeats), and how often and for how long
Playwright builds its in-page selector script (``InjectedScript``), per JavaScript world.
Playwright builds it once per document and world, on the first call that needs it: its
actions use the isolated "utility" world, ``Locator.evaluate_all`` (the gate's check, the
engine's reads of an element) the page's main world, so a document the engine acts on gets
it built twice where plain Playwright builds it once.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from bench_heal_speed import cpu_seconds
from playwright.sync_api import Browser, Page, expect, sync_playwright

from pytest_pacts.browser import launch_options
from pytest_pacts.demo_app import DemoServer
from pytest_pacts.discovery import register_bridge
from pytest_pacts.engine.api import Runtime, run_requirement
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.models import (
    Action,
    Expectation,
    ExpectationKind,
    Plan,
    Requirement,
    SourceRef,
    Step,
    Target,
)
from pytest_pacts.models.locator import DiscoveryResult

ROWS: list[tuple[str, str | None, str | None, str | None]] = [
    ("fill", "Username@LoginForm", "standard_user", "field_populated"),
    ("fill", "Password@LoginForm", "secret_sauce", None),
    ("click", "Login@LoginForm", None, "navigates_to:Products"),
    ("select", "Sort products", "Price (low to high)", "value:lohi"),
    ("click", "Add to cart@Sauce Labs Backpack", None, None),
    ("click", "Add to cart@Sauce Labs Bike Light", None, None),
    ("click", "Add to cart@Sauce Labs Onesie", None, None),
    ("click", "Remove@Sauce Labs Onesie", None, "text_visible:Add to cart"),
    ("click", "Shopping cart", None, "navigates_to:Your Cart"),
    ("wait", None, None, "text_visible:Sauce Labs Bike Light"),
    ("click", "Checkout", None, "navigates_to:Your Information"),
    ("fill", "First Name", "Ada", None),
    ("fill", "Last Name", "Lovelace", None),
    ("fill", "Zip/Postal Code", "10115", "field_populated"),
    ("click", "Continue", None, "navigates_to:Overview"),
    ("wait", None, None, "text_visible:Total: $43.18"),
    ("click", "Finish", None, "text_visible:Thank you for your order"),
    ("click", "Back Home", None, "navigates_to:Products"),
    ("click", "Open Menu", None, None),
    ("click", "Logout", None, "navigates_to:Swag Labs"),
]


def plain(page: Page, url: str) -> None:
    """The flow as a person writes it with Playwright (the generated test's shape). After
    each new page it waits for ``load``: the demo app binds its handlers in a deferred
    script, and a click before that is lost (the run waits for readiness the same way)."""
    page.goto(url + "/")
    form = page.locator("#login_form")
    form.get_by_label("Username").fill("standard_user")
    expect(form.get_by_label("Username")).not_to_have_value("")
    form.get_by_label("Password").fill("secret_sauce")
    form.get_by_role("button", name="Login").click()
    expect(page.get_by_role("heading", name="Products")).to_be_visible()
    page.wait_for_load_state("load")  # the app binds its handlers in a deferred script
    page.get_by_label("Sort products").select_option("Price (low to high)")
    expect(page.get_by_label("Sort products")).to_have_value("lohi")
    for name in ("Sauce Labs Backpack", "Sauce Labs Bike Light", "Sauce Labs Onesie"):
        card = page.locator(".inventory_item").filter(has_text=name)
        card.get_by_role("button", name="Add to cart").click()
    onesie = page.locator(".inventory_item").filter(has_text="Sauce Labs Onesie")
    onesie.get_by_role("button", name="Remove").click()
    expect(onesie.get_by_role("button", name="Add to cart")).to_be_visible()
    page.get_by_label("Shopping cart").click()
    expect(page.get_by_text("Your Cart", exact=True)).to_be_visible()
    page.wait_for_load_state("load")
    expect(page.get_by_text("Sauce Labs Bike Light")).to_be_visible()
    page.get_by_role("button", name="Checkout").click()
    expect(page.get_by_text("Checkout: Your Information")).to_be_visible()
    page.wait_for_load_state("load")
    page.get_by_label("First Name").fill("Ada")
    page.get_by_label("Last Name").fill("Lovelace")
    page.get_by_label("Zip/Postal Code").fill("10115")
    expect(page.get_by_label("Zip/Postal Code")).not_to_have_value("")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_text("Checkout: Overview")).to_be_visible()
    expect(page.get_by_text("Total: $43.18")).to_be_visible()
    page.wait_for_load_state("load")
    page.get_by_role("button", name="Finish").click()
    expect(page.get_by_text("Thank you for your order")).to_be_visible()
    page.wait_for_load_state("load")
    page.get_by_role("button", name="Back Home").click()
    expect(page.get_by_role("heading", name="Products")).to_be_visible()
    page.wait_for_load_state("load")
    page.get_by_role("button", name="Open Menu").click()
    page.get_by_role("link", name="Logout").click()
    expect(page.get_by_role("heading", name="Swag Labs")).to_be_visible()


def build_plan() -> Plan:
    steps = []
    for i, (action, element, value, expected) in enumerate(ROWS):
        target = None
        if element:
            name, _, region = element.partition("@")
            target = Target(element=name, region=region or None)
        exp = None
        if expected:
            kind, _, arg = expected.partition(":")
            exp = Expectation(kind=ExpectationKind(kind), text=arg or None)
        steps.append(
            Step(
                index=i,
                action=Action(action),
                target=target,
                value=value,
                expected=exp,
                source=SourceRef(path="bench.yaml", line=i + 1),
            )
        )
    req = Requirement(req_id="BENCH-20", url="/", steps=tuple(steps),
                      source=SourceRef(path="bench.yaml", line=1))  # fmt: skip
    return Plan(requirement=req, steps=tuple(steps), plan_hash="sha256:bench")


def timed(browser: Browser, body: Callable[[Page], None]) -> float:
    return timed_cpu(browser, body)[0]


def timed_cpu(
    browser: Browser, body: Callable[[Page], None], kinds: dict[str, float] | None = None
) -> tuple[float, float]:
    """``body``'s wall time and its CPU time (this process, with the demo server, and the
    browser and driver processes it started: ``bench_heal_speed.cpu_seconds``), in a fresh
    context. ``kinds``: filled with the CPU ms of each kind of process (:func:`by_kind`)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()
    threads = _threads_ns() if kinds is not None else {}
    start, spent = time.perf_counter(), cpu_seconds()
    body(page)
    elapsed, spent = time.perf_counter() - start, cpu_seconds() - spent
    if kinds is not None:
        kinds.update(by_kind(threads, _threads_ns()))
    context.close()
    return elapsed, spent


# the kinds of process a run's CPU is spent in (``--by-process``), as bench_peers names them
KINDS = ("python", "driver", "browser", "renderer", "other")


def _threads_ns() -> dict[tuple[int, int], tuple[str, int]]:
    """Every thread of this process and its descendants: its kind and CPU so far (ns, from
    ``schedstat``)."""
    sys.path.insert(0, str(Path(__file__).parent / "realapps" / "peers"))
    from process_cpu import processes

    out: dict[tuple[int, int], tuple[str, int]] = {}
    for pid, kind in processes():
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat", encoding="utf-8") as f:
                    out[(pid, int(tid))] = (kind, int(f.read().split()[0]))
            except (OSError, ValueError, IndexError):
                continue
    return out


def by_kind(
    before: dict[tuple[int, int], tuple[str, int]], after: dict[tuple[int, int], tuple[str, int]]
) -> dict[str, float]:
    """CPU ms per kind of process between two readings; a thread first seen in the second (a
    renderer started by the run's first navigation) counts from zero. A thread that came and
    went between the two is not seen (both sides alike)."""
    out = dict.fromkeys(KINDS, 0.0)
    for key, (kind, ns) in after.items():
        out[kind] += (ns - before.get(key, (kind, 0))[1]) / 1e6
    return out


class Profile:
    """Wall time per kind of call, for ``--profile``: the engine's stages (patched where the
    executor calls them) and the plain flow's Playwright calls."""

    def __init__(self) -> None:
        self.side: str | None = None
        self.spent: dict[str, float] = defaultdict(float)
        self.runs: dict[str, list[dict[str, float]]] = defaultdict(list)

    def timing(self, side: str, label: Callable[..., str], fn: Callable[..., Any]) -> Any:
        @functools.wraps(fn)
        def timed_call(*args: Any, **kwargs: Any) -> Any:
            if self.side != side:
                return fn(*args, **kwargs)
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.spent[label(*args)] += (time.perf_counter() - start) * 1000

        return timed_call

    def install(self) -> None:
        from playwright.sync_api import Locator as PWLocator
        from playwright.sync_api import LocatorAssertions

        from pytest_pacts.engine import executor, readiness
        from pytest_pacts.engine.expectations import Checker

        def by_action(name: str) -> Callable[..., str]:
            return lambda *a: f"{name}: {a[2].value}"

        readiness.wait_until_ready = self.timing(  # type: ignore[assignment]
            "engine", lambda *a: "readiness (first action on a page)", readiness.wait_until_ready
        )
        executor.run_gate = self.timing("engine", by_action("gate"), executor.run_gate)  # type: ignore[assignment]
        executor.perform = self.timing("engine", by_action("action"), executor.perform)  # type: ignore[assignment]
        Checker.check = self.timing("engine", lambda *a: "expectations", Checker.check)  # type: ignore[method-assign]
        runner = executor.StepRunner
        runner.navigate = self.timing("engine", lambda *a: "goto", runner.navigate)  # type: ignore[method-assign]
        for name in ("fill", "click", "select_option"):
            setattr(
                PWLocator,
                name,
                self.timing("plain", lambda *a, n=name: n, getattr(PWLocator, name)),
            )
        Page.goto = self.timing("plain", lambda *a: "goto", Page.goto)  # type: ignore[method-assign]
        Page.wait_for_load_state = self.timing(  # type: ignore[method-assign]
            "plain", lambda *a: "wait_for_load_state", Page.wait_for_load_state
        )
        for name in ("to_be_visible", "to_have_value", "not_to_have_value"):
            fn = getattr(LocatorAssertions, name)
            setattr(LocatorAssertions, name, self.timing("plain", lambda *a: "expect", fn))

    def measure(self, side: str, run: Callable[[], float]) -> None:
        self.side, self.spent = side, defaultdict(float)
        total = run() * 1000
        self.side = None
        self.runs[side].append({**self.spent, "(whole run)": total})

    def report(self) -> None:
        for side in ("plain", "engine"):
            runs = self.runs[side]
            print(f"\nwhere the {side} run's time goes (median of {len(runs)}, ms):")
            for key in sorted({k for r in runs for k in r}):
                print(f"  {key:40s} {statistics.median(r.get(key, 0.0) for r in runs):7.0f}")


_MARK = "pacts-bench-side:"
_LINE = re.compile(r"^(\S+) pw:protocol (SEND ►|◀ RECV) (\{.*\})\s*$")


@contextmanager
def demo_browser() -> Iterator[tuple[str, Browser]]:
    """The demo app (v1) and a Chromium, with the bridge registered as the plugin does:
    ``(the app's URL, the browser)``."""
    with DemoServer("v1") as app, sync_playwright() as pw:
        register_bridge(pw.selectors)
        browser = pw.chromium.launch(**launch_options())  # type: ignore[arg-type]
        try:
            yield app.url, browser
        finally:
            browser.close()


def engine_run(
    url: str,
    plan: Plan,
    options: EngineOptions,
    cache: dict[int, DiscoveryResult],
    found: dict[int, DiscoveryResult],
) -> Callable[[Page], None]:
    """The requirement through ``run_requirement`` with the locators in ``cache``; what it
    discovers goes to ``found``."""

    def body(page: Page) -> None:
        runtime = Runtime(env={}, base_url=url, options=options, pom=dict(cache),
                          on_discovered=found.__setitem__)  # fmt: skip
        record = run_requirement(plan, page, runtime)
        if record.verdict != "pass":
            raise SystemExit(f"the benchmark requirement failed:\n{record.rca}")

    return body


def scripts_child() -> None:
    """One warm engine run and one plain run (after a cold run that caches the locators),
    each announced on stderr for :func:`count_scripts`."""
    plan = build_plan()
    options = EngineOptions(step_timeout_ms=10_000)
    with demo_browser() as (url, browser):
        pom: dict[int, DiscoveryResult] = {}
        timed(browser, engine_run(url, plan, options, {}, pom))  # cold: caches the locators
        sides = (
            ("plain", lambda p: plain(p, url)),
            ("engine", engine_run(url, plan, options, pom, pom)),
        )
        for side, body in sides:
            print(_MARK + side, file=sys.stderr, flush=True)
            timed(browser, body)
        print(_MARK + "end", file=sys.stderr, flush=True)


_SHOWN_FUNCTIONS = 14


def _function_of(params: dict[str, Any]) -> str:
    """What a ``Runtime.callFunctionOn`` runs, in short: its longest string argument (the
    function text Playwright's utility script evaluates), spaces folded. The engine's reads
    of an element name their own function after the dispatcher's prefix (``fn("...")``)."""
    texts = [a["value"] for a in params.get("arguments", []) if isinstance(a.get("value"), str)]
    text = " ".join(max(texts, key=len).split()) if texts else "?"
    inner = text.find('fn("')
    return (text[inner + 4 :] if inner >= 0 else text)[:90]


def count_scripts() -> None:
    """Run :func:`scripts_child` with the protocol log on and count, per side, the page
    calls and the builds of Playwright's ``InjectedScript`` per world, with their time
    (from the log's timestamps: the request's send to its answer)."""
    env = {**os.environ, "DEBUG": "pw:protocol"}
    child = subprocess.run(
        [sys.executable, __file__, "--scripts-child"], env=env, capture_output=True, text=True,
        timeout=600, check=False,
    )  # fmt: skip
    if child.returncode != 0:
        raise SystemExit(f"the protocol-log run failed:\n{child.stderr[-3000:]}")
    side: str | None = None
    worlds: dict[tuple[str, int], str] = {}  # (session, context id) -> main | utility
    sent: dict[tuple[str, int], tuple[str, str, float]] = {}  # request -> side, world, at
    calls: dict[str, int] = defaultdict(int)
    kinds: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    builds: dict[tuple[str, str], list[float]] = defaultdict(list)
    for line in child.stderr.splitlines():
        if line.startswith(_MARK):
            side = line[len(_MARK) :]
            continue
        match = _LINE.match(line)
        if match is None:
            continue
        stamp, direction, body = match.groups()
        try:
            message = json.loads(body)
        except ValueError:
            continue
        at = datetime.fromisoformat(stamp).timestamp()
        session = str(message.get("sessionId", ""))
        params = message.get("params") or {}
        method = message.get("method")
        if method == "Runtime.executionContextCreated":
            context = params["context"]
            default = (context.get("auxData") or {}).get("isDefault")
            worlds[(session, context["id"])] = "main" if default else "utility"
        elif direction.startswith("SEND") and side in ("plain", "engine"):
            if method == "Runtime.callFunctionOn":
                calls[side] += 1
                kinds[side][_function_of(params)] += 1
            elif method == "Runtime.evaluate" and "InjectedScript())(globalThis" in str(
                params.get("expression", "")
            ):
                world = worlds.get((session, params.get("contextId", -1)), "?")
                sent[(session, message["id"])] = (side, world, at)
        elif "id" in message and (session, message["id"]) in sent:
            who, world, began = sent.pop((session, message["id"]))
            builds[(who, world)].append((at - began) * 1000)
    print("one warm run of each side, from Playwright's protocol log:")
    for who in ("plain", "engine"):
        print(f"  {who}: {calls[who]} page calls (Runtime.callFunctionOn)")
        for world in ("utility", "main"):
            took = builds.get((who, world), [])
            if took:
                print(
                    f"    InjectedScript built {len(took)} times in the {world} world, "
                    f"{sum(took):.0f} ms in all, median {statistics.median(took):.0f} ms"
                )
        ranked = sorted(kinds[who].items(), key=lambda kv: -kv[1])
        print("    by the function each runs (a feature's reads keep their count at any load):")
        for text, n in ranked[:_SHOWN_FUNCTIONS]:
            print(f"      {n:4d}  {text}")


def count_messages() -> None:
    """One warm run and one plain run (after a cold run that caches the locators), counting
    every message Playwright's client sends its driver and receives from it, by method (an
    event's name, ``__create__`` by the type of object created, ``reply`` for a call's
    answer). Counted on the client's connection (private: ``Connection.dispatch`` and
    ``send_message_to_server``); the load does not change what the flow itself sends."""
    connection = importlib.import_module("playwright._impl.connection").Connection
    tally: dict[str, int] | None = None
    dispatch, send = connection.dispatch, connection.send_message_to_server

    def counted_dispatch(self: Any, message: dict[str, Any]) -> None:
        if tally is not None:
            method = "reply" if message.get("id") else str(message.get("method"))
            if method == "__create__":
                method += ":" + str(message["params"]["type"])
            tally["received " + method] = tally.get("received " + method, 0) + 1
        dispatch(self, message)

    def counted_send(self: Any, owner: Any, method: str, *args: Any) -> Any:
        if tally is not None:
            tally["sent " + method] = tally.get("sent " + method, 0) + 1
        return send(self, owner, method, *args)

    connection.dispatch, connection.send_message_to_server = counted_dispatch, counted_send
    plan = build_plan()
    options = EngineOptions(step_timeout_ms=10_000)
    with demo_browser() as (url, browser):
        pom: dict[int, DiscoveryResult] = {}
        timed(browser, engine_run(url, plan, options, {}, pom))  # cold: caches the locators
        sides = (
            ("plain", lambda p: plain(p, url)),
            ("engine", engine_run(url, plan, options, dict(pom), pom)),
        )
        for side, body in sides:
            tally = {}
            timed(browser, body)
            counts, tally = tally, None
            sent = sum(n for k, n in counts.items() if k.startswith("sent "))
            print(f"{side}: {sent} messages sent, {sum(counts.values()) - sent} received")
            for key, n in sorted(counts.items(), key=lambda kv: -kv[1])[:_SHOWN_FUNCTIONS]:
                print(f"  {n:4d}  {key}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--profile", action="store_true", help="where each side's time goes")
    parser.add_argument("--scripts", action="store_true", help="page calls and script builds")
    parser.add_argument(
        "--by-process", action="store_true", help="each pair's CPU by kind of process"
    )
    parser.add_argument("--scripts-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--messages", action="store_true", help="messages to and from Playwright's driver"
    )
    args = parser.parse_args()
    if args.messages:
        count_messages()
        return
    if args.scripts_child:
        scripts_child()
        return
    if args.scripts:
        count_scripts()
        return
    profile = Profile() if args.profile else None
    if profile is not None:
        profile.install()
    plan = build_plan()
    options = EngineOptions(step_timeout_ms=10_000)
    with demo_browser() as (url, browser):
        pom: dict[int, DiscoveryResult] = {}

        pictures = tempfile.TemporaryDirectory(prefix="bench-trace-")
        traced = replace(options, trace=True, artifacts_dir=pictures.name)

        def engine(
            cache: dict[int, DiscoveryResult], opts: EngineOptions = options
        ) -> Callable[[Page], None]:
            return engine_run(url, plan, opts, cache, pom)

        timed(browser, lambda p: plain(p, url))  # warm-up: browser, server, caches
        cold = [timed(browser, engine({}))]
        warm_pom = dict(pom)
        samples: dict[str, list[float]] = {"plain": [], "engine": [], "traced": [], "cold": cold}
        pairs: list[tuple[float, float]] = []  # warm / plain of each repetition: wall, CPU
        # with --by-process: each repetition's CPU ms by kind of process, per side
        kinds: dict[str, list[dict[str, float]]] = {"plain": [], "engine": []}
        for r in range(args.repeat):
            # the two in turn, the order alternating, so a burst of load hits both alike
            sides = [("plain", lambda p: plain(p, url)), ("engine", engine(warm_pom))]
            took = {}
            for name, body in sides if r % 2 == 0 else sides[::-1]:
                spent: dict[str, float] | None = {} if args.by_process else None
                took[name] = timed_cpu(browser, body, spent)
                if spent is not None:
                    kinds[name].append(spent)
                samples[name].append(took[name][0])
            pairs.append(
                (took["engine"][0] / took["plain"][0], took["engine"][1] / took["plain"][1])
            )
            samples["traced"].append(timed(browser, engine(warm_pom, traced)))
        samples["cold"].append(timed(browser, engine({})))
        if profile is not None:
            for _ in range(5):
                profile.measure("plain", lambda: timed(browser, lambda p: plain(p, url)))
                profile.measure("engine", lambda: timed(browser, engine(warm_pom)))
        pictures.cleanup()
    med = {k: statistics.median(v) for k, v in samples.items()}
    print(f"20-step requirement, {args.repeat} repetitions each, median wall time")
    print(f"  plain Playwright       {med['plain'] * 1000:8.0f} ms")
    print(f"  run_requirement (warm) {med['engine'] * 1000:8.0f} ms")
    print(f"  run_requirement (traced) {med['traced'] * 1000:6.0f} ms  (trace bundle recorded)")
    print(f"  run_requirement (cold) {med['cold'] * 1000:8.0f} ms  (discovery included)")
    ratio = med["engine"] / med["plain"]
    verdict = "PASS" if ratio <= 1.05 else "FAIL"
    print(f"overhead ratio (warm / plain): {ratio:.2f}x  target <= 1.05x  {verdict}")
    print(
        "warm / plain pair by pair (each repetition's two runs in turn): wall median "
        f"{statistics.median(w for w, _ in pairs):.3f}x, CPU median "
        f"{statistics.median(c for _, c in pairs):.3f}x (this process with the demo server, "
        "the browser and the driver; issue 40's warm clean path: target <= 1.03x)"
    )
    print(f"cold ratio (first run, discovery included): {med['cold'] / med['plain']:.2f}x")
    print(
        f"trace recording: traced / warm {med['traced'] / med['engine']:.2f}x "
        f"(+{(med['traced'] - med['engine']) * 1000 / len(ROWS):.1f} ms per step); "
        f"traced / plain {med['traced'] / med['plain']:.2f}x"
    )
    if args.by_process:
        report_kinds(kinds)
    if profile is not None:
        profile.report()


def report_kinds(kinds: dict[str, list[dict[str, float]]]) -> None:
    print("CPU by kind of process, ms per run (median) and warm / plain pair by pair (median):")
    for kind in KINDS:
        plain_ms = [k[kind] for k in kinds["plain"]]
        warm_ms = [k[kind] for k in kinds["engine"]]
        ratios = [w / p for w, p in zip(warm_ms, plain_ms, strict=True) if p > 0]
        ratio = f"{statistics.median(ratios):.3f}x" if ratios else "-"
        more = statistics.median(w - p for w, p in zip(warm_ms, plain_ms, strict=True))
        print(
            f"  {kind:9} plain {statistics.median(plain_ms):8.1f}  warm "
            f"{statistics.median(warm_ms):8.1f}  {ratio:>7}  (warm - plain {more:+.1f})"
        )


if __name__ == "__main__":
    main()
