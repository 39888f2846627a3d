"""Healing memory: locators that healed an element before (rung 4 of healing).

The rules: ``suggest`` returns only records whose confidence (successes / (successes + failures))
is above the threshold, best first; ``record`` requires evidence ("no evidence, no record": an
unproven heal is never reused); ``record_failure`` lowers confidence; ``prune`` removes
low-confidence and stale records.

Scope: records belong to an element key within a requirement (``req_id``), or are shared by
all requirements with ``req_id=""``. The URL is evidence, not a key, because the POM cache
is deliberately host-independent and healing must follow it across deployments.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime, timedelta

from pytest_pacts.store.backend import Backend, Row
from pytest_pacts.store.records import HealingEvidence, HealingRecord, JSONValue
from pytest_pacts.store.repos._rows import as_int, as_object, as_str, as_ts
from pytest_pacts.store.timeutil import require_aware, utcnow

_COLUMNS = (
    "id, req_id, element_key, locator, success_count, failure_count, evidence, "
    "created_at, last_used"
)


def _locator_key(locator: Mapping[str, object]) -> str:
    # Canonical JSON, so the same locator written twice is one record, not two.
    return json.dumps(dict(locator), sort_keys=True, separators=(",", ":"))


def _check_threshold(name: str, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} is a confidence and must be within 0..1, got {value}")


class HealingMemoryRepository:
    """Evidence-backed locator memory per element key."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    # long because: one transaction: the memory row read and updated
    def record(
        self,
        element_key: str,
        locator: Mapping[str, object],
        evidence: HealingEvidence | None,
        *,
        req_id: str = "",
        now: datetime | None = None,
    ) -> HealingRecord:
        """Count one successful, gated action with ``locator`` for ``element_key``.

        Raises ``ValueError`` without complete evidence: a locator nobody saw succeed must
        never be suggested to the healer.
        """
        if evidence is None:
            raise ValueError(
                f"healing memory refused {element_key!r}: no evidence given; a locator is "
                "recorded only with the url, the original locator and the failure it healed "
                "(no evidence, no record)"
            )
        problems = evidence.problems()
        if problems:
            raise ValueError(
                f"healing memory refused {element_key!r}: incomplete evidence "
                f"({'; '.join(problems)}); no evidence, no record"
            )
        if not locator:
            raise ValueError(f"healing memory refused {element_key!r}: the locator is empty")
        db = self._db
        when = db.ts_in(require_aware(now or utcnow(), "now"))
        row = db.fetchone(
            "INSERT INTO healing_memory (req_id, element_key, locator_key, locator, "
            "success_count, failure_count, evidence, created_at, last_used) "
            "VALUES (?, ?, ?, ?, 1, 0, ?, ?, ?) "
            "ON CONFLICT (req_id, element_key, locator_key) DO UPDATE SET "
            "success_count = healing_memory.success_count + 1, "
            "evidence = excluded.evidence, last_used = excluded.last_used "
            f"RETURNING {_COLUMNS}",
            (
                req_id,
                element_key,
                _locator_key(locator),
                db.json_in(dict(locator)),
                db.json_in(
                    {
                        "url": evidence.url,
                        "original_locator": evidence.original_locator,
                        "failure_type": evidence.failure_type,
                    }
                ),
                when,
                when,
            ),
        )
        assert row is not None
        return self._record(row)

    def record_failure(
        self,
        element_key: str,
        locator: Mapping[str, object],
        *,
        req_id: str = "",
        now: datetime | None = None,
    ) -> HealingRecord | None:
        """Count a failure of a remembered locator; ``None`` if it was never remembered."""
        row = self._db.fetchone(
            "UPDATE healing_memory SET failure_count = failure_count + 1, last_used = ? "
            "WHERE req_id = ? AND element_key = ? AND locator_key = ? "
            f"RETURNING {_COLUMNS}",
            (
                self._db.ts_in(require_aware(now or utcnow(), "now")),
                req_id,
                element_key,
                _locator_key(locator),
            ),
        )
        return None if row is None else self._record(row)

    def suggest(
        self,
        element_key: str,
        threshold: float = 0.7,
        *,
        req_id: str | None = None,
        limit: int = 5,
    ) -> list[HealingRecord]:
        """Remembered locators with confidence above ``threshold``, best first.

        With ``req_id``, only that requirement's records and shared ones (``req_id=""``).
        Ties go to more successes, then to the most recently used.
        """
        _check_threshold("threshold", threshold)
        # "confidence > t" written without a division: s / (s + f) > t  <=>  s > t * (s + f).
        sql = (
            f"SELECT {_COLUMNS} FROM healing_memory WHERE element_key = ? "
            "AND success_count > ? * (success_count + failure_count)"
        )
        params: list[object] = [element_key, threshold]
        if req_id is not None:
            sql += " AND req_id IN (?, '')"
            params.append(req_id)
        sql += (
            " ORDER BY CAST(success_count AS DOUBLE PRECISION) / (success_count + failure_count)"
            " DESC, success_count DESC, last_used DESC, id LIMIT ?"
        )
        params.append(int(limit))
        return [self._record(r) for r in self._db.fetchall(sql, params)]

    def entries(self, element_key: str | None = None) -> list[HealingRecord]:
        """Every record (of one element key, if given), oldest first."""
        sql = f"SELECT {_COLUMNS} FROM healing_memory"
        params: list[object] = []
        if element_key is not None:
            sql += " WHERE element_key = ?"
            params.append(element_key)
        return [self._record(r) for r in self._db.fetchall(sql + " ORDER BY id", params)]

    def prune(
        self,
        min_confidence: float,
        max_age: timedelta,
        *,
        now: datetime | None = None,
    ) -> int:
        """Delete records below ``min_confidence`` or unused for longer than ``max_age``;
        return how many were deleted."""
        _check_threshold("min_confidence", min_confidence)
        oldest = require_aware(now or utcnow(), "now") - max_age
        return self._db.execute(
            "DELETE FROM healing_memory "
            "WHERE success_count < ? * (success_count + failure_count) OR last_used < ?",
            (min_confidence, self._db.ts_in(oldest)),
        )

    def _record(self, row: Row) -> HealingRecord:
        db = self._db
        evidence = as_object(db, row[6])
        original: JSONValue = evidence.get("original_locator")
        return HealingRecord(
            id=as_int(row[0]),
            req_id=as_str(row[1]),
            element_key=as_str(row[2]),
            locator=db.json_out(row[3]),
            success_count=as_int(row[4]),
            failure_count=as_int(row[5]),
            evidence=HealingEvidence(
                url=str(evidence.get("url", "")),
                original_locator=original,
                failure_type=str(evidence.get("failure_type", "")),
            ),
            created_at=as_ts(db, row[7]),
            last_used=as_ts(db, row[8]),
        )
