"""``pacts plan FILES...``: validate requirement files and print each normalised plan.

This is the dry run a QA engineer uses before committing a sheet: every step after block
expansion, in words, with its source row; templates are shown unresolved and secret vars
masked, so the output is safe to paste into a ticket.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from pytest_pacts.cli.common import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, CommandError
from pytest_pacts.models import Plan
from pytest_pacts.planner import LoaderOptions, RequirementFileError, load_file
from pytest_pacts.planner.blocks import BlockDefinition
from pytest_pacts.planner.loader import load_blocks_file
from pytest_pacts.planner.readers import READERS
from pytest_pacts.planner.templating import MASK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "plan",
        help="validate requirement files and print their normalised plans (no browser)",
        description="Validate requirement files (.xlsx, .json, .yaml) and print each "
        "requirement's normalised plan. Directories are searched recursively.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument(
        "--blocks",
        action="append",
        type=Path,
        default=[],
        metavar="FILE",
        help="a shared blocks file (repeatable)",
    )
    parser.add_argument(
        "--secret-var",
        action="append",
        default=[],
        metavar="NAME",
        help="a var name whose value is secret (repeatable)",
    )
    parser.set_defaults(func=run)


def collect_files(paths: list[Path]) -> list[Path]:
    """Requirement files named, or found under named directories (sorted)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.suffix.lower() in READERS
                    and p.is_file()
                    and not p.name.startswith("~$")
                    and (p.suffix.lower() == ".xlsx" or ".req." in p.name)
                )
            )
        elif path.is_file():
            found.append(path)
        else:
            raise CommandError(f"{path} does not exist", EXIT_USAGE)
    return found


def plan_as_json(plan: Plan) -> dict[str, object]:
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


def load_shared_blocks(files: list[Path]) -> dict[str, BlockDefinition]:
    shared: dict[str, BlockDefinition] = {}
    try:
        for blocks_file in files:
            shared.update(load_blocks_file(blocks_file, LoaderOptions(env=dict(os.environ))))
    except RequirementFileError as exc:
        raise CommandError(f"shared blocks: {exc}") from None
    return shared


def load_plans(
    paths: list[Path], blocks: list[Path], secret_vars: list[str] | None = None
) -> tuple[list[Plan], int]:
    """Every plan under ``paths`` (files or directories) and how many files had problems;
    each problem is printed to stderr, located, and the other files still load."""
    options = LoaderOptions(env=dict(os.environ), secret_vars=frozenset(secret_vars or ()),
                            shared_blocks=load_shared_blocks(blocks))  # fmt: skip
    plans: list[Plan] = []
    failed = 0
    for path in collect_files(paths):
        try:
            plans.extend(load_file(path, options).plans)
        except RequirementFileError as exc:
            failed += 1
            print(str(exc), file=sys.stderr)
    return plans, failed


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
