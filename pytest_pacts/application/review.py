"""``--pacts-accept-heals``: a run's heal proposals persisted as recipe versions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_pacts.governance import review
from pytest_pacts.models.outcome import RunRecord
from pytest_pacts.settings import (
    AcceptHeals,
)
from pytest_pacts.store import Store

if TYPE_CHECKING:
    pass


def accept_heals(store: Store, record: RunRecord, mode: AcceptHeals) -> list[str]:
    """``--pacts-accept-heals=minor|all``: persist this run's proposals as recipe versions
    (``all`` approves major changes too). Returns one note per proposal."""
    if mode == "none" or not record.healed:
        return []
    notes: list[str] = []
    seen: set[str] = set()  # two heals of one drift share a proposal: accept it once
    for step in record.steps:
        for heal in step.heals:
            if not (heal.accepted and heal.proposal_id and heal.proposal_id.isdigit()):
                continue
            if heal.proposal_id in seen:
                continue
            seen.add(heal.proposal_id)
            try:
                done = review.accept(
                    store,
                    int(heal.proposal_id),
                    by="--pacts-accept-heals",
                    approved_major=(mode == "all"),
                )
            except review.ReviewError as exc:
                notes.append(f"proposal #{heal.proposal_id} not accepted: {exc}")
                continue
            notes.append(f"proposal #{done.proposal_id} accepted: {done.summary()}")
    return notes
