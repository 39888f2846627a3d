"""The layering of docs/architecture.md, written down as a test so it cannot rot.

- models import nothing from the rest of the package;
- the engine side (planner, discovery, engine, governance, store) never imports pytest or
  the pytest layer;
- reports and the CLI never import engine internals beyond their public entry points
  (checked in their own issues).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pytest_pacts"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _modules(sub: str) -> list[Path]:
    return (
        sorted((PACKAGE / sub).rglob("*.py"))
        if (PACKAGE / sub).is_dir()
        else [PACKAGE / f"{sub}.py"]
    )


@pytest.mark.parametrize("path", _modules("models"), ids=lambda p: p.name)
def test_models_depend_on_nothing(path: Path) -> None:
    inner = {m for m in _imports(path) if m.startswith("pytest_pacts")}
    assert inner <= {m for m in inner if m.startswith("pytest_pacts.models")}, inner


ENGINE_SIDE = [
    "planner",
    "discovery",
    "engine",
    "governance",
    "store",
    "browser",
    "demo_app",
    "application",
]


@pytest.mark.parametrize(
    "path",
    [p for sub in ENGINE_SIDE for p in _modules(sub)],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_engine_side_never_imports_pytest(path: Path) -> None:
    bad = {
        m
        for m in _imports(path)
        if m == "pytest"
        or m.startswith(
            ("_pytest", "pytest_pacts.pytest_plugin", "pytest_pacts.cli", "pytest_pacts.reports")
        )
    }
    assert not bad, f"{path.relative_to(PACKAGE)} imports {sorted(bad)}"


def test_schema_in_docs_is_the_packaged_one() -> None:
    docs = PACKAGE.parent / "docs" / "requirements.schema.json"
    packaged = PACKAGE / "planner" / "requirements.schema.json"
    assert docs.read_text() == packaged.read_text(), (
        "run: cp pytest_pacts/planner/requirements.schema.json docs/"
    )
