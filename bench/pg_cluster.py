"""A throwaway PostgreSQL cluster for the benchmarks (the same recipe as the store tests).

Debian's binaries (``/usr/lib/postgresql/*/bin``, installed by ``PACTS_SETUP_POSTGRES=1
bash scripts/setup.sh``; ``PACTS_PG_BINDIR`` overrides), a fresh data directory in a temp
folder, 127.0.0.1 on a free port, unix sockets in the temp folder, removed at the end. As
root, initdb and the server run as the ``postgres`` OS user (``runuser``).

    with throwaway_cluster() as dsn:   # postgresql://postgres@127.0.0.1:PORT/pacts_bench
        ...
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def find_bindir() -> Path | None:
    candidates = [os.environ.get("PACTS_PG_BINDIR", "")]
    candidates += sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
        reverse=True,
    )
    for candidate in candidates:
        if candidate and all((Path(candidate) / t).is_file() for t in ("initdb", "pg_ctl")):
            return Path(candidate)
    found = shutil.which("pg_ctl")
    return Path(found).parent if found and shutil.which("initdb") else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def throwaway_cluster(database: str = "pacts_bench", max_connections: int = 100) -> Iterator[str]:
    """Start a cluster, create ``database``, yield its DSN; stop and delete it afterwards."""
    bindir = find_bindir()
    if bindir is None:
        raise RuntimeError(
            "PostgreSQL binaries not found (PACTS_SETUP_POSTGRES=1 bash scripts/setup.sh, "
            "or PACTS_PG_BINDIR=/path/to/bin)"
        )
    base = Path(tempfile.mkdtemp(prefix="pacts-bench-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(base, user="postgres", group="postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, sockets, log = base / "data", base / "sock", base / "server.log"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*as_user, *args], capture_output=True, text=True, timeout=120, check=False
        )

    started = False
    try:
        run("mkdir", "-p", str(sockets))
        init = run(
            str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
            "-E", "UTF8", "--no-sync", "--no-instructions",
        )  # fmt: skip
        if init.returncode != 0:
            raise RuntimeError(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
        port = _free_port()
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={sockets} "
            f"-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            f"-c max_connections={max_connections}"
        )
        start = run(
            str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60",
            "-o", options, "start",
        )  # fmt: skip
        if start.returncode != 0:
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {start.stderr.strip()} {tail}")
        started = True
        import psycopg

        with psycopg.connect(
            f"postgresql://postgres@127.0.0.1:{port}/postgres", autocommit=True
        ) as conn:
            conn.execute(f"CREATE DATABASE {database}")
        yield f"postgresql://postgres@127.0.0.1:{port}/{database}"
    finally:
        if started:
            run(str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(base, ignore_errors=True)
