"""Excel workbooks (docs/user-guide.md "Excel"), read with openpyxl in read-only mode.

A step sheet is any sheet whose header row (title rows above it are allowed) names the step
columns; names match case- and space-insensitively. Rows sharing a ``Req ID`` form one
requirement in row order, and ``Req ID`` / ``URL`` / ``Title`` / ``Tags`` carry down from a
requirement's first row. A ``Blocks`` sheet defines blocks the same way keyed by ``Block``; a
``Config`` sheet holds ``key | value`` pairs. Formula cells are data that is never evaluated:
they are reported, not computed (a workbook is untrusted input).
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.models import SourceRef
from pytest_pacts.planner.readers.base import Document, JsonLike, PathKey, Pos, ReadFailure
from pytest_pacts.planner.readers.limits import MIB, ReadLimits

if TYPE_CHECKING:  # openpyxl loads only when a workbook is read
    from openpyxl.worksheet.worksheet import Worksheet

HEADER_SCAN_ROWS = 20

# normalised header text -> field name
_COLUMNS: dict[str, str] = {
    "reqid": "req_id",
    "requirementid": "req_id",
    "requirement": "req_id",
    "url": "url",
    "title": "title",
    "tags": "tags",
    "auth": "auth",
    "authprofile": "auth",
    "element@region": "target",
    "elementregion": "target",
    "element": "element",
    "region": "region",
    "action": "action",
    "value": "value",
    "expectedoutcome": "expected",
    "expected": "expected",
    "onfail": "on_fail",
    "block": "block",
    "params": "params",
    "parameters": "params",
}
_REQUIREMENT_FIELDS = ("req_id", "url", "title", "tags", "auth")
_STEP_FIELDS = ("target", "element", "region", "action", "value", "expected", "on_fail")
#: Every column a step sheet can use, as a template writes it (field -> header label); the
#: separate Element and Region columns are the alternative to Element@Region. ``pacts init``
#: writes its template from this, so the template cannot miss a column the reader takes.
STEP_SHEET_COLUMNS: dict[str, str] = {
    "req_id": "Req ID",
    "url": "URL",
    "title": "Title",
    "tags": "Tags",
    "target": "Element@Region",
    "action": "Action",
    "value": "Value",
    "expected": "Expected Outcome",
    "on_fail": "On Fail",
    "auth": "Auth",
}
#: Columns that stand for another (Element and Region for Element@Region).
ALTERNATIVE_COLUMNS: dict[str, str] = {"element": "target", "region": "target"}
STEP_COLUMNS_HELP = (
    "Req ID, URL, Element@Region (or Element and Region), Action, Value, Expected Outcome"
)


def _norm(text: str) -> str:
    return re.sub(r"[\s_\-]+", "", text).lower()


class _Cell:
    __slots__ = ("column", "kind", "value")

    def __init__(self, value: object, kind: str, column: str) -> None:
        self.value = value
        self.kind = kind
        self.column = column


def _rows(ws: Worksheet, display: str, limits: ReadLimits) -> Iterator[tuple[int, list[_Cell]]]:
    """The sheet's rows, streamed; more rows than the limit, or a cell longer than the cell
    limit, is a located :class:`ReadFailure` as soon as it is met."""
    from openpyxl.utils import get_column_letter

    title = str(getattr(ws, "title", ""))
    for row_number, row in enumerate(ws.iter_rows(), start=1):
        if row_number > limits.max_rows:
            raise ReadFailure(
                SourceRef(path=display, sheet=title, row=row_number),
                f"the sheet has more than {limits.max_rows:,} rows",
                "requirements split over several files or sheets (raise the ini key "
                "pacts_max_rows if this sheet is legitimate)",
            )
        cells = []
        for i, cell in enumerate(row, start=1):
            value = getattr(cell, "value", None)
            if isinstance(value, str) and len(value) > limits.max_cell_chars:
                raise ReadFailure(
                    SourceRef(
                        path=display, sheet=title, row=row_number, column=get_column_letter(i)
                    ),
                    f"the cell holds {len(value):,} characters, over the limit of "
                    f"{limits.max_cell_chars:,}",
                    "a shorter value (raise the ini key pacts_max_cell_chars if needed)",
                )
            cells.append(_Cell(value, getattr(cell, "data_type", "n"), get_column_letter(i)))
        yield row_number, cells


def check_archive(path: Path, display: str, limits: ReadLimits) -> None:
    """Refuse an archive that would inflate beyond the limits, from its directory alone
    (nothing is inflated). Python's zip reader never inflates a member past the size its
    directory declares, so the declared sizes bound what openpyxl can read."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return  # not an archive: openpyxl says so in its own words below
    total = sum(m.file_size for m in members)
    if total > limits.max_uncompressed_bytes:
        raise ReadFailure(
            SourceRef(path=display),
            f"the workbook inflates to {total / MIB:,.0f} MiB, over the "
            f"{limits.max_uncompressed_bytes / MIB:,.0f} MiB limit",
            "a workbook of ordinary size (raise the ini key pacts_max_uncompressed_mb if this "
            "file is legitimate)",
        )
    for member in members:
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size > MIB and ratio > limits.max_compression_ratio:
            raise ReadFailure(
                SourceRef(path=display),
                f"the workbook's part {member.filename} inflates {ratio:,.0f} times, over the "
                f"limit of {limits.max_compression_ratio:,.0f}",
                "a workbook saved by a spreadsheet program (raise the ini key "
                "pacts_max_compression_ratio if this file is legitimate)",
            )


class _SheetReader:
    def __init__(self, doc: Document, sheet: str) -> None:
        self.doc = doc
        self.sheet = sheet

    def loc(self, row: int, column: str | None = None) -> SourceRef:
        return SourceRef(path=self.doc.path, sheet=self.sheet, row=row, column=column)

    def pos(self, row: int, column: str | None = None) -> Pos:
        """A cheap location for ``doc.positions`` (made a SourceRef only when shown)."""
        return (self.sheet, row, None, column)

    def text(self, cell: _Cell, row: int) -> str | None:
        """A cell as text; formulas and error values are reported and read as empty."""
        value = cell.value
        if value is None:
            return None
        if cell.kind == "f" or (
            isinstance(value, str) and value.startswith("=") and cell.kind not in ("s", "inlineStr")
        ):
            self.doc.cell_problems.append(
                (
                    self.loc(row, cell.column),
                    f"cell holds a formula {str(value)[:60]!r}; formulas are never evaluated",
                    "a plain value (to keep text starting with '=', type it with a leading ')",
                )
            )
            return None
        if cell.kind == "e":
            self.doc.cell_problems.append(
                (self.loc(row, cell.column), f"cell holds an error value {value!r}", "a value")
            )
            return None
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        if isinstance(value, dt.datetime):
            return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
        if isinstance(value, (dt.date, dt.time)):
            return value.isoformat()
        text = str(value)
        return text if text.strip() else None

    def header(self, rows: list[tuple[int, list[_Cell]]]) -> tuple[int, dict[str, str]] | None:
        """The first row naming at least three known columns including Action or Block."""
        for row_number, cells in rows[:HEADER_SCAN_ROWS]:
            found = header_columns((cell.column, cell.value) for cell in cells)
            if found is not None:
                return row_number, found
        return None


def header_columns(cells: Iterable[tuple[str, object]]) -> dict[str, str] | None:
    """``{field: column letter}`` when the row of ``(column letter, value)`` cells is a
    header row (at least three known columns including Action or Block), else ``None``.
    The results workbook finds the header row again with this same rule."""
    found: dict[str, str] = {}
    for column, value in cells:
        if isinstance(value, str):
            name = _COLUMNS.get(_norm(value))
            if name and name not in found:
                found[name] = column
    return found if len(found) >= 3 and ("action" in found or "block" in found) else None


def _record(cells: list[_Cell], columns: dict[str, str]) -> dict[str, _Cell]:
    by_letter = {c.column: c for c in cells}
    return {name: by_letter[letter] for name, letter in columns.items() if letter in by_letter}


def _step_from(
    reader: _SheetReader, rec: dict[str, _Cell], row: int, base: PathKey, doc: Document
) -> dict[str, JsonLike] | None:
    step: dict[str, JsonLike] = {}
    for name in _STEP_FIELDS:
        cell = rec.get(name)
        if cell is None:
            continue
        value = reader.text(cell, row)
        if value is None:
            continue
        key = "element" if name == "target" else name
        step[key] = value
        doc.positions[(*base, key)] = reader.pos(row, cell.column)
    return step or None


# long because: one streaming pass over a sheet's rows; the row state stays local
def _read_steps_sheet(
    reader: _SheetReader,
    rows: list[tuple[int, list[_Cell]]],
    header_row: int,
    columns: dict[str, str],
    requirements: list[JsonLike],
) -> None:
    doc = reader.doc
    missing = [
        label
        for label, ok in (
            ("Req ID", "req_id" in columns),
            ("URL", "url" in columns),
            ("Action", "action" in columns),
            ("Element@Region", "target" in columns or "element" in columns),
        )
        if not ok
    ]
    if missing:
        raise ReadFailure(
            reader.loc(header_row),
            "the header row is missing the column(s) " + ", ".join(repr(m) for m in missing),
            STEP_COLUMNS_HELP,
        )
    current: dict[str, JsonLike] | None = None
    current_index = -1
    for row, cells in rows:
        if row <= header_row:
            continue
        rec = _record(cells, columns)
        values = {
            name: reader.text(cell, row)
            for name, cell in rec.items()
            if name in _REQUIREMENT_FIELDS
        }
        req_id = values.get("req_id")
        if req_id is not None and (current is None or req_id.strip() != current["req_id"]):
            current = {"req_id": req_id.strip(), "steps": []}
            requirements.append(current)
            current_index = len(requirements) - 1
            doc.positions[("requirements", current_index)] = reader.pos(row, columns["req_id"])
            doc.positions[("requirements", current_index, "req_id")] = reader.pos(
                row, columns["req_id"]
            )
        for name in ("url", "title", "tags", "auth"):
            value = values.get(name)
            if value is None:
                continue
            if current is None:
                break
            if name in current and current[name] != value.strip():
                doc.cell_problems.append(
                    (
                        reader.loc(row, columns[name]),
                        f"{name.upper() if name == 'url' else name.title()} changes within "
                        f"{current['req_id']} ({current[name]!r} then {value.strip()!r})",
                        f"the {name} on the requirement's first row only",
                    )
                )
                continue
            current[name] = value.strip()
            doc.positions[("requirements", current_index, name)] = reader.pos(row, columns[name])
        if current is None:
            if any(reader.text(c, row) for c in rec.values()):
                doc.cell_problems.append(
                    (
                        reader.loc(row),
                        "a step row comes before any Req ID",
                        "a Req ID on the first row of each requirement",
                    )
                )
            continue
        steps = current["steps"]
        assert isinstance(steps, list)
        base: PathKey = ("requirements", current_index, "steps", len(steps))
        step = _step_from(reader, rec, row, base, doc)
        if step is not None:
            doc.positions[base] = reader.pos(row)
            steps.append(step)


# long because: one streaming pass over the blocks sheet's rows
def _read_blocks_sheet(
    reader: _SheetReader, rows: list[tuple[int, list[_Cell]]], blocks: dict[str, JsonLike]
) -> None:
    doc = reader.doc
    found = reader.header(rows)
    if found is None or "block" not in found[1]:
        raise ReadFailure(
            reader.loc(1),
            "the Blocks sheet has no header row with a 'Block' column",
            "Block, Params, Element@Region, Action, Value, Expected Outcome",
        )
    header_row, columns = found
    current: dict[str, JsonLike] | None = None
    name = ""
    for row, cells in rows:
        if row <= header_row:
            continue
        rec = _record(cells, columns)
        block_cell = rec.get("block")
        block_name = reader.text(block_cell, row) if block_cell else None
        if block_name is not None and block_name.strip() != name:
            name = block_name.strip()
            if name in blocks:
                doc.cell_problems.append(
                    (
                        reader.loc(row, columns["block"]),
                        f"block {name!r} is defined twice",
                        "unique block names",
                    )
                )
            current = {"steps": []}
            blocks[name] = current
            doc.positions[("blocks", name)] = reader.pos(row, columns["block"])
        params_cell = rec.get("params")
        params = reader.text(params_cell, row) if params_cell else None
        if current is None:
            if any(reader.text(c, row) for c in rec.values()):
                doc.cell_problems.append(
                    (
                        reader.loc(row),
                        "a block row comes before any Block name",
                        "the block name on its first row",
                    )
                )
            continue
        if params is not None:
            current["params"] = [p.strip() for p in re.split(r"[;,]", params) if p.strip()]
            doc.positions[("blocks", name, "params")] = reader.pos(row, columns["params"])
        steps = current["steps"]
        assert isinstance(steps, list)
        base: PathKey = ("blocks", name, "steps", len(steps))
        step = _step_from(reader, rec, row, base, doc)
        if step is not None:
            doc.positions[base] = reader.pos(row)
            steps.append(step)


def _read_config_sheet(
    reader: _SheetReader, rows: list[tuple[int, list[_Cell]]], data: dict[str, JsonLike]
) -> None:
    variables: dict[str, JsonLike] = {}
    for row, cells in rows:
        if len(cells) < 2:
            continue
        key = reader.text(cells[0], row)
        value = reader.text(cells[1], row)
        if key is None or _norm(key) in ("key", "name", "setting"):
            continue
        key = key.strip()
        if _norm(key) in ("baseurl", "url"):
            data["base_url"] = value or ""
            reader.doc.positions[("base_url",)] = reader.pos(row, cells[1].column)
            continue
        name = key[5:] if key.lower().startswith("vars.") else key
        variables[name] = value or ""
        reader.doc.positions[("vars", name)] = reader.pos(row, cells[1].column)
    if variables:
        data["vars"] = variables


# long because: the workbook opened under its limits and each sheet read, in order
def read_xlsx(path: Path, display: str, limits: ReadLimits | None = None) -> Document:
    """Read a workbook into the schema shape; raises :class:`ReadFailure` when unreadable
    or over the :class:`ReadLimits`."""
    # openpyxl (and numpy, which it imports when installed) only when a workbook is read:
    # a warm collection takes unchanged workbooks from the document cache (readers/cache.py)
    from openpyxl import load_workbook

    limits = limits or ReadLimits()
    check_archive(path, display, limits)
    try:
        workbook = load_workbook(path, read_only=True, data_only=False)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError, EOFError) as exc:
        reason = "it is not a zip archive" if isinstance(exc, zipfile.BadZipFile) else str(exc)
        raise ReadFailure(
            SourceRef(path=display),
            f"not a readable .xlsx workbook ({reason})",
            "an Excel 2007+ workbook saved as .xlsx",
        ) from None
    except Exception as exc:  # openpyxl raises many types on truncated archives
        raise ReadFailure(
            SourceRef(path=display),
            f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})",
            "an Excel 2007+ workbook saved as .xlsx",
        ) from None
    doc = Document(display, None)
    data: dict[str, JsonLike] = {}
    requirements: list[JsonLike] = []
    blocks: dict[str, JsonLike] = {}
    try:
        step_sheets = 0
        for ws in workbook.worksheets:
            reader = _SheetReader(doc, ws.title)
            try:
                rows = list(_rows(ws, display, limits))
            except ReadFailure:
                raise
            except Exception as exc:
                raise ReadFailure(
                    SourceRef(path=display, sheet=ws.title),
                    f"the sheet cannot be read ({type(exc).__name__}: {exc})",
                    "an Excel 2007+ workbook saved as .xlsx",
                ) from None
            kind = _norm(ws.title)
            if kind == "blocks":
                _read_blocks_sheet(reader, rows, blocks)
            elif kind == "config":
                _read_config_sheet(reader, rows, data)
            else:
                found = reader.header(rows)
                if found is None:
                    continue  # notes, lookups and other sheets are not ours
                step_sheets += 1
                _read_steps_sheet(reader, rows, found[0], found[1], requirements)
        if step_sheets == 0:
            raise ReadFailure(
                SourceRef(path=display),
                "no sheet has a header row with the step columns",
                STEP_COLUMNS_HELP
                + " (title rows above it are fine); a workbook that is not a requirement "
                "sheet is kept out with --ignore or collect_ignore",
            )
    finally:
        workbook.close()
    if blocks:
        data["blocks"] = blocks
    data["requirements"] = requirements
    doc.data = data
    doc.positions.setdefault(("requirements",), SourceRef(path=display))
    return doc
