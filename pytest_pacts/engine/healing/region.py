"""A repair rung for region drift: the container the step names is gone (rung 2).

``Username@LoginForm`` was verified inside ``#login_form``; the next release renames the form
(``#auth-form``), so every locator scoped to it matches nothing, although the element itself
did not change. When the failing locator's region no longer resolves, the rung looks for the
element without the region:

1. **Agreement** (the multi-locator rule): the recorded locators (the failing one and its
   alternates) and those re-discovered by the step's own words are tried without the region;
   when at least two *independent* ones (different attribute sources: test id, name,
   placeholder, id/class) single out the same element, that element is the one if it is
   at least the threshold like the recorded element and more like it than any other (the
   two sources stand in for the evidence rule's margin, never its threshold;
   :mod:`.agreement`).
2. Otherwise each candidate alone (including re-discovery by name) must also match the
   recorded fingerprint above the heal threshold: a single source without its region is weak
   evidence (a renamed field's label can move to its neighbour).
3. Then the similarity rung over the whole page (the region to scope it to is gone), with
   the full abstain rule.
4. Last, when that abstains on look-alikes (three cards, each with its own "Refresh"), the
   container's *contents* decide: the renamed card still holds the same text around the
   element. Among the candidates within the margin of the best, exactly one may have the
   recorded neighbour text word for word (siblings and parent, ``Fingerprint.neighbour_text``);
   it must also pass the threshold, be anchored, fit the action, not be a rival and pass
   the gate. A removed element changes its container's text, and a look-alike added beside
   it changes both neighbourhoods, so neither passes.

Re-discovery without the region (steps 1 and 2) scans for the step's target with its region
in the same call. When the region's words still find a container with the element in it,
only the region's recorded rendering went away (a card whose class changed): that is not
region drift, the rung steps aside, and re-discovery (rung 3) uses that answer.

Every candidate is unique on the whole page, passes the five-point gate and agrees with the
fingerprint ranking (:func:`~pytest_pacts.engine.healing.intent.try_locators`); otherwise the
rung declines and the step fails with the reasons.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.discovery import Discoverer, UnrenderableLocator
from pytest_pacts.discovery.chain import apply
from pytest_pacts.discovery.render import frame_calls, region_calls
from pytest_pacts.discovery.step_values import values_of
from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing.agreement import (
    Agreement,
    held_to_evidence,
    known_locators,
    unscoped,
)
from pytest_pacts.engine.healing.agreement import agreed as agreed_on
from pytest_pacts.engine.healing.basics import action_of, first_line, locator_json
from pytest_pacts.engine.healing.intent import try_locators
from pytest_pacts.engine.healing.names import rival
from pytest_pacts.engine.healing.relocate import gate_json, relocate
from pytest_pacts.engine.healing.resolving import (
    Estimate,
    SentEstimates,
    resolved_key,
    send_estimates,
    send_singles_out,
    singled_out,
)
from pytest_pacts.engine.healing.scoring import ANCHOR_MIN, rank_page, top_lines
from pytest_pacts.engine.healing.similarity import SimilarityRung
from pytest_pacts.models import Target
from pytest_pacts.models.locator import GateSnapshot, Locator
from pytest_pacts.models.outcome import FailureType, HealRung
from pytest_pacts.models.requirement import Action
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.healing import count_matches, count_sent

# an unscoped candidate is a little less certain than the scoped one it replaces
UNSCOPED_FACTOR = 0.95
# the neighbour-text similarity (token Dice) that counts as the recorded surroundings
SAME_NEIGHBOURS = 0.999

Option = tuple[Locator, float, Mapping[str, object]]


def _region_gone(ctx: HealContext, locator: Locator, asked: bounded.Sent[Any] | None) -> bool:
    """True when no container on the page matches the locator's region any more (``asked``:
    the count :meth:`RegionDriftRung.send_ahead` sent for it)."""
    if locator.region is None:
        return False
    try:
        if asked is not None:
            return int(asked.result()) == 0
        return count_matches(ctx.page, "looking for the region", _region_of(ctx, locator)) == 0
    except (PlaywrightError, UnrenderableLocator):
        return False


def _region_of(ctx: HealContext, locator: Locator) -> PWLocator:
    assert locator.region is not None
    return apply(ctx.page, (*frame_calls(locator), *region_calls(locator.region)))


def _rediscovery_targets(ctx: HealContext) -> list[tuple[int, Target, Action]]:
    """What :meth:`RegionDriftRung._rediscover` scans for: the step's element without its
    region (0) and, when the step names one, with it (1)."""
    step = ctx.state.step
    assert step.target is not None
    targets = [(0, Target(element=step.target.element), step.action)]
    if step.target.region is not None:
        targets.append((1, step.target, step.action))
    return targets


class _RegionStillThere(Exception):
    """The step's region is found by its words, with the element in it (``_rediscover``)."""


class RegionDriftRung:
    """Find the element again without a vanished region; accept only on strong evidence."""

    name = HealRung.REPAIR
    reads_only = True

    def __init__(self, discoverer: Discoverer | None = None) -> None:
        self.discoverer = discoverer or Discoverer(measure_still=False)
        # what send_ahead sent at the start of a round (the region's count, the estimate of
        # the recorded locators without it), and for which round
        self._asked: tuple[HealContext, bounded.Sent[Any], SentEstimates] | None = None
        # the region's count read early (:meth:`region_gone`), for this round
        self._gone: tuple[HealContext, bool] | None = None

    def send_ahead(self, ctx: HealContext) -> None:
        """At the start of a round (the ladder calls it): send the count of the failing
        locator's region and the page's estimate of the recorded locators without it now,
        so their round trips overlap the rung before (every rung before this one only reads
        the page). A region still there wastes the estimate. Re-discovery's scan is not sent
        then: the page runs its calls one after another, so a scan the round does not read
        (the recorded locators agree by themselves) would cost its work and hold up the
        probe sent after it."""
        if self._asked is not None:
            self._asked[1].drop()
            self._asked[2].drop()
            self._asked = None
        self._gone = None
        current = ctx.state.locator
        if (
            current is None
            or current.region is None
            or ctx.failure.type is not FailureType.NOT_UNIQUE
        ):
            return
        try:
            count = count_sent(_region_of(ctx, current), "looking for the region")
        except UnrenderableLocator:
            return
        estimated = send_estimates(ctx, [loc for loc, _ in unscoped(known_locators(ctx), [])])
        self._asked = (ctx, count, estimated)

    def region_gone(self, ctx: HealContext) -> bool:
        """Whether the count :meth:`send_ahead` sent this round found no container for the
        failing locator's region (read once, kept for :meth:`attempt`). Then every locator
        inside that region matches nothing: Playwright looks for a chain's later parts only
        inside the elements of its first. ``False`` when it was not sent or failed."""
        asked, current = self._asked, ctx.state.locator
        if self._gone is None or self._gone[0] is not ctx:
            if asked is None or asked[0] is not ctx or current is None:
                return False
            self._gone = (ctx, _region_gone(ctx, current, asked[1]))
        return self._gone[1]

    def attempt(self, ctx: HealContext) -> RungResult | None:
        try:
            return self._attempt(ctx)
        except _RegionStillThere:
            return None  # not region drift: re-discovery finds the element within its region

    def _take_asked(
        self, ctx: HealContext
    ) -> tuple[HealContext, bounded.Sent[Any], SentEstimates] | None:
        """The page questions sent ahead for this context (dropped when they were sent for
        another one); they are asked once."""
        asked, self._asked = self._asked, None
        if asked is not None and asked[0] is not ctx:
            asked[1].drop()
            asked[2].drop()
            asked = None
        return asked

    # long because: the agreement tries (recorded locators alone, then with re-discovery's
    # pick) share the re-discovery, its gates and the page's estimates they build on demand
    def _attempt(self, ctx: HealContext) -> RungResult | None:
        current = ctx.state.locator
        sent = self._asked is not None and self._asked[0] is ctx
        gone = self.region_gone(ctx) if sent else None  # read once (the alternates may have)
        asked = self._take_asked(ctx)
        if (
            current is None
            or current.region is None
            or ctx.failure.type is not FailureType.NOT_UNIQUE
            or not (_region_gone(ctx, current, None) if gone is None else gone)
        ):
            if asked is not None:
                asked[2].drop()
            return None
        region = current.region.description
        known = known_locators(ctx)

        # The recorded locators alone, when every one that still singles out an element
        # singles out the same one from two independent sources: re-discovery (a scan of
        # the page) could only add the "name" source to that element, never outvote it,
        # unless the agreement needs re-discovery's pick to meet the evidence rule.
        rediscovered: list[Locator] | None = None
        failed = ""
        # the gate discovery measured on the element it found (try_locators reuses it)
        gated: dict[Locator, GateSnapshot] = {}
        # what the page estimated for each locator: the recorded ones are not sent twice
        estimates: dict[Locator, Estimate] = asked[2].result() if asked is not None else {}
        refused = ""
        # the recorded locators alone first; then with re-discovery's pick by the words
        for scanned in (False, True):
            if scanned and rediscovered is None:
                rediscovered, failed = self._rediscover(ctx, gated)
            extra = rediscovered if scanned and rediscovered else []
            agreed = agreed_on(ctx, known, extra, unanimous=not scanned, estimates=estimates)
            if agreed is None:
                continue
            result = self._try_agreed(ctx, agreed, region, gated)
            if result is None:  # the page's estimate and Playwright disagree: Playwright decides
                agreed = agreed_on(ctx, known, extra, unanimous=not scanned, in_page=False)
                result = self._try_agreed(ctx, agreed, region, gated) if agreed else None
            if result is not None and result.accepted and agreed is not None:
                # two sources stand in for the margin, never for the evidence rule
                refused = held_to_evidence(ctx, result, agreed) or ""
                if not refused:
                    return result
        if rediscovered is None:
            rediscovered, failed = self._rediscover(ctx, gated)

        notes: list[str] = [refused] if refused else []
        if failed:
            notes.append(failed)
        single = self._try_singles(ctx, known, rediscovered, region, gated, notes)
        if single is not None:
            return single
        return self._page_wide(ctx, region, notes)

    def _page_wide(self, ctx: HealContext, region: str, notes: list[str]) -> RungResult:
        """Last, similarity over the whole page (the region to scope it to is gone), with
        the full abstain rule: threshold, margin over the runner-up, type and gate; else the
        refusal, with why each earlier try was refused (``notes``)."""
        similar = self._similar_page_wide(ctx)
        if similar is not None and similar.accepted:
            return replace(similar, reason=f"region {region!r} is gone; {similar.reason}")
        if similar is not None:
            notes.append(f"similarity over the whole page: {similar.reason}")
            placed = self._same_surroundings(ctx, region)
            if isinstance(placed, RungResult):
                return placed
            if placed:
                notes.append(placed)
        return RungResult(
            self.name,
            False,
            f"region {region!r} is gone and nothing unique without it is clearly the recorded "
            "element: " + ("; ".join(notes) or "no candidate"),
            candidates=similar.candidates if similar is not None else (),
        )

    def _try_singles(
        self,
        ctx: HealContext,
        known: list[Locator],
        rediscovered: list[Locator],
        region: str,
        gated: dict[Locator, GateSnapshot],
        notes: list[str],
    ) -> RungResult | None:
        """One locator alone without the vanished region, each option in turn: accepted
        only when the element it singles out is the recorded one at least at the threshold
        (a candidate below it is not gated). Why each was refused goes to ``notes``."""
        current = ctx.state.locator
        what = f"locator without the vanished region {region!r}"
        for option in self._single_options(known, rediscovered, region):
            # accepted only above the heal threshold: a candidate below it is not gated
            result = try_locators(
                ctx,
                self.name,
                [option],
                what,
                gated=gated,
                gone=current,
                min_score=ctx.options.evidence.floor,
            )
            if result is None:
                continue
            if not result.accepted:
                notes.append(result.reason)
                continue
            score = result.evidence.get("fingerprint_score")
            if not isinstance(score, float):
                notes.append(f"{option[0].describe()}: no fingerprint to compare with")
                continue
            if ctx.options.evidence.meets_threshold(score):
                return result
            runner = result.runner_up_score
            notes.append(
                f"{option[0].describe()}: matches the recorded element only at {score:.2f} "
                f"(runner-up {runner if runner is not None else 0:.2f}; needs at least "
                f"{ctx.options.evidence.threshold:.2f}, or two independent locators agreeing)"
            )
        return None

    def _try_agreed(
        self,
        ctx: HealContext,
        agreed: Agreement,
        region: str,
        gated: dict[Locator, GateSnapshot],
    ) -> RungResult | None:
        """The agreed locator tried as a candidate (unique, gated, agreeing with the
        fingerprint); ``None`` when what the page estimated is not what Playwright finds
        (the caller then asks Playwright about every locator)."""
        asked: bounded.Sent[Any] | None = None
        if agreed.confirm:
            if agreed.element is None:
                return None
            # asked now, read after the agreed locator's own check: the two round trips
            # overlap, and a "no" refuses the agreement as before the check
            asked = send_singles_out(ctx, agreed.confirm, agreed.element)
            if asked is None:
                return None
        locator = agreed.locator
        sources = sorted(agreed.sources)
        extra = {"region_gone": region, "agreeing_sources": ", ".join(sources)}
        option: Option = (locator, locator.confidence * UNSCOPED_FACTOR, extra)
        expect = {locator: agreed.element} if agreed.estimated and agreed.element else {}
        # The gate discovery measured on the element it re-discovered holds for the agreed
        # locator when Playwright resolves both to that element: the agreed locator is the
        # re-discovered one, or the re-discovered one is among the locators whose union
        # Playwright resolves to exactly the agreed element (``asked``, read before the
        # result counts), which ``expect`` makes the agreed locator's own.
        for rediscovered, gate in list(gated.items()):
            if locator == rediscovered or (expect and rediscovered in agreed.confirm):
                gated = {**gated, locator: gate}
        what = f"locator without the vanished region {region!r}"
        try:
            result = try_locators(
                ctx, self.name, [option], what, gated=gated, expect=expect, gone=ctx.state.locator
            )
        except BaseException:
            if asked is not None:
                asked.drop()
            raise
        if asked is not None and not singled_out(asked):
            return None
        if agreed.estimated and (result is None or not result.accepted):
            found = ctx.resolved.get(resolved_key(locator, ctx.state.fingerprint))
            fp = found.fingerprint if found is not None else None
            if found is not None and (fp is None or fp.model_dump_json() != agreed.fingerprint):
                return None
        return result

    def _same_surroundings(self, ctx: HealContext, region: str) -> RungResult | str:
        """Step 4 of the module doc: the one near-tied candidate whose neighbour text is the
        recorded one, or why there is none (empty when nothing was close)."""
        fp = ctx.state.fingerprint
        if fp is None or not fp.neighbour_text:
            return ""
        options, action = ctx.options, action_of(ctx)
        ranking = rank_page(ctx.page, fp, action, limit=5)
        best = ranking.best
        if best is None:
            return ""
        rule = options.evidence
        close = [s for s in ranking.ranked if not rule.clears_margin(best.score, s.score)]
        same = [s for s in close if s.parts.get("neighbours", 0.0) >= SAME_NEIGHBOURS]
        if len(same) != 1:
            return ""
        chosen = same[0]
        others = [s.score for s in ranking.ranked if s is not chosen]
        if not rule.meets_threshold(chosen.score) or chosen.anchor < ANCHOR_MIN or not chosen.fits:
            return f"{chosen.description} has the recorded surroundings but fails the abstain rule"
        moved = relocate(ctx.page, chosen, action)
        if isinstance(moved, str):
            return f"{chosen.description} has the recorded surroundings: {moved}"
        other = rival(fp, moved.fingerprint)
        failed = moved.refused(action, ctx.failure.type)
        if other is not None or failed is not None:
            why = other or (failed.reason if failed else "")
            return f"{chosen.description} has the recorded surroundings, but {why}"
        evidence: dict[str, object] = {
            "region_gone": region,
            "how": "the only near-tied candidate with the recorded neighbour text",
            "considered": ranking.considered,
            "top_candidates": top_lines(ranking.ranked),
            "gate_result": gate_json(moved.gate),
            "healed_locator": locator_json(moved.locator),
        }
        return RungResult(
            self.name,
            True,
            f"region {region!r} is gone; {chosen.description} is the only one of "
            f"{len(close)} near-tied candidates whose surroundings are the recorded ones",
            locator=moved.locator,
            fingerprint=moved.fingerprint,
            score=chosen.score,
            runner_up_score=max(others, default=None),
            candidates=ranking.candidates(),
            evidence=evidence,
        )

    @staticmethod
    def _similar_page_wide(ctx: HealContext) -> RungResult | None:
        step = ctx.state.step
        if step.target is None:
            return None
        unscoped_step = step.model_copy(update={"target": Target(element=step.target.element)})
        state = replace(ctx.state, step=unscoped_step)
        return SimilarityRung().attempt(replace(ctx, state=state, round_results=[]))

    def _rediscover(
        self, ctx: HealContext, gated: dict[Locator, GateSnapshot]
    ) -> tuple[list[Locator], str]:
        """The element found again by the step's own words, without the region; the gate
        discovery measured on it goes into ``gated``.

        The same scan also looks for the step's target with its region, and leaves that
        answer for re-discovery (``ctx.rediscovered``). When the region's words still find
        a container with the element in it, only the recorded rendering of the region is
        gone, not the region: :class:`_RegionStillThere` ends this rung, and re-discovery
        (rung 3) heals within the region without scanning again."""
        if ctx.state.step.target is None:
            return [], ""
        try:
            step = ctx.state.step
            answers = self.discoverer.under(ctx.options.evidence).discover(
                ctx.page,
                _rediscovery_targets(ctx),
                at_turn=2,
                values=values_of([(0, step), (1, step)]),
            )
        except PlaywrightError as exc:
            return [], f"re-discovery without the region failed: {first_line(exc)}"
        found, within = answers[0], answers.get(1)
        if within is not None:
            ctx.rediscovered = within
            if within.locator is not None:
                raise _RegionStillThere
        if found.locator is None:
            return [], ""
        if found.gate is not None:
            gated[found.locator] = found.gate
        return [found.locator, *found.alternates], ""

    @staticmethod
    def _single_options(
        known: list[Locator], rediscovered: list[Locator], region: str
    ) -> list[Option]:
        options: list[Option] = [
            (loc.model_copy(update={"region": None}), loc.confidence * UNSCOPED_FACTOR,
             {"region_gone": region, "how": "same locator without the region"})
            for loc in dict.fromkeys(known)
            if loc.region is not None
        ]  # fmt: skip
        options.extend(
            (loc, loc.confidence * UNSCOPED_FACTOR,
             {"region_gone": region, "how": "re-discovered by name"})
            for loc in rediscovered
        )  # fmt: skip
        return options
