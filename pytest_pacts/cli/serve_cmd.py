"""``pacts serve``: the web dashboard and JSON API over the store (``docs/observer.md``).

Binds 127.0.0.1 unless told otherwise, prints its URL and a write token once, and stops
cleanly on Ctrl-C. Needs the ``serve`` extra (Starlette and uvicorn). The store must
exist: a missing SQLite file means the command points at the wrong place.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_pacts.cli.common import (
    EXIT_ENVIRONMENT,
    EXIT_OK,
    EXIT_USAGE,
    STORE_ENV,
    CommandError,
    add_store_option,
    local_store_file,
    store_target,
)

EPILOG = f"""\
store:
  --store PATH|DSN (a SQLite file, sqlite:///path, or a postgresql:// DSN), else
  ${STORE_ENV}, else .pacts/pacts.db under the current directory.

security (docs/observer.md, "Threat model"):
  Writing (accepting or rejecting heals, starting runs) needs the token printed at
  start, or the value of $PACTS_SERVE_TOKEN when set. Reading is open on loopback (the
  default 127.0.0.1); bound to another address, reading needs the token too unless
  --open-reads. Requests whose Host header does not name the server are refused
  (DNS rebinding); --allowed-host adds a name, e.g. a proxy's.

exit codes:
  0  stopped with Ctrl-C
  2  usage: bad arguments, the port is taken
  3  the store is missing or unreachable, or the serve extra is not installed
"""


# long because: the argparse declaration of pacts serve, one option a line
def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="web dashboard and JSON API over the store: runs, trends, heal review, live runs",
        description="Serve the dashboard and the JSON API (/api, schema at /api/openapi.json) "
        "over the store.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_store_option(parser)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=8765, help="port to bind (default 8765; 0 picks a free one)"
    )
    parser.add_argument(
        "--project",
        default=".",
        metavar="DIR",
        help="the project folder runs start in and artifact paths are relative to (default: .)",
    )
    parser.add_argument(
        "--report-dir",
        default=".pacts/reports",
        metavar="DIR",
        help="the project's report folder (its pacts_report_dir), relative to --project; "
        "files are served only from inside it (default: .pacts/reports)",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME[:PORT]",
        help="a Host name the server answers to besides the address it listens on (and "
        "localhost on loopback), e.g. a proxy's name; repeatable",
    )
    parser.add_argument(
        "--open-reads",
        action="store_true",
        help="bound beyond loopback, let anyone who reaches the server read without the token",
    )
    parser.add_argument(
        "--secret-var",
        action="append",
        default=[],
        metavar="NAME",
        help="an environment variable whose value is masked everywhere (names that look "
        "secret, like *_PASSWORD or *_TOKEN, always are); repeatable",
    )
    parser.add_argument(
        "--no-access-log", action="store_true", help="do not log each request to the terminal"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from pytest_pacts.web.errors import Unavailable
        from pytest_pacts.web.server import serve
    except ImportError as exc:
        raise CommandError(
            f"pacts serve needs the serve extra ({exc.name} is missing): "
            "pip install 'pytest-pacts[serve]'",
            EXIT_ENVIRONMENT,
        ) from None
    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port must be 0-65535, got {args.port}", EXIT_USAGE)
    target, origin = store_target(args)
    path = local_store_file(target)
    if path is not None and not path.is_file():
        raise CommandError(
            f"no store at {path} ({origin}). Test runs create it; run pytest first, or "
            f"point --store or ${STORE_ENV} at the store.",
            EXIT_ENVIRONMENT,
        )
    root = Path(args.project).resolve()
    if not root.is_dir():
        raise CommandError(f"--project {args.project!r} is not a folder", EXIT_USAGE)
    try:
        serve(
            target,
            host=args.host,
            port=args.port,
            root=root,
            secret_vars=args.secret_var,
            report_dir=args.report_dir,
            allowed_hosts=args.allowed_host,
            open_reads=args.open_reads,
            access_log=not args.no_access_log,
        )
    except Unavailable as exc:
        raise CommandError(f"{exc.message} ({origin})", EXIT_ENVIRONMENT) from None
    except OSError as exc:
        raise CommandError(
            f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}; choose another "
            "--port (0 picks a free one)",
            EXIT_USAGE,
        ) from None
    return EXIT_OK
