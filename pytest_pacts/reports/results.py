"""Results back to the sheet: a results workbook per ``.xlsx`` and a CSV per JSON/YAML file.

QA teams keep requirements in Excel, so after a run each requirement file gets a results
file in the run's folder (``<report dir>/<run id>/results/``):

- ``<name>.results.xlsx``: a **copy** of the workbook (the original is only read) with five
  columns added beside the step rows: Verdict (the requirement's, on each of its rows, so
  a filter on it selects whole requirements), Step result, Root cause (on the row that
  caused the verdict), Heal (old and new locator, score, proposal) and Duration (s); and a
  ``pacts results`` sheet with one row per requirement. Formatting is kept as far as
  openpyxl keeps it (cell styles, widths, merged cells, data validation, conditional
  formatting; pictures and charts are not).
- ``<name>.results.csv`` for ``.json`` / ``.yaml`` files: one row per step with the file
  line.

A :class:`RequirementResult` is built where the test ran (an xdist worker) and travels to
the controller as JSON; the controller writes the files once, at session end. Text that
came from the sheet is untrusted: a cell starting with ``=`` (or ``+ - @`` in the CSV) is
written as text, never as a formula.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import tempfile
import warnings
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from copy import copy
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.models import Plan, SourceRef
from pytest_pacts.models.outcome import RunRecord, StepRecord
from pytest_pacts.models.text import file_stem
from pytest_pacts.planner.readers.base import ReadFailure
from pytest_pacts.planner.readers.limits import MIB, ReadLimits

if TYPE_CHECKING:  # openpyxl loads only when a workbook is written
    from openpyxl.cell.cell import Cell, MergedCell
    from openpyxl.workbook.workbook import Workbook
    from openpyxl.worksheet.worksheet import Worksheet
from pytest_pacts.reports.artifacts import write_text
from pytest_pacts.reports.html import verdict_text

COLUMNS = ("Verdict", "Step result", "Root cause", "Heal", "Duration (s)")
_WIDTHS = (14, 14, 60, 60, 12)
SUMMARY_SHEET = "pacts results"
SUMMARY_COLUMNS = (
    "Req ID", "Verdict", "Root cause", "Recommendation", "Heals", "Duration (s)", "Rows",
    "Test id",
)  # fmt: skip
CSV_COLUMNS = (
    "File", "Line", "Req ID", "Step", "Step text", "Verdict", "Step result", "Root cause",
    "Heal", "Duration (s)",
)  # fmt: skip
_FILLS = {"pass": "C6EFCE", "fail": "FFC7CE", "partial": "FFEB9C"}
# the worst status of the steps sharing one row (a `use` row expands to a block's steps)
_STATUS_ORDER = ("failed", "skipped", "not_run", "healed", "passed")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


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


# -- where the files go ---------------------------------------------------------------------
def results_name(display: str, suffix: str) -> str:
    """``requirements/login.req.xlsx`` -> ``requirements/login.req.results.xlsx``; a file
    outside the rootdir (an absolute display path) gets a flat name."""
    rel = Path(display)
    if rel.is_absolute() or ".." in rel.parts:
        rel = Path(file_stem(display) + Path(display).suffix)
    if suffix == ".xlsx":
        return rel.with_name(rel.stem + ".results.xlsx").as_posix()
    return rel.with_name(rel.name + ".results" + suffix).as_posix()


@dataclass(frozen=True)
class Written:
    """The results files of a session and the problems met writing them."""

    paths: tuple[Path, ...]
    problems: tuple[str, ...]


def write_results(
    folder: Path,
    results: Iterable[RequirementResult],
    *,
    run_id: str,
    limits: ReadLimits,
    max_file_bytes: int,
) -> Written:
    """Write one results file per requirement file into ``folder``; a file that cannot be
    written is a problem in words, never an exception (the run's verdicts stand)."""
    by_file: dict[str, list[RequirementResult]] = {}
    for result in results:
        by_file.setdefault(result.path, []).append(result)
    paths: list[Path] = []
    problems: list[str] = []
    for source, group in sorted(by_file.items()):
        group.sort(key=lambda r: (r.sheet or "", r.row or 0, r.line or 0))
        display = group[0].display
        suffix = Path(source).suffix.lower()
        target = folder / results_name(display, ".xlsx" if suffix == ".xlsx" else ".csv")
        try:
            if suffix == ".xlsx":
                problems += _write_workbook(
                    Path(source), target, group, run_id, limits, max_file_bytes
                )
            else:
                write_text(target, _csv_text(group))
        except ReadFailure as exc:
            expected = f"; expected {exc.expected}" if exc.expected else ""
            problems.append(
                f"{exc.source.render()}: {exc.message}{expected}; its results workbook was "
                "not written"
            )
            continue
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
            problems.append(f"{display}: the results file could not be written: {exc}")
            continue
        paths.append(target)
    return Written(tuple(paths), tuple(problems))


# -- CSV ------------------------------------------------------------------------------------
def _csv_cell(value: object) -> object:
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value  # a spreadsheet opening the CSV must not run a formula
    return value


def _csv_text(results: Sequence[RequirementResult]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in results:
        culprit_seen = any(s.culprit for s in r.steps)
        for i, s in enumerate(r.steps):
            show_rca = s.culprit or (not culprit_seen and i == 0)
            row = (r.display, s.line or "", r.req_id, s.number, s.text, r.verdict, s.status,
                   r.rca if show_rca else "", s.heal, round(s.duration_ms / 1000, 3))  # fmt: skip
            writer.writerow([_csv_cell(v) for v in row])
    # a byte order mark, so Excel reads the CSV as UTF-8
    return "\ufeff" + out.getvalue()


# -- the workbook ---------------------------------------------------------------------------
def _set(cell: Cell | MergedCell, value: str | float | None) -> None:
    cell.value = value
    if isinstance(value, str) and value.startswith("="):
        cell.data_type = "s"  # text from a sheet, not a formula


def _row_status(steps: Sequence[StepResult]) -> str:
    statuses = {s.status for s in steps}
    for status in _STATUS_ORDER:
        if status in statuses:
            return status
    return steps[0].status


def _write_workbook(
    source: Path,
    target: Path,
    results: Sequence[RequirementResult],
    run_id: str,
    limits: ReadLimits,
    max_file_bytes: int,
) -> list[str]:
    # openpyxl (and the numpy it imports) only when a workbook is written: a run of YAML
    # and JSON requirements never pays for it
    from openpyxl import load_workbook
    from openpyxl.utils.exceptions import InvalidFileException

    from pytest_pacts.planner.readers.xlsx import HEADER_SCAN_ROWS, check_archive

    display = results[0].display
    if target.resolve() == source.resolve():
        raise ValueError("the results workbook would replace the requirement file")
    size = source.stat().st_size
    if size > max_file_bytes:
        raise ReadFailure(
            SourceRef(path=display),
            f"the workbook is {size / MIB:,.1f} MB, over the {max_file_bytes / MIB:,.1f} MB limit",
            "a workbook of ordinary size",
        )
    check_archive(source, display, limits)  # the file may have changed since collection
    with warnings.catch_warnings():
        # openpyxl warns about parts it drops (pictures, some extensions); the docs say so
        warnings.simplefilter("ignore")
        try:
            workbook = load_workbook(source)
        except InvalidFileException as exc:
            raise ValueError(str(exc)) from exc
    problems: list[str] = []
    try:
        by_sheet: dict[str, list[RequirementResult]] = {}
        for r in results:
            by_sheet.setdefault(r.sheet or "", []).append(r)
        for sheet, group in by_sheet.items():
            if sheet not in workbook.sheetnames:
                problems.append(f"{display}:{sheet}: the sheet is gone; no results written there")
                continue
            ws = workbook[sheet]
            if ws.max_row > limits.max_rows:
                problems.append(
                    f"{display}:{sheet}: the sheet has more than {limits.max_rows:,} rows now; "
                    "no results written there"
                )
                continue
            problems += _fill_sheet(ws, group, display, HEADER_SCAN_ROWS)
        _summary_sheet(workbook, results, run_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".xlsx", dir=target.parent)
        os.close(fd)
        try:
            workbook.save(tmp)
            os.replace(tmp, target)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
    finally:
        workbook.close()
    return problems


def _fill_sheet(
    ws: Worksheet, results: Sequence[RequirementResult], display: str, scan_rows: int
) -> list[str]:
    from openpyxl.styles import PatternFill
    from openpyxl.utils import get_column_letter

    from pytest_pacts.planner.readers.xlsx import header_columns

    title = str(getattr(ws, "title", ""))
    header_row, columns = 0, None
    for row in ws.iter_rows(min_row=1, max_row=scan_rows):
        columns = header_columns(
            (get_column_letter(c.column), c.value) for c in row if c.column is not None
        )
        if columns is not None:
            header_row = row[0].row or 0
            break
    if columns is None or "req_id" not in columns:
        return [f"{display}:{title}: no header row found now; no results written there"]
    problems: list[str] = []
    valid: list[RequirementResult] = []
    for r in results:
        found = ws[f"{columns['req_id']}{r.row}"].value
        if str(found or "").strip() != r.req_id:
            problems.append(
                f"{display}:{title}:{r.row}:{columns['req_id']}: expected {r.req_id!r}, found "
                f"{found!r}: the file changed during the run; no results written for "
                f"{r.req_id}"
            )
            continue
        valid.append(r)
    rows: dict[int, list[tuple[RequirementResult, StepResult]]] = {}
    for r in valid:
        for row_number, s in _placed(ws, r, title, columns):
            rows.setdefault(row_number, []).append((r, s))
    if not rows:
        return problems
    header_cells = {
        str(c.value).strip(): c.column for c in ws[header_row] if isinstance(c.value, str)
    }
    if all(name in header_cells for name in COLUMNS):  # a results workbook run again
        first = header_cells[COLUMNS[0]]
    else:
        last_row = max(rows)
        used = 0
        for row in ws.iter_rows(min_row=header_row, max_row=last_row):
            for cell in reversed(row):
                if cell.value is not None:
                    used = max(used, cell.column)
                    break
        first = used + 1
    style_from = ws.cell(row=header_row, column=max(first - 1, 1))
    for offset, (name, width) in enumerate(zip(COLUMNS, _WIDTHS, strict=True)):
        cell = ws.cell(row=header_row, column=first + offset)
        _set(cell, name)
        if style_from.has_style:
            # the proxies' copies are the style objects themselves (openpyxl's StyleProxy)
            cell.font, cell.fill = copy(style_from.font), copy(style_from.fill)  # type: ignore[assignment]
            cell.border, cell.alignment = copy(style_from.border), copy(style_from.alignment)  # type: ignore[assignment]
        ws.column_dimensions[get_column_letter(first + offset)].width = width
    for row_number, pairs in rows.items():
        r = pairs[0][0]
        steps = [s for _r, s in pairs]
        culprit = any(s.culprit for s in steps)
        first_of_req = row_number == r.row
        show_rca = culprit or (first_of_req and not any(s.culprit for s in r.steps))
        values: tuple[str | float | None, ...] = (
            r.verdict,
            _row_status(steps),
            "\n".join(x for x in (r.rca, r.recommendation) if x) if show_rca else None,
            "\n".join(f"step {s.number}: {s.heal}" for s in steps if s.heal) or None,
            round(sum(s.duration_ms for s in steps) / 1000, 3),
        )
        for offset, value in enumerate(values):
            cell = ws.cell(row=row_number, column=first + offset)
            _set(cell, value)
        verdict_cell = ws.cell(row=row_number, column=first)
        colour = _FILLS.get(r.verdict.split(" ")[0])
        if colour:
            verdict_cell.fill = PatternFill("solid", fgColor=colour)
        ws.cell(row=row_number, column=first + 4).number_format = "0.00"
    return problems


def _placed(
    ws: Worksheet, r: RequirementResult, title: str, columns: Mapping[str, str]
) -> list[tuple[int, StepResult]]:
    """Each step of ``r`` with the row of the requirement's sheet it shows on: its own
    row, or, for a step of a block defined on another sheet (a ``Blocks`` sheet), the
    ``use`` row that brought it in (the n-th run of such steps on the n-th ``use`` row
    of the requirement that has no step of its own)."""
    own = [(s.row, s) for s in r.steps if s.sheet == title and s.row is not None]
    placed: list[tuple[int, StepResult]] = [(row, s) for row, s in own if row is not None]
    foreign = [s for s in r.steps if not (s.sheet == title and s.row is not None)]
    if not foreign or "action" not in columns or r.row is None:
        return placed
    claimed = {row for row, _s in placed}
    end = r.row + 1  # the requirement's rows end before the next requirement's first row
    max_row = ws.max_row
    while end <= max_row:
        found = ws[f"{columns['req_id']}{end}"].value
        if found is not None and str(found).strip() not in ("", r.req_id):
            break
        end += 1
    uses = [
        n
        for n in range(r.row, end)
        if n not in claimed
        and str(ws[f"{columns['action']}{n}"].value or "").strip().lower() == "use"
    ]
    runs: list[list[StepResult]] = []
    previous: StepResult | None = None
    for s in foreign:
        if (
            previous is None
            or previous.number + 1 != s.number
            or previous.block != s.block
            or (s.row or 0) <= (previous.row or 0)  # the same block again
        ):
            runs.append([])
        runs[-1].append(s)
        previous = s
    for use_row, run in zip(uses, runs, strict=False):
        placed += [(use_row, s) for s in run]
    return placed


def _summary_sheet(workbook: Workbook, results: Sequence[RequirementResult], run_id: str) -> None:
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    names: list[str] = list(workbook.sheetnames)
    title, n = SUMMARY_SHEET, 2
    while title in names:
        existing = workbook[title]
        if existing["A1"].value == "pytest-pacts results":  # ours, from a results workbook
            workbook.remove(existing)
            break
        title, n = f"{SUMMARY_SHEET} {n}", n + 1
    ws = workbook.create_sheet(title)
    ws["A1"], ws["B1"] = "pytest-pacts results", f"run {run_id}"
    ws["A1"].font = Font(bold=True)
    for col, name in enumerate(SUMMARY_COLUMNS, start=1):
        cell = ws.cell(row=3, column=col)
        _set(cell, name)
        cell.font = Font(bold=True)
    for i, r in enumerate(results, start=4):
        values: tuple[str | float, ...] = (
            r.req_id, r.verdict, r.rca, r.recommendation, r.heals,
            round(r.duration_ms / 1000, 3), r.where, r.nodeid,
        )  # fmt: skip
        for col, value in enumerate(values, start=1):
            _set(ws.cell(row=i, column=col), value)
        ws.cell(row=i, column=6).number_format = "0.00"
    for col, width in enumerate((22, 14, 60, 40, 8, 12, 14, 40), start=1):
        ws.column_dimensions[get_column_letter(col)].width = width
    ws.freeze_panes = "A4"
