"""Rung 7: the human checkpoint.

With ``--pacts-interactive`` on a terminal, the best declined proposal of this round is
shown (with the round's screenshot, taken by the run) and a person answers GO or NOT GO.
Anything else (CI, no terminal, no proposal, any answer but GO) declines: the step fails
with its evidence.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing.basics import locator_json
from pytest_pacts.engine.healing.probing import gate_evidence
from pytest_pacts.models.outcome import HealRung


def _is_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


class HumanRung:
    name = HealRung.HUMAN

    def __init__(
        self,
        ask: Callable[[str], str] = input,
        is_terminal: Callable[[], bool] = _is_terminal,
        say: Callable[[str], None] = print,
    ) -> None:
        self.ask = ask
        self.is_terminal = is_terminal
        self.say = say

    def attempt(self, ctx: HealContext) -> RungResult | None:
        if not ctx.options.interactive:
            return None
        if not self.is_terminal():
            return RungResult(self.name, False, "declined: no terminal to ask on (CI)")
        offers = [r for r in ctx.round_results if r.proposed is not None]
        if not offers:
            return RungResult(self.name, False, "declined: no candidate to ask about")
        offer = max(offers, key=lambda r: r.score or 0.0)
        proposed = offer.proposed
        assert proposed is not None
        step = ctx.state.step
        self.say(
            f"\npytest-pacts: step {step.index + 1} ({step.describe()}) failed: "
            f"{ctx.failure.message}\n"
            f"  candidate from {offer.rung.value}: {proposed.describe()}"
            f" (score {offer.score or 0:.2f}, runner-up {offer.runner_up_score or 0:.2f})\n"
            f"  why it was not applied: {offer.reason}\n"
            f"  screenshot: {ctx.screenshot_before or '(no artifacts directory)'}"
        )
        try:
            answer = self.ask("  GO / NOT GO? ").strip().upper()
        except EOFError:
            answer = ""
        if answer != "GO":
            return RungResult(self.name, False, f"declined by a person ({answer or 'no answer'})")
        ok, why, evidence = gate_evidence(ctx, proposed)
        if not ok:
            return RungResult(self.name, False, f"GO given, but the candidate fails: {why}")
        evidence["healed_locator"] = locator_json(proposed)
        evidence["approved_by"] = "human checkpoint (GO)"
        return RungResult(
            self.name,
            True,
            f"a person approved {proposed.describe()} (GO)",
            locator=proposed,
            fingerprint=offer.proposed_fingerprint,
            score=offer.score,
            runner_up_score=offer.runner_up_score,
            candidates=offer.candidates,
            evidence=evidence,
        )
