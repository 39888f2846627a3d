"""Heal speed: what a drifted run costs over a clean one, measured side by side in one run.

Run: ``.venv/bin/python bench/bench_heal_speed.py [--rounds N] [--profile]``.

Every sample requirement (``sample_requirements/``) first runs cold on demo release v1
through the application layer (``prepare_run`` → ``run_requirement`` → ``conclude_run``)
with a real SQLite store, which then holds its recipes and locators. Then, round after
round, each requirement runs twice, interleaved (the order alternates per round, so a
burst of load on the machine hits both sides alike):

- **A, clean**: on release v1 from a copy of that store: every locator cached and good;
- **B, drifted**: on release v2 from a copy of that store, healing: ids renamed, texts
  reworded, a form's container renamed; every drift is healed from the v1 recipes.

Both take screenshots and write the store as a pytest run does (heal proposals, healing
memory, the run history), in one Chromium, a fresh context per run. A heal's picture is
taken in the background while its round runs (``engine/artifacts.py``), so on two cores it
slows the round it does not hold up; ``--no-pictures`` runs both sides without screenshots,
for the ladder's own time. Printed:

- **(a) healed step cost**: for every step B healed, B's step time minus A's for the same
  step (median; target ≤ 50 ms, issue 40; 250 ms before);
- **(b) relocation**: the healing ladder's own time per accepted heal
  (``HealAttempt.duration_ms``, median; target ≤ 50 ms);
- **(c) suite**: B's whole suite over A's (wall and CPU, median over rounds; target ≤ 1.1×,
  issue 40; 1.5× before). CPU is this process plus the browser and Playwright driver processes it
  started (read from ``/proc``), the figure to quote when the machine is loaded.

``--profile`` then runs B once more under cProfile (not part of the figures) and prints
where a drifted run's time goes (the gate, the ladder and each rung, screenshots, store
writes). ``--calls`` runs B once more with every page call a heal round makes timed (by
what it is for: the in-page function it calls, or the Playwright call), and prints their
totals, then the median round of each rung call by call: how much of a relocation is round
trips, and which. ``--phases`` times the parts of every step on both sides and prints, for the
healed steps, each part's time against the clean step's (``bench/heal_phases.py``): the
failed check of the recorded locator, the heal round, the retry's gate, the action and its
wait for the heal pictures, the expectation, the heal's confirmation.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import heal_phases
from playwright.sync_api import Browser, sync_playwright

from pytest_pacts.application import RunSettings, conclude_run, prepare_run
from pytest_pacts.browser import launch_options
from pytest_pacts.demo_app import DemoServer
from pytest_pacts.discovery import register_bridge
from pytest_pacts.engine.api import run_requirement
from pytest_pacts.engine.contracts import EngineOptions, HealContext, RungResult
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Plan
from pytest_pacts.models.outcome import HealAttempt, RunRecord
from pytest_pacts.planner import LoaderOptions, load_file
from pytest_pacts.planner.loader import load_blocks_file
from pytest_pacts.runtime import bounded
from pytest_pacts.store import open_store

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_requirements"
TICK = os.sysconf("SC_CLK_TCK")
HealOutcome = tuple[HealAttempt, RungResult | None]


def sample_plans() -> list[Plan]:
    blocks = load_blocks_file(SAMPLES / "blocks" / "common.blocks.yaml", LoaderOptions(env={}))
    shared = LoaderOptions(env={}, shared_blocks=blocks)
    files = sorted(SAMPLES.glob("*.xlsx")) + sorted(SAMPLES.glob("*.req.*"))
    # the requirements that start signed in through an auth profile need the pytest layer's
    # sessions; the ones measured here sign in through their own steps
    plans = [plan for f in files for plan in load_file(f, shared).plans]
    return [plan for plan in plans if plan.requirement.auth is None]


def cpu_seconds() -> float:
    """CPU time of this process and every live process it started (browser, driver)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = raw[raw.rindex(")") + 2 :].split()
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / TICK
    me = os.getpid()
    total = 0.0
    for pid, spent in times.items():
        p = pid
        while p > 1 and p != me:
            p = parents.get(p, 0)
        if p == me and pid != me:
            total += spent
    return total + time.process_time()


@dataclass
class Side:
    """One side's measurements over all rounds."""

    suite_wall: list[float] = field(default_factory=list)
    suite_cpu: list[float] = field(default_factory=list)
    steps: dict[tuple[str, int], list[float]] = field(default_factory=lambda: defaultdict(list))


@dataclass
class Healed:
    step_ms: list[float] = field(default_factory=list)  # B step time minus A's, same step
    relocation_ms: list[float] = field(default_factory=list)
    rungs: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    verdicts: set[str] = field(default_factory=set)
    keys: set[tuple[int, str, int]] = field(default_factory=set)  # (round, req_id, step)
    # the first accepted heal of each requirement's run (a fresh context and page: issue 40's
    # "first heal of a run") and the later ones, relocation ms; and which healed steps
    # were a run's first (round, req_id, step)
    first_ms: list[float] = field(default_factory=list)
    later_ms: list[float] = field(default_factory=list)
    first_keys: set[tuple[int, str, int]] = field(default_factory=set)


class Bench:
    def __init__(
        self, browser: Browser, v1: DemoServer, v2: DemoServer, tmp: Path, pictures: bool = True
    ) -> None:
        self.browser, self.v1, self.v2, self.tmp = browser, v1, v2, tmp
        self.pictures = pictures
        self.seed = tmp / "seed.db"
        self.runs = 0
        self.heal_cpu: list[float] = []  # CPU seconds of each accepted heal round
        self.round = -1
        # (round, req_id, step): the wall ms the heal rounds' CPU readings took in that step
        self.probed: dict[tuple[int, str, int], float] = defaultdict(float)
        # what reading the CPU times costs by itself (subtracted from each heal's figure)
        self.probe = statistics.median(-cpu_seconds() + cpu_seconds() for _ in range(5))

    def _timed_heal(self, heal: Callable[[HealContext], HealOutcome]) -> Callable[..., HealOutcome]:
        def timed_heal(ctx: HealContext) -> HealOutcome:
            # reading the CPU times scans /proc (milliseconds on a loaded machine): that wall
            # time is inside the step's, and is taken out of the healed step's figure (a)
            before = time.perf_counter()
            spent = cpu_seconds()
            started = time.perf_counter()
            outcome = heal(ctx)
            ended = time.perf_counter()
            if outcome[0].accepted:
                self.heal_cpu.append(cpu_seconds() - spent - self.probe)
            probed = (started - before + time.perf_counter() - ended) * 1000
            self.probed[(self.round, ctx.plan.req_id, ctx.state.step.index)] += probed
            return outcome

        return timed_heal

    def run(self, plan: Plan, server: DemoServer, store_file: Path) -> RunRecord:
        self.runs += 1
        heal_phases.start("A" if server is self.v1 else "B", plan.req_id)
        options = EngineOptions(
            step_timeout_ms=8_000,
            navigation_timeout_ms=15_000,
            artifacts_dir=str(self.tmp / f"shots{self.runs}") if self.pictures else None,
        )
        with open_store(store_file) as store:
            settings = RunSettings(options=options, base_url=server.url, env={})
            prepared = prepare_run(store, plan, settings)
            healer = prepared.runtime.healer
            if server is self.v2 and isinstance(healer, HealingLadder):
                healer.heal = self._timed_heal(healer.heal)  # type: ignore[method-assign]
            context = self.browser.new_context(viewport={"width": 1280, "height": 800})
            try:
                record = run_requirement(plan, context.new_page(), prepared.runtime)
            finally:
                context.close()
            conclude_run(prepared, record)
        return record

    def fresh_store(self, name: str) -> Path:
        path = self.tmp / f"{name}.db"
        shutil.copyfile(self.seed, path)
        return path


@contextmanager
def timed(into: list[float], cpu: list[float]) -> Iterator[None]:
    wall, spent = time.perf_counter(), cpu_seconds()
    yield
    into.append(time.perf_counter() - wall)
    cpu.append(cpu_seconds() - spent)


def suite(bench: Bench, plans: list[Plan], release: str, side: Side, tag: str) -> list[RunRecord]:
    server = bench.v1 if release == "v1" else bench.v2
    records: list[RunRecord] = []
    wall: list[float] = []
    cpu: list[float] = []
    with timed(wall, cpu):
        for plan in plans:
            records.append(bench.run(plan, server, bench.fresh_store(f"{tag}-{plan.req_id}")))
    side.suite_wall.append(wall[0])
    side.suite_cpu.append(cpu[0])
    for plan, record in zip(plans, records, strict=True):
        for step in record.steps:
            side.steps[(plan.req_id, step.index)].append(step.duration_ms)
    return records


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def p90(values: list[float]) -> float:
    if len(values) < 2:
        return median(values)
    return statistics.quantiles(values, n=10)[-1]


# Where a drifted run spends its time: (label, file suffix, function name).
PROFILED = (
    ("gate (all checks)", "engine/gate.py", "run_gate"),
    ("healing ladder, one round", "healing/ladder.py", "heal"),
    ("  rung: alternates", "healing/alternate.py", "attempt"),
    ("  rung: region drift", "healing/region.py", "attempt"),
    ("  rung: repair", "healing/repair.py", "attempt"),
    ("  rung: re-discovery", "healing/rediscovery.py", "attempt"),
    ("  rung: memory", "healing/memory.py", "attempt"),
    ("  rung: similarity", "healing/similarity.py", "attempt"),
    ("  candidate check: resolve", "healing/resolving.py", "_resolve"),
    ("  candidate check: probe (one round trip)", "healing/probing.py", "probe"),
    ("  candidate check: gate", "healing/probing.py", "gate_evidence"),
    ("  candidate check: agreement", "healing/fingerprint_check.py", "agreement"),
    ("screenshots", "engine/artifacts.py", "take"),
    ("confirm (memory, proposal)", "healing/ladder.py", "confirm"),
    # since engine/confirming.py: the heal adopted on the step's path; its writes (memory,
    # proposal) run on a worker thread, which the profile does not see
    ("confirm, on the step's path", "healing/ladder.py", "confirm_later"),
    ("store: run written (conclude)", "pytest_pacts/application/runs.py", "conclude_run"),
    ("discovery", "discovery/engine.py", "discover"),
    ("actions", "engine/actions.py", "perform"),
    ("expectations", "engine/expectations.py", "check"),
)


class PageCalls:
    """Every page call made inside a heal round, timed (``--calls``): each call the engine
    makes through ``bounded.call`` (every call into a page is bounded, and the answers of
    calls sent ahead are read through it), labelled by what it is for, as error messages
    name it ("the in-page healing 'probe' call"). A call inside another one is part of it."""

    def __init__(self) -> None:
        self.inside = False
        self.depth = 0
        self.calls: dict[str, list[float]] = defaultdict(list)
        self.rounds: list[float] = []
        self.order: list[list[tuple[str, float]]] = []  # each round's calls, in order
        self.rung: list[str] = []  # each round's accepted rung ("none")

    def install(self) -> None:
        real = bounded.call

        def timed(target: Any, what: str, *args: Any, **kwargs: Any) -> Any:
            if not self.inside or self.depth:
                return real(target, what, *args, **kwargs)
            self.depth, start = 1, time.perf_counter()
            try:
                return real(target, what, *args, **kwargs)
            finally:
                self.depth = 0
                took = (time.perf_counter() - start) * 1000
                self.calls[what].append(took)
                self.order[-1].append((what, took))

        bounded.call = timed  # type: ignore[assignment]
        heal = HealingLadder.heal

        def timed_heal(ladder: HealingLadder, ctx: HealContext) -> Any:
            self.inside, start = True, time.perf_counter()
            self.order.append([])
            self.rung.append("none")
            try:
                attempt, accepted = heal(ladder, ctx)
                if accepted is not None:
                    self.rung[-1] = accepted.rung.value
                return attempt, accepted
            finally:
                self.inside = False
                self.rounds.append((time.perf_counter() - start) * 1000)

        HealingLadder.heal = timed_heal  # type: ignore[method-assign]

    def report(self) -> None:
        total = sum(self.rounds)
        in_calls = sum(sum(v) for v in self.calls.values())
        print(f"\npage calls inside {len(self.rounds)} heal rounds ({total:.0f} ms in all; "
              f"{in_calls:.0f} ms of it in page calls):")  # fmt: skip
        for key, spent in sorted(self.calls.items(), key=lambda kv: -sum(kv[1])):
            print(f"  {sum(spent):7.0f} ms  {len(spent):4d} calls  "
                  f"median {statistics.median(spent):5.1f} ms  {key}")  # fmt: skip
        for rung in sorted(set(self.rung)):
            ranked = sorted(
                (i for i, r in enumerate(self.rung) if r == rung), key=self.rounds.__getitem__
            )
            middle = ranked[len(ranked) // 2]
            took_ms = self.rounds[middle]
            print(f"the median {rung} round of {len(ranked)} ({took_ms:.0f} ms), call by call:")
            for key, took in self.order[middle]:
                print(f"  {took:6.1f} ms  {key}")


def print_profile(stats: pstats.Stats, heals: int, rounds: int) -> None:
    table = stats.stats  # type: ignore[attr-defined]
    print(f"\nWhere the drifted suite's time goes (one profiled pass, wall; {heals} heals):")
    for label, suffix, name in PROFILED:
        total = 0.0
        calls = 0
        for (path, _line, func), (_cc, nc, _tt, ct, _callers) in table.items():
            if func == name and path.endswith(suffix):
                total += ct
                calls += nc
        if calls:
            per_heal = f"{total / rounds / max(heals, 1) * 1000:7.1f} ms per heal"
            print(f"  {label:42} {total / rounds:7.2f} s  {calls // rounds:5d} calls  {per_heal}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="profile the drifted side")
    parser.add_argument("--dump", metavar="FILE", help="with --profile: save the pstats there")
    parser.add_argument("--calls", action="store_true", help="time a heal round's page calls")
    parser.add_argument("--no-pictures", action="store_true", help="both sides without screenshots")
    parser.add_argument("--phases", action="store_true", help="where a healed step's time goes")
    args = parser.parse_args()
    if args.phases:
        heal_phases.install()
    plans = sample_plans()
    load = os.getloadavg()
    print(f"{len(plans)} sample requirements, {args.rounds} rounds; load average "
          f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} CPUs")  # fmt: skip
    clean, drifted, healed = Side(), Side(), Healed()
    profile = cProfile.Profile() if args.profile else None
    calls = PageCalls() if args.calls else None
    bench_heal_cpu: list[float] = []
    probed: dict[tuple[int, str, int], float] = {}
    reads: dict[int, int] = {}
    probe_cpu = 0.0
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        v1, v2 = DemoServer("v1").start(), DemoServer("v2").start()
        register_bridge(pw.selectors)  # as the plugin does
        browser = pw.chromium.launch(**launch_options())  # type: ignore[arg-type]
        try:
            bench = Bench(browser, v1, v2, Path(tmp), pictures=not args.no_pictures)
            bench_heal_cpu = bench.heal_cpu
            probe_cpu = bench.probe  # one reading's own CPU
            with open_store(bench.seed):
                pass
            for plan in plans:  # the cold run on v1 that fills the store
                record = bench.run(plan, v1, bench.seed)
                assert record.verdict == "pass", (plan.req_id, record.rca.message)
            for r in range(args.rounds):
                heal_phases.start(None, round_=r)
                bench.round = r
                order = ("v1", "v2") if r % 2 == 0 else ("v2", "v1")
                for release in order:
                    if release == "v1":
                        a = suite(bench, plans, "v1", clean, f"a{r}")
                        bad = [x.req_id for x in a if x.verdict != "pass" or x.healed]
                        assert not bad, f"the clean side must pass without healing: {bad}"
                        continue
                    b = suite(bench, plans, "v2", drifted, f"b{r}")
                    for record in b:
                        healed.verdicts.add(f"{record.req_id}:{record.verdict}")
                        first = True
                        for step in record.steps:
                            if step.status == "healed":
                                healed.keys.add((r, record.req_id, step.index))
                            for heal in step.heals:
                                if heal.accepted:
                                    healed.relocation_ms.append(heal.duration_ms)
                                    healed.rungs[heal.rung.value] += 1
                                    into = healed.first_ms if first else healed.later_ms
                                    into.append(heal.duration_ms)
                                    if first:
                                        healed.first_keys.add((r, record.req_id, step.index))
                                    first = False
                print(f"round {r + 1}: clean {clean.suite_wall[-1]:.1f} s, "
                      f"drifted {drifted.suite_wall[-1]:.1f} s")  # fmt: skip
            heal_phases.start(None, round_=-2)  # the passes below are not the rounds'
            bench.round = -2
            probed = dict(bench.probed)
            reads = defaultdict(int)  # CPU readings per round (two per heal round)
            for r, _q, _i in bench.probed:
                reads[r] += 2
            if profile is not None:  # a pass of its own: the profiler's cost is not measured
                profile.enable()
                suite(bench, plans, "v2", Side(), "profiled")
                profile.disable()
            if calls is not None:  # a pass of its own too
                calls.install()
                suite(bench, plans, "v2", Side(), "calls")
        finally:
            browser.close()
            v1.stop()
            v2.stop()
    # the bench's own CPU readings around the heal rounds, out of the drifted side's figures
    for (r, req_id, index), ms in probed.items():
        drifted.steps[(req_id, index)][r] -= ms
    for r in range(args.rounds):
        drifted.suite_wall[r] -= sum(ms for (q, _, _), ms in probed.items() if q == r) / 1000
        drifted.suite_cpu[r] -= reads[r] * probe_cpu
    # (a) per healed step: B minus A for the same step in the same round
    for r, req_id, index in sorted(healed.keys):
        a_ms, b_ms = clean.steps[(req_id, index)][r], drifted.steps[(req_id, index)][r]
        healed.step_ms.append(b_ms - a_ms)
    heals = len(healed.relocation_ms)
    first_steps = [
        drifted.steps[(q, i)][r] - clean.steps[(q, i)][r] for r, q, i in healed.first_keys
    ]
    later_steps = [
        drifted.steps[(q, i)][r] - clean.steps[(q, i)][r]
        for r, q, i in healed.keys - healed.first_keys
    ]
    print(f"\nverdicts on v2: {sorted(healed.verdicts)}")
    print(f"accepted heals by rung: {dict(healed.rungs)}")
    print(
        f"(a) healed step minus the same step with a good locator: median "
        f"{median(healed.step_ms):.0f} ms, p90 {p90(healed.step_ms):.0f} ms over "
        f"{len(healed.step_ms)} healed steps (target ≤ 50 ms)"
    )
    print(
        f"(b) relocation (the ladder's round): median {median(healed.relocation_ms):.1f} ms, "
        f"p90 {p90(healed.relocation_ms):.1f} ms over {heals} heals (target ≤ 50 ms)"
    )
    per_round = len(healed.keys) / args.rounds
    extra = [(b - a) / per_round for a, b in zip(clean.suite_cpu, drifted.suite_cpu, strict=True)]
    print(
        f"(a) in CPU time (unaffected by the load): the drifted suite's CPU minus the clean "
        f"one's, per healed step: median {median(extra) * 1000:.0f} ms"
    )
    cpu_heals = [x * 1000 for x in bench_heal_cpu]
    print(
        f"(b) in CPU time: one accepted heal round costs median {median(cpu_heals):.1f} ms, "
        f"p90 {p90(cpu_heals):.1f} ms of CPU (this process, browser and driver)"
    )
    wall = [b / a for a, b in zip(clean.suite_wall, drifted.suite_wall, strict=True)]
    cpu = [b / a for a, b in zip(clean.suite_cpu, drifted.suite_cpu, strict=True)]
    print(
        f"(c) suite on v2 healing from a v1 store / suite on v1 warm: wall {median(wall):.2f}x "
        f"(clean {median(clean.suite_wall):.1f} s, drifted {median(drifted.suite_wall):.1f} s), "
        f"CPU {median(cpu):.2f}x (clean {median(clean.suite_cpu):.1f} s, drifted "
        f"{median(drifted.suite_cpu):.1f} s); target ≤ 1.1x"
    )
    print(
        f"(d) the first heal of each run (a new context) against the later ones: relocation "
        f"median {median(healed.first_ms):.1f} ms ({len(healed.first_ms)}) against "
        f"{median(healed.later_ms):.1f} ms ({len(healed.later_ms)}); healed step "
        f"{median(first_steps):+.0f} ms against {median(later_steps):+.0f} ms over the same "
        "step with a good locator (target: the first within 200 ms of a later one)"
    )
    if args.phases:
        heal_phases.report(healed.keys, clean.steps, drifted.steps)
    if calls is not None:
        calls.report()
    if profile is not None:
        print_profile(pstats.Stats(profile), heals // args.rounds, 1)
        if args.dump:
            profile.dump_stats(args.dump)
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
