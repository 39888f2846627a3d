"""Hostile requirement files are answered in bounded time and memory.

Every file is built by the test (none is committed). Each is planned in a child process
limited to 1 GiB of address space and 20 s: the answer must be one clean, located
``RequirementFileError`` (no ``MemoryError``, ``RecursionError`` or traceback), or, for a
large but valid sheet, the plans. A pytester run shows the other files still collect.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook

LIMIT_AS = 1024**3
BOUND_S = 20

CHILD = textwrap.dedent(
    """
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from pathlib import Path
    from pytest_pacts.planner import RequirementFileError, load_file
    try:
        loaded = load_file(Path(sys.argv[1]))
    except RequirementFileError as exc:
        print("ERROR:" + str(exc))
    else:
        print("PLANS:%d" % len(loaded.plans))
    """
).format(limit=LIMIT_AS)


def plan_bounded(path: Path) -> str:
    """Plan ``path`` in a child limited to 1 GiB and 20 s; its one-line answer."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)],
        capture_output=True,
        text=True,
        timeout=BOUND_S,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stdout + done.stderr, done.stderr[-2000:]
    return done.stdout.strip()


def _sheet_xml(rows: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f"<sheetData>{rows}</sheetData></worksheet>"
    )


def _workbook_with_sheet(path: Path, write_sheet: object) -> None:
    """A valid workbook from openpyxl whose sheet XML is replaced by ``write_sheet(stream)``."""
    wb = Workbook()
    wb.active.title = "Steps"  # type: ignore[union-attr]
    wb.save(path)
    with zipfile.ZipFile(path) as src:
        parts = {name: src.read(name) for name in src.namelist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for name, data in parts.items():
            if name == "xl/worksheets/sheet1.xml":
                with out.open(name, "w", force_zip64=True) as stream:
                    write_sheet(stream)  # type: ignore[operator]
            else:
                out.writestr(name, data)


def test_yaml_alias_bomb(tmp_path: Path) -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [{', '.join(['*' + prev] * 9)}]")
    lines.append("requirements: [*j]")
    path = tmp_path / "bomb.req.yaml"
    path.write_text("\n".join(lines) + "\n")
    assert path.stat().st_size < 1000
    answer = plan_bounded(path)
    assert answer.startswith("ERROR:") and "aliases expand to more than" in answer, answer
    assert "bomb.req.yaml:" in answer  # located


@pytest.mark.parametrize("suffix", [".req.json", ".req.yaml"])
def test_deep_nesting(tmp_path: Path, suffix: str) -> None:
    depth = 100_000
    path = tmp_path / f"deep{suffix}"
    path.write_text('{"requirements": ' + "[" * depth + "]" * depth + "}")
    answer = plan_bounded(path)
    assert answer.startswith("ERROR:") and "nested more than 64 levels" in answer, answer


def test_xlsx_zip_bomb(tmp_path: Path) -> None:
    path = tmp_path / "bomb.req.xlsx"
    row = b'<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row>'

    def write(stream: object) -> None:
        chunk = row * 16384  # ~1 MiB of identical rows
        stream.write(_sheet_xml("").split("<sheetData>")[0].encode() + b"<sheetData>")  # type: ignore[attr-defined]
        for _ in range(300):  # ~300 MiB inflated, a few hundred KiB on disk
            stream.write(chunk)  # type: ignore[attr-defined]
        stream.write(b"</sheetData></worksheet>")  # type: ignore[attr-defined]

    _workbook_with_sheet(path, write)
    assert path.stat().st_size < 5 * 1024 * 1024
    answer = plan_bounded(path)
    assert answer.startswith("ERROR:") and "inflates to" in answer, answer


def test_xlsx_compression_ratio(tmp_path: Path) -> None:
    path = tmp_path / "ratio.req.xlsx"

    def write(stream: object) -> None:
        stream.write(_sheet_xml("<!--" + " " * (20 * 1024 * 1024) + "-->").encode())  # type: ignore[attr-defined]

    _workbook_with_sheet(path, write)
    answer = plan_bounded(path)
    assert answer.startswith("ERROR:") and "inflates" in answer and "times" in answer, answer


def test_xlsx_huge_cell(tmp_path: Path) -> None:
    path = tmp_path / "cell.req.xlsx"
    head = ["Req ID", "URL", "Element", "Action", "Value", "Expected"]
    body = ["REQ-1", "/", "Name", "fill", "x" * 40_000, ""]

    def row(r: int, values: list[str]) -> str:
        cells = "".join(
            f'<c r="{chr(65 + i)}{r}" t="inlineStr"><is><t>{v}</t></is></c>'
            for i, v in enumerate(values)
        )
        return f'<row r="{r}">{cells}</row>'

    def write(stream: object) -> None:  # openpyxl itself cuts a value to 32,767 on save
        stream.write(_sheet_xml(row(1, head) + row(2, body)).encode())  # type: ignore[attr-defined]

    _workbook_with_sheet(path, write)
    answer = plan_bounded(path)
    assert answer.startswith("ERROR:") and "40,000 characters" in answer, answer
    assert ":Steps:2:E" in answer or "Steps" in answer, answer  # sheet, row and column


def test_xlsx_million_rows(tmp_path: Path) -> None:
    path = tmp_path / "rows.req.xlsx"

    def write(stream: object) -> None:
        head = '<row r="1"><c r="A1" t="inlineStr"><is><t>Req ID</t></is></c></row>'
        stream.write(_sheet_xml(head).split("</sheetData>")[0].encode())  # type: ignore[attr-defined]
        for start in range(2, 1_048_577, 65536):
            rows = "".join(f'<row r="{r}"/>' for r in range(start, min(start + 65536, 1_048_577)))
            stream.write(rows.encode())  # type: ignore[attr-defined]
        stream.write(b"</sheetData></worksheet>")  # type: ignore[attr-defined]

    _workbook_with_sheet(path, write)
    answer = plan_bounded(path)
    assert answer.startswith("ERROR:") and "more than 100,000 rows" in answer, answer


def test_large_valid_sheet_collects_by_streaming(tmp_path: Path) -> None:
    path = tmp_path / "large.req.xlsx"
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Steps")
    ws.append(["Req ID", "URL", "Element", "Action", "Value", "Expected"])
    for i in range(3000):
        ws.append([f"REQ-{i}", "/", "Name", "fill", "Ada", "field_populated"])
        ws.append([None, None, "Save", "click", None, "text_visible:Saved"])
    wb.save(path)
    assert plan_bounded(path) == "PLANS:3000"


def test_a_hostile_file_is_one_collection_error_and_the_others_collect(
    pytester: pytest.Pytester,
) -> None:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 8):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [{', '.join(['*' + prev] * 10)}]")
    pytester.makefile(".req.yaml", bomb="\n".join(lines) + "\n")
    good = {"req_id": "REQ-OK", "url": "https://example.test/", "steps": ["Name | fill | Ada"]}
    pytester.makefile(".req.json", good=json.dumps(good))
    result = pytester.runpytest_subprocess("--collect-only", "-q", "--pacts-max-yaml-nodes=1000")
    text = result.stdout.str()
    assert "REQ-OK" in text, text
    assert "bomb.req.yaml" in text and "aliases expand to more than 1,000 values" in text, text
    assert "Traceback" not in text and "RecursionError" not in text
