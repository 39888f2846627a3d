"""Plain-text output for ``pacts`` commands: tables that line up with wide characters, pipe-safe."""

from __future__ import annotations

import json
import os
import sys
import unicodedata
from collections.abc import Sequence
from datetime import datetime


def width(text: str) -> int:
    """Terminal cells ``text`` takes: wide East Asian characters (Korean sheets) take two."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def clip(text: str, cells: int) -> str:
    """``text`` cut to at most ``cells`` terminal cells, ending in ``…`` when cut."""
    if width(text) <= cells:
        return text
    out = ""
    for char in text:
        if width(out + char) > cells - 1:
            break
        out += char
    return out + "…"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> str:
    """Columns padded to their widest cell; the columns numbered in ``right`` align right."""
    widths = [max(width(r[i]) for r in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        padded = []
        for i, cell in enumerate(cells):
            pad = " " * (widths[i] - width(cell))
            padded.append(pad + cell if i in right else cell + pad)
        return "  ".join(padded).rstrip()

    return "\n".join([line(headers), *(line(r) for r in rows)])


def when(moment: datetime | None) -> str:
    """A timestamp to the minute, or ``-`` for none."""
    return "-" if moment is None else moment.strftime("%Y-%m-%d %H:%MZ")


def score(value: object) -> str:
    """A score to two decimals, or ``-`` when it is not a number."""
    return f"{value:.2f}" if isinstance(value, int | float) else "-"


def compact(value: object) -> str:
    """One-line JSON; a dict drops its empty values."""
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if v not in (None, "", [], {})}
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def out(text: str) -> None:
    """Print ``text`` and a newline; a reader that went away (``| head``) is not an error."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # Point stdout at devnull so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
