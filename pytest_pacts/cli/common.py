"""What every ``pacts`` subcommand shares: exit codes and the error meant for a person.

Exit codes (docs/reference.md):
  0  success
  1  the command ran and found problems (invalid requirements, unresolved steps, ...)
  2  usage error (bad arguments, missing files)
  3  a store or environment problem (store unreachable, no browser)
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pytest_pacts.errors import PactsError
from pytest_pacts.store import (
    InvalidTransition,
    RecordNotFound,
    StaleParentError,
    Store,
    StoreError,
    default_store_path,
    open_store,
)

STORE_ENV = "PACTS_STORE"

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
EXIT_ENVIRONMENT = 3

#: What a reviewer types to accept a major proposal, or to decide several at once
#: (``pacts heals accept|reject``).
GO = "GO"


class CommandError(PactsError):
    """A failure meant for a person: printed without a traceback, with an exit code."""

    def __init__(self, message: str, exit_code: int = EXIT_PROBLEMS) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def add_store_option(
    parser: argparse.ArgumentParser, default: object = None, *, when: str = ""
) -> None:
    """The ``--store PATH|DSN`` option every store-reading command takes."""
    parser.add_argument(
        "--store",
        default=default,
        metavar="PATH|DSN",
        help=f"the store (default: ${STORE_ENV}, else .pacts/pacts.db here{when})",
    )


def store_target(args: argparse.Namespace) -> tuple[str, str]:
    """The store to open and where that choice came from (for error messages)."""
    given: str | None = args.store
    if given:
        return given, "--store"
    env = os.environ.get(STORE_ENV, "").strip()
    if env:
        return env, f"${STORE_ENV}"
    return str(default_store_path(Path.cwd())), f"the default; --store and ${STORE_ENV} not set"


def local_store_file(target: str) -> Path | None:
    """The SQLite file ``target`` names, or ``None`` for a server DSN (open_store's forms)."""
    if target.startswith(("postgresql://", "postgres://")):
        return None
    if target.startswith("sqlite:///"):
        return Path(target.removeprefix("sqlite:///"))
    if "://" in target:
        raise CommandError(
            f"unsupported store {target!r}: give a file path, sqlite:///path or a "
            "postgresql:// DSN",
            EXIT_USAGE,
        )
    return Path(target)


@contextmanager
def opened_store(args: argparse.Namespace) -> Iterator[Store]:
    """The store, opened for one command; store errors become messages with exit codes."""
    target, origin = store_target(args)
    path = local_store_file(target)
    if path is not None and not path.is_file():
        raise CommandError(
            f"no store at {path} ({origin}). Test runs record heal proposals there; run "
            f"pytest first, or point --store or ${STORE_ENV} at the store.",
            EXIT_ENVIRONMENT,
        )
    try:
        store = open_store(target)
    except StoreError as exc:
        raise CommandError(f"cannot open the store ({origin}): {exc}", EXIT_ENVIRONMENT) from None
    try:
        yield store
    except RecordNotFound as exc:
        raise CommandError(f"{exc} ({store.location})", EXIT_USAGE) from None
    except (InvalidTransition, StaleParentError) as exc:
        raise CommandError(str(exc), EXIT_PROBLEMS) from None
    except StoreError as exc:
        raise CommandError(f"{store.location}: {exc}", EXIT_ENVIRONMENT) from None
    finally:
        store.close()
