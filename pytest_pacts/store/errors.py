"""Errors raised by the store.

Every message names what happened, the values in effect and what to do next,
because these surface in pytest output and the ``pacts`` CLI.
"""

from __future__ import annotations

from datetime import datetime

from pytest_pacts.errors import PactsError


class StoreError(PactsError):
    """Base class for every error raised by :mod:`pytest_pacts.store`."""


class StoreBusy(StoreError):
    """A bounded read (:meth:`~pytest_pacts.store.Store.probe_version`) could not get the
    connection or the database within its time: another writer holds it."""


class SchemaTooNewError(StoreError):
    """The store was migrated by a newer pytest-pacts than the one running."""

    def __init__(self, found: int, supported: int) -> None:
        self.found = found
        self.supported = supported
        super().__init__(
            f"the store's schema is version {found}, but this pytest-pacts only knows "
            f"versions up to {supported}; upgrade pytest-pacts (migrations only go forward)"
        )


class SessionConflict(StoreError):
    """A run of the same session and requirement is already in flight.

    ``code`` is always ``"SESSION_CONFLICT"`` so callers and the observer can match on
    the standard code rather than on the class name.
    """

    code = "SESSION_CONFLICT"

    def __init__(
        self,
        *,
        session_id: str,
        req_id: str,
        holder_run_id: int,
        holder_pid: int | None,
        holder_host: str | None,
        since: datetime,
        lease_expires_at: datetime | None,
    ) -> None:
        self.session_id = session_id
        self.req_id = req_id
        self.holder_run_id = holder_run_id
        self.holder_pid = holder_pid
        self.holder_host = holder_host
        self.since = since
        self.lease_expires_at = lease_expires_at
        lease = (
            f"its lease runs until {lease_expires_at.isoformat()}"
            if lease_expires_at is not None
            else "it has no lease"
        )
        super().__init__(
            f"SESSION_CONFLICT: requirement {req_id!r} in session {session_id!r} is already "
            f"running as run #{holder_run_id} (pid {holder_pid} on host {holder_host!r}) "
            f"since {since.isoformat()}; {lease}. Wait for it to finish, use another "
            f"session id, or, if that process is gone, retry after the lease expires "
            f"(a dead process on this host is detected at once)"
        )


class ImmutableRecordError(StoreError):
    """An attempt to change or remove a record that is written once (a recipe version)."""


class InvalidTransition(StoreError):
    """A status change the record's life cycle does not allow (e.g. accepted → rejected)."""


class RecordNotFound(StoreError, LookupError):
    """The id or key given does not name a stored record."""


class StaleParentError(StoreError):
    """A new recipe version was based on a version that is no longer the latest."""
