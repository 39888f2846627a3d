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
from pytest_pacts.discovery.render import elements_frame
from pytest_pacts.engine.contracts import EngineOptions, HealContext, Rung, StepState
from pytest_pacts.engine.env import EnvMonitor, watch_changes
from pytest_pacts.engine.executor import identity_of
from pytest_pacts.engine.gate import IN_PAGE_RULE, blocking_point, run_gate
from pytest_pacts.engine.healing import (
    AlternateRung,
    HealingLadder,
    RediscoveryRung,
    SimilarityRung,
)
from pytest_pacts.engine.healing.region import RegionDriftRung
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
from pytest_pacts.runtime.healing import install_early
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
    watch_changes(page)
    install_early(page)
    with bounded.budget(timeout_ms):
        return Discoverer().discover(page, [(0, target, verb)])[0]


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


def _first_check(
    page: Page, locator: Locator, action: Action, identity: dict[str, object]
) -> tuple[GateSnapshot, float] | None:
    """The recorded locator checked with its identity in one round trip, with no listener
    on the page, and how long the round trip took; ``None`` when it could not be checked.
    "Stable" is not measured (as for a heal candidate): Playwright checks it right before
    it acts. Whether the page is settled (``observed_settled``) is read from the page's
    change watch (``js/watch.js``, in the page from the document's first moment since
    :func:`discover_element`): a locator that matches nothing, or another element, on a page
    the watch saw drawn twice with no DOM change since answers at once, without watching two
    more animation frames (17-33 ms at 60 Hz, the floor of every drifted relocation before).
    Any quiet spell counts (``since=0``): this call acts on nothing, so no answer of the
    page to an action of its own can be pending. Where the watch cannot tell (no watch, a
    change within the last two frames, a hidden or disabled element), the check watches
    two frames, as the gate's own first check does."""
    try:
        sent = now_ms()
        snapshot = check_actionable(
            to_playwright(page, locator), action, in_shadow=locator.in_shadow,
            identity=identity, still=False, rule=IN_PAGE_RULE,
            frame=elements_frame(page, locator), since=0.0,
        )  # fmt: skip
    except (PlaywrightError, UnrenderableLocator):
        return None
    return snapshot, now_ms() - sent


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
        first = _first_check(page, recorded.locator, action, identity)
        if first is not None and _passes(first[0], action):
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
                first=first if first is not None and _gate_may_reuse(first[0]) else None,
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
            # as the ladder's own (default_rungs): "stable" is left to Playwright's checks before
            # the action, so re-discovery's snapshot costs no animation frame
            found = Discoverer(measure_still=False)
            rungs: list[Rung] = [
                AlternateRung(),
                RegionDriftRung(found),
                RediscoveryRung(found),
                SimilarityRung(),
            ]
            attempt, result = HealingLadder(rungs=rungs).heal(ctx)
    finally:
        monitor.detach()
    if result is not None and result.accepted and result.locator is not None:
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
