"""Versioned, immutable recipes (docs/governance.md "Recipes").

A requirement's verified plan is stored as ``v001``, ``v002``, ...; a written version never
changes. The API offers no update or delete, and the database refuses both with triggers
(see :mod:`pytest_pacts.store.schema`). The body's shape belongs to the governance package;
the store keeps it as opaque JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from pytest_pacts.store.backend import Backend, Row
from pytest_pacts.store.errors import RecordNotFound, StaleParentError
from pytest_pacts.store.records import RecipeVersion
from pytest_pacts.store.repos._rows import as_int, as_str, as_ts, opt_int, opt_str
from pytest_pacts.store.timeutil import require_aware, utcnow

_COLUMNS = "req_id, version, number, plan_hash, parent_version, proposal_id, created_at, body"
_LATEST = object()


def version_label(number: int) -> str:
    """``1`` → ``"v001"``; wider numbers simply grow (``v1000``)."""
    return f"v{number:03d}"


class RecipeRepository:
    """Append-only recipe versions per requirement."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    # long because: one transaction: the next version and its steps written together
    def add_version(
        self,
        req_id: str,
        body: Mapping[str, object],
        *,
        plan_hash: str,
        proposal_id: int | None = None,
        expected_parent: str | object | None = _LATEST,
        now: datetime | None = None,
    ) -> RecipeVersion:
        """Write the next version of ``req_id``'s recipe and return it.

        The parent is the version that was latest when this one was written. Pass
        ``expected_parent`` (a label, or ``None`` for "no version yet") to refuse, with
        :class:`StaleParentError`, a version derived from something no longer latest, e.g.
        a heal proposal accepted after another one already produced a newer version.
        """
        db = self._db
        created = require_aware(now or utcnow(), "now")
        with db.transaction():
            # The counter row is bumped by an upsert: on PostgreSQL it row-locks, so two
            # writers get consecutive numbers instead of colliding on the same one.
            row = db.fetchone(
                "INSERT INTO recipes (req_id, latest_number, created_at, updated_at) "
                "VALUES (?, 1, ?, ?) ON CONFLICT (req_id) DO UPDATE SET "
                "latest_number = recipes.latest_number + 1, updated_at = excluded.updated_at "
                "RETURNING latest_number",
                (req_id, db.ts_in(created), db.ts_in(created)),
            )
            assert row is not None
            number = as_int(row[0])
            parent = version_label(number - 1) if number > 1 else None
            if expected_parent is not _LATEST and expected_parent != parent:
                raise StaleParentError(
                    f"recipe {req_id!r}: the new version was based on {expected_parent!r} "
                    f"but the latest is {parent!r}; re-derive it from {parent!r}"
                )
            inserted = db.fetchone(
                f"INSERT INTO recipe_versions ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                f"RETURNING {_COLUMNS}",
                (
                    req_id,
                    version_label(number),
                    number,
                    plan_hash,
                    parent,
                    proposal_id,
                    db.ts_in(created),
                    db.json_in(dict(body)),
                ),
            )
            assert inserted is not None
            return self._version(inserted)

    def latest(self, req_id: str) -> RecipeVersion | None:
        """The newest version of ``req_id``'s recipe, or ``None`` if it has none."""
        row = self._db.fetchone(
            f"SELECT {_COLUMNS} FROM recipe_versions WHERE req_id = ? ORDER BY number DESC LIMIT 1",
            (req_id,),
        )
        return None if row is None else self._version(row)

    def get(self, req_id: str, version: str) -> RecipeVersion:
        """One version by label (``"v002"``)."""
        row = self._db.fetchone(
            f"SELECT {_COLUMNS} FROM recipe_versions WHERE req_id = ? AND version = ?",
            (req_id, version),
        )
        if row is None:
            raise RecordNotFound(f"recipe {req_id!r} has no version {version!r}")
        return self._version(row)

    def versions(self, req_id: str) -> list[RecipeVersion]:
        """Every version of ``req_id``'s recipe, oldest first."""
        rows = self._db.fetchall(
            f"SELECT {_COLUMNS} FROM recipe_versions WHERE req_id = ? ORDER BY number",
            (req_id,),
        )
        return [self._version(r) for r in rows]

    def requirements(self) -> list[str]:
        """Every requirement that has a recipe."""
        return [as_str(r[0]) for r in self._db.fetchall("SELECT req_id FROM recipes ORDER BY 1")]

    def _version(self, row: Row) -> RecipeVersion:
        return RecipeVersion(
            req_id=as_str(row[0]),
            version=as_str(row[1]),
            number=as_int(row[2]),
            plan_hash=as_str(row[3]),
            parent_version=opt_str(row[4]),
            proposal_id=opt_int(row[5]),
            created_at=as_ts(self._db, row[6]),
            body=self._db.json_out(row[7]),
        )
