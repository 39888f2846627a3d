"""What one step looked like when it ran (its trace), and what changed since the last passing
run of the same requirement (its regressions).

A passing run's step traces make its *trace bundle* (``pytest_pacts/traces/``): the next
runs are compared with the last passing bundle, and what differs is flagged as a
:class:`Regression` even when the run passes (docs/user-guide.md "Trace bundles and
regressions"). Nothing here holds a secret value: texts and URLs are masked when captured
(query values are dropped, known secrets become ``***``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pytest_pacts.models.locator import BoundingBox


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TracedRequest(_Frozen):
    """One network request the page made during a step, as its answer came back."""

    method: str
    url: str = Field(description="Origin and path; query values are dropped (names kept).")
    status: int = Field(description="The HTTP status; 0 when the request failed unanswered.")
    kind: str = Field(default="", description="Playwright's resource type: document, fetch...")
    error: str | None = Field(default=None, description="Why an unanswered request failed.")

    @property
    def failing(self) -> bool:
        """A 4xx or 5xx answer."""
        return self.status >= 400

    def describe(self) -> str:
        return f"{self.method} {self.url} → {self.status or self.error or 'failed'}"


class StepTrace(_Frozen):
    """The page as a step found it: where it was, what its element said and where it stood,
    a picture, a hash of the document, and the requests the page made meanwhile."""

    url: str = Field(description="The page's URL after the step (query values dropped).")
    text: str | None = Field(
        default=None, description="The target element's visible text when the step acted."
    )
    box: BoundingBox | None = Field(
        default=None, description="The target element's box (document coordinates)."
    )
    dom_hash: str | None = Field(
        default=None, description="A hash of the document's markup after the step."
    )
    requests: tuple[TracedRequest, ...] = ()
    requests_dropped: int = Field(default=0, description="Requests beyond the per-step cap.")
    screenshot: str | None = Field(
        default=None, description="The page when the step acted (a small JPEG file)."
    )
    note: str | None = Field(
        default=None, description="Why something is missing, e.g. a screenshot withheld."
    )


RegressionKind = Literal["text_changed", "failing_request", "slower", "moved", "url_changed"]

REGRESSION_TITLES: dict[str, str] = {
    "text_changed": "text changed",
    "failing_request": "new failing request",
    "slower": "slower step",
    "moved": "element moved",
    "url_changed": "page changed",
}


class Regression(_Frozen):
    """One difference between a run and the last passing run of its requirement."""

    kind: RegressionKind
    step_index: int
    step: str = Field(description="The step in words.")
    message: str = Field(description="What changed, for a person.")
    before: str | None = None
    after: str | None = None
    screenshot_before: str | None = None
    screenshot_after: str | None = None

    @property
    def title(self) -> str:
        return REGRESSION_TITLES[self.kind]

    def line(self) -> str:
        """``step 3 (click "Add to cart"): text changed: "Add to cart" -> "Add to Cart"``."""
        return f"step {self.step_index + 1} ({self.step}): {self.title}: {self.message}"


class BundleStep(_Frozen):
    """One step of a trace bundle: what the step was, how it went, and its trace."""

    index: int
    action: str
    description: str
    element_key: str | None = None
    status: str
    duration_ms: float = 0.0
    trace: StepTrace | None = None


class TraceBundle(_Frozen):
    """The compact record of one run of a requirement, step by step (its *trace bundle*).

    A passing run's bundle is kept in the store (the pictures beside the run's artifacts);
    the next runs are compared with the last one kept (``pytest_pacts/traces``)."""

    req_id: str
    label: str = Field(description="The run it comes from (the run id of its report folder).")
    plan_hash: str
    verdict: str
    created_at: str
    url: str | None = None
    steps: tuple[BundleStep, ...] = ()
    picture_bytes: int = 0
