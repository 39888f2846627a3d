"""The healing ladder: rungs in order, one round per call, the abstain rule.

Usage by the executor (one ladder per requirement run; the extension budget is per run)::

    ladder = HealingLadder(store=store, proposals=sink, extensions=hook_healers)
    attempt, result = ladder.heal(ctx)          # one round, recorded as a HealAttempt
    if result is not None:                      # a new locator, or the page repaired
        ok = retry(result.locator or ctx.state.locator)
        if ok:
            attempt = ladder.confirm(ctx, attempt, result)   # memory + proposal
        else:
            ladder.reject(ctx, attempt, result)

Rungs are tried cheapest and most deterministic first; the first that accepts ends the
round. What a rung found by re-discovering the step's target (``HealContext.rediscovered``)
is left for the rungs after it, until one that may have changed the page answers: a rung
that only reads the page says so (``reads_only = True``), and one that does not apply
(answers ``None``) changed nothing.

A rung whose fix was already tried for the same failure of this step (its retry failed) is
skipped in later rounds, so a round never repeats a failed fix. A rung may also
have a ``send_ahead(ctx)`` method, called at the start of the round: page reads it sends
then (``runtime.bounded.send``) overlap the rungs before it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery import Discoverer, UnrenderableLocator
from pytest_pacts.engine.contracts import ExtensionHealer, HealContext, Rung, RungResult
from pytest_pacts.engine.healing.alternate import AlternateRung
from pytest_pacts.engine.healing.basics import element_key, first_line, locator_json
from pytest_pacts.engine.healing.extension import ExtensionRung
from pytest_pacts.engine.healing.human import HumanRung
from pytest_pacts.engine.healing.memory import MemoryRung
from pytest_pacts.engine.healing.record import (
    RecipeSource,
    proposal_for,
    remember,
    with_proposal,
)
from pytest_pacts.engine.healing.rediscovery import RediscoveryRung
from pytest_pacts.engine.healing.region import RegionDriftRung
from pytest_pacts.engine.healing.repair import RepairRung
from pytest_pacts.engine.healing.resolving import resolve
from pytest_pacts.engine.healing.scoring import ANCHOR_MIN
from pytest_pacts.engine.healing.similarity import SimilarityRung
from pytest_pacts.governance import HealSite, deployment_of
from pytest_pacts.models.outcome import HealAttempt, HealRung
from pytest_pacts.models.recipe import Recipe
from pytest_pacts.runtime.healing import install_early

if TYPE_CHECKING:
    from pytest_pacts.engine.ports import HealStore, ProposalSink


def default_rungs(
    store: HealStore | None = None,
    extensions: Sequence[ExtensionHealer] = (),
    discoverer: Discoverer | None = None,
    human: HumanRung | None = None,
) -> list[Rung]:
    """The eight rungs, in order: the seven of docs/healing.md, with region-drift repair (a
    repair of rung 2 for a container that vanished) right after the alternates."""
    # re-discovery's locator is gated again right before the action: its snapshot need not
    # spend two animation frames on "stable" first
    found = discoverer or Discoverer(measure_still=False)
    regions = RegionDriftRung(found)
    return [
        AlternateRung(regions),
        regions,
        RepairRung(found),
        RediscoveryRung(found),
        MemoryRung(store),
        SimilarityRung(),
        ExtensionRung(extensions),
        human or HumanRung(),
    ]


def mark_impostor(ctx: HealContext) -> None:
    """The cached locator now finds another element (the gate's identity check): make that
    element a rival of the recorded one, so no rung heals back to it ("#submit" was "Save",
    is now "Delete": a similarity or an id alternate would otherwise take it for the same
    button). Healing's text similarity judges, synonyms included: an element whose name is
    a known rewording of the recorded one ("Log in" -> "Sign in") is not marked and may still
    be healed to, nor is an element with exactly the recorded name (another kind of control,
    told apart by the gate's kind check and the fingerprint's ranking, not by its name)."""
    state = ctx.state
    if state.locator is None or state.fingerprint is None:
        return
    found = resolve(ctx.page, state.locator, state.fingerprint)
    similar = found.name_similarity
    if found.fingerprint is None or similar is None or similar >= ANCHOR_MIN:
        return
    name = " ".join(found.fingerprint.accessible_name.split()).lower()
    if name and name == " ".join(state.fingerprint.accessible_name.split()).lower():
        # The same name on another kind of control (Django's search box and its "Search"
        # button): the kind tells them apart, the name does not. Marking the name would
        # also refuse the recorded element itself wherever it still is.
        return
    if name and name not in state.fingerprint.rivals:
        rivals = (*state.fingerprint.rivals, name)
        state.fingerprint = state.fingerprint.model_copy(update={"rivals": rivals})


class HealingLadder:
    """The :class:`~pytest_pacts.engine.contracts.Healer` (docs/healing.md).

    ``store`` (optional) enables healing memory; ``proposals`` (optional) gates and keeps a
    heal proposal for every confirmed heal (the application layer builds it over
    governance); ``recipes`` gives the recipe a proposal patches (default:
    ``Recipe.from_plan``); ``extensions`` are the
    external healers of rung 6; ``rungs`` replaces the whole ladder (tests, plugins);
    ``deployment`` is the base URL the run drives (default: the page's origin), recorded
    with each proposal's occurrence.
    """

    def __init__(
        self,
        *,
        store: HealStore | None = None,
        proposals: ProposalSink | None = None,
        recipes: RecipeSource | None = None,
        extensions: Sequence[ExtensionHealer] = (),
        rungs: Sequence[Rung] | None = None,
        human: HumanRung | None = None,
        clock: Callable[[], float] = time.perf_counter,
        deployment: str = "",
    ) -> None:
        self.store = store
        self.proposals = proposals
        # the base URL the run drives: a proposal's occurrence names where it was healed
        self.deployment = deployment
        self._heal_urls: dict[tuple[int, int], str] = {}
        self.recipes: RecipeSource = recipes or Recipe.from_plan
        self.rungs: tuple[Rung, ...] = tuple(
            rungs if rungs is not None else default_rungs(store, extensions, human=human)
        )
        self.clock = clock

    def heal(self, ctx: HealContext) -> tuple[HealAttempt, RungResult | None]:
        start = self.clock()
        install_early(ctx.page)
        # the page the element was healed on: by confirm() the action may have navigated
        self._heal_urls[(ctx.state.step.index, ctx.round)] = ctx.page.url
        ctx.round_results.clear()
        ctx.resolved.clear()
        ctx.rediscovered = None
        if ctx.failure.cause == "identity_changed":
            mark_impostor(ctx)
        self._send_ahead(ctx)
        for rung in self.rungs:
            if self._spent(ctx, rung):
                continue
            # a rung before this one may have changed the page, and a page changes by itself
            # too (a menu still opening): a rung's answers are kept for that rung only
            ctx.resolved.clear()
            try:
                result = rung.attempt(ctx)
            except (PlaywrightError, UnrenderableLocator) as exc:
                # the executor never raises from its internals: a rung that
                # breaks declines, and the reason says how
                result = RungResult(rung.name, False, f"error: {first_line(exc)}")
            if result is None:
                continue  # the rung does not apply: it left the page alone
            if not getattr(rung, "reads_only", False):
                ctx.rediscovered = None  # found on the page as it was before this rung
            ctx.round_results.append(result)
            if result.accepted:
                break
        accepted = next((r for r in ctx.round_results if r.accepted), None)
        attempt = self._attempt(ctx, accepted, (self.clock() - start) * 1000)
        return attempt, accepted

    def confirm(self, ctx: HealContext, attempt: HealAttempt, result: RungResult) -> HealAttempt:
        """The retried action succeeded: adopt the heal for the rest of the run, remember it
        with evidence, and record a gated heal proposal."""
        return self.confirm_later(ctx, attempt, result)()

    def confirm_later(
        self, ctx: HealContext, attempt: HealAttempt, result: RungResult
    ) -> Callable[[], HealAttempt]:
        """:meth:`confirm` in two parts: the heal adopted for the rest of the run now, and
        the returned call that writes healing memory and the heal proposal (the recipe's
        diff and the store's writes) and returns the attempt with the proposal. That call
        reads no page (what it needs of the page is read now), so the run makes it off the
        step's path (``engine/confirming.py``)."""
        # the locator that failed, as recorded by heal(): the executor may already have put
        # the new one into the step's state
        old = attempt.old_locator or ctx.state.locator
        if result.locator is not None:
            state = ctx.state
            state.alternates = tuple(a for a in state.alternates if a != result.locator)
            state.locator = result.locator
            if result.fingerprint is not None:
                state.fingerprint = result.fingerprint
        url = ctx.page.url  # the page after the retried action, as the evidence has it
        healed_at = self._heal_urls.pop((ctx.state.step.index, ctx.round), url)

        def write() -> HealAttempt:
            if self.store is not None and result.locator is not None and old is not None:
                remember(self.store, ctx, result, locator_json(old), url)
            if self.proposals is None:
                return attempt
            site = HealSite(
                deployment=self.deployment or deployment_of(None, url),
                url=healed_at,
                screenshots={
                    "screenshot_before": attempt.screenshot_before or "",
                    "screenshot_after": attempt.screenshot_after or "",
                },
            )
            proposal = proposal_for(self.proposals, self.recipes, ctx, result, old, site, url)
            return attempt if proposal is None else with_proposal(attempt, proposal)

        return write

    def reject(self, ctx: HealContext, attempt: HealAttempt, result: RungResult) -> None:
        """The retried action failed: a remembered locator loses confidence."""
        if self.store is not None and result.locator is not None:
            self.store.healing.record_failure(
                element_key(ctx), locator_json(result.locator), req_id=ctx.plan.req_id
            )

    # -- internals ---------------------------------------------------------------------

    def _send_ahead(self, ctx: HealContext) -> None:
        """Rungs with a ``send_ahead(ctx)`` method send the page reads they will need now,
        so their round trips overlap the rungs before them (region drift's region count)."""
        for rung in self.rungs:
            send = getattr(rung, "send_ahead", None)
            if send is None or self._spent(ctx, rung):
                continue
            try:
                send(ctx)
            except PlaywrightError:
                continue  # the rung asks again itself

    @staticmethod
    def _spent(ctx: HealContext, rung: Rung) -> bool:
        return any(
            a.rung is rung.name and a.accepted and a.failure is ctx.failure.type
            for a in ctx.attempts
        )

    def _attempt(self, ctx: HealContext, accepted: RungResult | None, ms: float) -> HealAttempt:
        results = ctx.round_results
        shown: RungResult | None = accepted
        if accepted is not None:
            reason = accepted.reason
        else:
            # the most informative "no": the one that weighed candidates, else the last
            with_candidates = [r for r in results if r.candidates]
            shown = with_candidates[-1] if with_candidates else (results[-1] if results else None)
            reason = "; ".join(f"{r.rung.value}: {r.reason}" for r in results) or (
                "no healing rung applies to this failure"
            )
        return HealAttempt(
            round=ctx.round,
            rung=shown.rung if shown else HealRung.HUMAN,  # the last rung: nothing applied
            accepted=accepted is not None,
            reason=reason,
            failure=ctx.failure.type,
            old_locator=ctx.state.locator,
            new_locator=accepted.locator if accepted else None,
            score=shown.score if shown else None,
            runner_up_score=shown.runner_up_score if shown else None,
            basis=accepted.basis if accepted else None,
            candidates=shown.candidates if shown else (),
            screenshot_before=ctx.screenshot_before,
            duration_ms=round(ms, 1),
        )
