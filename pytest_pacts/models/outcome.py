"""What a run produces: typed failures, step records, heals, verdict and root cause.

These are the projections reports read
(JUnit, pytest-html, ``verdict_<req_id>.json``, the store): engine internals never leak
past them. Values are JSON-ready (``model_dump(mode="json")``) and hold no secret values:
resolved secrets are shown as ``***``.
"""

from __future__ import annotations

import enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pytest_pacts.models.locator import Candidate, GateSnapshot, Locator
from pytest_pacts.models.trace import Regression, StepTrace


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FailureType(enum.StrEnum):
    """Typed failures that route the state machine.

    ``not_unique`` covers a locator that matches zero elements as well as several (gate
    point 1, "exactly one"); ``evidence`` says which. ``not_found`` is a step discovered
    for the first time (nothing cached, nothing found earlier in the run) that matches no
    element: there is nothing recorded to heal from, so it is not healed (most often the
    Element cell is misspelt; the failure names the closest visible names). ``ambiguous``
    is such a step whose words fit several elements with no clear winner under the evidence
    rule (``models/evidence.py``): nothing is acted on, nothing is healed (there is nothing
    recorded to heal from), and the failure names the candidates with their scores and what
    would make the name unique (a region, the visible text, an ordinal).

    ``canvas_detected``, ``pdf_embed_detected``, ``closed_shadow_root_detected`` and
    ``cross_origin_iframe_detected`` replace a "not found" when the page shows a surface no
    locator can reach (``engine/surfaces.py``). ``image_not_matched`` is an ``image:`` target
    whose picture was not found once and clearly on the page (none, a weak or an ambiguous
    match).
    """

    NONE = "none"
    NOT_UNIQUE = "not_unique"
    NOT_FOUND = "not_found"
    AMBIGUOUS = "ambiguous"
    NOT_VISIBLE = "not_visible"
    DISABLED = "disabled"
    UNSTABLE = "unstable"
    TIMEOUT = "timeout"
    OBSCURED = "obscured"
    DETACHED = "detached"
    EXPECTATION_FAILED = "expectation_failed"
    NAVIGATION_ERROR = "navigation_error"
    ENV_FAULT = "env_fault"
    CAPTCHA_OR_2FA = "captcha_or_2fa"
    CANVAS_DETECTED = "canvas_detected"
    PDF_EMBED_DETECTED = "pdf_embed_detected"
    CLOSED_SHADOW_ROOT_DETECTED = "closed_shadow_root_detected"
    CROSS_ORIGIN_IFRAME_DETECTED = "cross_origin_iframe_detected"
    IMAGE_NOT_MATCHED = "image_not_matched"


FailureCause = Literal[
    "connection_refused",  # the server is down (env_fault)
    "http_error",  # a navigation answered 4xx/5xx (env_fault; ``http_status`` says which)
    "crash",  # the page or browser crashed or was closed (env_fault)
    "slow_page",  # a navigation did not finish within the step timeout (env_fault)
    "page_unresponsive",  # the page's main thread stopped answering (env_fault)
    "page_script",  # the page's scripts made the code in the page throw (unsupported_surface)
    "value_rejected",  # the field did not take the value typed into it (data_issue)
    "session_conflict",  # the store says this requirement is already running
    "configuration",  # the run cannot start as configured (no base URL, bad template)
    "identity_changed",  # a cached locator now finds another element (not_unique)
    "input_refused",  # the page said it refused the input (an alert, a validation message)
    "wrong_kind",  # the words name an element on the page the action cannot operate
]
"""Finer detail the verdict's RCA mapping needs beyond the failure type."""


class Failure(_Frozen):
    """A failure as a value: the executor never raises from its internals."""

    type: FailureType
    message: str
    step_index: int | None = None
    cause: FailureCause | None = None
    http_status: int | None = None
    evidence: tuple[str, ...] = ()
    gate: GateSnapshot | None = None
    candidates: tuple[Candidate, ...] = ()


class RcaClass(enum.StrEnum):
    """Root-cause classes (docs/engine.md "Verdict and RCA")."""

    SUCCESS = "success"
    SELECTOR_DRIFT = "selector_drift"
    TIMING_INSTABILITY = "timing_instability"
    VISIBILITY_ISSUE = "visibility_issue"
    ENABLEMENT_ISSUE = "enablement_issue"
    ASSERTION_MISMATCH = "assertion_mismatch"
    DATA_ISSUE = "data_issue"
    ENV_FAULT = "env_fault"
    UNSUPPORTED_SURFACE = "unsupported_surface"


class Rca(_Frozen):
    """Root cause with confidence, evidence and an actionable recommendation."""

    rca_class: RcaClass = Field(alias="class")
    confidence: float = Field(ge=0.0, le=1.0)
    message: str
    evidence: tuple[str, ...] = ()
    recommendation: str = ""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class HealRung(enum.StrEnum):
    """The healing ladder (docs/healing.md), cheapest and most deterministic first."""

    ALTERNATE = "alternate"
    REPAIR = "repair"
    REDISCOVERY = "rediscovery"
    MEMORY = "memory"
    SIMILARITY = "similarity"
    EXTENSION = "extension"
    HUMAN = "human"


class HealAttempt(_Frozen):
    """One healing round: what was tried, what it scored, whether it was applied."""

    round: int
    rung: HealRung
    accepted: bool
    reason: str
    failure: FailureType
    old_locator: Locator | None = None
    new_locator: Locator | None = None
    score: float | None = None
    runner_up_score: float | None = None
    basis: str | None = Field(
        default=None,
        description="What decided an accepted heal, in words with its figures, when it was not "
        "the similarity in ``score`` (a re-discovery is accepted by discovery's evidence rule: "
        "its confidence and margin; ``score`` is then the similarity to the recorded element).",
    )
    candidates: tuple[Candidate, ...] = ()
    proposal_id: str | None = None
    track: Literal["contract", "exception"] | None = None
    promotion_required: bool = False
    screenshot_before: str | None = None
    screenshot_after: str | None = None
    duration_ms: float = 0.0

    def figures(self) -> str:
        """The figures a heal line shows: what decided it, or its similarity score."""
        if self.basis:
            return self.basis
        return f"score {self.score:.2f}" if self.score is not None else ""


class ImageMatch(_Frozen):
    """Where an image target's picture was found on the page's screenshot, and whether the
    match was trusted (``ok``) or refused (``weak``: below the threshold; ``ambiguous``: the
    picture is on the page more than once)."""

    template: str
    verdict: Literal["ok", "weak", "ambiguous"]
    box: tuple[int, int, int, int] = Field(description="x, y, width, height in CSS px")
    score: float
    runner_up: float
    threshold: float
    screenshot: str | None = Field(default=None, description="The annotated screenshot.")
    hit: str | None = Field(default=None, description="The element under the box's centre.")
    duration_ms: float = 0.0


class DropdownUse(_Frozen):
    """How a ``select`` step chose in a custom dropdown (an ARIA combobox or listbox, or the
    widget standing in for a hidden native select), as a person does: what a generated
    plain-Playwright test repeats instead of ``select_option``."""

    opened: tuple[bool, ...] = Field(
        description="Per option chosen, in the cell's order: whether the dropdown was clicked "
        "open first (its list was not shown)."
    )
    typed: bool = Field(description="The option's name was typed to filter the list.")
    option_role: str = Field(
        default="option", description="The chosen options' role: option (or treeitem)."
    )
    widget_path: str | None = Field(
        default=None,
        description="For a hidden native select: the XPath from it to the widget standing in "
        "for it (``following-sibling::*[1]``: select2's container), which a person opens.",
    )
    widget_role: str | None = Field(
        default=None, description="The role of the combobox inside that widget, if any."
    )
    text_field: bool = Field(
        default=False,
        description="The dropdown is a text field with no combobox or listbox role, whose "
        "list opened when it was clicked: its value shows the option chosen.",
    )


StepStatus = Literal["passed", "healed", "failed", "skipped", "not_run"]


class StepRecord(_Frozen):
    """One executed (or skipped) step, as the reports show it."""

    index: int
    action: str
    description: str
    source: str
    element_key: str | None = None
    value: str | None = Field(default=None, description="Shown value; secrets are ***.")
    locator: Locator | None = None
    code: str | None = Field(default=None, description="The locator as Playwright code.")
    gate: GateSnapshot | None = None
    expectation: str | None = None
    expectation_ok: bool | None = None
    status: StepStatus
    failure: Failure | None = None
    heals: tuple[HealAttempt, ...] = ()
    duration_ms: float = 0.0
    block: str | None = None
    image_match: ImageMatch | None = None
    notes: tuple[str, ...] = Field(
        default=(),
        description="Warnings about how the step ran although it passed, e.g. its region "
        "matched nothing and the element was found page-wide.",
    )
    trace: StepTrace | None = Field(
        default=None,
        description="The page as the step found it (URL, the element's text and box, a "
        "screenshot, a DOM hash, the requests); recorded when tracing is on.",
    )
    extracted: dict[str, str] = Field(
        default_factory=dict,
        description="What an extract step stored: var name to the value as shown (*** for "
        "a secret value).",
    )
    dropdown: DropdownUse | None = Field(
        default=None,
        description="A select step on a custom dropdown: how its options were chosen.",
    )

    @property
    def strategy(self) -> str | None:
        return self.locator.strategy.value if self.locator else None

    @property
    def confidence(self) -> float | None:
        return self.locator.confidence if self.locator else None


Verdict = Literal["pass", "fail", "partial"]


class RunRecord(_Frozen):
    """The outcome of one requirement run (``verdict_<req_id>.json``)."""

    req_id: str
    plan_hash: str
    verdict: Verdict
    rca: Rca
    steps: tuple[StepRecord, ...]
    healed: bool = False
    heal_count: int = 0
    heal_rounds: int = 0
    started_at: str
    finished_at: str
    duration_ms: float = 0.0
    recipe_version: str | None = None
    url: str | None = None
    llm_calls: int = 0
    proposals: tuple[str, ...] = ()
    artifacts: dict[str, str] = Field(default_factory=dict)
    regressions: tuple[Regression, ...] = Field(
        default=(),
        description="What differs from the last passing run of the requirement (its trace "
        "bundle), flagged even when this run passes.",
    )
    baseline: str | None = Field(
        default=None, description="The run this one was compared with (its run label)."
    )

    @property
    def failed_step(self) -> StepRecord | None:
        return next((s for s in self.steps if s.status == "failed"), None)
