from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import Workbook

from pytest_pacts.planner import LoadedFile, LoaderOptions, RequirementFileError, load_file

Rows = list[list[object]]


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str], Path]:
    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write


@pytest.fixture
def xlsx(tmp_path: Path) -> Callable[..., Path]:
    """Write a workbook from ``{sheet: rows}``; a str cell starting with '=' is a formula."""

    def _xlsx(sheets: dict[str, Rows], name: str = "reqs.xlsx") -> Path:
        wb = Workbook()
        first = True
        for title, rows in sheets.items():
            ws = wb.active if first else wb.create_sheet()
            assert ws is not None
            ws.title = title
            first = False
            for row in rows:
                ws.append(row)
        path = tmp_path / name
        wb.save(path)
        return path

    return _xlsx


def load(path: Path, **kw: object) -> LoadedFile:
    options = LoaderOptions(env=kw.pop("env", {}), **kw)  # type: ignore[arg-type]
    return load_file(path, options, display=path.name)


def problems(path: Path, **kw: object) -> list[str]:
    with pytest.raises(RequirementFileError) as info:
        load(path, **kw)
    return [str(p) for p in info.value.problems]
