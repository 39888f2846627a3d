"""Scale on a shared store: CI shards, each with xdist, on one PostgreSQL store.

What a team does when the suite outgrows one machine: N CI runners (default 4), each a
separate working copy in its own temp folder with its own demo app (so its own base URL and
session), each running ``pytest reqs -n 2 --splits N --group i`` (pytest-split) at the same
time against one PostgreSQL store that this script starts (a throwaway cluster, or
``--dsn``). The requirements (default 200) are generated: sign-in, cart, sort and
login-error flows against the demo app, each with its own req_id.

Checked afterwards, from the runners' JUnit files, their output and the store:

- every requirement ran in exactly one shard, and the store holds exactly one finished run
  per requirement (nothing lost, nothing twice);
- every requirement was discovered once across all runners (the ``discovering REQ-…``
  lines of all runners, and the store's discovery leases);
- a heal recorded by one runner is visible to another: runner 1 runs one requirement file
  on the demo's v2 (DOM drift), then ``pacts heals list`` in runner 2's working copy lists
  the proposals and a new process reads the healing memory.

Run: ``.venv/bin/python bench/bench_scale.py [--requirements 200] [--runners 4]
[--workers 2] [--dsn postgresql://…]``. Exit status 0 when every check holds.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from pg_cluster import throwaway_cluster  # noqa: E402

from pytest_pacts.store import open_store  # noqa: E402

PRODUCTS = (
    "Sauce Labs Backpack",
    "Sauce Labs Bike Light",
    "Sauce Labs Bolt T-Shirt",
    "Sauce Labs Fleece Jacket",
    "Sauce Labs Onesie",
    "Test.allTheThings() T-Shirt (Red)",
)
SORTS = (
    ("Name (Z to A)", "za"),
    ("Price (low to high)", "lohi"),
    ("Price (high to low)", "hilo"),
    ("Name (A to Z)", "az"),
)
SIGN_IN = [
    "Username@LoginForm | fill | standard_user",
    "Password@LoginForm | fill | secret_sauce",
    "Login@LoginForm | click | | navigates_to:Products",
]
PER_FILE = 10
PYTEST_INI = """[pytest]
junit_family = xunit1
filterwarnings =
    ignore:Session-scoped fixtures defined as instance methods:pytest.PytestRemovedIn10Warning
"""


def requirement(n: int) -> dict[str, object]:
    """The n-th generated requirement: one of five flow kinds, varied by n."""
    kind = n % 5
    product, other = PRODUCTS[n % 6], PRODUCTS[(n + 1) % 6]
    if kind == 0:
        req_id, steps = (
            f"REQ-ADD-{n:03d}",
            [*SIGN_IN, f"Add to cart@{product} | click | | text_visible:Remove"],
        )
    elif kind == 1:
        req_id, steps = (
            f"REQ-CART-{n:03d}",
            [
                *SIGN_IN,
                f"Add to cart@{product} | click | | text_visible:Remove",
                f"Add to cart@{other} | click | | text_visible:Remove",
                "Shopping cart | click | | navigates_to:Your Cart",
                f"| wait | | text_visible:{product}",
            ],
        )
    elif kind == 2:
        label, value = SORTS[n % 4]
        req_id, steps = (
            f"REQ-SORT-{n:03d}",
            [*SIGN_IN, f"Sort products | select | {label} | value:{value}"],
        )
    elif kind == 3:
        req_id, steps = (
            f"REQ-LOCKED-{n:03d}",
            [
                "Username@LoginForm | fill | locked_out_user",
                "Password@LoginForm | fill | secret_sauce",
                "Login@LoginForm | click | | text_visible:locked out",
            ],
        )
    else:
        req_id, steps = (
            f"REQ-BADPW-{n:03d}",
            [
                "Username@LoginForm | fill | standard_user",
                f"Password@LoginForm | fill | wrong-{n}",
                "Login@LoginForm | click | | text_visible:do not match",
            ],
        )
    return {"req_id": req_id, "title": f"generated flow {n}", "url": "/", "steps": steps}


def write_requirements(dest: Path, total: int, per_file: int = PER_FILE) -> list[str]:
    """``total`` requirements in files of ``per_file``; returns their req_ids."""
    dest.mkdir(parents=True, exist_ok=True)
    ids: list[str] = []
    for first in range(0, total, per_file):
        reqs = [requirement(n) for n in range(first, min(first + per_file, total))]
        ids += [str(r["req_id"]) for r in reqs]
        # JSON is YAML: no YAML writer needed
        text = json.dumps({"requirements": reqs}, indent=1)
        (dest / f"flows_{first // per_file:02d}.req.yaml").write_text(text + "\n")
    return ids


def make_working_copy(base: Path, name: str, reqs: Path) -> Path:
    """What a CI runner checks out: requirements, conftest (starts the demo), pytest.ini."""
    copy = base / name
    shutil.copytree(reqs, copy / "reqs")
    shutil.copy(ROOT / "sample_requirements" / "conftest.py", copy / "conftest.py")
    (copy / "pytest.ini").write_text(PYTEST_INI)
    return copy


@dataclass
class Runner:
    name: str
    path: Path
    proc: subprocess.Popen[str] | None = None
    started: float = 0.0
    seconds: float = 0.0
    code: int | None = None
    output: str = ""
    verdicts: dict[str, str] = field(default_factory=dict)


def pytest_command(args: list[str], junit: Path) -> list[str]:
    return [
        sys.executable, "-m", "pytest", *args, "-q", "-p", "no:cacheprovider",
        f"--junitxml={junit}", "-o", "pacts_report_dir=off",
    ]  # fmt: skip


def runner_env(dsn: str, release: str) -> dict[str, str]:
    env = {**os.environ, "PACTS_STORE": dsn, "PACTS_DEMO_RELEASE": release}
    env.pop("PACTS_DEMO_URL", None)  # each runner serves its own demo app
    return env


def verdicts(junit: Path) -> dict[str, str]:
    """``{req_id: verdict}`` from the JUnit properties (``?`` when the item had none)."""
    if not junit.exists():
        return {}
    out: dict[str, str] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        out[str(case.get("name"))] = str(props.get("pacts_verdict", "?"))
    return out


def start(runner: Runner, args: list[str], env: dict[str, str]) -> None:
    runner.started = time.perf_counter()
    # output to a file, not a pipe: a runner must never stall on a full pipe nobody reads
    with (runner.path / "output.txt").open("w") as out:
        runner.proc = subprocess.Popen(
            pytest_command(args, runner.path / "junit.xml"),
            cwd=runner.path, env=env, stdout=out, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip


def finish_all(runners: list[Runner], timeout: float) -> None:
    """Wait for every started runner, noting when each one ends."""
    deadline = time.perf_counter() + timeout
    busy = [r for r in runners if r.proc is not None]
    while busy:
        for runner in list(busy):
            assert runner.proc is not None
            if runner.proc.poll() is None and time.perf_counter() < deadline:
                continue
            if runner.proc.poll() is None:
                runner.proc.kill()
                runner.proc.wait()
            runner.code = runner.proc.returncode
            runner.seconds = time.perf_counter() - runner.started
            runner.output = (runner.path / "output.txt").read_text(errors="replace")
            runner.verdicts = verdicts(runner.path / "junit.xml")
            busy.remove(runner)
        time.sleep(0.2)


_SUMMARY = re.compile(
    r"pacts: discovery: (\d+) requirement\(s\) discovered .*?, (\d+) cached"
    r"(?:, (\d+) discovered by another runner \(waited ([\d.]+) s\))?"
)


def discovery_summary(output: str) -> tuple[int, int, int, float]:
    """(discovered here, cached, discovered by another runner, seconds waited)."""
    match = _SUMMARY.search(output)
    if match is None:
        return (0, 0, 0, 0.0)
    here, cached, other, waited = match.groups()
    return int(here), int(cached), int(other or 0), float(waited or 0)


@contextmanager
def store_dsn(given: str | None) -> Iterator[str]:
    if given:
        yield given
        return
    with throwaway_cluster() as dsn:
        yield dsn


@dataclass
class Check:
    failures: list[str] = field(default_factory=list)

    def __call__(self, ok: bool, what: str) -> None:
        print(f"  [{'ok' if ok else 'FAILED'}] {what}")
        if not ok:
            self.failures.append(what)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requirements", type=int, default=200)
    parser.add_argument("--runners", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2, help="xdist -n per runner")
    parser.add_argument("--dsn", help="an existing PostgreSQL database (default: start one)")
    parser.add_argument("--per-file", type=int, default=PER_FILE, help="requirements per file")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per wave")
    parser.add_argument("--keep", action="store_true", help="keep the working copies")
    args = parser.parse_args()
    check = Check()
    base = Path(tempfile.mkdtemp(prefix="pacts-scale-"))
    try:
        with store_dsn(args.dsn) as dsn:
            scale(
                base, dsn, check, requirements=args.requirements, runners=args.runners,
                workers=args.workers, per_file=args.per_file, timeout=args.timeout,
            )  # fmt: skip
    finally:
        if args.keep:
            print(f"working copies kept in {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)
    print("ALL CHECKS PASSED" if not check.failures else f"{len(check.failures)} CHECK(S) FAILED")
    return 0 if not check.failures else 1


def scale(
    base: Path,
    dsn: str,
    check: Check,
    *,
    requirements: int,
    runners: int,
    workers: int = 2,
    per_file: int = PER_FILE,
    timeout: float = 3600,
) -> dict[str, float]:
    """Both waves and their checks (results in ``check``); returns the figures."""
    ids = write_requirements(base / "generated", requirements, per_file)
    shards = runners
    copies = [
        Runner(f"runner{i}", make_working_copy(base, f"runner{i}", base / "generated"))
        for i in range(1, shards + 1)
    ]
    open_store(dsn).close()  # migrated once up front, as a CI setup job would
    print(
        f"{len(ids)} requirements in {len(list((base / 'generated').iterdir()))} files; "
        f"{shards} runners x -n {workers}, pytest-split --splits {shards}; "
        f"store {dsn}"
    )

    # -- wave 1: every shard at once on v1 --------------------------------------------
    wave_start = time.perf_counter()
    for group, runner in enumerate(copies, start=1):
        shard = ["reqs", "-n", str(workers), "--splits", str(shards)]
        start(runner, [*shard, "--group", str(group)], runner_env(dsn, "v1"))
    finish_all(copies, timeout)
    wall = time.perf_counter() - wave_start
    print(f"\nwave 1 (v1): wall {wall:.1f} s")
    discovering: Counter[str] = Counter()
    for runner in copies:
        here, cached, other, waited = discovery_summary(runner.output)
        # a worker's lines reach the controller's summary as "pacts: [gw0] discovering ..."
        found = re.findall(r"pacts: (?:\[\w+\] )?discovering (\S+) \(", runner.output)
        discovering.update(found)
        tally = Counter(runner.verdicts.values())
        print(
            f"  {runner.name}: exit {runner.code}, {runner.seconds:.1f} s, "
            f"{len(runner.verdicts)} items {dict(tally)}; discovery: {here} here, "
            f"{other} by another runner (waited {waited:.1f} s), {cached} cached"
        )
        if runner.code != 0:
            print("\n".join("    | " + line for line in runner.output.splitlines()[-30:]))

    ran: Counter[str] = Counter(req for r in copies for req in r.verdicts)
    every = Counter(v for r in copies for v in r.verdicts.values())
    with open_store(dsn) as store:
        runs = store.runs.query()
        leases = store.discovery_leases.leases()
    per_req = Counter(run.req_id for run in runs)
    finished = sum(1 for run in runs if run.status == "finished")
    sessions = {run.session_id for run in runs}
    discoveries = Counter({lease.req_id: lease.discoveries for lease in leases})
    print(
        f"  store: {len(runs)} runs ({finished} finished) in {len(sessions)} sessions; "
        f"discoveries per requirement (store leases): "
        f"min {min(discoveries.values(), default=0)}, max {max(discoveries.values(), default=0)}; "
        f"'discovering' lines: {sum(discovering.values())} for {len(discovering)} requirements"
    )
    check(all(r.code == 0 for r in copies), "every runner exits 0")
    check(all(r.verdicts for r in copies), "every shard got requirements")
    check(ran == Counter(dict.fromkeys(ids, 1)), "each requirement ran in exactly one shard")
    check(every == Counter({"pass": len(ids)}), f"every verdict is pass ({dict(every)})")
    check(per_req == Counter(dict.fromkeys(ids, 1)), "the store holds one run per requirement")
    check(finished == len(ids), f"all {len(ids)} runs finished (nothing lost)")
    check(len(sessions) == len(copies), "one session per runner (its own base URL)")
    check(discovering == Counter(dict.fromkeys(ids, 1)), "each requirement discovered once")
    check(discoveries == Counter(dict.fromkeys(ids, 1)), "the store counts one discovery each")

    # -- wave 2: one runner meets the v2 drift; another reads what it learned ----------
    healer, reader = copies[0], copies[1 % len(copies)]
    start(healer, ["reqs/flows_00.req.yaml", "-n", str(workers)], runner_env(dsn, "v2"))
    finish_all([healer], timeout)
    tally = Counter(healer.verdicts.values())
    print(f"\nwave 2: {healer.name} on v2, flows_00: {healer.seconds:.1f} s, {dict(tally)}")
    listed = subprocess.run(
        [str(Path(sys.executable).parent / "pacts"), "heals", "list", "--status", "all", "--json"],
        cwd=reader.path, env=runner_env(dsn, "v2"), capture_output=True, text=True, check=False,
    )  # fmt: skip
    proposals = json.loads(listed.stdout or "[]") if listed.returncode == 0 else []
    proposal_reqs = sorted({str(p.get("req_id")) for p in proposals})
    memory = subprocess.run(
        [sys.executable, "-c",
         "import sys; from pytest_pacts.store import open_store\n"
         "with open_store(sys.argv[1]) as s: print(len(s.healing.entries()))", dsn],
        cwd=reader.path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    print(
        f"  {reader.name} reads: `pacts heals list` exit {listed.returncode}, "
        f"{len(proposals)} proposals for {proposal_reqs}; healing memory entries "
        f"{memory.stdout.strip() or memory.stderr.strip()[-200:]}"
    )
    in_file = set(ids[:per_file])
    check(listed.returncode == 0 and len(proposals) > 0, "another runner lists the heal proposals")
    check(set(proposal_reqs) <= in_file, "the proposals are those of the healing runner's run")
    check(memory.returncode == 0 and int(memory.stdout or 0) > 0, "healing memory readable")
    return {
        "wall_s": wall,
        "runs": len(runs),
        "max_discoveries": max(discoveries.values(), default=0),
        "discovering_lines": sum(discovering.values()),
        "heal_wave_s": healer.seconds,
        "proposals_seen": len(proposals),
    }


if __name__ == "__main__":
    sys.exit(main())
