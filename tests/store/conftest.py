"""Fixtures for the store tests: every behaviour runs on real SQLite files and on a real,
throwaway PostgreSQL cluster (issue 3).

The cluster is started once per session from Debian's binaries
(``/usr/lib/postgresql/*/bin``), listens on 127.0.0.1 at a free port with its unix socket
in its own temp dir, and is removed at the end. initdb refuses to run as root, so as root
it runs as the ``postgres`` OS user through ``runuser``. The PostgreSQL cases skip only when
the binaries are absent or cannot start; set ``PACTS_REQUIRE_POSTGRES=1`` (CI) to make that
a failure instead. Each test gets its own schema in one database, which is much cheaper
than a database per test.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_pacts.store import Store, open_store

BACKENDS = ("sqlite", "postgresql")
_schema_ids = itertools.count()


@dataclass(frozen=True)
class PostgresCluster:
    host: str
    port: int
    database: str

    def dsn(self, database: str | None = None, schema: str | None = None) -> str:
        dsn = f"postgresql://postgres@{self.host}:{self.port}/{database or self.database}"
        if schema is not None:
            dsn += f"?options=-csearch_path%3D{schema}"
        return dsn


def _unavailable(reason: str) -> None:
    if os.environ.get("PACTS_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"PostgreSQL is required (PACTS_REQUIRE_POSTGRES=1) but {reason}")
    pytest.skip(f"PostgreSQL tests skipped: {reason}")


def _find_bindir() -> Path | None:
    candidates = [os.environ.get("PACTS_PG_BINDIR", "")]
    # Newest major version first: /usr/lib/postgresql/15/bin before .../13/bin.
    candidates += sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
        reverse=True,
    )
    for candidate in candidates:
        if candidate and all((Path(candidate) / tool).is_file() for tool in ("initdb", "pg_ctl")):
            return Path(candidate)
    found = shutil.which("pg_ctl")
    return Path(found).parent if found and shutil.which("initdb") else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    bindir = _find_bindir()
    if bindir is None:
        _unavailable(
            "initdb/pg_ctl not found under /usr/lib/postgresql/*/bin or on PATH "
            "(apt-get install postgresql)"
        )
        raise AssertionError("unreachable")
    as_user: list[str] = []
    base = Path(tempfile.mkdtemp(prefix="pacts-pg-"))
    if os.geteuid() == 0:
        try:
            shutil.chown(base, user="postgres", group="postgres")
        except (LookupError, PermissionError) as exc:
            shutil.rmtree(base, ignore_errors=True)
            _unavailable(f"running as root and no usable 'postgres' OS user for initdb: {exc}")
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
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
        )
        if init.returncode != 0:
            _unavailable(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
        port = _free_port()
        # fsync off: the cluster is thrown away; crash tests kill clients, not the server.
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={port} "
            f"-c unix_socket_directories={sockets} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60"
        )
        start = run(
            str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60",
            "-o", options, "start",
        )  # fmt: skip
        if start.returncode != 0:
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            _unavailable(f"pg_ctl start failed: {start.stderr.strip()} {tail}")
        started = True
        cluster = PostgresCluster("127.0.0.1", port, "pacts_test")
        import psycopg

        with psycopg.connect(cluster.dsn("postgres"), autocommit=True) as conn:
            conn.execute("CREATE DATABASE pacts_test")
        yield cluster
    finally:
        if started:
            run(str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(params=BACKENDS)
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty store location: a SQLite file, or a PostgreSQL DSN on a new schema."""
    if request.param == "sqlite":
        return str(tmp_path / ".pacts" / "pacts.db")
    cluster: PostgresCluster = request.getfixturevalue("postgres_cluster")
    import psycopg

    schema = f"t{next(_schema_ids)}_{os.getpid()}"
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return cluster.dsn(schema=schema)


@pytest.fixture
def store(store_target: str) -> Iterator[Store]:
    """An opened, migrated store on each backend, closed after the test."""
    opened = open_store(store_target)
    with contextlib.closing(opened):
        yield opened
