"""``pacts discover FILES``: find-first discovery outside pytest, for checking a sheet.

Prints, per step, the chosen locator, strategy, confidence, gate result and alternates, or
why the step could not be resolved with the top candidates. Steps after the first one that
may leave the start page are discovered when the test runs (they need the earlier steps to
have happened); they are listed as such.
"""

from __future__ import annotations

import argparse
import json
from contextlib import ExitStack
from pathlib import Path

from pytest_pacts.cli.common import EXIT_ENVIRONMENT, EXIT_OK, EXIT_PROBLEMS, CommandError
from pytest_pacts.cli.plan_cmd import load_plans
from pytest_pacts.models import Plan
from pytest_pacts.models.locator import DiscoveryResult


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "discover",
        help="discover the locators of requirement files in a real browser (no pytest)",
        description="Open each requirement's start page in Chromium and resolve its steps "
        "find-first: the chosen locator, strategy, confidence, gate result and alternates, "
        "or why a step could not be resolved. Exit 1 when any step or page has a problem.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--base-url", help="base for relative requirement URLs")
    parser.add_argument(
        "--demo",
        choices=("v1", "v2"),
        help="serve the bundled demo app (this release) and use it as base URL",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument(
        "--blocks",
        action="append",
        type=Path,
        default=[],
        metavar="FILE",
        help="a shared blocks file (repeatable)",
    )
    parser.add_argument("--browser-path", help="Chromium executable (default: detect)")
    parser.set_defaults(func=run)


def _step_json(
    plan: Plan, index: int, result: DiscoveryResult | None, later: bool
) -> dict[str, object]:
    from pytest_pacts.discovery import to_code

    step = plan.steps[index]
    out: dict[str, object] = {
        "index": index,
        "text": step.describe(),
        "source": step.source.render(),
    }
    if later:
        out["status"] = "later"
        return out
    if result is None:
        out["status"] = "no_element"
        return out
    out["status"] = (
        "resolved" if result.ok else ("found_not_actionable" if result.locator else "unresolved")
    )
    if result.locator is not None:
        out["locator"] = result.locator.model_dump(mode="json", exclude_none=True)
        out["code"] = to_code(result.locator)
        out["strategy"] = result.locator.strategy.value
        out["confidence"] = result.locator.confidence
    out["alternates"] = [to_code(a) for a in result.alternates]
    if result.gate is not None:
        out["gate"] = {
            p.name: {"ok": p.ok, "code": p.code, "reason": p.reason} for p in result.gate.points
        }
    if result.unresolved is not None:
        out["unresolved"] = result.unresolved.model_dump(mode="json", exclude_none=True)
    return out


def _print_plan(report: dict[str, object]) -> None:
    print(f"{report['req_id']}  {report['url'] or '(no URL)'}  [{report['source']}]")
    for problem in report["problems"]:  # type: ignore[attr-defined]
        print(f"  ! {problem}")
    for step in report["steps"]:  # type: ignore[attr-defined]
        head = f"  {step['index'] + 1:>3}. {step['text']}  ({step['source']})"
        status = step["status"]
        if status == "later":
            print(head + "\n       on a later page: discovered right before it runs")
            continue
        if status == "no_element":
            print(head + "\n       no element to find")
            continue
        print(head)
        if "code" in step:
            print(f"       -> {step['code']}  [{step['strategy']} {step['confidence']:.2f}]")
        if "gate" in step:
            gate = step["gate"]
            print(
                "       gate: "
                + " ".join(
                    f"{name}={'ok' if point['ok'] else point['code']}"
                    for name, point in gate.items()
                )
            )
        if step.get("alternates"):
            print("       alternates: " + "; ".join(step["alternates"]))
        if "unresolved" in step:
            unresolved = step["unresolved"]
            print(f"       NOT RESOLVED ({unresolved['reason']}): {unresolved['message']}")
            for cand in unresolved.get("candidates", [])[:3]:
                print(f"         candidate: {cand['description']} ({cand['score']:.2f})")


def run(args: argparse.Namespace) -> int:
    from playwright.sync_api import Error as PlaywrightError

    from pytest_pacts.browser import NoBrowserError, StandaloneBrowser
    from pytest_pacts.discovery.planning import discover_plan, start_page_steps

    plans, failed_files = load_plans(args.paths, args.blocks)
    reports: list[dict[str, object]] = []
    problems = failed_files
    with ExitStack() as stack:
        base_url = args.base_url
        if args.demo:
            from pytest_pacts.demo_app import DemoServer

            base_url = stack.enter_context(DemoServer(args.demo)).url
        try:
            browser = stack.enter_context(StandaloneBrowser(args.browser_path))
            for plan in plans:
                with browser.page(dict(plan.requirement.context)) as page:
                    outcome = discover_plan(page, plan, base_url)
                start = {s.index for s in start_page_steps(plan)}
                steps = [
                    _step_json(
                        plan,
                        s.index,
                        outcome.results.get(s.index),
                        later=s.index not in start and s.target is not None,
                    )
                    for s in plan.steps
                ]
                problems += len(outcome.problems)
                reports.append(
                    {
                        "req_id": plan.req_id,
                        "url": outcome.url,
                        "source": plan.requirement.source.render(),
                        "problems": [str(p) for p in outcome.problems],
                        "steps": steps,
                    }
                )
        except NoBrowserError as exc:
            raise CommandError(str(exc), EXIT_ENVIRONMENT) from None
        except PlaywrightError as exc:
            raise CommandError(
                f"the browser failed: {str(exc).splitlines()[0]}", EXIT_ENVIRONMENT
            ) from None
    if args.json:
        print(json.dumps(reports, indent=2, ensure_ascii=False))
    else:
        for report in reports:
            _print_plan(report)
            print()
        print(f"{len(reports)} requirement(s) discovered, {problems} problem(s)")
    return EXIT_PROBLEMS if problems else EXIT_OK
