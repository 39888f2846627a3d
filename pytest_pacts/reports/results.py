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

import csv
import io
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.models.text import file_stem
from pytest_pacts.planner.readers.base import ReadFailure
from pytest_pacts.planner.readers.limits import ReadLimits

if TYPE_CHECKING:  # openpyxl loads only when a workbook is written
    pass
from pytest_pacts.reports.artifacts import write_text
from pytest_pacts.reports.result_rows import RequirementResult
from pytest_pacts.reports.results_workbook import write_workbook

CSV_COLUMNS = (
    "File", "Line", "Req ID", "Step", "Step text", "Verdict", "Step result", "Root cause",
    "Heal", "Duration (s)",
)  # fmt: skip
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


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
                problems += write_workbook(
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
