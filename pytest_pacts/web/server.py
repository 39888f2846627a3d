"""Running the observer: open the store, build the app, serve it with uvicorn.

:func:`build` is what tests and the benchmark use to get the real app on a real store;
:func:`serve` adds the socket, the printed URL and token, and a clean stop on Ctrl-C.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import uvicorn
from starlette.applications import Starlette

from pytest_pacts.web.app import create_app
from pytest_pacts.web.context import Observer
from pytest_pacts.web.launcher import Launcher
from pytest_pacts.web.projection import environment_secrets, open_projection
from pytest_pacts.web.security import TOKEN_ENV, Guard, is_loopback, new_token


@dataclass
class Built:
    """An app over an open store; :meth:`close` stops launched runs and closes the store."""

    app: Starlette
    observer: Observer
    token_generated: bool

    def close(self) -> None:
        self.observer.launcher.stop_all()
        self.observer.projection.close()


def build(
    store_target: str,
    *,
    root: Path,
    token: str | None = None,
    secret_vars: Iterable[str] = (),
    report_dir: str | None = None,
    allowed_hosts: Iterable[str] = (),
    reads_need_token: bool = False,
) -> Built:
    """The observer app over ``store_target``; ``token`` defaults to ``$PACTS_SERVE_TOKEN``,
    else a new random one; ``report_dir`` (default ``.pacts/reports``, relative to ``root``)
    is the only folder files are served from; ``allowed_hosts`` are ``Host`` names served
    besides the address reached; ``reads_need_token`` holds reads to the token too."""
    given = token or os.environ.get(TOKEN_ENV, "").strip() or None
    guard = Guard(given or new_token())
    secrets = [guard.token, *environment_secrets(os.environ, secret_vars)]
    projection = open_projection(
        store_target,
        root=root,
        reports=Path(report_dir) if report_dir else None,
        secrets=secrets,
    )
    launcher = Launcher(root, store_target, mask=projection.mask)
    state = Observer(
        projection=projection,
        launcher=launcher,
        guard=guard,
        root=root,
        allowed_hosts=tuple(allowed_hosts),
        reads_need_token=reads_need_token,
    )
    return Built(create_app(state), state, token_generated=given is None)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: a free one), so the URL printed is the real one."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio turns Nagle's algorithm off (TCP_NODELAY) only on sockets
    # whose ``proto`` says TCP, and an accepted socket takes its listener's. With proto 0 the
    # body that uvicorn writes after the headers waited for the client's delayed ACK: about
    # 40 ms on every keep-alive response (tests/web/test_nodelay.py)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


# long because: the server's lifetime: start, signals, stop, in one place
def serve(
    store_target: str,
    *,
    host: str,
    port: int,
    root: Path,
    secret_vars: Iterable[str] = (),
    report_dir: str | None = None,
    allowed_hosts: Iterable[str] = (),
    open_reads: bool = False,
    out: TextIO = sys.stdout,
    access_log: bool = True,
) -> None:
    """Serve until Ctrl-C (SIGINT) or SIGTERM; then stop launched runs and close the store.

    Bound beyond loopback, reading needs the token too unless ``open_reads``."""
    beyond = not is_loopback(host)
    built = build(
        store_target,
        root=root,
        secret_vars=secret_vars,
        report_dir=report_dir,
        allowed_hosts=allowed_hosts,
        reads_need_token=beyond and not open_reads,
    )
    try:
        sock = bind(host, port)
        bound_port = sock.getsockname()[1]
        shown_host = f"[{host}]" if ":" in host else host
        url = f"http://{shown_host}:{bound_port}/"
        print(f"pacts serve: dashboard and API at {url}", file=out)
        print(f"  store: {built.observer.projection.location}", file=out)
        if built.token_generated:
            print(
                f"  write token (shown once; sign in at {url}login or send "
                f"'Authorization: Bearer <token>'): {built.observer.guard.token}",
                file=out,
            )
        else:
            print(f"  write token: from ${TOKEN_ENV}", file=out)
        if beyond and open_reads:
            print(
                f"  warning: bound to {host}, not loopback, with --open-reads: anyone who "
                "reaches this address can read the runs and proposals (writing still needs "
                "the token); serve it behind TLS",
                file=out,
            )
        elif beyond:
            print(
                f"  bound to {host}, not loopback: reading needs the token too (sign in, or "
                "--open-reads to let anyone read); serve it behind TLS",
                file=out,
            )
        print("  Ctrl-C stops the server.", file=out, flush=True)
        config = uvicorn.Config(
            built.app,
            log_level="info" if access_log else "warning",
            access_log=access_log,
            timeout_graceful_shutdown=5,
        )
        server = uvicorn.Server(config)
        with sock, contextlib.suppress(KeyboardInterrupt):
            # uvicorn shuts down gracefully on Ctrl-C, then raises the signal again for
            # the caller; for a server, Ctrl-C is the normal way to stop
            server.run(sockets=[sock])
    finally:
        built.close()
    print("pacts serve: stopped", file=out, flush=True)
