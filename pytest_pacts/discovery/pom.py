"""Reading and writing :class:`~pytest_pacts.discovery.planning.PomEntry` in the store.

A cached plan whose hash differs from the current requirement is ``PLAN_HASH_MISMATCH`` and is
not reused: the steps changed, so the cached locators may not fit them. An entry that no
longer parses (written by an older version) counts as a miss: discovery simply runs again.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Literal, Protocol

from pydantic import ValidationError

from pytest_pacts.discovery.planning import PomEntry, kept
from pytest_pacts.models import Plan
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.store.records import PomLookup

PomState = Literal["hit", "miss", "expired", "plan_hash_mismatch"]


class PomCache(Protocol):
    """A store's POM cache (``store.pom_cache``), keyed by requirement and plan hash."""

    def get(self, req_id: str, plan_hash: str) -> PomLookup: ...

    def put(
        self,
        req_id: str,
        plan_hash: str,
        payload: Mapping[str, object],
        *,
        ttl: timedelta | None = ...,
    ) -> None: ...


class PomStore(Protocol):
    """What discovery needs of a store: its POM cache, nothing else."""

    @property
    def pom_cache(self) -> PomCache: ...


def load_pom(store: PomStore, plan: Plan) -> tuple[PomState, PomEntry | None]:
    lookup = store.pom_cache.get(plan.req_id, plan.plan_hash)
    if lookup.status != "hit" or not isinstance(lookup.payload, dict):
        return (lookup.status if lookup.status != "hit" else "miss"), None
    try:
        return "hit", PomEntry.model_validate(lookup.payload)
    except ValidationError:
        return "miss", None


def save_pom(store: PomStore, entry: PomEntry, ttl_seconds: int | None) -> None:
    ttl = timedelta(seconds=ttl_seconds) if ttl_seconds else None
    store.pom_cache.put(entry.req_id, entry.plan_hash, entry.model_dump(mode="json"), ttl=ttl)


def remember_step(
    store: PomStore,
    plan: Plan,
    index: int,
    result: DiscoveryResult,
    url: str,
    ttl_seconds: int | None,
) -> None:
    """Add a step discovered during execution, so the next collection knows the whole plan."""
    state, entry = load_pom(store, plan)
    if entry is None or state != "hit":
        from pytest_pacts.discovery.planning import now_iso

        entry = PomEntry(
            req_id=plan.req_id, plan_hash=plan.plan_hash, url=url, discovered_at=now_iso()
        )
    save_pom(store, entry.merged(index, kept(plan, index, result)), ttl_seconds)
