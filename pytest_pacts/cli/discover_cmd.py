"""``pacts discover FILES``: walk each requirement's flow in a browser and say, per step, the
locator the run will use or why there is none.

The walk is a dry run of the engine (``cli/walk.py``): it performs the flow's own steps,
in order, as a test run would (it fills the fields and clicks the links and buttons the
steps name, so later pages are reached and discovered), and nothing else: no healing, and
nothing written (no store, cache, proposals, screenshots or reports). ``--until N`` stops
before step N: the steps before it are performed, step N and the later steps of that page
are only located. Files are read as pytest reads them (``cli/project.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pacts.cli.common import (
    EXIT_ENVIRONMENT,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    CommandError,
)
from pytest_pacts.settings import base_url_of

if TYPE_CHECKING:
    from pytest_pacts.browser import StandaloneBrowser
    from pytest_pacts.cli.project import Project
    from pytest_pacts.cli.walk import Walk
    from pytest_pacts.contexts import ContextSetup
    from pytest_pacts.models import Plan

WHAT_IT_DOES = (
    "The walk performs the flow's steps as the test would (it fills fields and clicks the "
    "links and buttons the steps name), so use a test deployment; --until N stops before "
    "step N. It never heals and writes nothing (no store, proposals or screenshots)."
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "discover",
        help="walk requirement flows in a real browser and report each step's locator",
        description="Walk each requirement's flow in Chromium as a dry run and report, per "
        "step, the locator the run will use (strategy, confidence, gate, alternates) or why "
        "the step could not be resolved, with the closest candidates. " + WHAT_IT_DOES + " "
        "Exit 1 when any step or page has a problem.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument(
        "--base-url", help="base for relative requirement URLs (default: the ini's base_url)"
    )
    parser.add_argument(
        "--demo",
        choices=("v1", "v2"),
        help="serve the bundled demo app (this release) and use it as base URL",
    )
    parser.add_argument(
        "--until",
        type=int,
        metavar="STEP",
        help="stop before step STEP (1-based, as printed): perform the steps before it, only "
        "locate it and the later steps on its page (e.g. stop before 'Place order')",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument(
        "--blocks",
        action="append",
        type=Path,
        default=[],
        metavar="FILE",
        help="a shared blocks file, besides pacts_blocks_files (repeatable)",
    )
    parser.add_argument("--browser-path", help="Chromium executable (default: detect)")
    parser.add_argument(
        "--connect",
        metavar="WS_ENDPOINT",
        help="connect to a Playwright browser server (ws://host:port/path, what the tests' "
        "connect_options name) instead of launching a local Chromium",
    )
    parser.add_argument(
        "--as-tests",
        action="store_true",
        help="walk inside a pytest session of the project, so each page opens as its test's "
        "does: with the conftest's browser_context_args, connect_options, base_url fixture "
        "and the pytest_pacts_configure_context hook (slower: one pytest session)",
    )
    parser.set_defaults(func=run)


_HEADS = {
    "resolved": "found and performed",
    "done": "performed",
    "located": "found, not performed (--until)",
    "skipped": "FAILED, skipped (on_fail: skip)",
    "failed": "found, FAILED",
    "unresolved": "NOT RESOLVED",
    "not_reached": "not reached",
}


def _print_walk(report: Mapping[str, Any]) -> None:
    """The walk's JSON report (``--json`` prints it as it is), in words."""
    print(f"{report['req_id']}  {report['url'] or '(no URL)'}  [{report['source']}]")
    for problem in report["problems"]:
        print(f"  ! {problem}")
    for step in report["steps"]:
        print(f"  {step['index'] + 1:>3}. {step['text']}  ({step['source']})")
        print(f"       {_HEADS.get(step['status'], step['status'])}")
        if "code" in step:
            print(f"       -> {step['code']}  [{step['strategy']} {step['confidence']:.2f}]")
        if "gate" in step:
            marks = " ".join(
                f"{name}={'ok' if point['ok'] else point['code']}"
                for name, point in step["gate"].items()
            )
            print(f"       gate: {marks}")
        if step.get("alternates"):
            print("       alternates: " + "; ".join(step["alternates"]))
        if "message" in step:
            print(f"       why: {step['message']}")
        elif step["status"] == "not_reached":
            print("       why: the start page could not be opened")
        for cand in step.get("candidates", []):
            print(f"         candidate: {cand}")
        for note in step.get("notes", []):
            print(f"       note: {note}")
        if step["status"] == "unresolved" and report.get("elements_hint"):
            print(f"       the names this page offers: {report['elements_hint']}")


def _elements_hint(walk: Walk, file: Path, args: argparse.Namespace) -> str | None:
    """The ``pacts elements`` command that lists the page where the walk stopped."""
    stuck = next((s for s in walk.steps if s.status == "unresolved"), None)
    if stuck is None:
        return None
    return _hint(walk.plan.req_id, stuck.index, file, args)


def _hint(req_id: str, index: int, file: Path, args: argparse.Namespace) -> str:
    where = os.path.relpath(file)
    command = f"pacts elements --after {where}::{req_id} --until {index + 1}"
    if args.demo:
        return command + f" --demo {args.demo}"
    return command + (f" --base-url {args.base_url}" if args.base_url else "")


def _report(walk: Walk, hint: str | None = None) -> dict[str, object]:
    return walk.report(hint)


def _walk(
    contexts: ContextSetup,
    browser: StandaloneBrowser,
    plan: Plan,
    base_url: str | None,
    project: Project,
    args: argparse.Namespace,
) -> Walk:
    from pytest_pacts.cli.walk import walk_plan

    with contexts.page(browser.browser, plan.requirement) as page:
        return walk_plan(
            page,
            plan,
            base_url,
            step_timeout_ms=project.step_timeout_ms,
            until=None if args.until is None else args.until - 1,
        )


def run(args: argparse.Namespace) -> int:
    from playwright.sync_api import Error as PlaywrightError

    from pytest_pacts.auth import AuthFailed
    from pytest_pacts.browser import NoBrowserError, StandaloneBrowser
    from pytest_pacts.cli.project import auth_sessions_for, load_project
    from pytest_pacts.contexts import ContextSetup

    if args.until is not None and args.until < 1:
        raise CommandError("--until counts steps from 1, as they are printed", EXIT_USAGE)
    project = load_project(args.paths, args.blocks)
    for refused in project.failed:
        for problem in refused.problems:
            print(problem, file=sys.stderr)
    reports: list[dict[str, object]] = []
    problems = len(project.failed)
    if args.as_tests:
        walked = _walk_as_tests(project, args)
        problems += sum(len(r["problems"]) for r in walked)
        return _print_reports(list(walked), problems, args)
    with ExitStack() as stack:
        base_url = base_url_of(args.base_url, project.base_url)
        if args.demo:
            from pytest_pacts.demo_app import DemoServer

            base_url = stack.enter_context(DemoServer(args.demo)).url
        try:
            browser = stack.enter_context(
                StandaloneBrowser(args.browser_path, connect=args.connect)
            )
            # each requirement's context, as its test makes it: signed in by its auth profile
            contexts = ContextSetup(session=auth_sessions_for(project, base_url, stack))
            for file, plan in ((f.path, p) for f in project.files for p in f.plans):
                try:
                    walk = _walk(contexts, browser, plan, base_url, project, args)
                except AuthFailed as exc:
                    print(f"{plan.req_id}: {exc.text}", file=sys.stderr)
                    problems += 1
                    continue
                problems += len(walk.problems)
                reports.append(_report(walk, _elements_hint(walk, file, args)))
        except NoBrowserError as exc:
            raise CommandError(str(exc), EXIT_ENVIRONMENT) from None
        except PlaywrightError as exc:
            raise CommandError(
                f"the browser failed: {str(exc).splitlines()[0]}", EXIT_ENVIRONMENT
            ) from None
    return _print_reports(reports, problems, args)


def _print_reports(
    reports: list[dict[str, object]], problems: int, args: argparse.Namespace
) -> int:
    if args.json:
        print(json.dumps(reports, indent=2, ensure_ascii=False))
    else:
        print(f"pacts discover: {WHAT_IT_DOES}\n")
        for report in reports:
            _print_walk(report)
            print()
        print(f"{len(reports)} requirement(s) walked, {problems} problem(s)")
    return EXIT_PROBLEMS if problems else EXIT_OK


def _walk_as_tests(project: Project, args: argparse.Namespace) -> list[dict[str, Any]]:
    """``--as-tests``: the walk in a pytest session (``cli/walk_in_pytest.py``), its reports
    in the order of the files and their requirements."""
    import tempfile

    from pytest_pacts.cli.walk_in_pytest import walk_as_tests

    if args.connect or args.browser_path:
        raise CommandError(
            "--as-tests opens the tests' browser: name a browser server in the "
            "connect_options fixture (or the Chromium in browser_type_launch_args), not "
            "with --connect/--browser-path",
            EXIT_USAGE,
        )
    order = {
        (str(f.path.resolve()), p.req_id): n
        for n, (f, p) in enumerate((f, p) for f in project.files for p in f.plans)
    }
    steps = sum(len(p.steps) for f in project.files for p in f.plans)
    with ExitStack() as stack:
        base_url = args.base_url
        if args.demo:
            from pytest_pacts.demo_app import DemoServer

            base_url = stack.enter_context(DemoServer(args.demo)).url
        out = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pacts-walk-")))
        found, said = walk_as_tests(
            [f.path for f in project.files],
            out,
            base_url=base_url,
            until=None if args.until is None else args.until - 1,
            timeout_s=steps * project.step_timeout_ms / 1000 * 2,
        )
    if len(found) < len(order):
        tail = "\n".join(said.strip().splitlines()[-15:])
        raise CommandError(
            f"the pytest session walked {len(found)} of {len(order)} requirement(s); "
            f"its output ends with:\n{tail}",
            EXIT_ENVIRONMENT,
        )
    found.sort(key=lambda r: order.get((str(Path(r["file"]).resolve()), r["req_id"]), len(order)))
    for report in found:
        stuck = next((s for s in report["steps"] if s["status"] == "unresolved"), None)
        if stuck is not None:
            report["elements_hint"] = _hint(
                report["req_id"], stuck["index"], Path(report["file"]), args
            )
        del report["file"]
    return found
