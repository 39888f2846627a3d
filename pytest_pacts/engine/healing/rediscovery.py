"""Rung 3: live re-discovery by the step's intent, with discovery's strategies."""

from __future__ import annotations

from dataclasses import replace

from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery import Discoverer
from pytest_pacts.discovery.step_values import values_of
from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing.basics import first_line
from pytest_pacts.engine.healing.intent import try_locators
from pytest_pacts.engine.healing.probing import gate_evidence
from pytest_pacts.engine.openers import HOVER, open_hidden, shown_inside
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

    def _discover(self, ctx: HealContext) -> DiscoveryResult:
        """The step's target discovered under the heal's evidence rule, told a select
        step's option (``step_values``)."""
        step = ctx.state.step
        assert step.target is not None
        return self.discoverer.under(ctx.options.evidence).discover(
            ctx.page, [(0, step.target, step.action)], at_turn=True, values=values_of([(0, step)])
        )[0]

    def attempt(self, ctx: HealContext) -> RungResult | None:
        step = ctx.state.step
        if step.target is None:
            return None
        # region drift may have scanned for the step's target already, this round
        found = ctx.rediscovered
        if found is None:
            try:
                found = self._discover(ctx)
            except PlaywrightError as exc:
                return RungResult(self.name, False, f"re-discovery failed: {first_line(exc)}")
        pointed = ""
        if found.locator is None and found.unresolved is not None:
            found, pointed = self._opened(ctx, found)
        if found.locator is None:
            message = found.unresolved.message if found.unresolved else "nothing found"
            candidates = found.unresolved.candidates if found.unresolved else ()
            return RungResult(self.name, False, f"re-discovery: {message}", candidates=candidates)
        if pointed and found.locator == ctx.state.locator:
            # what was opened shows the step's own element: the same locator, found again
            # after the opening, is retried (the page changed, not the element)
            ok, why, evidence = gate_evidence(ctx, found.locator, repair=True)
            if not ok:
                return RungResult(self.name, False, f"{pointed}; still failing: {why}")
            return RungResult(
                self.name,
                True,
                f"{pointed}; the step's locator is found again there and {why}",
                repaired=True,
                basis=pointed,
                evidence=evidence,
                notes=found.notes,
            )
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
        basis = _basis(ctx, found, result)
        if not pointed:
            return replace(result, basis=basis)
        return replace(result, basis=f"{pointed}; {basis}", notes=found.notes)

    def _opened(self, ctx: HealContext, found: DiscoveryResult) -> tuple[DiscoveryResult, str]:
        """The step's element found hidden behind one evident opener (engine/openers.py,
        ``open_hidden``: a closed menu's, drop-down's or disclosure's toggle, a tab, or the
        item that draws it only under the pointer): open it as first discovery does, and look
        again. Several controls that could open it (``opener_choices``) are never tried:
        re-discovery's message names them. What is found after a hover is kept only when it
        is inside the item pointed at (never hover one thing and act on another); answers
        the result and the words saying what was opened."""
        assert found.unresolved is not None
        openers = found.unresolved.openers
        if not openers:
            return found, ""
        step = ctx.state.step
        assert step.target is not None
        notes, blocked = open_hidden(ctx.page, step, openers, ctx.on_open)
        if blocked is None and not notes:
            return self._discover(ctx), ""  # on show by the opener's check: nothing opened
        if blocked is not None:
            return found, ""
        again = self._discover(ctx)
        hover = openers[-1].relation == HOVER
        if again.locator is None or (
            hover and not shown_inside(ctx.page, again.locator, openers[-1])
        ):
            return found, ""
        if hover:
            said = f"shown by pointing at {openers[-1].description} (CSS :hover)"
        else:
            said = "shown by opening " + ", then ".join(
                f"{o.description} ({o.relation})" for o in openers
            )
        return again.model_copy(update={"notes": (*notes, *again.notes)}), said


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
