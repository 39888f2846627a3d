"""``pacts init [DIR] [--force] [--demo]``: scaffold a project for requirement sheets."""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_pacts.cli.common import EXIT_ENVIRONMENT, EXIT_OK, EXIT_PROBLEMS, CommandError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "init",
        help="scaffold conftest.py, pytest.ini and a requirements/ folder with an Excel template",
        description="Write conftest.py, pytest.ini (recommended settings, junit_family = "
        "xunit1) and requirements/ with an example requirement and an Excel template whose "
        "Action and Expected Outcome columns are dropdowns. Existing files are kept unless "
        "--force.",
    )
    parser.add_argument("dir", nargs="?", type=Path, default=Path("."), metavar="DIR")
    parser.add_argument("--force", action="store_true", help="overwrite existing files")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="a conftest.py that serves the bundled demo app (try pytest-pacts offline)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # the Excel template needs openpyxl: imported here, not when the parser is built
    from pytest_pacts.scaffold.init import ScaffoldExists, TemplatesMissing, scaffold

    try:
        result = scaffold(args.dir, force=args.force, demo=args.demo)
    except ScaffoldExists as exc:
        raise CommandError(
            f"{exc}; nothing was written. Use --force to overwrite, or choose another DIR.",
            EXIT_PROBLEMS,
        ) from None
    except TemplatesMissing as exc:
        raise CommandError(str(exc), EXIT_ENVIRONMENT) from None
    for path in result.written:
        print(f"wrote {path}")
    where = "" if args.dir == Path(".") else f"cd {args.dir} && "
    hint = "" if args.demo else " --base-url https://your.app"
    print(f"next: {where}pacts plan requirements/ && pytest{hint}")
    return EXIT_OK
