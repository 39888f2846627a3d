"""``pacts heals list|show|accept|reject``: review heal proposals.

A test run that heals a locator leaves a pending proposal in the store, one per drift (the
element and its new locator on a page): the same drift in another requirement or another
run is an occurrence of it. A reviewer lists them, reads one (old and new locator, score,
the rule it was held to, occurrences, the gate's verdict; docs/cli-heals.md), and accepts
it, which writes the next recipe version of every requirement using the element, or
rejects it; several at once (ids, ``--all``, filters) after a GO. Minor proposals
(selectors, actions, policies) are accepted directly; major ones (workflow or expectations)
need an explicit GO. The store is never created here: a missing store means the command
points at the wrong place, and an empty one would hide that.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

from pytest_pacts.cli.common import EXIT_USAGE, GO, STORE_ENV, add_store_option

# The actions' code (cli/heals_list.py, heals_show.py, heals_review.py) is imported when an
# action runs: it needs governance and the models (pydantic), which building the parser does
# not.

_STATUS_CHOICES = ("pending", "accepted", "rejected", "all")
_TRACK_CHOICES = ("contract", "exception")
LANG_ENV = "PACTS_LANG"
# governance.LANGUAGES, written here so that building the parser does not import governance;
# tests/cli/test_cli_imports.py keeps them equal.
LANGUAGES = ("en", "ko")

EPILOG = f"""\
store:
  --store PATH|DSN (a SQLite file, sqlite:///path, or a postgresql:// DSN), else
  ${STORE_ENV}, else .pacts/pacts.db under the current directory. These commands
  never create a store.

exit codes:
  0  success
  1  refused or a problem: the patch breaks the contract, the recipe moved on since the
     proposal (stale), a major proposal or a bulk decision without GO, a proposal
     already decided
  2  usage: bad arguments, an unknown proposal id
  3  the store is missing, unreadable or unreachable
"""


# long because: the argparse declaration of the heals subcommands, one option a line
def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = subparsers.add_parser(
        "heals",
        help="review heal proposals: list, show, accept, reject",
        description="Review the heal proposals test runs left in the store, one per drift.\n"
        "Accepting one writes the next recipe version of every requirement using the\n"
        "element; major proposals and bulk decisions need an explicit GO.",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    _store_option(parser, default=None)
    parser.set_defaults(func=_no_action(parser))
    actions = parser.add_subparsers(dest="heals_command", metavar="ACTION")

    listing = actions.add_parser(
        "list",
        help="a table of proposals (pending by default)",
        description="List heal proposals, oldest first, one row per drift.",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    listing.add_argument("--status", choices=_STATUS_CHOICES, default="pending")
    _filter_options(listing)
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    _lang_option(listing)
    _store_option(listing)
    listing.set_defaults(func=run_list)

    show = actions.add_parser(
        "show",
        help="one proposal for a person: locators, score, rule, occurrences, gate verdict",
        description="Show one heal proposal: old and new locator, score and runner-up, the\n"
        "rule it was held to, its occurrences with their screenshots, the self-heal gate's\n"
        "verdict and what accepting it writes. --json for the whole record, --copy for the\n"
        "block to paste into an issue.",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    show.add_argument("id", type=_proposal_id, metavar="ID")
    show.add_argument("--json", action="store_true", help="print JSON instead of text")
    show.add_argument(
        "--copy", action="store_true", help="print only the copy-proposal text (gate JSON, diff)"
    )
    _lang_option(show)
    _store_option(show)
    show.set_defaults(func=run_show)

    accept = actions.add_parser(
        "accept",
        help="accept proposals: write the next recipe versions",
        description="Accept heal proposals: by id (`accept 3 4 5`), --all pending, or those\n"
        "matching filters. Each writes the next recipe version of every requirement using\n"
        "the element. Several proposals are listed and need --yes, or typing "
        f"{GO} in a terminal;\na major proposal needs the same.",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    _decision_options(accept, "accept")
    accept.add_argument(
        "--yes", action="store_true", help=f"approve without asking (the {GO} of a terminal)"
    )
    _store_option(accept)
    accept.set_defaults(func=run_accept)

    reject = actions.add_parser(
        "reject",
        help="reject proposals; recipes are unchanged",
        description="Mark pending proposals rejected, with an optional reason: by id, --all\n"
        f"pending, or those matching filters (several need --yes, or typing {GO}).\n"
        "A rejected drift is not proposed again; later occurrences are added to it.",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    _decision_options(reject, "reject")
    reject.add_argument("--reason", metavar="TEXT", help="why (kept in the audit log)")
    reject.add_argument(
        "--yes", action="store_true", help=f"reject several without asking (the {GO})"
    )
    _store_option(reject)
    reject.set_defaults(func=run_reject)


def _decision_options(parser: argparse.ArgumentParser, verb: str) -> None:
    parser.add_argument(
        "ids", type=_proposal_id, nargs="*", metavar="ID", help=f"the proposals to {verb}"
    )
    parser.add_argument(
        "--all", action="store_true", help=f"{verb} every pending proposal (with the filters)"
    )
    _filter_options(parser)
    parser.add_argument("--by", metavar="NAME", help="who decides (default: the login name)")


def _filter_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--req", metavar="REQ_ID", help="only those that occurred in it")
    parser.add_argument("--page", metavar="PATH", help="only those healed on this page (/login)")
    parser.add_argument("--element", metavar="TEXT", help="only element keys containing TEXT")
    parser.add_argument("--track", choices=_TRACK_CHOICES, help="only this gate track")
    parser.add_argument("--min-score", type=float, metavar="X", help="only scores >= X")
    parser.add_argument("--max-score", type=float, metavar="X", help="only scores <= X")
    parser.add_argument(
        "--promotion", action="store_true", help="only proposals whose gate requires promotion"
    )


def _lang_option(parser: argparse.ArgumentParser) -> None:
    default = os.environ.get(LANG_ENV, "en")
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=default if default in LANGUAGES else "en",
        help=f"labels' language (default: ${LANG_ENV}, else en)",
    )


def _store_option(parser: argparse.ArgumentParser, default: object = argparse.SUPPRESS) -> None:
    # On ``heals`` and on each action, so ``pacts heals --store X list`` and
    # ``pacts heals list --store X`` both work; SUPPRESS keeps the action's copy from
    # overwriting the outer one when it is not given.
    add_store_option(parser, default)


def _no_action(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        parser.print_help()
        return EXIT_USAGE

    return run


def _proposal_id(text: str) -> int:
    value = text.strip().removeprefix("#")
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(
            f"a proposal id is a number as shown by `pacts heals list`, got {text!r}"
        )
    return int(value)


def run_list(args: argparse.Namespace) -> int:
    from pytest_pacts.cli.heals_list import run_list

    return run_list(args)


def run_show(args: argparse.Namespace) -> int:
    from pytest_pacts.cli.heals_show import run_show

    return run_show(args)


def run_accept(args: argparse.Namespace) -> int:
    from pytest_pacts.cli.heals_review import run_accept

    return run_accept(args)


def run_reject(args: argparse.Namespace) -> int:
    from pytest_pacts.cli.heals_review import run_reject

    return run_reject(args)
