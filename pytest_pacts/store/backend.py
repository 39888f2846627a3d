"""The narrow interface every SQL dialect implements.

Repositories write portable SQL with ``?`` placeholders and call a :class:`Backend`; the
backend owns what really differs between SQLite and PostgreSQL: placeholders, the write
lock a transaction takes, how times, JSON and errors cross the driver, and the few DDL types
(identity keys, timestamps, JSON). Upserts use ``INSERT ... ON CONFLICT`` which both speak.
"""

from __future__ import annotations

import abc
import json
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Literal, Protocol

from pytest_pacts.store.errors import ImmutableRecordError, StoreBusy, StoreError
from pytest_pacts.store.records import JSONValue


def json_text(value: object) -> str:
    """``value`` as compact JSON text that is Unicode: a lone surrogate (half of a character
    outside the BMP, an emoji cut in two in a page's text, or one a page holds itself) becomes
    U+FFFD, where it made the write fail (SQLite cannot encode it, PostgreSQL refuses its
    escape) and stopped the run."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


Params = Sequence[object]
Row = tuple[object, ...]
DialectName = Literal["sqlite", "postgresql"]

#: Marker the immutability triggers put in their error text, on both backends, so the
#: backend can turn a refused UPDATE/DELETE into :class:`ImmutableRecordError`.
IMMUTABLE_MARKER = "pacts_immutable"


class Backend(Protocol):
    """What the repositories need from a database connection."""

    name: DialectName

    @property
    def description(self) -> str:
        """Where the store lives, safe to print (no password)."""
        ...

    def transaction(self) -> AbstractContextManager[None]:
        """Atomic unit of work; nested calls join the outermost transaction."""
        ...

    def snapshot(self) -> AbstractContextManager[None]:
        """Reads that see one state of the store and never wait for another process's
        write lock; joins a transaction already open."""
        ...

    def migration_lock(self) -> AbstractContextManager[None]:
        """A transaction that also excludes every other process migrating the same store."""
        ...

    def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        ...

    def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row."""
        ...

    def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...

    def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    def probe(self, sql: str, timeout_s: float) -> list[Row]:
        """A read outside any transaction that waits at most ``timeout_s``, or raises
        :class:`~pytest_pacts.store.errors.StoreBusy`."""
        ...

    def explain(self, sql: str, params: Params = ()) -> list[str]:
        """The query plan, one line per entry, as the database prints it."""
        ...

    def ddl(self, template: str) -> str:
        """Fill the dialect's types into a DDL template ({pk}, {ts}, {json})."""
        ...

    def ts_in(self, value: datetime) -> object: ...

    def ts_out(self, value: object) -> datetime: ...

    def json_in(self, value: object) -> object: ...

    def json_out(self, value: object) -> JSONValue: ...

    def check_integrity(self) -> list[str]:
        """Problems found by the database's own consistency check; empty when sound."""
        ...

    def close(self) -> None: ...


class BaseBackend(abc.ABC):
    """Transaction nesting, locking and error translation shared by both dialects.

    One connection per :class:`~pytest_pacts.store.Store`; an ``RLock`` serialises threads
    that share a store, held for a whole transaction so statements of two threads never
    interleave inside one transaction.
    """

    name: DialectName
    _driver_errors: tuple[type[BaseException], ...] = ()

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._depth = 0

    # -- hooks each dialect provides -------------------------------------------------
    @abc.abstractmethod
    def _outer_transaction(self) -> AbstractContextManager[None]:
        """Provided by each dialect."""

    @abc.abstractmethod
    def _run(self, sql: str, params: Params, fetch: bool) -> tuple[int, list[Row]]:
        """Provided by each dialect."""

    @abc.abstractmethod
    def _run_many(self, sql: str, rows: list[Params]) -> None:
        """Provided by each dialect."""

    # -- shared behaviour ------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._lock:
            if self._depth:
                # Joining keeps "one call = one atomic unit" composable: a repository
                # method that opens its own transaction can run inside a caller's.
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._depth = 1
            try:
                with self._translate(), self._outer_transaction():
                    yield
            finally:
                self._depth = 0

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        with self._lock:
            if self._depth:
                yield
                return
            self._depth = 1
            try:
                with self._translate(), self._outer_snapshot():
                    yield
            finally:
                self._depth = 0

    def _outer_snapshot(self) -> AbstractContextManager[None]:
        """A read-only transaction; a dialect whose transactions take a write lock up
        front (SQLite's ``BEGIN IMMEDIATE``) overrides it."""
        return self._outer_transaction()

    def execute(self, sql: str, params: Params = ()) -> int:
        with self._lock, self._translate():
            return self._run(sql, params, fetch=False)[0]

    def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        with self._lock, self._translate():
            self._run_many(sql, list(rows))

    def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = self.fetchall(sql, params)
        return rows[0] if rows else None

    def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        with self._lock, self._translate():
            return self._run(sql, params, fetch=True)[1]

    def probe(self, sql: str, timeout_s: float) -> list[Row]:
        busy = StoreBusy(
            f"the {self.name} store is busy: another writer held it for more than {timeout_s:g} s"
        )
        # another thread of this process may hold the connection for a whole transaction
        # (waiting for another process's write lock): wait for it only so long
        if not self._lock.acquire(timeout=timeout_s):
            raise busy
        try:
            with self._translate(), self._bounded_read(timeout_s):
                return self._run(sql, (), fetch=True)[1]
        except StoreError as exc:
            if "locked" in str(exc) or "busy" in str(exc) or "timeout" in str(exc):
                raise busy from exc
            raise
        finally:
            self._lock.release()

    @contextmanager
    def _bounded_read(self, timeout_s: float) -> Iterator[None]:
        """How each dialect bounds one read's wait for the database (default: no bound)."""
        yield

    @contextmanager
    def _translate(self) -> Iterator[None]:
        try:
            yield
        except StoreError:
            raise
        except self._driver_errors as exc:
            text = str(exc)
            if IMMUTABLE_MARKER in text:
                raise ImmutableRecordError(
                    f"refused by the database: {text.strip()} (recipe versions are written "
                    "once; write a new version instead)"
                ) from exc
            raise StoreError(f"{self.name} store error: {text.strip()}") from exc
