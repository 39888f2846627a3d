"""The :class:`Store` facade and :func:`open_store`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from pytest_pacts.store.backend import Backend
from pytest_pacts.store.repos.audit import AuditRepository
from pytest_pacts.store.repos.discovery_leases import DiscoveryLeaseRepository
from pytest_pacts.store.repos.healing import HealingMemoryRepository
from pytest_pacts.store.repos.locators import LocatorRepository
from pytest_pacts.store.repos.pom_cache import PomCacheRepository
from pytest_pacts.store.repos.proposals import ProposalRepository
from pytest_pacts.store.repos.recipes import RecipeRepository
from pytest_pacts.store.repos.runs import RunRepository
from pytest_pacts.store.repos.traces import TraceRepository
from pytest_pacts.store.schema import current_version, migrate

#: Where the embedded store lives, relative to pytest's rootdir.
DEFAULT_STORE_DIR = ".pacts"
DEFAULT_STORE_FILE = "pacts.db"

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_SQLITE_SCHEME = "sqlite:///"


def default_store_path(rootdir: str | Path) -> Path:
    """``<rootdir>/.pacts/pacts.db``, the embedded default."""
    return Path(rootdir) / DEFAULT_STORE_DIR / DEFAULT_STORE_FILE


def connect_backend(target: str | Path) -> Backend:
    """Open the raw backend for ``target`` without migrating (use :func:`open_store`)."""
    if isinstance(target, str) and target.startswith(_POSTGRES_SCHEMES):
        from pytest_pacts.store.postgres import PostgresBackend

        return PostgresBackend(target)
    from pytest_pacts.store.sqlite import SQLiteBackend

    if isinstance(target, str):
        if "://" in target and not target.startswith(_SQLITE_SCHEME):
            raise ValueError(
                f"unsupported store {target!r}: give a file path, sqlite:///path, or a "
                "postgresql:// (postgres://) DSN"
            )
        # sqlite:///relative/path and sqlite:////absolute/path, as SQLAlchemy spells them.
        target = target.removeprefix(_SQLITE_SCHEME)
    return SQLiteBackend(Path(target))


def open_store(target: str | Path) -> Store:
    """Open (creating and migrating forward as needed) the store at ``target``.

    ``target`` is a file path or ``sqlite:///path`` for the embedded SQLite store, or a
    ``postgresql://`` / ``postgres://`` DSN for a shared PostgreSQL store.
    """
    backend = connect_backend(target)
    try:
        migrate(backend)
    except BaseException:
        backend.close()
        raise
    return Store(backend)


class Store:
    """One connection to the store and the repositories over it.

    Every repository method is atomic on its own. Wrap several calls in
    :meth:`transaction` to make them one atomic unit (all or nothing, also if the process
    is killed half-way). A ``Store`` belongs to one process: open a new one in each worker
    process; threads of one process may share it (calls are serialised).
    """

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self.audit = AuditRepository(backend)
        self.runs = RunRepository(backend, self.audit)
        self.recipes = RecipeRepository(backend)
        self.proposals = ProposalRepository(backend, self.audit)
        self.healing = HealingMemoryRepository(backend)
        self.pom_cache = PomCacheRepository(backend)
        self.discovery_leases = DiscoveryLeaseRepository(backend)
        self.locators = LocatorRepository(backend)
        self.traces = TraceRepository(backend)

    @property
    def backend_name(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._backend.name

    @property
    def location(self) -> str:
        """Where the store lives, with any password redacted."""
        return self._backend.description

    @property
    def backend(self) -> Backend:
        """The raw backend, for the store's own tools and tests; no SQL outside the store."""
        return self._backend

    def schema_version(self) -> int:
        return current_version(self._backend)

    def probe_version(self, timeout_s: float = 1.0) -> int:
        """The schema version by a plain read that takes no write lock and waits at most
        ``timeout_s`` (for a health check); raises :class:`StoreBusy` when another writer
        holds the store longer."""
        rows = self._backend.probe("SELECT MAX(version) FROM schema_version", timeout_s)
        value = rows[0][0] if rows else None
        return int(str(value)) if value is not None else 0

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group repository calls into one atomic unit; nested calls join the outer one."""
        with self._backend.transaction():
            yield

    def check_integrity(self) -> list[str]:
        """Problems the database finds in its own files; empty when the store is sound."""
        return self._backend.check_integrity()

    def close(self) -> None:
        self._backend.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Store {self.location}>"
