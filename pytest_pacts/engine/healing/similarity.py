"""Rung 5: similarity relocation against the recorded fingerprint.

Every visible, action-compatible element of the settled page (open shadow roots and
same-origin iframes included) is scored in one in-page pass per frame with the stability
weights of :data:`~.scoring.WEIGHTS`; the abstain rule decides; the winner gets a new
structured locator (semantic first) and must pass the gate.
"""

from __future__ import annotations

from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing.abstain import judge
from pytest_pacts.engine.healing.basics import action_of, locator_json
from pytest_pacts.engine.healing.names import rival
from pytest_pacts.engine.healing.operable import inoperable
from pytest_pacts.engine.healing.relocate import gate_json, relocate, render
from pytest_pacts.engine.healing.scoring import (
    ANCHOR_MIN,
    Ranking,
    rank_page,
    region_scope,
    settle,
    top_lines,
)
from pytest_pacts.models.locator import Fingerprint, Locator
from pytest_pacts.models.outcome import HealRung
from pytest_pacts.runtime import bounded

SETTLE_CAP_MS = 1_500.0


class SimilarityRung:
    name = HealRung.SIMILARITY
    reads_only = True

    def attempt(self, ctx: HealContext) -> RungResult | None:
        fp = ctx.state.fingerprint
        if fp is None:
            return None
        options = ctx.options
        # Healenium relocates while the page is still loading: we do not. A page that keeps
        # changing gets up to SETTLE_CAP_MS (or the settle timeout, when longer) to settle.
        cap = min(options.step_timeout_ms, max(options.settle_timeout_ms, SETTLE_CAP_MS))
        if not settle(ctx.page, cap, ctx.busy):
            return RungResult(
                self.name, False, "abstained: the page did not settle, so nothing was scored"
            )
        scope = region_scope(ctx.page, ctx.state)
        try:
            ranking = rank_page(ctx.page, fp, action_of(ctx), scope=scope)
        finally:
            bounded.release(scope.containers if scope else ())
        return self.decide(ctx, ranking)

    # long because: the evidence rule, the rendering, the rival and the gate in order, with
    # the evidence
    def decide(self, ctx: HealContext, ranking: Ranking, located: object = None) -> RungResult:
        """The rung's verdict on ``ranking`` (the settled page's, ranked already): the
        evidence rule (threshold and margin) on the best two, then the best one rendered,
        checked for a rival and gated. ``located``: the in-page ``locate`` answer for the
        best candidate, when the round trip that ranked it rendered it too
        (``relocate_element``'s one call)."""
        fp = ctx.state.fingerprint
        assert fp is not None  # attempt() and relocate_element() only rank with one
        options = ctx.options
        action = action_of(ctx)
        best, runner_up = ranking.best, ranking.runner_up
        verdict = judge(
            best.score if best else None,
            runner_up.score if runner_up else None,
            fits=best.fits if best else False,
            anchored=best.anchor >= ANCHOR_MIN if best else False,
            rule=options.evidence,
            action=action,
        )
        evidence: dict[str, object] = {
            "considered": ranking.considered,
            "top_candidates": top_lines(ranking.ranked),
        }

        def done(
            accepted: bool,
            reason: str,
            found: tuple[Locator, Fingerprint] | None = None,
            proposed: tuple[Locator, Fingerprint] | None = None,
        ) -> RungResult:
            return RungResult(
                self.name,
                accepted,
                reason,
                locator=found[0] if found else None,
                fingerprint=found[1] if found else None,
                score=best.score if best else None,
                runner_up_score=runner_up.score if runner_up else None,
                candidates=ranking.candidates(),
                proposed=proposed[0] if proposed else None,
                proposed_fingerprint=proposed[1] if proposed else None,
                evidence=evidence,
            )

        if best is None or not verdict.accepted:
            proposed = None
            if best is not None and options.interactive:
                rendered = render(ctx.page, best)  # for the human checkpoint only
                proposed = rendered if not isinstance(rendered, str) else None
            return done(False, verdict.reason, proposed=proposed)
        moved = relocate(ctx.page, best, action, located)
        if isinstance(moved, str):
            return done(False, f"abstained: {moved}")
        other = rival(fp, moved.fingerprint)
        if other is not None:
            return done(False, f"abstained: the best candidate {best.description}: {other}")
        evidence["gate_result"] = gate_json(moved.gate)
        if moved.gate.box is not None:
            evidence["bounding_box"] = moved.gate.box.model_dump(mode="json")
        failed = moved.refused(action, ctx.failure.type)
        if failed is not None:
            return done(
                False,
                f"abstained: the best candidate {best.description} fails the {failed.name} "
                f"check: {failed.reason}",
            )
        dead = inoperable(ctx, moved.locator, moved.fingerprint)
        if dead is not None:
            return done(False, f"abstained: the best candidate {best.description}: {dead}")
        evidence["healed_locator"] = locator_json(moved.locator)
        return done(
            True,
            f"{best.description}: {verdict.reason}",
            found=(moved.locator, moved.fingerprint),
        )
