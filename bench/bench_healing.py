"""Healing benchmark: mutation cases, correct / abstained / wrong.

Run: ``.venv/bin/python bench/bench_healing.py [--limit N] [--kinds a,b]``.

For every visible interactive element of the demo app (v1) and of generated pages, and for
every mutation kind that applies to it: load the page, mark elements with a hidden
identity marker (``data-bench-id``, which fingerprints and the scorer never read), discover
the element (fingerprint, locator, alternates), take the brittle locator the mutation
breaks, mutate the DOM in the page, then heal. For ``region_renamed`` the step is scoped by
a container's id/class words instead ("Username@Login form" for ``form#login_form``), the
brittle locator is the region-scoped one discovery gives, and the container is renamed.
Each case is healed twice:

- **ladder**: the full default ladder (alternates, repair, re-discovery, similarity; no
  store, no extension, not interactive) with the discovered alternates;
- **similarity only**: the similarity rung alone (comparable with Similo, which has no
  other rung).

A heal is *correct* when the healed (or repaired) locator resolves to the marked element,
*wrong* when it resolves to anything else; no heal is *abstained*. Also measured: the heal
latency of a step whose cached locator broke vs the same step with a good one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

from playwright.sync_api import Browser, Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mutations.pages import PAGES

from pytest_pacts.browser import launch_options
from pytest_pacts.demo_app import DemoServer
from pytest_pacts.discovery import Discoverer, check_locator, register_bridge, to_playwright
from pytest_pacts.engine.contracts import EngineOptions, HealContext, RungResult, StepState
from pytest_pacts.engine.healing import HealingLadder, SimilarityRung
from pytest_pacts.models.locator import DiscoveryResult, Locator, RegionMatch, Strategy
from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.models.requirement import (
    Action,
    Plan,
    Requirement,
    SourceRef,
    Step,
    Target,
)

KINDS = (
    "id_renamed",
    "class_renamed",
    "text_case",
    "text_wording",
    "wrapper_added",
    "moved",
    "attribute_removed",
    "test_id_removed",
    "decoy",
    "removed",
    "region_renamed",
)
NO_HEAL_IS_RIGHT = frozenset({"removed"})
# Wording drift: half are synonyms the scorer knows, half are rewordings it does not.
WORDS = {
    "login": "Sign in", "add to cart": "Add to basket", "add to basket": "Add to bag",
    "checkout": "Proceed to checkout", "continue": "Next", "cancel": "Go back",
    "finish": "Complete order", "remove": "Delete", "create account": "Sign up",
    "save changes": "Save settings", "search": "Find", "submit": "Send",
    "subscribe": "Sign me up", "pay now": "Pay", "delete": "Remove", "edit": "Modify",
    "export": "Download", "details": "More info", "reset": "Restore defaults",
    "next": "Continue", "previous": "Back", "username": "User name", "password": "Passcode",
    "first name": "Given name", "last name": "Family name", "email": "E-mail address",
    "open menu": "Show navigation", "load results": "Fetch results", "confirm": "OK",
    "show panel": "Open panel", "account": "My account", "invite member": "Add member",
}  # fmt: skip
# generated pages built to stress look-alikes (identical forms, cards and panels): reported
# in the overall figure and, separately, left out of the main-corpus line
STRESS_PAGES = frozenset({"gen/account", "gen/dashboard"})
DEMO_PAGES = ("index.html", "inventory.html", "cart.html", "checkout-step-one.html", "widgets.html")
SCRIPT = (Path(__file__).parent / "mutations" / "mutate.js").read_text(encoding="utf-8")
SOURCE = SourceRef(path="bench.req.yaml", line=1)
VERBOSE = False
SWEEPING = False
REMOVED: set[str] = set()  # elements whose case expects no heal
OPTIONS = EngineOptions(step_timeout_ms=3_000.0, settle_timeout_ms=1_000.0)


@dataclass(frozen=True)
class Element:
    page: str
    bench_id: str
    name: str
    action: str
    region: str | None


def bench(page: Page, fn: str, *args: object) -> object:
    return page.evaluate(f"(args) => ({SCRIPT}).{fn}(...args)", list(args))


def load(page: Page, where: str, base: str) -> None:
    if where.startswith("gen/"):
        page.set_content(PAGES[where]())
    else:
        page.goto(f"{base}/{where}")
        page.wait_for_load_state("load")


def prepare_demo(page: Page, base: str) -> None:
    # the shop's pages need the server's session cookie: log in as the form does
    page.request.post(base + "/api/login", data={"user": "standard_user",
                      "password": "secret_sauce"})  # fmt: skip
    page.goto(base + "/index.html")
    page.evaluate("""() => { localStorage.setItem('pacts.session', 'standard_user');
        localStorage.setItem('pacts.cart', JSON.stringify(['sauce-labs-backpack',
        'sauce-labs-onesie'])); localStorage.setItem('pacts.cookies', 'accepted'); }""")


def plan_for(el: Element) -> Plan:
    step = Step(index=0, action=Action(el.action), target=Target(element=el.name,
                region=el.region), source=SOURCE)  # fmt: skip
    req = Requirement(req_id="BENCH", url="about:blank", steps=(step,), source=SOURCE)
    return Plan(requirement=req, steps=(step,), plan_hash="b" * 16)


def brittle_locator(kind: str, spec: dict[str, object], primary: Locator) -> Locator | None:
    """The cached locator a mutation of this kind breaks (None: kind does not apply)."""

    def css(value: object) -> Locator | None:
        return Locator(strategy=Strategy.CSS, confidence=0.7, css=str(value)) if value else None

    if kind == "id_renamed":
        return css(spec["id"])
    if kind == "class_renamed":
        return css(spec["class"])
    if kind in ("wrapper_added", "moved"):
        return css(spec["path"])
    if kind == "attribute_removed":
        attr = cast(dict[str, str] | None, spec["attr"])
        return css(attr["css"]) if attr else None
    if kind == "test_id_removed":
        tid = cast(dict[str, str] | None, spec["test_id"])
        if not tid:
            return None
        return Locator(strategy=Strategy.TEST_ID, confidence=0.98, test_id=tid["value"],
                       test_id_attribute=tid["attribute"])  # fmt: skip
    return primary  # text changes and decoys break the name-based primary locator


def marker_of(page: Page, locator: Locator) -> str | None:
    target = to_playwright(page, locator)
    if target.count() != 1:
        return "<not unique>"
    return target.get_attribute("data-bench-id")


WHY: dict[str, Counter[str]] = defaultdict(Counter)


def why(reason: str) -> str:
    """The abstain rule condition that decided, for the summary."""
    last = reason.split("similarity: ")[-1]
    for key in ("not above", "margin", "shares none", "does not fit", "fails the", "settle"):
        if key in last:
            return key
    return "other"


SWEEP: list[tuple[float, float, bool, bool]] = []  # best, runner-up, best is right, anchored


HEALED_BY: dict[str, Counter[str]] = defaultdict(Counter)  # kind -> rung, full ladder


def rung_label(result: RungResult) -> str:
    """The rung that healed; the region-drift rung reports as a repair, so it is told apart
    by the vanished region it names, with the evidence rule that decided (region.py)."""
    if "agreeing_sources" in result.evidence:
        return "region drift (agreement)"
    if "region_gone" in result.evidence:
        return "region drift (one locator + fingerprint)"
    if result.reason.startswith("region "):
        return "region drift (page-wide similarity)"
    return result.rung.value


def classify(page: Page, el: Element, kind: str, ladder: HealingLadder, ctx: HealContext) -> str:
    attempt, result = ladder.heal(ctx)
    sims = [r for r in ctx.round_results if r.rung.value == "similarity" and r.score is not None]
    if len(ladder.rungs) == 1 and sims:
        # what the best candidate was, accepted or not: the data for choosing the defaults
        sim = sims[0]
        shown = sim.locator or sim.proposed
        right = shown is not None and marker_of(page, shown) == el.bench_id
        anchored = "shares none" not in sim.reason
        SWEEP.append((sim.score or 0.0, sim.runner_up_score or 0.0, right, anchored))
    if result is None and ctx.state.step.target and el.bench_id in REMOVED:
        return "correct"  # the element is gone: abstaining is the right answer
    if result is None:
        WHY[str(len(ladder.rungs))][why(attempt.reason)] += 1
        if VERBOSE:
            print(f"    {attempt.score} {attempt.runner_up_score} {attempt.reason[-160:]}")
        return "abstained"
    locator = result.locator or ctx.state.locator
    assert locator is not None
    if len(ladder.rungs) > 1:
        HEALED_BY[kind][rung_label(result)] += 1
    healed_to = marker_of(page, locator)
    if healed_to != el.bench_id and VERBOSE:
        print(f"    healed to {locator.describe()} (marker {healed_to}): {result.reason[:160]}")
    return "correct" if healed_to == el.bench_id else "wrong"


def snapshot(page: Page, where: str, base: str) -> str:
    """Load a page once, mark it, and keep its body: cases restore it instead of reloading."""
    load(page, where, base)
    bench(page, "mark")
    return str(page.evaluate("() => document.body.innerHTML"))


def restore(page: Page, html: str) -> None:
    page.evaluate("""(html) => { document.body.innerHTML = html; window.scrollTo(0, 0);
        window.__decoyClicks = 0; }""", html)  # fmt: skip


def discover_once(page: Page, el: Element) -> DiscoveryResult | None:
    step = plan_for(el).steps[0]
    assert step.target is not None
    found = Discoverer().discover(page, [(0, step.target, step.action)])[0]
    if found.locator is None or marker_of(page, found.locator) != el.bench_id:
        return None  # discovery cannot single it out: not a healing case
    return found


def region_case(page: Page, el: Element) -> tuple[Element, DiscoveryResult] | None:
    """The element as a step scoped by a container's id/class tokens ("Username@Login form"
    for ``form#login_form``), for region_renamed; None when no such step singles it out."""
    for name in cast(list[str], bench(page, "regionNames", el.bench_id)):
        scoped = replace(el, region=name)
        found = discover_once(page, scoped)
        region = found.locator.region if found and found.locator else None
        if (
            found
            and region
            and region.matched_by in (RegionMatch.ID_TOKEN, RegionMatch.CLASS_TOKEN)
        ):
            return scoped, found
    return None


def run_case(
    page: Page, el: Element, kind: str, html: str, found: DiscoveryResult
) -> tuple[str, str] | None:
    restore(page, html)
    plan = plan_for(el)
    step = plan.steps[0]
    assert found.locator is not None
    spec = cast(dict[str, object], bench(page, "brittle", el.bench_id))
    broken = brittle_locator(kind, spec, found.locator)
    if broken is None or marker_of(page, broken) != el.bench_id:
        return None
    container = broken.region.css if broken.region else None
    if not bench(page, "mutate", el.bench_id, kind, WORDS, container):
        return None
    gate = check_locator(page, broken, step.action)
    if gate.ok and marker_of(page, broken) == el.bench_id:
        return None  # the mutation did not break this locator: nothing to heal
    failed = gate.failed
    ftype = FailureType.NOT_UNIQUE if failed is None or failed.code in ("none", "not_unique") \
        else FailureType.NOT_VISIBLE  # fmt: skip
    failure = Failure(type=ftype, message=failed.reason if failed else "resolves elsewhere")
    if kind in NO_HEAL_IS_RIGHT:
        REMOVED.add(el.bench_id)
    outcomes: list[str] = []
    # --sweep: render the best candidate even when abstaining, to see if it was right
    sim_options = replace(OPTIONS, interactive=True) if SWEEPING else OPTIONS
    for ladder, alternates in (
        (HealingLadder(rungs=[SimilarityRung()]), ()),
        (HealingLadder(), tuple(a for a in (found.locator, *found.alternates) if a != broken)),
    ):
        state = StepState(step=step, locator=broken, alternates=alternates, discovery=found,
                          fingerprint=found.fingerprint)  # fmt: skip
        options = sim_options if len(ladder.rungs) == 1 else OPTIONS
        ctx = HealContext(page=page, plan=plan, state=state, failure=failure, round=1,
                          options=options)  # fmt: skip
        outcomes.append(classify(page, el, kind, ladder, ctx))
    if kind in NO_HEAL_IS_RIGHT:
        REMOVED.discard(el.bench_id)
    if kind == "decoy" and page.evaluate("() => window.__decoyClicks || 0"):
        outcomes = ["wrong", "wrong"]  # healing must never act on the page's elements
    return outcomes[0], outcomes[1]


def elements(page: Page, where: str, base: str, seen: set[tuple[str, str | None]]) -> list[Element]:
    """The page's marked elements; the demo's header repeats on every demo page: counted
    once (generated pages share no header: an "Email" there is another page's field)."""
    load(page, where, base)
    demo = where in DEMO_PAGES
    out: list[Element] = []
    for raw in cast(list[dict[str, object]], bench(page, "mark")):
        key = (str(raw["name"]), cast(str | None, raw["region"]))
        if raw["shadow"] or (demo and key in seen):
            continue  # shadow elements: no brittle css path to break (tests cover them)
        if demo:
            seen.add(key)
        out.append(Element(where, str(raw["id"]), key[0], str(raw["action"]), key[1]))
    return out


def latency(browser: Browser, base: str, repeat: int) -> tuple[float, float]:
    """Median ms of one click step with a good cached locator vs a broken one that heals."""
    page = browser.new_page()
    el = Element("index.html", "", "Login", "click", None)
    plan = plan_for(el)
    step = plan.steps[0]
    good_times: list[float] = []
    heal_times: list[float] = []
    for _ in range(repeat):
        load(page, "index.html", base)
        assert step.target is not None
        found = Discoverer().discover(page, [(0, step.target, step.action)])[0]
        assert found.locator is not None
        start = time.perf_counter()
        assert check_locator(page, found.locator, "click").ok
        good_times.append((time.perf_counter() - start) * 1000)
        page.evaluate("() => { const b = document.querySelector('#login-button');"
                      " b.id = 'signin'; b.removeAttribute('data-test'); }")  # fmt: skip
        broken = Locator(strategy=Strategy.CSS, confidence=0.7, css="#login-button")
        state = StepState(step=step, locator=broken, fingerprint=found.fingerprint)
        start = time.perf_counter()
        gate = check_locator(page, broken, "click")
        failure = Failure(type=FailureType.NOT_UNIQUE, message="none", gate=gate)
        ctx = HealContext(page=page, plan=plan, state=state, round=1, options=OPTIONS,
                          failure=failure)  # fmt: skip
        _attempt, result = HealingLadder(rungs=[SimilarityRung()]).heal(ctx)
        assert result is not None and result.locator is not None
        assert check_locator(page, result.locator, "click").ok
        heal_times.append((time.perf_counter() - start) * 1000)
    page.close()
    return statistics.median(good_times), statistics.median(heal_times)


def table(results: dict[str, Counter[str]], title: str) -> tuple[int, int, int]:
    row = "{:<20}{:>7}{:>10}{:>11}{:>7}{:>11}"
    print(f"\n{title}")
    print(row.format("mutation kind", "cases", "correct", "abstained", "wrong", "correct %"))
    totals: Counter[str] = Counter()
    for kind in (*KINDS, "overall"):
        c = totals if kind == "overall" else results.get(kind, Counter())
        n = sum(c.values())
        if kind != "overall":
            totals.update(c)
        pct = f"{100 * c['correct'] / n:.1f}" if n else "-"
        print(row.format(kind, n, c["correct"], c["abstained"], c["wrong"], pct))
    return sum(totals.values()), totals["correct"], totals["wrong"]


def sweep() -> None:
    """Correct / wrong heals of the similarity rung alone under other thresholds and margins
    (the abstain rule's type and gate conditions unchanged): how the defaults were chosen."""
    print("\nSimilarity alone, threshold x margin sweep (correct / wrong):")
    margins = (0.0, 0.02, 0.05, 0.08, 0.10, 0.15)
    print("threshold " + "".join(f"{'m=' + str(m):>12}" for m in margins))
    for t in (0.5, 0.6, 0.7, 0.75, 0.8):
        cells = []
        for m in margins:
            ok = [(r) for b, ru, r, a in SWEEP if b > t and b - ru >= m - 1e-9 and a]
            cells.append(f"{sum(ok)} / {len(ok) - sum(ok)}")
        print(f"{t:<10}" + "".join(f"{c:>12}" for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="at most N elements (0: all)")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--repeat", type=int, default=10, help="latency repetitions")
    parser.add_argument("--verbose", action="store_true", help="print every non-correct case")
    parser.add_argument("--sweep", action="store_true", help="threshold x margin table")
    args = parser.parse_args()
    global VERBOSE, SWEEPING
    VERBOSE = args.verbose
    SWEEPING = args.sweep
    kinds = [k for k in args.kinds.split(",") if k]
    started = time.perf_counter()
    by_kind: dict[str, dict[str, Counter[str]]] = {
        "sim": defaultdict(Counter),
        "ladder": defaultdict(Counter),
    }
    by_page: dict[str, Counter[str]] = defaultdict(Counter)  # full ladder, every kind
    with DemoServer("v1") as server, sync_playwright() as pw:
        register_bridge(pw.selectors)  # as the plugin does
        browser = pw.chromium.launch(**launch_options())  # type: ignore[arg-type]
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.set_default_timeout(3_000)
        page = context.new_page()
        prepare_demo(page, server.url)
        seen: set[tuple[str, str | None]] = set()
        count = 0
        for where in (*DEMO_PAGES, *PAGES):
            found = elements(page, where, server.url, seen)
            html = snapshot(page, where, server.url)
            for el in found:
                if args.limit and count >= args.limit:
                    break
                count += 1
                restore(page, html)
                plain = discover_once(page, el)
                scoped = region_case(page, el) if "region_renamed" in kinds else None
                for kind in kinds:
                    case = scoped if kind == "region_renamed" else (el, plain) if plain else None
                    if case is None:
                        continue
                    subject, found_before = case
                    outcome = run_case(page, subject, kind, html, found_before)
                    if outcome is None:
                        continue
                    by_kind["sim"][kind][outcome[0]] += 1
                    by_kind["ladder"][kind][outcome[1]] += 1
                    by_page[where][outcome[1]] += 1
                    if args.verbose and outcome != ("correct", "correct"):
                        print(f"  {outcome} {kind} {subject}")
        good, healed = latency(browser, server.url, args.repeat)
        browser.close()
    n, correct, wrong = table(
        by_kind["ladder"], "Full ladder (alternates, repair, re-discovery, similarity)"
    )
    table(by_kind["sim"], "Similarity rung alone (comparable with Similo)")
    print("\nFull ladder by page (correct / abstained / wrong):")
    for where, c in by_page.items():
        print(f"  {where:<26} {c['correct']:>4} / {c['abstained']:>3} / {c['wrong']}")
    main = sum((c for w, c in by_page.items() if w not in STRESS_PAGES), Counter())
    cases = sum(main.values())
    print(f"  without the look-alike stress pages ({', '.join(sorted(STRESS_PAGES))}): "
          f"{main['correct']} of {cases} correct ({100 * main['correct'] / max(cases, 1):.1f}%), "
          f"{main['wrong']} wrong")  # fmt: skip
    print("\nPublished anchors: Similo 88.6% correct, every miss a wrong element;")
    print("  VON Similo 94.7%; multi-locator 73.3% (no wrong element); a later hybrid 98.8%.")
    print(f"Ours (full ladder): {100 * correct / max(n, 1):.1f}% correct, {wrong} wrong of {n}.")
    print(f"\nHeal latency (login button, median of {args.repeat}): gate with a good locator "
          f"{good:.1f} ms; broken locator -> gate, similarity heal, gate {healed:.1f} ms; "
          f"ratio {healed / good:.1f}x")  # fmt: skip
    if SWEEPING:
        sweep()
    for kind, rungs_used in HEALED_BY.items():
        print(
            f"Heals by rung, full ladder, {kind}: "
            + ", ".join(f"{k}: {v}" for k, v in rungs_used.items())
        )
    for rungs, reasons in sorted(WHY.items()):
        label = "similarity alone" if rungs == "1" else "full ladder"
        print(f"Abstentions, {label}: " + ", ".join(f"{k}: {v}" for k, v in reasons.items()))
    print(f"Total bench time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
