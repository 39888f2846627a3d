"""``pacts plan FILES...``: validate requirement files and print each normalised plan.

This is the dry run a QA engineer uses before committing a sheet: every step after block
expansion, in words, with its source row; templates are shown unresolved and secret vars
masked, so the output is safe to paste into a ticket. Files are read with the project's
pytest settings and validated by the function pytest's collection uses (``cli/project.py``),
so what ``plan`` accepts pytest collects, and what pytest refuses ``plan`` reports, in the
same words (unregistered tags under strict markers, ``pacts_blocks_files``, read limits).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.cli.common import EXIT_OK, EXIT_PROBLEMS

if TYPE_CHECKING:
    from pytest_pacts.models import Plan


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "plan",
        help="validate requirement files and print their normalised plans (no browser)",
        description="Validate requirement files (.xlsx, .json, .yaml) as pytest would collect "
        "them from here (the same ini file, markers, pacts_* settings and checks) and print "
        "each requirement's normalised plan. Directories are searched as pytest searches them.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument(
        "--blocks",
        action="append",
        type=Path,
        default=[],
        metavar="FILE",
        help="a shared blocks file, besides pacts_blocks_files (repeatable)",
    )
    parser.add_argument(
        "--secret-var",
        action="append",
        default=[],
        metavar="NAME",
        help="a var name whose value is secret, besides pacts_secret_vars (repeatable)",
    )
    parser.set_defaults(func=run)


def plan_as_json(plan: Plan) -> dict[str, object]:
    from pytest_pacts.planner.templating import MASK

    req = plan.requirement
    return {
        "req_id": req.req_id,
        "title": req.title,
        "url": req.url,
        "tags": list(req.tags),
        "plan_hash": plan.plan_hash,
        "source": req.source.render(),
        "vars": {k: (MASK if k in plan.secret_vars else v) for k, v in req.vars.items()},
        "steps": [
            {
                "index": s.index,
                "action": s.action.value,
                "target": str(s.target) if s.target else None,
                "value": s.value,
                "expected": str(s.expected) if s.expected else None,
                "on_fail": s.on_fail.value,
                "block": s.block,
                "source": s.source.render(),
                "text": s.describe(),
            }
            for s in plan.steps
        ],
    }


def _print_text(plan: Plan) -> None:
    req = plan.requirement
    title = f" - {req.title}" if req.title else ""
    print(f"{req.req_id}{title}")
    print(f"  url:    {req.url}")
    if req.tags:
        print(f"  tags:   {', '.join(req.tags)}")
    print(f"  hash:   {plan.plan_hash[:19]}")
    print(f"  source: {req.source.render()}")
    for step in plan.steps:
        via = f"  [block {step.block}]" if step.block else ""
        print(f"  {step.index + 1:>3}. {step.describe()}{via}  ({step.source.render()})")


def load_plans(
    paths: list[Path], blocks: list[Path], secret_vars: list[str] | None = None
) -> tuple[list[Plan], int]:
    """Every plan under ``paths`` (files or directories) as pytest would collect them, and
    how many files pytest would refuse; each problem is printed to stderr as pytest words
    it, and the other files still load."""
    # pytest and the planner load here, not when the parser is built (every command's module
    # is imported for that)
    from pytest_pacts.cli.project import load_project

    project = load_project(paths, blocks, secret_vars or ())
    for refused in project.failed:
        for problem in refused.problems:
            print(problem, file=sys.stderr)
    return project.plans, len(project.failed)


def run(args: argparse.Namespace) -> int:
    plans, failed = load_plans(args.paths, args.blocks, args.secret_var)
    if args.json:
        print(json.dumps([plan_as_json(p) for p in plans], indent=2, ensure_ascii=False))
    else:
        for plan in plans:
            _print_text(plan)
            print()
        print(f"{len(plans)} requirement(s) planned, {failed} file(s) with problems")
    return EXIT_PROBLEMS if failed else EXIT_OK
