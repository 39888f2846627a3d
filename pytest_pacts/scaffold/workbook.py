"""Write requirement workbooks (.xlsx) in the shape the Excel reader expects.

Used by ``pacts init`` (the template with Action / Expected Outcome dropdowns), by the
sample requirements, and by tests and benchmarks that need real workbooks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from pytest_pacts.models import Action, ExpectationKind, OnFail
from pytest_pacts.planner.readers.xlsx import STEP_SHEET_COLUMNS

# The reader's step-sheet columns in its order (docs/user-guide.md, "Excel"): the first eight
# are where they always were, so workbooks written before keep their cell addresses.
HEADER = tuple(STEP_SHEET_COLUMNS.values())
_COLUMN = {field: i for i, field in enumerate(STEP_SHEET_COLUMNS, start=1)}
BLOCK_HEADER = ("Block", "Params", "Element@Region", "Action", "Value", "Expected Outcome")
STEP_ACTIONS = tuple(a.value for a in Action)
ON_FAIL = tuple(o.value for o in OnFail)
_WIDTHS = {"title": 36, "target": 32, "value": 32, "expected": 34, "action": 10, "on_fail": 9}
OUTCOME_HINTS = tuple(k.value if k.argument == "none" else f"{k.value}:" for k in ExpectationKind)


@dataclass
class SheetRequirement:
    """One requirement to write: steps are (element@region, action, value, expected)."""

    req_id: str
    url: str
    steps: Sequence[tuple[str, str, str, str]]
    title: str = ""
    tags: str = ""
    auth: str = ""  # an auth profile of pacts-auth.yaml


@dataclass
class WorkbookSpec:
    requirements: Sequence[SheetRequirement]
    sheet: str = "Requirements"
    title_rows: Sequence[str] = ()
    blocks: Mapping[str, tuple[str, Sequence[tuple[str, str, str, str]]]] = field(
        default_factory=dict
    )  # name -> (params, steps)
    config: Mapping[str, str] = field(default_factory=dict)
    dropdowns: bool = True


_BOLD = Font(bold=True)
_FILL = PatternFill("solid", fgColor="DDEBF7")


def _header(ws: Worksheet, row: int, names: Iterable[str]) -> None:
    for col, name in enumerate(names, start=1):
        cell = ws.cell(row=row, column=col, value=name)
        cell.font = _BOLD
        cell.fill = _FILL


# long because: the template workbook laid out sheet by sheet
def write_workbook(path: Path, spec: WorkbookSpec) -> Path:
    """Write ``spec`` to ``path`` (parents created). Returns the path."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = spec.sheet
    row = 1
    for title in spec.title_rows:
        ws.cell(row=row, column=1, value=title).font = Font(bold=True, size=14)
        row += 1
    header_row = row
    _header(ws, header_row, HEADER)
    for req in spec.requirements:
        first = True
        for target, action, value, expected in req.steps:
            row += 1
            cells = {"target": target, "action": action, "value": value, "expected": expected}
            if first:
                cells |= {"req_id": req.req_id, "url": req.url, "title": req.title}
                cells |= {"tags": req.tags, "auth": req.auth}
                first = False
            for name, text in cells.items():
                if text:
                    ws.cell(row=row, column=_COLUMN[name], value=text)
    for name, col in _COLUMN.items():
        ws.column_dimensions[get_column_letter(col)].width = _WIDTHS.get(name, 14)
    if spec.dropdowns:
        last = max(row + 200, 500)
        actions = DataValidation(
            type="list",
            formula1='"' + ",".join(STEP_ACTIONS) + '"',
            allow_blank=True,
            showErrorMessage=True,
            errorTitle="Unknown action",
            error="Pick one of: " + ", ".join(STEP_ACTIONS),
        )
        outcomes = DataValidation(
            type="list",
            formula1="=Outcomes!$A$1:$A$" + str(len(OUTCOME_HINTS)),
            allow_blank=True,
            showErrorMessage=False,
        )
        on_fail = DataValidation(
            type="list",
            formula1='"' + ",".join(ON_FAIL) + '"',
            allow_blank=True,
            showErrorMessage=True,
            errorTitle="Unknown On Fail",
            error="Pick one of: " + ", ".join(ON_FAIL) + " (empty: abort)",
        )
        for validation, name in ((actions, "action"), (outcomes, "expected"), (on_fail, "on_fail")):
            ws.add_data_validation(validation)
            letter = get_column_letter(_COLUMN[name])
            validation.add(f"{letter}{header_row + 1}:{letter}{last}")
        lists = wb.create_sheet("Outcomes")
        for i, hint in enumerate(OUTCOME_HINTS, start=1):
            lists.cell(row=i, column=1, value=hint)
        lists.sheet_state = "hidden"
    if spec.blocks:
        bs = wb.create_sheet("Blocks")
        _header(bs, 1, BLOCK_HEADER)
        r = 1
        for name, (params, steps) in spec.blocks.items():
            first = True
            for target, action, value, expected in steps:
                r += 1
                if first:
                    bs.cell(row=r, column=1, value=name)
                    bs.cell(row=r, column=2, value=params or None)
                    first = False
                for col, text in ((3, target), (4, action), (5, value), (6, expected)):
                    if text:
                        bs.cell(row=r, column=col, value=text)
    if spec.config:
        cs = wb.create_sheet("Config")
        _header(cs, 1, ("Key", "Value"))
        for r, (key, value) in enumerate(spec.config.items(), start=2):
            cs.cell(row=r, column=1, value=key)
            cs.cell(row=r, column=2, value=value)
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path
