"""``python -m pytest_pacts.demo_app [--release v1|v2] [--port N] [--session-ttl S]``: serve
until Ctrl-C."""

from __future__ import annotations

import argparse
import contextlib
import threading

from pytest_pacts.demo_app.server import RELEASES, DemoServer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pytest_pacts.demo_app",
        description="Serve the pytest-pacts demo app on loopback.",
    )
    parser.add_argument("--release", choices=RELEASES, default="v1", help="which release")
    parser.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    parser.add_argument("--host", default="127.0.0.1", help="loopback address to bind")
    parser.add_argument(
        "--session-ttl",
        type=float,
        default=None,
        metavar="SECONDS",
        help="seconds a login's session lives (default: until logout)",
    )
    options = parser.parse_args(argv)
    try:
        server = DemoServer(
            options.release,
            host=options.host,
            port=options.port,
            session_ttl=options.session_ttl,
        )
    except ValueError as error:
        parser.error(str(error))
    with server:
        print(server.url, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
