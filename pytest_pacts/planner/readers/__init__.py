"""Readers turn one file into a :class:`~pytest_pacts.planner.readers.base.Document`.

Each format is one module; :data:`READERS` maps a file suffix to its reader, so a new
format is one new module and one line here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytest_pacts.planner.readers.base import Document, ReadFailure
from pytest_pacts.planner.readers.limits import ReadLimits
from pytest_pacts.planner.readers.textfile import read_json, read_yaml
from pytest_pacts.planner.readers.xlsx import read_xlsx

Reader = Callable[[Path, str, ReadLimits], Document]

READERS: dict[str, Reader] = {
    ".json": read_json,
    ".yaml": read_yaml,
    ".yml": read_yaml,
    ".xlsx": read_xlsx,
}

__all__ = ["READERS", "Document", "ReadFailure", "ReadLimits", "Reader"]
