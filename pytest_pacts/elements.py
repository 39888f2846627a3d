"""Discovery and healing as two library calls, for a hand-written Playwright test or a tool.

- :func:`discover_element`: find ``Element@Region`` for an action on a page as it is now,
  verified through Playwright (the same discovery a requirement's steps get);
- :func:`relocate_element`: given what discovery recorded (a :class:`DiscoveryResult`),
  find that element again on a page that may have changed since, or abstain.

Both only read the page: nothing is clicked, typed, dismissed or stored, and every page call
is bounded by ``timeout_ms`` (a page that hangs past it is closed and
:class:`~pytest_pacts.runtime.bounded.PageUnresponsive` is raised, as in a run).
See docs/api.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.discovery import Discoverer, UnrenderableLocator, check_actionable, to_playwright
from pytest_pacts.discovery.payloads import RankResult, checked
from pytest_pacts.discovery.render import elements_frame, page_query
from pytest_pacts.engine.contracts import EngineOptions, HealContext, Rung, RungResult, StepState
from pytest_pacts.engine.env import PAGE_SCRIPT, EnvMonitor, watch_changes
from pytest_pacts.engine.gate import IN_PAGE_RULE, blocking_point, run_gate
from pytest_pacts.engine.healing import (
    AlternateRung,
    HealingLadder,
    RediscoveryRung,
    SimilarityRung,
)
from pytest_pacts.engine.healing.region import RegionDriftRung
from pytest_pacts.engine.healing.relocate import locate_arg
from pytest_pacts.engine.healing.scoring import Ranking, new_heal_id, rank_arg, ranking_of
from pytest_pacts.engine.identity import identity_of
from pytest_pacts.engine.waiting import READY_CAP_MS, now_ms
from pytest_pacts.models import Action, Plan, Requirement, SourceRef, Step, Target
from pytest_pacts.models.evidence import DEFAULT_MARGIN, DEFAULT_THRESHOLD, EvidenceRule
from pytest_pacts.models.locator import (
    Candidate,
    DiscoveryResult,
    Fingerprint,
    GateSnapshot,
    Locator,
)
from pytest_pacts.models.outcome import HealRung
from pytest_pacts.planner.steps import parse_action, parse_target
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.healing import find_check_and_rank, install_early
from pytest_pacts.runtime.same_source import run_as_init_script
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS

__all__ = ["RelocatedElement", "discover_element", "relocate_element"]

_SOURCE = SourceRef(path="<pytest_pacts.elements>")


def discover_element(
    page: Page, element: str, action: str = "click", *, timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS
) -> DiscoveryResult:
    """Discover ``element`` (``"Login"``, ``"Username@LoginForm"``) for ``action`` on ``page``.

    The page is read as it is now, in one in-page scan per frame; the chosen locator is
    verified through Playwright (exactly one element) and measured by the five-point gate.
    The result says what was found (``locator``, ``alternates``, ``fingerprint``, ``gate``)
    or why nothing was (``unresolved``, with the closest candidates); ``result.ok`` means
    found *and* actionable. Keep the result to :func:`relocate_element` it later.

    Raises :class:`~pytest_pacts.planner.steps.StepSyntaxError` for an empty element or an
    unknown action, ``ValueError`` for an action without an element (``goto``).
    """
    target = parse_target(element)
    verb = parse_action(action)
    # the page's next documents get the in-page APIs from their first moment (init scripts,
    # once per page): a later relocate_element there neither sends the healing code nor adds
    # it (a trade-off measured in docs/benchmarks.md, "The relocation call and the first heal")
    if watch_changes(page):  # and the open document's copy compiled as later ones will be
        run_as_init_script(page, PAGE_SCRIPT)
    install_early(page)
    with bounded.budget(timeout_ms):
        # the page as it is now, for an action taken next: keyboard focus is evidence for a key
        return Discoverer().discover(page, [(0, target, verb)], at_turn=True)[0]


@dataclass(frozen=True)
class RelocatedElement:
    """Where a recorded element is now, or why it was not found again.

    ``locator`` is the recorded one when it still finds the same, actionable element
    (``moved`` false, ``rung`` ``None``); a new verified locator when the element was found
    again (``moved`` true, ``rung`` names how: ``alternate``, ``repair`` for a renamed
    region, ``rediscovery`` or ``similarity``); ``None`` when the ladder abstained rather
    than risk the wrong element. ``reason`` says which, in words; ``score`` and
    ``runner_up_score`` are the similarity scores when candidates were weighed.
    """

    locator: Locator | None
    fingerprint: Fingerprint | None
    moved: bool
    rung: HealRung | None
    reason: str
    score: float | None = None
    runner_up_score: float | None = None
    candidates: tuple[Candidate, ...] = ()

    @property
    def found(self) -> bool:
        return self.locator is not None


_GATE_MS = 1_500.0  # how long relocate_element re-checks the recorded locator
_RANK = "the in-page healing 'rank' call, answered with the check"


IN_PAGE = True
"""Whether :func:`relocate_element` resolves a recorded locator the page can resolve exactly
as Playwright does in the page itself, with its check, in one ``Frame.evaluate`` (issue
40); ``False``: it is checked through Playwright's selector engine, as before (for the
benchmarks that compare the two: ``bench/realapps/profile_relocation.py --paired``)."""

IN_PAGE_RANK = True
"""Whether that call also ranks the page when the locator finds nothing (the similarity
rung's ranking, decided in Python under the same evidence rule, then one verification of
the best candidate's rendering, resolved by the page itself where it resolves it as
Playwright does: ``relocate._on_rendering``); where that does not accept, the ladder runs
as before. ``False``: the check alone, then the ladder (for the benchmarks that compare the
two; docs/benchmarks.md, "2026-11-30: a drifted relocation in two plain page calls")."""


@dataclass(frozen=True)
class _FirstCheck:
    """The recorded locator's check (with its round trip, ms) and, when it matched no element
    or several on a page healing saw settled, that page's ranking against the recorded
    fingerprint and its best candidate's renderings, answered by the same round trip."""

    snapshot: GateSnapshot
    took_ms: float
    ranking: Ranking | None = None
    located: object = None


def _rank_arg(
    page: Page, recorded: DiscoveryResult, action: Action, query: dict[str, object]
) -> tuple[dict[str, object] | None, bool]:
    """What the one call ranks when the recorded locator fails, as the similarity rung
    would: the page (of one frame: the rung ranks every same-origin frame) against the
    recorded fingerprint; for a step with a region, inside the recorded locator's region
    (the containers the page found it in, ``query["within"]``: the first the rung looks
    up, ``scoring.region_scope``), or by the region's words alone where they are gone and no
    recorded locator names another region (the second item). ``None``: the check alone (a
    region step whose locator names no region: the rung finds it through Playwright)."""
    if recorded.fingerprint is None or len(page.frames) != 1:
        return None, False
    rank = rank_arg(new_heal_id(), recorded.fingerprint, action.value)
    if recorded.region is None:
        return rank, False
    if query.get("within") is None:
        return None, False
    rank["region_text"] = recorded.region
    regions = {
        loc.region.model_dump_json()
        for loc in (recorded.locator, *recorded.alternates)
        if loc is not None and loc.region is not None
    }
    return rank, len(regions) == 1


def _first_check(
    page: Page,
    recorded: DiscoveryResult,
    action: Action,
    identity: dict[str, object],
    threshold: float,
) -> _FirstCheck | None:
    """The recorded locator checked with its identity in one round trip, with no listener
    on the page; ``None`` when it could not be checked. "Stable" is not measured: Playwright
    checks it right before it acts. Whether the page is settled is read from its change watch
    (``js/watch.js``, there from each document's first moment since :func:`discover_element`):
    a page seen drawn twice with no DOM change answers at once, without watching two more
    animation frames; any quiet spell counts (``since=0``: this call acts on nothing).
    Where the watch cannot tell, the check watches two frames, as the gate's first does.

    A CSS or test-id locator (``render.page_query``) is resolved by the document itself, in
    one ``Frame.evaluate`` (no selector work of Playwright's: on a new document its first
    query builds its selector code, 25-100 ms), and when it matches no element or several,
    the same round trip ranks the settled page and renders its best candidate when it scores
    at least ``threshold`` (``runtime.healing.find_check_and_rank``). Any other locator, a
    page that cannot resolve it as Playwright would, or one without the in-page code, is
    checked through Playwright alone."""
    locator = recorded.locator
    assert locator is not None  # relocate_element's precondition
    query = page_query(locator) if IN_PAGE else None
    try:
        if query is not None:
            found = _in_page_check(page, recorded, action, identity, threshold, query)
            if found is not None:
                return found
        sent = now_ms()
        snapshot = check_actionable(
            to_playwright(page, locator), action, in_shadow=locator.in_shadow,
            identity=identity, still=False, rule=IN_PAGE_RULE,
            frame=elements_frame(page, locator), since=0.0,
        )  # fmt: skip
    except (PlaywrightError, UnrenderableLocator):
        return None
    return _FirstCheck(snapshot, now_ms() - sent)


def _in_page_check(
    page: Page,
    recorded: DiscoveryResult,
    action: Action,
    identity: dict[str, object],
    threshold: float,
    query: dict[str, object],
) -> _FirstCheck | None:
    """:func:`_first_check`'s one ``Frame.evaluate``: the document resolves ``query``,
    checks it, and ranks when asked; ``None`` when the page could not answer it (the caller
    then checks through Playwright)."""
    assert recorded.locator is not None
    rank, text_if_none = _rank_arg(page, recorded, action, query) if IN_PAGE_RANK else (None, False)
    heal_id = str(rank["heal_id"]) if rank is not None else new_heal_id()
    check: dict[str, object] = {
        "action": action.value, "in_shadow": recorded.locator.in_shadow, "regions": [],
        "identity": identity, "since": 0.0, "still": False, "rule": IN_PAGE_RULE,
    }  # fmt: skip
    locate = {**locate_arg(heal_id, 0), "min_score": threshold}
    sent = now_ms()
    answer = find_check_and_rank(page.main_frame, query, check, rank, locate, text_if_none)
    if answer is None:
        return None
    took = now_ms() - sent
    snapshot = GateSnapshot.model_validate(answer["check"])
    raw = answer.get("ranking")
    if raw is None:
        return _FirstCheck(snapshot, took)
    ranking = checked(raw, RankResult, _RANK)
    ranked = ranking_of(page.main_frame, (), heal_id, ranking)
    return _FirstCheck(snapshot, took, ranked, answer.get("best"))


def _passes(snapshot: GateSnapshot, action: Action) -> bool:
    return snapshot.changed is None and blocking_point(snapshot, action) is None


def _gate_may_reuse(snapshot: GateSnapshot) -> bool:
    """A failing first check the gate can take as its own first: no element, several, or
    another element than the recorded one (a check measuring "stable" finds the same)."""
    return snapshot.count != 1 or snapshot.changed is not None


# long because: the library entry point's whole ladder in order: gate, rungs, verdict; a public
# sequence
def relocate_element(
    page: Page,
    recorded: DiscoveryResult,
    *,
    heal_threshold: float = DEFAULT_THRESHOLD,
    heal_margin: float = DEFAULT_MARGIN,
    timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS,
) -> RelocatedElement:
    """Find the element ``recorded`` (a :func:`discover_element` result) again on ``page``.

    First the recorded locator is checked by the gate, with the recorded fingerprint: when
    it still finds exactly the same element and that element is actionable, it is returned
    unchanged. Otherwise the healing ladder's relocating rungs run in order (the recorded
    alternates, a renamed region, discovery again by the element's words, similarity to the
    recorded fingerprint), each candidate re-verified and gated, under the abstain rule: a
    candidate must score at least ``heal_threshold`` and beat the runner-up by
    ``heal_margin``. Rungs that change the page (dismissing a banner, waiting it out) and
    healing memory are left out: this call only reads.

    Raises ``ValueError`` when ``recorded`` has no locator or no fingerprint (nothing was
    found when it was recorded).
    """
    if recorded.locator is None or recorded.fingerprint is None:
        raise ValueError(
            f"{recorded.element!r} has no recorded locator and fingerprint to relocate "
            "(discovery did not find it); discover it instead"
        )
    action = Action(recorded.action)
    step = Step(
        index=0,
        action=action,
        target=Target(element=recorded.element, region=recorded.region),
        source=_SOURCE,
    )
    requirement = Requirement(req_id="relocate", url=page.url, steps=(step,), source=_SOURCE)
    plan = Plan(requirement=requirement, steps=(step,), plan_hash="relocate")
    options = EngineOptions(
        step_timeout_ms=timeout_ms, evidence=EvidenceRule(heal_threshold, heal_margin)
    )
    identity = identity_of(step, recorded.fingerprint)
    with bounded.budget(timeout_ms):
        first = _first_check(page, recorded, action, identity, options.evidence.floor)
        if first is not None and _passes(first.snapshot, action):
            return RelocatedElement(
                locator=recorded.locator,
                fingerprint=recorded.fingerprint,
                moved=False,
                rung=None,
                reason="the recorded locator still finds the element, and it is actionable",
            )
    # no listener on the page: this call only reads it, for a moment (EnvMonitor)
    monitor = EnvMonitor(page, listen=False)
    try:
        with bounded.budget(timeout_ms):
            checked = run_gate(
                page,
                recorded.locator,
                action,
                step_index=0,
                # a transient state (hidden, disabled, moving) gets a short wait; a locator
                # that matches nothing goes to the rungs as soon as the page is settled
                timeout_ms=min(timeout_ms, _GATE_MS),
                settle_ms=options.settle_timeout_ms,
                monitor=monitor,
                identity=identity,
                first=(first.snapshot, first.took_ms)
                if first is not None and _gate_may_reuse(first.snapshot)
                else None,
            )
            if checked.failure is None:
                return RelocatedElement(
                    locator=recorded.locator,
                    fingerprint=recorded.fingerprint,
                    moved=False,
                    rung=None,
                    reason="the recorded locator still finds the element, and it is actionable",
                )
            state = StepState(
                step=step,
                discovery=recorded,
                locator=recorded.locator,
                alternates=recorded.alternates,
                fingerprint=recorded.fingerprint,
            )
            ctx = HealContext(
                page=page,
                plan=plan,
                state=state,
                failure=checked.failure,
                round=1,
                options=options,
                busy=lambda: monitor.busy(READY_CAP_MS),
            )
            ranked = _ranked_verdict(ctx, first)
            if ranked is not None:
                return _moved(ranked, recorded)
            # as the ladder's own (default_rungs): "stable" is left to Playwright's checks before
            # the action, so re-discovery's snapshot costs no animation frame
            found = Discoverer(measure_still=False)
            regions = RegionDriftRung(found)
            rungs: list[Rung] = [
                AlternateRung(regions),
                regions,
                RediscoveryRung(found),
                SimilarityRung(),
            ]
            attempt, result = HealingLadder(rungs=rungs).heal(ctx)
    finally:
        monitor.detach()
    if result is not None and result.accepted and result.locator is not None:
        return _moved(result, recorded)
    return RelocatedElement(
        locator=None,
        fingerprint=None,
        moved=False,
        rung=None,
        reason=f"{checked.failure.message}; not found again: {attempt.reason}",
        score=attempt.score,
        runner_up_score=attempt.runner_up_score,
        candidates=attempt.candidates,
    )


def _ranked_verdict(ctx: HealContext, first: _FirstCheck | None) -> RungResult | None:
    """The similarity rung's verdict on the ranking the first check's round trip brought
    (:func:`_first_check`), when it accepts; ``None`` otherwise, and the ladder runs as
    before. Taken first because it cannot disagree with the rungs before it: an alternate
    is accepted only where the element it finds is re-scored as the recorded one under the
    evidence rule, and a re-discovered element only where no other is more similar by the
    margin, while an accepted ranking's best beats every other element by the margin. Not
    for a locator that finds another element (the ladder makes that element a rival first,
    ``ladder.mark_impostor``)."""
    if first is None or first.ranking is None or first.snapshot.changed is not None:
        return None
    if ctx.failure.cause == "identity_changed" or ctx.state.fingerprint is None:
        return None
    try:
        verdict = SimilarityRung().decide(ctx, first.ranking, first.located)
    except (PlaywrightError, UnrenderableLocator):
        return None
    return verdict if verdict.accepted and verdict.locator is not None else None


def _moved(result: RungResult, recorded: DiscoveryResult) -> RelocatedElement:
    assert result.locator is not None
    return RelocatedElement(
        locator=result.locator,
        fingerprint=result.fingerprint or recorded.fingerprint,
        moved=True,
        rung=result.rung,
        reason=result.reason,
        score=result.score,
        runner_up_score=result.runner_up_score,
        candidates=result.candidates,
    )
