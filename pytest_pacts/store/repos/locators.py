"""Verified locators: which locator acted on which element, on which deployment.

A requirement often runs against more than one deployment (staging and production, two
releases behind a feature flag), and an element may look different on each. Every locator
that passed the five-point gate and acted is counted here with the deployment it ran on
(its base URL), so a run on one deployment uses the locator verified there, and accepting a
heal found on another deployment does not throw that locator away (docs/governance.md,
"Locators per deployment").

Rows are keyed by requirement, element key, the locator (canonical JSON) and deployment.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime

from pytest_pacts.store.backend import Backend, Row
from pytest_pacts.store.records import VerifiedLocator
from pytest_pacts.store.repos._rows import as_int, as_str, as_ts
from pytest_pacts.store.timeutil import require_aware, utcnow

_COLUMNS = (
    "id, req_id, element_key, locator, deployment, verified_count, first_verified_at, "
    "last_verified_at"
)


def locator_key(locator: Mapping[str, object]) -> str:
    """Canonical JSON, so the same locator written twice is one row, not two."""
    return json.dumps(dict(locator), sort_keys=True, separators=(",", ":"))


class LocatorRepository:
    """Record and read the locators verified per element and deployment."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    def verify(
        self,
        req_id: str,
        element_key: str,
        locator: Mapping[str, object],
        deployment: str,
        *,
        now: datetime | None = None,
    ) -> VerifiedLocator:
        """Count one gated, successful action with ``locator`` on ``deployment``."""
        if not locator:
            raise ValueError(f"a verified locator of {element_key!r} cannot be empty")
        if not deployment.strip():
            raise ValueError(f"a verified locator of {element_key!r} needs its deployment")
        db = self._db
        when = db.ts_in(require_aware(now or utcnow(), "now"))
        row = db.fetchone(
            "INSERT INTO element_locators (req_id, element_key, locator_key, locator, "
            "deployment, verified_count, first_verified_at, last_verified_at) "
            "VALUES (?, ?, ?, ?, ?, 1, ?, ?) "
            "ON CONFLICT (req_id, element_key, locator_key, deployment) DO UPDATE SET "
            "verified_count = element_locators.verified_count + 1, "
            "last_verified_at = excluded.last_verified_at "
            f"RETURNING {_COLUMNS}",
            (
                req_id,
                element_key,
                locator_key(locator),
                db.json_in(dict(locator)),
                deployment,
                when,
                when,
            ),
        )
        assert row is not None
        return self._record(row)

    def for_requirement(self, req_id: str) -> list[VerifiedLocator]:
        """Every verified locator of a requirement, most recently verified first."""
        rows = self._db.fetchall(
            f"SELECT {_COLUMNS} FROM element_locators WHERE req_id = ? "
            "ORDER BY last_verified_at DESC, id DESC",
            (req_id,),
        )
        return [self._record(r) for r in rows]

    def for_element(self, element_key: str, req_id: str | None = None) -> list[VerifiedLocator]:
        """The verified locators of an element key (of one requirement, if given), most
        recently verified first."""
        sql = f"SELECT {_COLUMNS} FROM element_locators WHERE element_key = ?"
        params: list[object] = [element_key]
        if req_id is not None:
            sql += " AND req_id = ?"
            params.append(req_id)
        rows = self._db.fetchall(sql + " ORDER BY last_verified_at DESC, id DESC", params)
        return [self._record(r) for r in rows]

    def _record(self, row: Row) -> VerifiedLocator:
        db = self._db
        return VerifiedLocator(
            id=as_int(row[0]),
            req_id=as_str(row[1]),
            element_key=as_str(row[2]),
            locator=db.json_out(row[3]),
            deployment=as_str(row[4]),
            verified_count=as_int(row[5]),
            first_verified_at=as_ts(db, row[6]),
            last_verified_at=as_ts(db, row[7]),
        )
