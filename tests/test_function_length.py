"""Small pieces (issue 37): no function over 50 lines unless a comment says why.

A function of the package longer than :data:`MAX_LINES` (from its first decorator to its last
line, docstring included) needs a comment right above it (over its decorators) that begins
``# long because:`` and says why it is one piece: a linear sequence a reader follows top to
bottom, a table of cases, a hot path where a call costs. Anything else is split.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pytest_pacts"
MAX_LINES = 50
MARK = "# long because:"
SPLIT_ELSEWHERE: frozenset[str] = frozenset()  # modules split on other branches, if any


def long_functions(path: Path) -> list[tuple[str, int, bool]]:
    """``(name, lines, explained)`` of each function of ``path`` over :data:`MAX_LINES`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        length = (node.end_lineno or node.lineno) - start + 1
        if length <= MAX_LINES:
            continue
        above = []
        i = start - 2
        while i >= 0 and lines[i].strip().startswith("#"):
            above.append(lines[i].strip())
            i -= 1
        found.append((node.name, length, any(c.startswith(MARK) for c in above)))
    return found


def test_every_long_function_says_why_it_is_long() -> None:
    unexplained = [
        f"{path.relative_to(PACKAGE)}: {name} ({length} lines)"
        for path in sorted(PACKAGE.rglob("*.py"))
        if str(path.relative_to(PACKAGE)) not in SPLIT_ELSEWHERE
        for name, length, explained in long_functions(path)
        if not explained
    ]
    assert not unexplained, (
        f"functions over {MAX_LINES} lines without a '{MARK} ...' comment above them: split "
        "them, or say why they are one piece:\n" + "\n".join(unexplained)
    )


def test_the_check_sees_a_long_function_and_its_comment(tmp_path: Path) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_LINES))
    sample = tmp_path / "m.py"
    sample.write_text(
        f"def short():\n    return 1\n\n\ndef bare():\n{body}\n\n"
        f"# {MARK[2:]} a table of cases\n@staticmethod\ndef told():\n{body}"
    )
    assert long_functions(sample) == [
        ("bare", MAX_LINES + 1, False),
        ("told", MAX_LINES + 2, True),
    ]
