"""Readers turn one file into a :class:`~pytest_pacts.planner.readers.base.Document`.

Each format is one module; :data:`READERS` maps a file suffix to its reader, so a new
format is one new module, one line here and its suffix in :data:`SUFFIXES`. The readers
load when first used: deciding which files are requirement files (:data:`SUFFIXES`) and
reading a plan from the plan cache import none of them (nor pydantic, nor openpyxl).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_pacts.planner.readers.base import Document, ReadFailure
    from pytest_pacts.planner.readers.limits import ReadLimits

#: The suffixes a reader exists for (the keys of :data:`READERS`, a test checks it).
SUFFIXES = frozenset({".json", ".yaml", ".yml", ".xlsx"})

Reader = Callable[[Path, str, "ReadLimits"], "Document"]

if TYPE_CHECKING:
    READERS: dict[str, Reader]

__all__ = ["READERS", "SUFFIXES", "Document", "ReadFailure", "ReadLimits", "Reader"]


def _readers() -> dict[str, Reader]:
    from pytest_pacts.planner.readers.textfile import read_json, read_yaml
    from pytest_pacts.planner.readers.xlsx import read_xlsx

    return {".json": read_json, ".yaml": read_yaml, ".yml": read_yaml, ".xlsx": read_xlsx}


def __getattr__(name: str) -> object:
    if name == "READERS":
        readers = _readers()
        globals()["READERS"] = readers
        return readers
    if name in ("Document", "ReadFailure"):
        from pytest_pacts.planner.readers import base

        return getattr(base, name)
    if name == "ReadLimits":
        from pytest_pacts.planner.readers.limits import ReadLimits

        return ReadLimits
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
