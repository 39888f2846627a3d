"""The shared part of the projection: the open store, secret masking, record lookups."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from pytest_pacts.reports.redact import Redactor
from pytest_pacts.store import (
    ProposalRecord,
    RecordNotFound,
    Run,
    Store,
    StoreError,
)
from pytest_pacts.web.errors import NotFound, Unavailable
from pytest_pacts.web.projection.labels import (
    _first_line,
)
from pytest_pacts.web.report_files import REPORTS_DIR, ReportIndex

D = TypeVar("D", bound=BaseModel)

#: The largest id a store can hold (a signed 64-bit integer in SQLite and PostgreSQL): a
#: larger one in a URL is a 404, never a driver's overflow error.
MAX_ID = 2**63 - 1


class ProjectionBase:
    """The store, the masking and the lookups every part of the projection shares.

    ``root`` is the project folder: artifact paths the store holds relative to it are
    resolved there. ``reports`` is its report folder (default ``.pacts/reports`` under
    it), resolved once here: only files inside it are measured, hashed or served, whatever
    path the store or a report index names. ``secrets`` are masked in every DTO (see the
    package's docstring).
    """

    def __init__(
        self,
        store: Store,
        *,
        root: Path,
        reports: Path | None = None,
        secrets: Iterable[str] = (),
        owns: bool = False,
    ) -> None:
        self._store = store
        self._root = root.resolve()
        self.reports_folder = (self._root / (reports or REPORTS_DIR)).resolve()
        self._redactor = Redactor(secrets)
        self._owns = owns
        self._reports = ReportIndex(self.reports_folder)

    def close(self) -> None:
        """Close the store if this projection opened it."""
        if self._owns:
            self._store.close()

    def _masked(self, value: D) -> D:
        if not self._redactor:
            return value
        raw = value.model_dump_json().encode("utf-8")
        clean = self._redactor.data(raw)
        return value if clean == raw else type(value).model_validate_json(clean)

    def mask(self, text: str) -> str:
        """``text`` with every known secret value replaced by ``***``."""
        return self._redactor.text(text)

    def _get_run(self, run_id: int) -> Run:
        if not 0 < run_id <= MAX_ID:
            raise NotFound(f"no run #{run_id} in the store; GET /api/runs lists them")
        try:
            return self._store.runs.get(run_id)
        except RecordNotFound:
            raise NotFound(f"no run #{run_id} in the store; GET /api/runs lists them") from None

    def _get_proposal(self, proposal_id: int) -> ProposalRecord:
        if not 0 < proposal_id <= MAX_ID:
            raise NotFound(
                f"no heal proposal #{proposal_id} in the store; GET /api/proposals lists them"
            )
        try:
            return self._store.proposals.get(proposal_id)
        except RecordNotFound:
            raise NotFound(
                f"no heal proposal #{proposal_id} in the store; GET /api/proposals lists them"
            ) from None

    @contextmanager
    def translated(self) -> Iterator[None]:
        """Store failures become :class:`Unavailable` (503), so callers need no store types."""
        try:
            yield
        except StoreError as exc:
            raise Unavailable(
                f"the store ({self._store.location}) cannot be read: {_first_line(str(exc))}"
            ) from None

    @property
    def location(self) -> str:
        """Where the store lives, password redacted."""
        return self._store.location
