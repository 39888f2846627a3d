"""Choosing heal proposals to review: by id, or by what they are about.

``pacts heals list``, the bulk forms of ``pacts heals accept|reject`` and the dashboard
select proposals the same way: a :class:`ProposalFilter` (status, requirement, page,
element, track, score, promotion) read against each proposal and its occurrences, so
"every pending heal of REQ-CART-002" means one thing everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_pacts.store import HealOccurrence, ProposalRecord, Store
from pytest_pacts.store.records import ProposalStatus


@dataclass(frozen=True)
class ProposalFilter:
    """Which proposals to take; every set field must match (``None``: any).

    ``req_id`` matches a proposal that occurred in that requirement; ``page`` the page path
    it healed on (``/login``); ``element`` a part of its element key, case aside;
    ``min_score``/``max_score`` bound its score (inclusive).
    """

    status: ProposalStatus | None = "pending"
    req_id: str | None = None
    page: str | None = None
    element: str | None = None
    track: str | None = None
    min_score: float | None = None
    max_score: float | None = None
    promotion: bool = False

    @property
    def narrows(self) -> bool:
        """Whether anything beyond the status is asked for."""
        return any(
            value not in (None, False)
            for value in (
                self.req_id,
                self.page,
                self.element,
                self.track,
                self.min_score,
                self.max_score,
                self.promotion,
            )
        )


@dataclass(frozen=True)
class Selected:
    """A proposal with its occurrences (the first is the one it was created from)."""

    record: ProposalRecord
    occurrences: tuple[HealOccurrence, ...]

    @property
    def requirements(self) -> tuple[str, ...]:
        """The requirements it occurred in, first seen first."""
        return tuple(dict.fromkeys(o.req_id for o in self.occurrences))

    @property
    def score(self) -> float | None:
        value = self.record.payload.get("score")
        return float(value) if isinstance(value, int | float) else None


def _matches(item: Selected, flt: ProposalFilter) -> bool:
    record = item.record
    score = item.score
    checks = (
        flt.req_id is None or flt.req_id in item.requirements,
        flt.page is None or (record.page or "") == flt.page,
        flt.element is None or flt.element.casefold() in record.element_key.casefold(),
        flt.track is None or record.track == flt.track,
        flt.min_score is None or (score is not None and score >= flt.min_score),
        flt.max_score is None or (score is not None and score <= flt.max_score),
        not flt.promotion or record.promotion_required,
    )
    return all(checks)


def with_occurrences(store: Store, record: ProposalRecord) -> Selected:
    """A proposal and its occurrences."""
    return Selected(record, tuple(store.proposals.occurrences(record.id)))


def select_proposals(store: Store, flt: ProposalFilter) -> list[Selected]:
    """The proposals matching ``flt``, oldest first."""
    records = store.proposals.query(status=flt.status)
    chosen = [with_occurrences(store, r) for r in records]
    return [item for item in chosen if _matches(item, flt)]
