"""Region drift's agreement: independent locators that single out one element once the
step's vanished region is dropped (docs/healing.md, "Region drift").

Two locators reading different attributes (a test id, a name, a placeholder, an id or class)
that find the same element are two sources of evidence, held to the evidence rule
(:func:`held_to_evidence`): they stand in for its margin, never for its threshold
(:meth:`EvidenceRule.corroborated <pytest_pacts.models.evidence.EvidenceRule.corroborated>`:
the agreed element must be at least the threshold like the recorded one, and more like it
than any other element), unless one of them is re-discovery's own pick by the step's words,
which discovery accepted under the rule itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing.resolving import Element, Estimate, estimate_all, resolve
from pytest_pacts.models.locator import Locator, Strategy

# Locators that read the same attribute are one piece of evidence, not several: a field's
# label gives both its label locator and its role+name locator.
SOURCE = {
    Strategy.TEST_ID: "test id",
    Strategy.LABEL: "name",
    Strategy.ROLE_NAME: "name",
    Strategy.ARIA: "name",
    Strategy.TEXT: "name",
    Strategy.PLACEHOLDER: "placeholder",
    Strategy.CSS: "id/class",
}


@dataclass
class Agreement:
    """Locators that single out one element once the vanished region is dropped.

    ``locator`` is the one to use; ``sources`` the independent sources that agree. When the
    page estimated what they resolve to (:func:`~.resolving.estimate_all`), ``element`` is
    the element it chose and ``fingerprint`` its fingerprint then, and ``confirm`` lists the
    other sources' estimated locators whose union Playwright must resolve to that element
    alone (:func:`~.resolving.singles_out`) before the agreement counts; ``locator`` itself
    is resolved by Playwright when it is tried."""

    locator: Locator
    sources: set[str] = field(default_factory=set)
    element: Element | None = None
    fingerprint: str = ""
    estimated: bool = False  # ``locator`` itself was estimated in the page
    checked: set[str] = field(default_factory=set)  # sources Playwright resolved
    members: list[tuple[Locator, str, Element | None]] = field(default_factory=list)
    # one member is re-discovery's pick by the step's words (held to discovery's rule)
    discovered: bool = False

    @property
    def confirm(self) -> list[Locator]:
        first = self.members[0][1]
        if len(self.checked | {first}) >= 2:
            return []
        return [loc for loc, source, element in self.members if element and source != first]


def known_locators(ctx: HealContext) -> list[Locator]:
    """The step's recorded locators: the failing one and its alternates."""
    state = ctx.state
    known = [state.locator, *state.alternates] if state.locator is not None else []
    if state.discovery is not None:
        known.extend(state.discovery.alternates)
    return known


def unscoped(known: list[Locator], rediscovered: list[Locator]) -> list[tuple[Locator, str]]:
    """The recorded and re-discovered locators without their region, each with its source
    (:data:`SOURCE`; a strategy with none is left out)."""
    # everything re-discovery returns was found through the step's words: one source,
    # however many renderings of that element it offers
    sourced = [(loc, SOURCE.get(loc.strategy)) for loc in dict.fromkeys(known)]
    sourced += [(loc, "name") for loc in rediscovered]
    return [
        (loc.model_copy(update={"region": None}), source)
        for loc, source in sourced
        if source is not None
    ]


def agreed(
    ctx: HealContext,
    known: list[Locator],
    rediscovered: list[Locator],
    *,
    unanimous: bool = False,
    in_page: bool = True,
    estimates: dict[Locator, Estimate] | None = None,
) -> Agreement | None:
    """The element that at least two independent locators (the recorded ones and those
    re-discovered by the step's words) single out once the vanished region is dropped,
    and the locator to use for it. ``unanimous``: only when no locator singles out
    another element. ``in_page``: what they resolve to is estimated in the page in one
    round trip (:class:`Agreement` says what Playwright must still confirm); otherwise
    Playwright resolves each, one round trip apiece. ``estimates`` keeps the page's
    answers across calls (only the locators it has no answer for are sent)."""
    pairs = unscoped(known, rediscovered)
    picked = {loc.model_copy(update={"region": None}) for loc in rediscovered}
    estimates = _estimated(ctx, [loc for loc, _ in pairs], estimates, in_page=in_page)
    groups: dict[str, Agreement] = {}
    for loc, source in pairs:
        estimate = estimates.get(loc)
        if estimate is not None:
            found = estimate.found
        else:
            found = resolve(ctx.page, loc, ctx.state.fingerprint, ctx.resolved)
        if found.count != 1 or found.fingerprint is None:
            continue
        key = found.fingerprint.model_dump_json()
        group = groups.get(key)
        if group is None:
            group = groups[key] = Agreement(loc, fingerprint=key)
            group.estimated = estimate is not None
        element = estimate.element if estimate is not None else None
        group.element = group.element or element
        group.sources.add(source)
        if element is None:
            group.checked.add(source)
        group.members.append((loc, source, element))
        group.discovered = group.discovered or loc in picked
    if unanimous and len(groups) != 1:
        return None
    best = max(groups.values(), key=lambda group: len(group.sources), default=None)
    if best is None or len(best.sources) < 2:
        return None
    return best


def _estimated(
    ctx: HealContext,
    locators: list[Locator],
    kept: dict[Locator, Estimate] | None,
    *,
    in_page: bool,
) -> dict[Locator, Estimate]:
    """The page's estimates for ``locators``, asked in one round trip for those ``kept``
    has no answer for (``kept`` is updated); none when Playwright resolves each itself."""
    if not in_page:
        return {}
    estimates = {} if kept is None else kept
    estimates.update(estimate_all(ctx, [loc for loc in locators if loc not in estimates]))
    return estimates


def held_to_evidence(ctx: HealContext, result: RungResult, agreement: Agreement) -> str | None:
    """Why an agreed element is refused under the evidence rule, or ``None`` when it holds.

    It holds when the element is the recorded one by identity, corroborated (its similarity
    to the recorded element reaches the threshold and no other element is as similar:
    :meth:`EvidenceRule.corroborated`), or when one of the agreeing locators is
    re-discovery's pick by the step's words, which discovery accepted under the rule itself
    (its confidence at least the threshold, the margin over the runner-up); the fingerprint
    then only has to not contradict it, as for re-discovery (rung 3)."""
    score = result.evidence.get("fingerprint_score")
    rule = ctx.options.evidence
    runner_up = result.runner_up_score
    if isinstance(score, float) and rule.corroborated(score, runner_up):
        return None
    if agreement.discovered:
        return None
    if not isinstance(score, float):
        return "no recorded fingerprint to tell the agreed element is the recorded one"
    if not rule.meets_threshold(score):
        return (
            f"the recorded locators agree, but the element matches the recorded one only at "
            f"{score:.2f} (below the threshold {rule.threshold:.2f}) and the step's words do "
            "not single it out without the region"
        )
    return (
        f"the recorded locators agree, but another element is as like the recorded one "
        f"({runner_up:.2f} against {score:.2f}) and the step's words do not single it out "
        "without the region"
    )
