"""The cost of results back to the sheet: one workbook of N requirements (5 steps each).

Writes the workbook with the scaffold writer, loads its plans, gives every requirement a
passing run record and times :func:`pytest_pacts.reports.results.write_results` (what the
controller does at session end), with the process's peak RSS.

Run: ``.venv/bin/python bench/bench_results.py [--requirements 1000]``.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from pytest_pacts.models.outcome import Rca, RcaClass, RunRecord, StepRecord
from pytest_pacts.planner import LoaderOptions, load_file
from pytest_pacts.planner.readers.limits import MIB, ReadLimits
from pytest_pacts.reports.result_rows import RequirementResult, requirement_result
from pytest_pacts.reports.results import write_results
from pytest_pacts.scaffold.workbook import SheetRequirement, WorkbookSpec, write_workbook

STEPS = (
    ("Username@LoginForm", "fill", "standard_user", "field_populated"),
    ("Password@LoginForm", "fill", "secret_sauce", "field_populated"),
    ("Login@LoginForm", "click", "", "navigates_to:Products"),
    ("Open Menu", "click", "", "element_visible:Logout"),
    ("Logout", "click", "", ""),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requirements", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "big.req.xlsx"
        reqs = [SheetRequirement(f"REQ-{i:05d}", "/", STEPS) for i in range(args.requirements)]
        write_workbook(source, WorkbookSpec(requirements=reqs))
        results: list[RequirementResult] = []
        for plan in load_file(source, LoaderOptions(), display="big.req.xlsx").plans:
            steps = tuple(
                StepRecord(index=s.index, action=s.action.value, description=s.describe(),
                           source=s.source.render(), status="passed", duration_ms=120.0)
                for s in plan.steps
            )  # fmt: skip
            record = RunRecord(
                req_id=plan.req_id, plan_hash=plan.plan_hash, verdict="pass", steps=steps,
                rca=Rca(rca_class=RcaClass.SUCCESS, confidence=1.0, message="ok"),
                started_at="2026-11-23T00:00:00+00:00", finished_at="2026-11-23T00:00:01+00:00",
            )  # fmt: skip
            nodeid = f"big.req.xlsx::{plan.req_id}"
            results.append(requirement_result(plan, record, nodeid=nodeid, path=source))
        started = time.perf_counter()
        written = write_results(
            Path(tmp) / "out", results, run_id="bench", limits=ReadLimits(),
            max_file_bytes=20 * MIB,
        )  # fmt: skip
        seconds = time.perf_counter() - started
        assert not written.problems, written.problems
        rows = sum(len(r.steps) for r in results)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"{len(results)} requirements, {rows} rows: results workbook in {seconds:.2f} s, "
            f"{source.stat().st_size / 1024:.0f} KiB -> "
            f"{written.paths[0].stat().st_size / 1024:.0f} KiB, peak RSS {peak:.0f} MiB"
        )


if __name__ == "__main__":
    main()
