"""Rung 3: live re-discovery by the step's intent, with discovery's strategies."""

from __future__ import annotations

from dataclasses import replace

from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery import Discoverer
from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing.basics import first_line
from pytest_pacts.engine.healing.intent import try_locators
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.outcome import HealRung


class RediscoveryRung:
    """Run discovery for ``Element@Region`` on the page as it is now.

    The result must still agree with the recorded fingerprint: a loose text match on
    another element ("Login help" for a renamed "Login") is the classic wrong heal.
    """

    name = HealRung.REDISCOVERY
    reads_only = True

    def __init__(self, discoverer: Discoverer | None = None) -> None:
        self.discoverer = discoverer or Discoverer(measure_still=False)

    def attempt(self, ctx: HealContext) -> RungResult | None:
        step = ctx.state.step
        if step.target is None:
            return None
        # region drift may have scanned for the step's target already, this round
        found = ctx.rediscovered
        if found is None:
            try:
                found = self.discoverer.under(ctx.options.evidence).discover(
                    ctx.page, [(0, step.target, step.action)]
                )[0]
            except PlaywrightError as exc:
                return RungResult(self.name, False, f"re-discovery failed: {first_line(exc)}")
        if found.locator is None:
            message = found.unresolved.message if found.unresolved else "nothing found"
            candidates = found.unresolved.candidates if found.unresolved else ()
            return RungResult(self.name, False, f"re-discovery: {message}", candidates=candidates)
        options = [
            (loc, loc.confidence, {"strategy": loc.strategy.value})
            for loc in (found.locator, *found.alternates)
        ]
        # discovery gated the element it verified its locator resolves to, a moment ago
        gated = {found.locator: found.gate} if found.gate is not None else {}
        result = try_locators(ctx, self.name, options, "re-discovered locator", gated=gated)
        if result is None:
            return RungResult(self.name, False, "re-discovery finds the same, failing locator")
        if not result.accepted:
            return result
        return replace(result, basis=_basis(ctx, found, result))


def _basis(ctx: HealContext, found: DiscoveryResult, result: RungResult) -> str:
    """What accepted a re-discovered element, in words: discovery's evidence rule (the pick's
    confidence and its lead over the runner-up), then its similarity to the recorded element,
    which only had to not contradict it (no other element more similar by the margin)."""
    parts: list[str] = []
    if found.score is not None:
        rule = ctx.options.evidence
        said = f"discovery's confidence {found.score:.2f}"
        if found.runner_up is not None:
            said += (
                f", {rule.lead(found.score, found.runner_up):.2f} above the runner-up "
                f"{found.runner_up:.2f} (margin {rule.margin:.2f})"
            )
        else:
            said += " (no other element named so)"
        parts.append(said)
    if result.score is not None:
        parts.append(f"similarity to the recorded element {result.score:.2f}")
    return "; ".join(parts)
