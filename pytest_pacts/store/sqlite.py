"""SQLite backend: the embedded default, one file under ``.pacts/``.

WAL lets readers run beside the single writer; every write transaction starts with
``BEGIN IMMEDIATE`` so it takes the write lock up front and waits (busy timeout) instead of
failing half-way with SQLITE_BUSY when it upgrades a read lock, the classic WAL deadlock.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from pathlib import Path

from pytest_pacts.store.backend import BaseBackend, DialectName, Params, Row, json_text
from pytest_pacts.store.errors import StoreError
from pytest_pacts.store.records import JSONValue
from pytest_pacts.store.timeutil import from_text, to_text

#: How long a writer waits for another process's write lock before giving up.
DEFAULT_BUSY_TIMEOUT_S = 30.0

_DDL_TYPES = {
    # AUTOINCREMENT so ids are never reused after a delete: audit and proposal ids are
    # quoted in reports and CLI commands and must keep meaning one thing.
    "pk": "INTEGER PRIMARY KEY AUTOINCREMENT",
    "ts": "TEXT",
    "json": "TEXT",
}


def _switch_to_wal(conn: sqlite3.Connection, timeout_s: float) -> tuple[object, ...] | None:
    """``PRAGMA journal_mode = WAL``, retried while another process holds the lock.

    Changing the journal mode of a new file needs an exclusive lock, and SQLite may answer
    "database is locked" at once instead of calling the busy handler, so several processes
    opening a new store together (pytest -n 8 on a first run) would fail; they wait here
    for up to the busy timeout instead."""
    deadline = time.monotonic() + timeout_s
    pause = 0.01
    while True:
        try:
            row: tuple[object, ...] | None = conn.execute("PRAGMA journal_mode = WAL").fetchone()
            return row
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if time.monotonic() + pause > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.25)


class SQLiteBackend(BaseBackend):
    """A store in one SQLite file."""

    name: DialectName = "sqlite"
    _driver_errors = (sqlite3.Error,)

    def __init__(self, path: Path, *, busy_timeout_s: float = DEFAULT_BUSY_TIMEOUT_S) -> None:
        super().__init__()
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module must not open transactions behind our
        # back; transaction() issues BEGIN IMMEDIATE / COMMIT itself.
        try:
            self._conn = sqlite3.connect(
                str(path),
                timeout=busy_timeout_s,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the SQLite store {path}: {exc}") from exc
        try:
            self._conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
            mode = _switch_to_wal(self._conn, busy_timeout_s)
            if mode is None or str(mode[0]).lower() != "wal":
                raise sqlite3.OperationalError(f"could not switch {path} to WAL (got {mode})")
            # NORMAL is SQLite's advice for WAL: a committed transaction survives a crash
            # of the process (SIGKILL included); only an OS crash or power cut may lose
            # the last commits, and never corrupts the file.
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            self._conn.close()
            raise StoreError(
                f"cannot open the SQLite store {path}: {exc} (is it a pytest-pacts store? "
                "move the file aside to start a new one)"
            ) from exc
        except BaseException:
            self._conn.close()
            raise

    @property
    def description(self) -> str:
        return f"sqlite:///{self.path}"

    @contextmanager
    def _outer_transaction(self) -> Iterator[None]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._conn.execute("COMMIT")
        except BaseException:
            # SQLite may already have rolled back on its own (e.g. disk full); a second
            # ROLLBACK would then hide the real error.
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise

    @contextmanager
    def _outer_snapshot(self) -> Iterator[None]:
        # deferred: in WAL mode the first read takes a snapshot and no lock a writer holds
        self._conn.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            if self._conn.in_transaction:
                self._conn.execute("COMMIT")

    @contextmanager
    def _bounded_read(self, timeout_s: float) -> Iterator[None]:
        # a plain SELECT in WAL mode needs no write lock; the busy timeout only bounds the
        # rare waits a reader has (a checkpoint or recovery holding the WAL index)
        row = self._conn.execute("PRAGMA busy_timeout").fetchone()
        self._conn.execute(f"PRAGMA busy_timeout = {int(timeout_s * 1000)}")
        try:
            yield
        finally:
            self._conn.execute(f"PRAGMA busy_timeout = {int(row[0]) if row else 0}")

    def migration_lock(self) -> AbstractContextManager[None]:
        # BEGIN IMMEDIATE already excludes every other writer of the file.
        return self.transaction()

    def _run(self, sql: str, params: Params, fetch: bool) -> tuple[int, list[Row]]:
        cursor = self._conn.execute(sql, tuple(params))
        try:
            rows = [tuple(r) for r in cursor.fetchall()] if fetch else []
            return cursor.rowcount, rows
        finally:
            cursor.close()

    def _run_many(self, sql: str, rows: list[Params]) -> None:
        self._conn.executemany(sql, [tuple(r) for r in rows]).close()

    def explain(self, sql: str, params: Params = ()) -> list[str]:
        rows = self.fetchall("EXPLAIN QUERY PLAN " + sql, params)
        return [str(r[3]) for r in rows]

    def ddl(self, template: str) -> str:
        return template.format(**_DDL_TYPES)

    def ts_in(self, value: datetime) -> object:
        return to_text(value)

    def ts_out(self, value: object) -> datetime:
        return from_text(str(value))

    def json_in(self, value: object) -> object:
        return json_text(value)

    def json_out(self, value: object) -> JSONValue:
        if value is None:
            return None
        loaded: JSONValue = json.loads(str(value))
        return loaded

    def check_integrity(self) -> list[str]:
        rows = self.fetchall("PRAGMA integrity_check")
        problems = [str(r[0]) for r in rows if str(r[0]) != "ok"]
        problems += [f"foreign key: {r}" for r in self.fetchall("PRAGMA foreign_key_check")]
        return problems

    def close(self) -> None:
        with self._lock:
            self._conn.close()
