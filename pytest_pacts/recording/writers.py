"""Write a :class:`Recording` as a requirement file the planner loads: ``.req.yaml``,
``.req.json`` or ``.xlsx`` (docs/user-guide.md, "Record a sheet").

Rows are pipe strings where they can be (``"Login | click | | navigates_to:Products"``) and
objects where a cell holds a pipe or the row carries a ``note`` (why it did not resolve back
to the element used). The variables to set for ``{{env.NAME}}`` cells are said in the
file: YAML comments, the notes of the rows that use them in JSON, a ``Recording`` sheet in
a workbook (a sheet the reader passes over).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from pytest_pacts.recording.model import RecordedStep, Recording

FORMATS = (".req.yaml", ".req.yml", ".req.json", ".yaml", ".yml", ".json", ".xlsx")


def file_format(path: Path) -> str:
    """``yaml``, ``json`` or ``xlsx`` from ``path``'s name; ``ValueError`` for another."""
    name = path.name.lower()
    if name.endswith((".yaml", ".yml")):
        return "yaml"
    if name.endswith(".json"):
        return "json"
    if name.endswith(".xlsx"):
        return "xlsx"
    raise ValueError(
        f"{path} is not a requirement file name: end it in .req.yaml, .req.json or .xlsx"
    )


def write_recording(recording: Recording, path: Path, *, source: str = "pacts record") -> Path:
    """Write ``recording`` to ``path`` in the format its name says; answers ``path``."""
    kind = file_format(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "xlsx":
        _write_xlsx(recording, path, source)
    elif kind == "json":
        path.write_text(
            json.dumps(_document(recording, json_notes=True), indent=2, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
    else:
        path.write_text(_yaml(recording, source), encoding="utf-8")
    return path


def header_lines(recording: Recording, source: str) -> list[str]:
    """What the file says before its rows, one line each (no comment marks)."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"Written by `{source}` at {when} from {recording.url}."]
    if recording.env:
        lines.append("Set these environment variables before running (their values are not "
                     "written here):")  # fmt: skip
        lines.extend(f"  {name}: {why}" for name, why in recording.env.items())
    unverified = recording.unverified
    if unverified:
        lines.append(
            f"{len(unverified)} row(s) did not resolve back to the element used: see the "
            "note on each and rename the element (pacts elements lists the names)."
        )
    for text in recording.unmapped:
        lines.append(f"Not imported: {text}")
    return lines


def _pipe(step: RecordedStep) -> str | None:
    """``"Login | click | | navigates_to:Products"``, or ``None`` when a cell holds a pipe."""
    if any("|" in c for c in step.cells()):
        return None
    return step.text


def _step(step: RecordedStep, json_notes: bool) -> object:
    text = _pipe(step)
    if text is not None and not (json_notes and step.note):
        return text
    out: dict[str, str] = {"action": step.action}
    if step.element:
        out["element"] = step.element
    if step.value:
        out["value"] = step.value
    if step.expected:
        out["expected"] = step.expected
    if json_notes and step.note:
        out["note"] = step.note
    return out


def _notes(recording: Recording) -> dict[int, str]:
    """The note of each step, the env variable it needs included."""
    notes: dict[int, str] = {}
    for i, step in enumerate(recording.steps):
        parts = [f"not verified: {step.note}"] if step.note else []
        for name in recording.env:
            if step.value and f"{{{{env.{name}}}}}" in step.value:
                parts.append(f"set the environment variable {name} before running")
        if parts:
            notes[i] = "; ".join(parts)
    return notes


def _document(recording: Recording, *, json_notes: bool) -> dict[str, object]:
    notes = _notes(recording) if json_notes else {}
    steps = []
    for i, step in enumerate(recording.steps):
        shown = RecordedStep(step.action, step.element, step.value, step.expected, notes.get(i))
        steps.append(_step(shown, json_notes))
    requirement: dict[str, object] = {"req_id": recording.req_id}
    if recording.title:
        requirement["title"] = recording.title
    requirement["url"] = recording.url
    if recording.auth:
        requirement["auth"] = recording.auth
    requirement["steps"] = steps
    return {"requirements": [requirement]}


def _yaml(recording: Recording, source: str) -> str:
    import yaml

    head = "".join(f"# {line}\n" for line in header_lines(recording, source))
    document = _document(recording, json_notes=False)
    body = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=1000)
    notes = _notes(recording)
    if not notes:
        return head + body
    # each note as a comment above its row: every step item starts with "  - "
    out: list[str] = []
    index = -1
    for line in body.splitlines(keepends=True):
        if line.startswith("  - "):
            index += 1
            if index in notes:
                out.append(f"  # {notes[index]}\n")
        out.append(line)
    return head + "".join(out)


def _write_xlsx(recording: Recording, path: Path, source: str) -> None:
    from openpyxl import Workbook
    from openpyxl.styles import Font, PatternFill

    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Requirements"
    header = ["Req ID", "URL", "Title", "Auth", "Element@Region", "Action", "Value",
              "Expected Outcome", "Recorder note"]  # fmt: skip
    sheet.append(header)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    notes = _notes(recording)
    marked = PatternFill("solid", fgColor="FFF3BF")
    for i, step in enumerate(recording.steps):
        first = i == 0
        row = [
            recording.req_id if first else None,
            recording.url if first else None,
            recording.title if first else None,
            recording.auth if first else None,
            *[c or None for c in step.cells()],
            notes.get(i),
        ]
        sheet.append(row)
        if step.note:
            for cell in sheet[sheet.max_row]:
                cell.fill = marked
    for column, size in zip("ABCDEFGHI", (18, 36, 30, 10, 36, 10, 24, 30, 60), strict=True):
        sheet.column_dimensions[column].width = size
    about = workbook.create_sheet("Recording")
    for line in header_lines(recording, source):
        about.append([line])
    about.column_dimensions["A"].width = 100
    workbook.save(path)
