"""Rungs that try locators chosen by intent rather than by scoring (SPEC.md §6 rungs 1, 3, 4).

Each candidate locator must resolve to exactly one element, pass the five-point gate, and
agree with the recorded fingerprint (:func:`~._common.disagreement`) before it is used.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing._common import (
    disagreement,
    gate_evidence,
    locator_json,
    resolve,
)
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.outcome import HealRung


def try_locators(
    ctx: HealContext,
    rung: HealRung,
    options: Iterable[tuple[Locator, float, Mapping[str, object]]],
    what: str,
) -> RungResult | None:
    """The first option that is unique, gated and agrees with the fingerprint, accepted;
    otherwise a declined result listing why each failed. ``None`` when there are none."""
    notes: list[str] = []
    current = ctx.state.locator
    for locator, score, extra in options:
        if locator == current:
            continue
        found = resolve(ctx.page, locator, ctx.state.fingerprint)
        if found.count != 1:
            notes.append(f"{locator.describe()}: resolves to {found.count} elements")
            continue
        ok, why, evidence = gate_evidence(ctx, locator)
        if not ok:
            notes.append(f"{locator.describe()}: {why}")
            continue
        conflict = disagreement(ctx, found)
        if conflict is not None:
            notes.append(f"{locator.describe()}: {conflict}")
            continue
        return RungResult(
            rung=rung,
            accepted=True,
            reason=f"{what} {locator.describe()} is unique and passes the gate",
            locator=locator,
            fingerprint=found.fingerprint,
            score=score,
            evidence={
                **evidence,
                **extra,
                "healed_locator": locator_json(locator),
                "fingerprint_score": found.score,
            },
        )
    if not notes:
        return None
    return RungResult(rung=rung, accepted=False, reason=f"no usable {what}: " + "; ".join(notes))
