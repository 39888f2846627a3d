"""What every reader produces: the file as JSON-like data plus where each value was written.

All formats end up in the shape of the published JSON Schema (``requirements.schema.json``),
so one validator and one model builder serve them all; ``positions`` maps a value's path
(e.g. ``("requirements", 0, "steps", 2, "action")``) to its source location.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

from pytest_pacts.errors import PactsError
from pytest_pacts.models import SourceRef

JsonLike: TypeAlias = "str | int | float | bool | list[JsonLike] | dict[str, JsonLike] | None"
PathKey: TypeAlias = tuple[str | int, ...]
Pos: TypeAlias = tuple[str | None, int | None, int | None, str | None]


def text_loc(path: str, line: int, column: int | None = None) -> SourceRef:
    """A location in a text file (1-based line and column)."""
    return SourceRef(path=path, line=line, column=str(column) if column is not None else None)


class ReadFailure(PactsError):
    """The file could not be read at all (syntax, encoding, not a workbook)."""

    def __init__(self, source: SourceRef, message: str, expected: str | None = None) -> None:
        super().__init__(message)
        self.source = source
        self.message = message
        self.expected = expected


@dataclass
class Document:
    """A requirement file as data (schema-shaped) with the location of every value."""

    path: str
    data: JsonLike
    # Locations are kept as plain tuples ``(sheet, row, line, column)`` and turned into
    # SourceRef models only when asked for: a 10,000-row sheet has ~50,000 of them and
    # most are never shown.
    positions: dict[PathKey, SourceRef | Pos] = field(default_factory=dict)
    # Problems a reader found in cells that still let the rest be read (formula cells, ...).
    cell_problems: list[tuple[SourceRef, str, str | None]] = field(default_factory=list)

    def locate(self, path: PathKey) -> SourceRef:
        """The location of the value at ``path``, or of its nearest located ancestor."""
        key = tuple(path)
        while key:
            found = self.positions.get(key)
            if found is not None:
                return self._ref(found)
            key = key[:-1]
        root = self.positions.get(())
        return self._ref(root) if root is not None else SourceRef(path=self.path)

    def _ref(self, found: SourceRef | Pos) -> SourceRef:
        if isinstance(found, SourceRef):
            return found
        sheet, row, line, column = found
        return SourceRef(path=self.path, sheet=sheet, row=row, line=line, column=column)
