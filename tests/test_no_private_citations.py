"""Nothing cites a document the package does not ship.

The project was designed from a product brief and a few design notes that are not part of
the package. A sentence such as "as the brief's section 6 says" sends a user or a new
maintainer to a file they cannot open, so the package, its docs, the README, the
CHANGELOG, the tests, the benchmarks, the scripts and the sample files explain the why in
place or link a ``docs/`` page instead. This test fails on the first such citation that
comes back.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = [
    "pytest_pacts",
    "docs",
    "tests",
    "bench",
    "scripts",
    "generated_tests",
    "conftest_templates",
    "sample_requirements",
    "README.md",
    "CHANGELOG.md",
]
TEXT_SUFFIXES = {
    ".py", ".pyi", ".js", ".mjs", ".html", ".css", ".md", ".j2", ".json", ".yaml", ".yml",
    ".toml", ".txt", ".cfg", ".ini",
}  # fmt: skip
SKIPPED_DIRS = {"__pycache__", ".pacts", "out", "node_modules"}

_DOCS = "SPEC|STYLE|PLATFORM"
CITATION = re.compile(
    rf"\b(?:{_DOCS})\.md\b"  # SPEC.md, STYLE.md, PLATFORM.md
    rf"|\b(?:{_DOCS})\s*\u00a7"  # SPEC §4
    r"|\b[Ss]eed\s+0\d\d\b"  # seed 003
    r"|\bseed\s+documents?\b"
    r"|\b[Tt]he\s+seed(?:'s)?(?=[\s.,;:)])"  # "the seed's regex", "as in the seed."
    r"|\u00a7\s*\d"  # a bare section sign: §2.3
)


def _files() -> list[Path]:
    out: list[Path] = []
    for name in SCANNED:
        top = ROOT / name
        if top.is_file():
            out.append(top)
            continue
        for path in top.rglob("*"):
            rel = path.relative_to(ROOT)
            if (
                path.is_file()
                and path != Path(__file__).resolve()
                and path.suffix in TEXT_SUFFIXES
                and not SKIPPED_DIRS.intersection(rel.parts)
            ):
                out.append(path)
    return sorted(out)


def citations(text: str) -> list[tuple[int, str]]:
    """``(line number, line)`` of every line that cites a document the package does not ship."""
    return [(n, line) for n, line in enumerate(text.splitlines(), 1) if CITATION.search(line)]


def test_no_file_cites_a_document_the_package_does_not_ship() -> None:
    found = []
    for path in _files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for n, line in citations(text)]
    assert not found, (
        "these lines cite a document the package does not ship; explain the why in place or "
        "link the docs/ page that explains it:\n" + "\n".join(found)
    )


@pytest.mark.parametrize(
    "line",
    [
        "searches same-origin iframes only (SPEC.md §4)",
        "as SPEC §6 says",
        "(STYLE.md habit 2)",
        "the healing anchors in `PLATFORM.md`",
        "the gate of seed 003",
        "Seed 000 §3 keeps a recipe",
        "verbatim from the seed:",
        "the seed's regex needs a literal",
        "acting on the wrong element (§2.3).",
    ],
)
def test_a_citation_is_caught(line: str) -> None:
    assert citations(line)


@pytest.mark.parametrize(
    "line",
    [
        "parser.add_argument('--seed', type=int, default=7)",
        "seed every run from one v1 run",
        "Row ids are the seeded ones",
        "const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE'])",
        "SPEC = WorkbookSpec(",
        "f'{STYLE}<main>'",
        "SYN.set(w, `§${i}`)",
        "the random seed is fixed",
    ],
)
def test_ordinary_words_are_not_citations(line: str) -> None:
    assert not citations(line)
