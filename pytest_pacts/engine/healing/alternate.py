"""Rung 1: the alternate locators recorded at discovery, each gated before use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing.basics import locator_json
from pytest_pacts.engine.healing.intent import try_locators
from pytest_pacts.governance import built_on_generated
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.outcome import HealRung

if TYPE_CHECKING:
    from pytest_pacts.engine.healing.region import RegionDriftRung


class AlternateRung:
    """Try the step's alternates (discovery's other verified renderings of the element).

    ``regions``: the ladder's region-drift rung, whose count of the failing locator's
    region, sent at the round's start, answers for the alternates inside that region when
    it found no container (:meth:`RegionDriftRung.region_gone`): they are not counted."""

    name = HealRung.ALTERNATE
    reads_only = True

    def __init__(self, regions: RegionDriftRung | None = None) -> None:
        self.regions = regions

    def attempt(self, ctx: HealContext) -> RungResult | None:
        state = ctx.state
        found: list[Locator] = list(state.alternates)
        if state.discovery is not None:
            found.extend(state.discovery.alternates)
        # one built on a generated id or class after the stable ones: the next render may give
        # that id to another element (Ember's ``#ember9``)
        unique = sorted(dict.fromkeys(found), key=lambda a: built_on_generated(locator_json(a)))
        options = [(alt, alt.confidence, {"alternate_of": "discovery"}) for alt in unique]
        gone = self.regions is not None and self.regions.region_gone(ctx)
        # the alternates of a locator that broke usually broke with it: count them together
        return try_locators(
            ctx,
            self.name,
            options,
            "alternate",
            none_likely=True,
            by_identity=True,
            region_gone=gone,
        )
