"""One requirement's results as the rows of its file (:class:`RequirementResult`): built
where the test ran (an xdist worker, :func:`requirement_result`) and sent to the controller
as JSON, which writes the results files (``results.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.models import Plan
from pytest_pacts.models.outcome import RunRecord, StepRecord

if TYPE_CHECKING:  # openpyxl loads only when a workbook is written
    pass
from pytest_pacts.reports.html import verdict_text


@dataclass(frozen=True)
class StepResult:
    """One step of a requirement run, with the place it was written."""

    number: int  # 1-based, as reports count steps
    sheet: str | None
    row: int | None
    line: int | None
    text: str
    status: str
    duration_ms: float
    heal: str
    culprit: bool  # the step whose failure (or skip) the root cause describes
    block: str | None = None  # the block the step was expanded from


@dataclass(frozen=True)
class RequirementResult:
    """What the results files say about one requirement item."""

    path: str  # the requirement file, absolute
    display: str  # the file as errors name it (relative to the rootdir)
    req_id: str
    nodeid: str
    verdict: str  # ``pass (healed)``, ``fail``, ``partial``, or ``no result``
    rca: str
    recommendation: str
    heals: int
    duration_ms: float
    sheet: str | None
    row: int | None
    line: int | None
    steps: tuple[StepResult, ...]

    @property
    def where(self) -> str:
        if self.sheet is not None:
            return f"{self.sheet}:{self.row}"
        return f"line {self.line}" if self.line is not None else ""

    def as_json(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> RequirementResult:
        raw = dict(data)
        steps = raw.pop("steps", ())
        items = steps if isinstance(steps, list | tuple) else ()
        return cls(
            **raw,  # type: ignore[arg-type]
            steps=tuple(StepResult(**s) for s in items if isinstance(s, dict)),
        )


def _heal_text(step: StepRecord) -> str:
    parts = []
    for heal in step.heals:
        if not heal.accepted:
            continue
        old = heal.old_locator.describe() if heal.old_locator else "(none)"
        new = heal.new_locator.describe() if heal.new_locator else "(none)"
        text = f"{heal.rung.value}: {old} -> {new}"
        if heal.figures():
            text += f" ({heal.figures()})"
        if heal.proposal_id:
            text += f", proposal {heal.proposal_id}"
        parts.append(text)
    return "; ".join(parts)


# long because: one item's rows built step by step from its record
def requirement_result(
    plan: Plan,
    record: RunRecord | None,
    *,
    nodeid: str,
    path: Path,
    redact: Callable[[str], str] = str,
) -> RequirementResult:
    """The result of one item: ``record`` is ``None`` when the run produced no record."""
    req = plan.requirement
    by_index = {s.index: s for s in record.steps} if record is not None else {}
    culprit = record.failed_step if record is not None else None
    if record is not None and culprit is None and record.verdict == "partial":
        culprit = next((s for s in record.steps if s.status == "skipped"), None)
    steps = []
    for step in plan.steps:
        ran = by_index.get(step.index)
        steps.append(
            StepResult(
                number=step.index + 1,
                sheet=step.source.sheet,
                row=step.source.row,
                line=step.source.line,
                text=redact(ran.description if ran is not None else step.describe()),
                status=(ran.status if ran is not None else "no result"),
                duration_ms=round(ran.duration_ms, 1) if ran is not None else 0.0,
                heal=redact(_heal_text(ran)) if ran is not None else "",
                culprit=culprit is not None and culprit.index == step.index,
                block=step.block,
            )
        )
    if record is None:
        verdict, rca, advice, heals, duration = "no result", "", "", 0, 0.0
    else:
        verdict = verdict_text(record.verdict, record.healed)
        rca = redact(
            f"{record.rca.rca_class.value} ({record.rca.confidence:.2f}): {record.rca.message}"
        )
        advice = redact(record.rca.recommendation)
        heals, duration = record.heal_count, round(record.duration_ms, 1)
    return RequirementResult(
        path=str(path),
        display=req.source.path,
        req_id=plan.req_id,
        nodeid=nodeid,
        verdict=verdict,
        rca=rca,
        recommendation=advice,
        heals=heals,
        duration_ms=duration,
        sheet=req.source.sheet,
        row=req.source.row,
        line=req.source.line,
        steps=tuple(steps),
    )
