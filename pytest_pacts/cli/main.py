"""``pacts``: the console script. Subcommands register themselves from their own modules."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Protocol

from pytest_pacts import __version__
from pytest_pacts.cli.common import EXIT_USAGE, CommandError

# One module per subcommand; each exposes ``register(subparsers) -> None`` and sets
# ``func`` on its parser. Add a subcommand by adding a module and one line here.
SUBCOMMAND_MODULES = (
    "pytest_pacts.cli.plan_cmd",
    "pytest_pacts.cli.discover_cmd",
    "pytest_pacts.cli.heals_cmd",
    "pytest_pacts.cli.init_cmd",
    "pytest_pacts.cli.generate_cmd",
    "pytest_pacts.cli.report_cmd",
    "pytest_pacts.cli.serve_cmd",
    "pytest_pacts.cli.elements_cmd",
    "pytest_pacts.cli.locators_cmd",
    "pytest_pacts.cli.compare_cmd",
    "pytest_pacts.cli.auth_cmd",
    "pytest_pacts.cli.record_cmd",
)


class _Register(Protocol):
    def __call__(self, subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None: ...


Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pacts",
        description=(
            "pytest-pacts workflow commands. Tests themselves run with pytest: "
            "`pytest requirements/`."
        ),
    )
    parser.add_argument("--version", action="version", version=f"pytest-pacts {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        module = importlib.import_module(name)
        register: _Register = module.register
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Handler | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return func(args)
    except CommandError as exc:
        print(f"pacts {args.command}: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("pacts: interrupted", file=sys.stderr)
        return 130
