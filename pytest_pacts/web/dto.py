"""What the web layer shows: plain-value DTOs, filled by :mod:`pytest_pacts.web.projection`.

These shapes are the JSON API's contract and the templates' input. They hold strings,
numbers and booleans only, never a store record or an engine model, and they carry their
own display labels and tones, so a page or a client never compares a core value ("pass",
"pending", "exception") to decide what to show: the projection decides and says so in a
label, a tone or a boolean. No field ever holds a secret value (the projection masks every
secret it knows of before a DTO is built; ``docs/observer.md``, "Security").
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

#: How a badge looks; chosen by the projection, only mapped to a CSS class by the pages.
Tone = Literal["good", "warn", "bad", "info", "muted"]


class _DTO(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Badge(_DTO):
    label: str
    tone: Tone


class Option(_DTO):
    """One choice of a filter: what to send, what to show."""

    value: str
    label: str


class ApiError(_DTO):
    """Every 4xx/5xx answer of the API: a stable code for programs, a sentence for people."""

    error: str = Field(description="A stable code, e.g. SESSION_CONFLICT, NOT_FOUND, INVALID.")
    message: str = Field(description="What went wrong and what to do, in words.")
    details: list[str] = Field(default_factory=list)


class Health(_DTO):
    status: Literal["healthy", "busy", "degraded"]
    version: str
    services: dict[str, str]


class RunSummary(_DTO):
    id: int
    req_id: str
    session: str
    status_label: str
    verdict_label: str
    badge: Badge
    in_flight: bool
    rca_label: str | None
    healed: bool
    heal_count: int
    started_at: str
    started_label: str = Field(description="The start time for people, in UTC.")
    finished_at: str | None
    duration_ms: float | None
    recipe_version: str | None
    url: str = Field(description="The run's page on the dashboard.")


class RunPage(_DTO):
    runs: list[RunSummary]
    total: int
    limit: int
    offset: int
    next_offset: int | None


class GatePointView(_DTO):
    label: str
    ok: bool
    reason: str


class StepView(_DTO):
    number: int = Field(description="1-based, as the requirement sheet counts steps.")
    action_label: str
    element: str | None
    status_label: str
    badge: Badge
    strategy_label: str | None
    confidence: float | None
    locator: str | None
    gate: list[GatePointView]
    heal_round: int
    duration_ms: float | None


class StepList(_DTO):
    run_id: int
    req_id: str
    steps: list[StepView]


class ArtifactView(_DTO):
    name: str = Field(description="The file, relative to the project folder when inside it.")
    kind_label: str
    size_bytes: int | None
    sha256: str | None
    media_type: str
    url: str | None = Field(description="Where to fetch it; None when the file is not served.")
    note: str | None = Field(
        default=None,
        description='Why there is no url: "gone", or "outside the report folder: not served".',
    )


class ArtifactList(_DTO):
    run_id: int
    folders: list[str] = Field(
        description="The run's artifact folders; files are served only from these."
    )
    artifacts: list[ArtifactView]


class HealCard(_DTO):
    step_number: int
    heal_round: int
    element: str | None
    before_url: str | None
    after_url: str | None


class ProposalSummary(_DTO):
    id: int
    req_id: str
    step_number: int
    element: str
    status_label: str
    badge: Badge
    pending: bool
    severity_label: str
    major: bool
    track_badge: Badge
    promotion_required: bool
    promotion_label: str | None
    rung_label: str | None
    score: float | None
    runner_up_score: float | None
    created_at: str
    decided_at: str | None
    decided_by: str | None
    url: str


class OccurrenceView(_DTO):
    """One time the drift a proposal stands for was healed."""

    req_id: str
    step_number: int
    deployment: str | None
    page_url: str | None
    failed_locator: str | None
    score: float | None
    seen_at: str


class ProposalDetail(_DTO):
    summary: ProposalSummary
    occurrences: list[OccurrenceView]
    failed_locator: str | None
    healed_locator: str | None
    patch: list[str]
    suggested_diff: str
    self_heal_gate: dict[str, JsonValue] | None
    copy_text: str
    latest_recipe_version: str | None
    stale: bool
    recipe_version_written: str | None
    decision_reason: str | None
    change: str | None = None  # what the heal changed, in words (element, region, frame)
    # every requirement the accept wrote ("REQ-A v003"), and the diffs of what it wrote
    versions_written: list[str] = []
    written_diff: str | None = None


class RunDetail(_DTO):
    run: RunSummary
    plan_hash: str | None
    rca_class_label: str | None
    steps: list[StepView]
    heals: list[HealCard]
    proposals: list[ProposalSummary]
    metrics: dict[str, float]


class RequirementRuns(_DTO):
    req_id: str
    runs: list[RunSummary]
    total: int


class ProposalList(_DTO):
    proposals: list[ProposalSummary]
    counts: dict[str, int]


class Decision(_DTO):
    proposal_id: int
    outcome_label: str
    message: str
    recipe_version: str | None = None
    needs_go: bool = False


class DayCounts(_DTO):
    day: str
    passed: int
    healed: int
    failed: int


class HealRate(_DTO):
    req_id: str
    runs: int
    healed: int
    rate: float


class ElementHeals(_DTO):
    element: str
    heals: int


class Trends(_DTO):
    days: list[DayCounts]
    heal_rates: list[HealRate]
    elements: list[ElementHeals]
    window_days: int


class LaunchView(_DTO):
    id: str
    session: str
    state_label: str
    badge: Badge
    running: bool
    exit_code: int | None
    paths: list[str]
    keyword: str | None
    base_url: str | None
    started_at: str
    finished_at: str | None
    output: list[str]
    runs: list[RunSummary]
    url: str
