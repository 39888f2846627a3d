"""Execution overhead: a 20-step requirement through ``run_requirement`` vs the
same flow as hand-written plain Playwright calls (what the generated test does).

Run: ``.venv/bin/python bench/bench_overhead.py [--repeat N]``. Both run in one browser
against the bundled demo app (v1), alternating, each repetition in a fresh context; the
figure is the ratio of median wall times (target ≤ 1.05×). The engine runs warm (locators
from the POM cached by one discovery run first: a requirement that passed once
runs with no discovery); the cold ratio (discovery included) is printed for information.
``run_requirement (traced)`` is the warm run with the trace bundle recorded as the plugin does
by default (each step's text, box, DOM hash, requests and a small picture written to a
temporary folder): its ratio to the warm run is the cost of the per-step recording.

``--profile`` then runs both sides a few more times with their calls timed (not part of the
figures) and prints where each spends its time: the engine's readiness waits, gate checks
and actions by action, expectations and navigation; the plain flow's Playwright calls.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from playwright.sync_api import Browser, Page, expect, sync_playwright

from pytest_pacts.browser import launch_options
from pytest_pacts.demo_app import DemoServer
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
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()
    start = time.perf_counter()
    body(page)
    elapsed = time.perf_counter() - start
    context.close()
    return elapsed


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

        from pytest_pacts.engine import executor
        from pytest_pacts.engine.expectations import Checker

        def by_action(name: str) -> Callable[..., str]:
            return lambda *a: f"{name}: {a[2].value}"

        executor.wait_until_ready = self.timing(  # type: ignore[assignment]
            "engine", lambda *a: "readiness (first action on a page)", executor.wait_until_ready
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--profile", action="store_true", help="where each side's time goes")
    args = parser.parse_args()
    profile = Profile() if args.profile else None
    if profile is not None:
        profile.install()
    plan = build_plan()
    options = EngineOptions(step_timeout_ms=10_000)
    with DemoServer("v1") as app, sync_playwright() as pw:
        browser = pw.chromium.launch(**launch_options())  # type: ignore[arg-type]
        pom: dict[int, DiscoveryResult] = {}

        pictures = tempfile.TemporaryDirectory(prefix="bench-trace-")
        traced = replace(options, trace=True, artifacts_dir=pictures.name)

        def engine(
            cache: dict[int, DiscoveryResult], opts: EngineOptions = options
        ) -> Callable[[Page], None]:
            def body(page: Page) -> None:
                runtime = Runtime(env={}, base_url=app.url, options=opts, pom=dict(cache),
                                  on_discovered=pom.__setitem__)  # fmt: skip
                record = run_requirement(plan, page, runtime)
                if record.verdict != "pass":
                    raise SystemExit(f"the benchmark requirement failed:\n{record.rca}")

            return body

        timed(browser, lambda p: plain(p, app.url))  # warm-up: browser, server, caches
        cold = [timed(browser, engine({}))]
        warm_pom = dict(pom)
        samples: dict[str, list[float]] = {"plain": [], "engine": [], "traced": [], "cold": cold}
        for _ in range(args.repeat):
            samples["plain"].append(timed(browser, lambda p: plain(p, app.url)))
            samples["engine"].append(timed(browser, engine(warm_pom)))
            samples["traced"].append(timed(browser, engine(warm_pom, traced)))
        samples["cold"].append(timed(browser, engine({})))
        if profile is not None:
            for _ in range(5):
                profile.measure("plain", lambda: timed(browser, lambda p: plain(p, app.url)))
                profile.measure("engine", lambda: timed(browser, engine(warm_pom)))
        browser.close()
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
    print(f"cold ratio (first run, discovery included): {med['cold'] / med['plain']:.2f}x")
    print(
        f"trace recording: traced / warm {med['traced'] / med['engine']:.2f}x "
        f"(+{(med['traced'] - med['engine']) * 1000 / len(ROWS):.1f} ms per step); "
        f"traced / plain {med['traced'] / med['plain']:.2f}x"
    )
    if profile is not None:
        profile.report()


if __name__ == "__main__":
    main()
