"""The seams inside the engine: what the executor gives the healer and gets back.

The executor (``engine/executor.py``) owns steps, the gate, actions and expectations; the
healing ladder (``engine/healing/``) owns the rungs (docs/healing.md) and the abstain rule.
They meet only here, so each can change without the other (a new rung
is one new module satisfying :class:`Rung`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.models import Plan, Step
from pytest_pacts.models.evidence import EvidenceRule
from pytest_pacts.models.locator import Candidate, DiscoveryResult, Fingerprint, Locator
from pytest_pacts.models.outcome import Failure, HealAttempt, HealRung
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS, PactsSettings


@dataclass(frozen=True)
class EngineOptions:
    """Settings the pytest layer (or ``pacts``) passes in (``application.engine_options``);
    the defaults are the settings' own (settings.py), in the engine's units."""

    step_timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS
    # a cached locator matching nothing goes to healing as soon as the page is observed
    # settled (engine/waiting.py), but not before this: raise it for an app that renders
    # from timers long after its last request and DOM change
    settle_timeout_ms: float = 0.0
    max_heal_rounds: int = PactsSettings.max_heal_rounds  # healing rounds per step
    # what a candidate must score, and lead the runner-up by, to be acted on: discovery's
    # picks and every healing rung's (models/evidence.py)
    evidence: EvidenceRule = field(default_factory=EvidenceRule)
    memory_threshold: float = 0.7  # healing memory confidence (rung 4)
    strict_heal: bool = PactsSettings.strict_heal  # --pacts-strict-heal: heals fail the test
    interactive: bool = PactsSettings.interactive  # --pacts-interactive: GO / NOT GO
    # calls to the external healer hook per run (0 = off)
    extension_budget: int = PactsSettings.extension_budget
    artifacts_dir: str | None = None  # where screenshots go (None: no screenshots)
    # a page load slower than this is an env_fault "slow_page" (None: the step timeout)
    navigation_timeout_ms: float | None = None
    # what a native alert/confirm/prompt raised during a step gets: "accept" (a person clicks
    # OK; a prompt gets its default value) or "dismiss"; its text goes into the step's notes
    dialogs: str = PactsSettings.dialogs
    # record each step's trace (engine/tracing.py: URL, the element's text and box, a DOM
    # hash, the requests, a small picture in ``artifacts_dir``); the pictures of one run
    # stay under ``trace_max_bytes``
    trace: bool = False
    trace_max_bytes: int = PactsSettings.trace_max_kb * 1024
    # a JSON response a step reads (extract from response:, a response: outcome) is read
    # only up to this size; a larger body is reported as too large, never kept
    max_response_bytes: int = int(PactsSettings.max_response_kb * 1024)


@dataclass
class StepState:
    """What the executor knows about one step's element: the discovered locator, the
    alternates and fingerprint kept for healing, updated when a heal lands."""

    step: Step
    discovery: DiscoveryResult | None = None
    locator: Locator | None = None
    alternates: tuple[Locator, ...] = ()
    fingerprint: Fingerprint | None = None


@dataclass(frozen=True)
class Resolved:
    """What a locator resolves to now: how many elements, and for one, its fingerprint and
    similarity to the stored fingerprint (``None`` when there is none to compare with)."""

    count: int
    score: float | None = None
    fingerprint: Fingerprint | None = None
    description: str = ""
    anchor: float | None = None
    parts: dict[str, float] = field(default_factory=dict)

    @property
    def name_similarity(self) -> float | None:
        """How alike the element's own names (text, label, placeholder, accessible name,
        alt/title) are to the recorded ones, synonyms included ("Log in" ~ "Sign in");
        ``None`` when the recorded fingerprint has no name to compare."""
        names = [self.parts[k] for k in _NAME_PARTS if k in self.parts]
        return max(names) if names else None


_NAME_PARTS = ("text", "label", "placeholder", "aria_label", "alt_title")


@dataclass
class HealContext:
    """Everything one healing round may look at. ``round`` starts at 1."""

    page: Page
    plan: Plan
    state: StepState
    failure: Failure
    round: int
    options: EngineOptions
    attempts: list[HealAttempt] = field(default_factory=list)
    # the value the step will type, already resolved (a Secret prints as ***)
    value: str | None = None
    # what the rungs answered so far in this round, in ladder order (the healing ladder
    # fills it; the human checkpoint shows the best declined proposal from it)
    round_results: list[RungResult] = field(default_factory=list)
    # the page as this round found it, taken once by the run (None: no artifacts directory)
    screenshot_before: str | None = None
    # what candidate locators resolved to during the current rung (``resolving.resolve``); the
    # ladder empties it before each rung, since a rung may change the page
    resolved: dict[tuple[str, str], Resolved] = field(default_factory=dict)
    # whether a navigation or a request the page waits on is in flight (the run's network
    # monitor); ``None``: not observed, the page's own stillness decides alone
    busy: Callable[[], bool] | None = None
    # what discovery found for the step's own target (``Element@Region``) this round: a rung
    # that scanned for it (region drift scans with and without the region in one call)
    # leaves it for the rungs after it (re-discovery); the ladder empties it at the round's
    # start and after any rung that may change the page
    rediscovered: DiscoveryResult | None = None
    # how long the step's timeout has left for waiting on the element's state (the run keeps
    # one timeout per step across its attempts and repairs); ``None``: a whole step timeout
    wait_left_ms: float | None = None
    # told each control a rung clicks or points at to show the step's hidden element (a
    # closed menu, a tab), before it does (``Finder.on_open``: the run's observer)
    on_open: Callable[[Step, PWLocator], None] | None = None


@dataclass(frozen=True)
class RungResult:
    """A rung's answer. ``locator`` is set only when the rung *accepts* a relocation that
    passed the abstain rule and the gate; ``repaired`` when it fixed the page instead
    (dismissed a banner, waited for stability) and the same locator should be retried."""

    rung: HealRung
    accepted: bool
    reason: str
    locator: Locator | None = None
    fingerprint: Fingerprint | None = None
    repaired: bool = False
    score: float | None = None
    runner_up_score: float | None = None
    # what decided an accepted relocation when not the similarity in ``score``, in words
    # (HealAttempt.basis)
    basis: str | None = None
    candidates: tuple[Candidate, ...] = ()
    # the best candidate's locator when the rung abstained (shown at the human checkpoint,
    # never used without a person's GO), and its fingerprint
    proposed: Locator | None = None
    proposed_fingerprint: Fingerprint | None = None
    # what the rung did to the page to find it, for the step's notes (a menu it opened)
    notes: tuple[str, ...] = ()
    # facts for the heal proposal's evidence (docs/governance.md evidence contracts):
    # gate_result, waited_ms, bounding_box, ...
    evidence: Mapping[str, object] = field(default_factory=dict)


class Rung(Protocol):
    """One rung of the ladder. Returns ``None`` when it does not apply to the failure."""

    name: HealRung

    def attempt(self, ctx: HealContext) -> RungResult | None: ...


class Healer(Protocol):
    """The ladder as the executor sees it: one round per call, recorded as a HealAttempt.

    After retrying the step with an accepted result the executor reports back: ``confirm``
    when the retried action succeeded (healing memory and the heal proposal are written
    only then: evidence or nothing; returns the attempt with the proposal's
    id, track and promotion filled), ``reject`` when it failed.
    """

    def heal(self, ctx: HealContext) -> tuple[HealAttempt, RungResult | None]: ...

    def confirm(
        self, ctx: HealContext, attempt: HealAttempt, result: RungResult
    ) -> HealAttempt: ...

    def reject(self, ctx: HealContext, attempt: HealAttempt, result: RungResult) -> None: ...


# The optional extension hook (rung 6, docs/healing.md): another plugin (an LLM-backed one, say)
# proposes candidates; the ladder still applies the abstain rule and the gate to them.
ExtensionHealer = Callable[[HealContext], Sequence[Locator]]
ContextOptions = Mapping[str, object]
