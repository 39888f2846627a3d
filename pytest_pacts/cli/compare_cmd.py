"""``pacts compare RUN_A RUN_B``: what changed between two runs, from their trace bundles.

Every passing run keeps a compact trace bundle per requirement (docs/user-guide.md "Trace
bundles and regressions"); this compares run B with run A requirement by requirement: text
that changed, new failing requests, steps much slower, elements that moved far, pages that
changed. Runs are named as their report folders are (``20261125T164433Z-3f2a1c``), by a
unique prefix, or ``latest`` / ``previous``. Exit code 1 when something changed, so a CI job
can gate on it.
"""

from __future__ import annotations

import argparse
import json

from pytest_pacts.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    CommandError,
    add_store_option,
    opened_store,
)
from pytest_pacts.settings import PactsSettings

# the ``pacts_trace_*`` settings' defaults (``traces.Thresholds()``'s too), read from the light
# settings module so that building the parser does not import the traces package (pydantic)
DEFAULT_SLOWER = PactsSettings.trace_slower
DEFAULT_SLOW_FLOOR_MS = PactsSettings.trace_slow_floor_ms
DEFAULT_MOVE_PX = PactsSettings.trace_move_px


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="what changed between two runs (text, failing requests, slow steps, moves)",
        description="Compare run B with run A from their trace bundles in the store: text "
        "that changed, new failing requests (4xx/5xx), steps much slower, elements that "
        "moved far, pages that changed. Exit code 1 when something changed.",
    )
    parser.add_argument("first", nargs="?", metavar="RUN_A", help="the earlier run")
    parser.add_argument("second", nargs="?", metavar="RUN_B", help="the run to check")
    parser.add_argument(
        "--list", action="store_true", help="list the runs that kept trace bundles, newest first"
    )
    parser.add_argument(
        "--req", action="append", default=[], metavar="REQ_ID", help="only this requirement"
    )
    add_store_option(parser)
    parser.add_argument("--format", choices=("md", "json"), default="md", help="output format")
    parser.add_argument(
        "--slower",
        type=float,
        default=DEFAULT_SLOWER,
        metavar="N",
        help=f"a step N times slower is flagged (default {DEFAULT_SLOWER:g})",
    )
    parser.add_argument(
        "--slow-floor-ms",
        type=float,
        default=DEFAULT_SLOW_FLOOR_MS,
        metavar="MS",
        help=f"steps are compared with at least MS (default {DEFAULT_SLOW_FLOOR_MS:g})",
    )
    parser.add_argument(
        "--move-px",
        type=float,
        default=DEFAULT_MOVE_PX,
        metavar="PX",
        help=f"an element moved more than PX is flagged (default {DEFAULT_MOVE_PX:g})",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pytest_pacts.application import UnknownRun, compare_runs
    from pytest_pacts.reports.regressions import comparison_markdown, regression_json
    from pytest_pacts.traces import Thresholds

    if args.list:
        with opened_store(args) as store:
            runs = store.traces.labels()
        if args.format == "json":
            rows = [{"run": r, "bundles": n, "at": w.isoformat()} for r, n, w in runs]
            print(json.dumps(rows, indent=2))
        else:
            for label, count, when in runs:
                print(f"{label}  {count} bundle(s)  {when.isoformat(timespec='seconds')}")
        return EXIT_OK
    if not args.first or not args.second:
        raise CommandError("name two runs: pacts compare RUN_A RUN_B (see --list)", EXIT_USAGE)
    thresholds = Thresholds(
        slower=args.slower, slow_floor_ms=args.slow_floor_ms, move_px=args.move_px
    )
    with opened_store(args) as store:
        try:
            result = compare_runs(store, args.first, args.second, thresholds, args.req)
        except UnknownRun as exc:
            raise CommandError(str(exc), EXIT_USAGE) from None
    if args.format == "json":
        doc = {
            "first": result.first,
            "second": result.second,
            "regressions": result.regressions,
            "requirements": [
                {
                    "req_id": c.current.req_id,
                    "compared_steps": c.compared,
                    "skipped_steps": c.skipped,
                    "regressions": [regression_json(r) for r in c.regressions],
                }
                for c in result.comparisons
            ],
            "only_first": list(result.only_first),
            "only_second": list(result.only_second),
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print(comparison_markdown(result), end="")
    return EXIT_PROBLEMS if result.regressions else EXIT_OK
