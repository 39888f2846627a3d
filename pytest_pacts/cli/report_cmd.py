"""``pacts report``: verdicts, heals, pending proposals and the SLOs from the store.

The same summary pytest prints at the end of a run, read from
the store's runs and proposals, as Markdown (default) or JSON. The SLO definitions are in
``pytest_pacts/reports/slo.py`` and docs/reports.md.
"""

from __future__ import annotations

import argparse
import json
import re
from datetime import UTC, datetime, timedelta

from pytest_pacts.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    CommandError,
    add_store_option,
    opened_store,
)

_RELATIVE = re.compile(r"^(\d+)\s*([dhm])$")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "report",
        help="verdicts, heals and SLOs (LLM calls/run, 2nd-run success, post-patch recovery)",
        description="Summarise the runs in the store: verdict counts, heals by track, pending "
        "proposals, promotion-required count and the SLOs (docs/reports.md) with PASS/FAIL.",
    )
    add_store_option(parser)
    parser.add_argument("--format", choices=("md", "json"), default="md", help="output format")
    parser.add_argument(
        "--since",
        default=None,
        metavar="WHEN",
        help="only runs started since WHEN: an ISO date/time (2026-11-01, "
        "2026-11-01T08:00Z) or an age (7d, 12h, 30m)",
    )
    parser.set_defaults(func=run)


def parse_since(text: str | None, now: datetime | None = None) -> datetime | None:
    """``7d`` / ``12h`` / ``30m`` ago, or an ISO date/time (UTC when no zone is given)."""
    if not text:
        return None
    now = now or datetime.now(UTC)
    match = _RELATIVE.match(text.strip())
    if match:
        amount, unit = int(match.group(1)), match.group(2)
        return now - timedelta(**{{"d": "days", "h": "hours", "m": "minutes"}[unit]: amount})
    try:
        when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise CommandError(
            f"--since {text!r}: expected an ISO date/time (2026-11-01) or an age (7d, 12h, 30m)",
            EXIT_USAGE,
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def run(args: argparse.Namespace) -> int:
    from pytest_pacts.reports.summary import from_store  # pydantic models: not for --help

    since = parse_since(args.since)
    with opened_store(args) as store:
        summary = from_store(store, since)
    if args.format == "json":
        print(json.dumps(summary.as_json(), indent=2, ensure_ascii=False))
    else:
        print(summary.markdown(), end="")
    return EXIT_OK
