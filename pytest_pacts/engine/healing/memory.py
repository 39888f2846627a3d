"""Rung 4: healing memory.

Only records whose confidence (successes / (successes + failures)) is above the threshold
come back from the store, and the store refuses any record without evidence (url, original
locator, failure type): "no evidence, no record".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from pydantic import ValidationError

from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing.basics import element_key
from pytest_pacts.engine.healing.intent import try_locators
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.outcome import HealRung

if TYPE_CHECKING:
    from pytest_pacts.engine.ports import HealStore


class MemoryRung:
    name = HealRung.MEMORY
    reads_only = True

    def __init__(self, store: HealStore | None) -> None:
        self.store = store

    def attempt(self, ctx: HealContext) -> RungResult | None:
        if self.store is None:
            return None
        records = self.store.healing.suggest(
            element_key(ctx), ctx.options.memory_threshold, req_id=ctx.plan.req_id
        )
        options: list[tuple[Locator, float, Mapping[str, object]]] = []
        for record in records:
            try:
                locator = Locator.model_validate(record.locator)
            except ValidationError:
                continue  # written by another version of the model: not usable here
            extra: dict[str, object] = {
                "memory_record": record.id,
                "memory_confidence": round(record.confidence, 3),
                "memory_evidence_url": record.evidence.url,
            }
            options.append((locator, record.confidence, extra))
        return try_locators(
            ctx, self.name, options, "remembered locator", need_anchor=False, by_identity=True
        )
