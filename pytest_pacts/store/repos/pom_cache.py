"""The POM cache: verified locators per requirement and plan hash.

Keyed by ``(req_id, plan_hash)``, never by host, so the same requirement against another
deployment (``--base-url``) reuses its locators. A lookup with a plan hash the cache does
not hold, while it holds another for the requirement, is ``plan_hash_mismatch``: the plan
changed and the cached entry must not be reused.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from pytest_pacts.store.backend import Backend
from pytest_pacts.store.records import PomLookup
from pytest_pacts.store.repos._rows import as_str, opt_ts
from pytest_pacts.store.timeutil import require_aware, utcnow

#: Live discovery results expire after an hour; ``ttl=None`` never expires.
DEFAULT_TTL = timedelta(hours=1)


class PomCacheRepository:
    """Put/get verified discovery results with a TTL."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    def put(
        self,
        req_id: str,
        plan_hash: str,
        payload: Mapping[str, object],
        *,
        ttl: timedelta | None = DEFAULT_TTL,
        now: datetime | None = None,
    ) -> None:
        """Store (or replace) the entry for ``(req_id, plan_hash)``."""
        if ttl is not None and ttl <= timedelta(0):
            raise ValueError(f"ttl must be positive or None (never expires), got {ttl}")
        db = self._db
        created = require_aware(now or utcnow(), "now")
        db.execute(
            "INSERT INTO pom_cache (req_id, plan_hash, payload, created_at, expires_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (req_id, plan_hash) DO UPDATE SET "
            "payload = excluded.payload, created_at = excluded.created_at, "
            "expires_at = excluded.expires_at",
            (
                req_id,
                plan_hash,
                db.json_in(dict(payload)),
                db.ts_in(created),
                None if ttl is None else db.ts_in(created + ttl),
            ),
        )

    def get(self, req_id: str, plan_hash: str, *, now: datetime | None = None) -> PomLookup:
        """Look up ``(req_id, plan_hash)``: hit, miss, expired or plan_hash_mismatch."""
        db = self._db
        moment = require_aware(now or utcnow(), "now")
        rows = db.fetchall(
            "SELECT plan_hash, payload, expires_at FROM pom_cache WHERE req_id = ? "
            "ORDER BY created_at DESC",
            (req_id,),
        )
        for row in rows:
            if as_str(row[0]) == plan_hash:
                expires_at = opt_ts(db, row[2])
                if expires_at is not None and expires_at <= moment:
                    return PomLookup("expired", expires_at=expires_at)
                return PomLookup("hit", payload=db.json_out(row[1]), expires_at=expires_at)
        if rows:
            return PomLookup(
                "plan_hash_mismatch", cached_plan_hashes=tuple(as_str(r[0]) for r in rows)
            )
        return PomLookup("miss")

    def invalidate(self, req_id: str, plan_hash: str | None = None) -> int:
        """Drop a requirement's entries (one plan hash, or all); return how many."""
        if plan_hash is None:
            return self._db.execute("DELETE FROM pom_cache WHERE req_id = ?", (req_id,))
        return self._db.execute(
            "DELETE FROM pom_cache WHERE req_id = ? AND plan_hash = ?", (req_id, plan_hash)
        )

    def purge_expired(self, *, now: datetime | None = None) -> int:
        """Delete expired entries; return how many."""
        moment = require_aware(now or utcnow(), "now")
        return self._db.execute(
            "DELETE FROM pom_cache WHERE expires_at IS NOT NULL AND expires_at <= ?",
            (self._db.ts_in(moment),),
        )
