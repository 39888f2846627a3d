"""Regenerate the settings table of docs/reference.md from the one SETTINGS table.

Run: .venv/bin/python scripts/gen_reference.py   (tests/test_docs.py checks it is current)
"""

from __future__ import annotations

import re
from pathlib import Path

from pytest_pacts.pytest_plugin.options import SETTINGS

DOC = Path(__file__).resolve().parent.parent / "docs" / "reference.md"
BEGIN, END = "<!-- settings:begin -->", "<!-- settings:end -->"


def settings_table() -> str:
    rows = ["| option | ini key | type | default | meaning |", "| --- | --- | --- | --- | --- |"]
    for s in SETTINGS:
        default = s.default
        if isinstance(default, list):
            default = " ".join(default) or "(none)"
        if default is None:
            default = "(none)"
        kind = s.kind + (f" ({', '.join(s.choices)})" if s.choices else "")
        rows.append(f"| `{s.flag}` | `{s.name}` | {kind} | `{default}` | {s.help} |")
    return "\n".join(rows)


def render(text: str) -> str:
    block = f"{BEGIN}\n{settings_table()}\n{END}"
    return re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S)


if __name__ == "__main__":
    DOC.write_text(render(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"updated {DOC}")
