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


# -- the web observer: DTO isolation ------------------------------------------------------
# The web layer reads projections, never core types: only web/projection.py may import the
# store, governance, models or engine; every other web module imports the web package and
# the package version only, and compares no core value (a verdict, a status, a track) in
# code, templates or scripts: labels, tones and booleans come from the projection.

WEB = PACKAGE / "web"
PROJECTION = WEB / "projection.py"
WEB_MODULES = [p for p in _modules("web") if p != PROJECTION]


def _core_literals() -> set[str]:
    from typing import get_args

    from pytest_pacts.models.locator import GatePointName
    from pytest_pacts.models.outcome import RcaClass, StepStatus
    from pytest_pacts.store import records

    values: set[str] = {c.value for c in RcaClass}
    for alias in (
        records.RunStatus,
        records.Verdict,
        records.ProposalStatus,
        records.Severity,
        records.Track,
        StepStatus,
        GatePointName,
    ):
        values.update(get_args(alias))
    return values


def _compared_strings(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                for leaf in ast.walk(side):
                    if isinstance(leaf, ast.Constant) and isinstance(leaf.value, str):
                        found.add(leaf.value)
        elif (
            isinstance(node, ast.MatchValue)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            found.add(node.value.value)
    return found


def test_web_modules_exist() -> None:
    assert PROJECTION.is_file() and len(WEB_MODULES) >= 5


@pytest.mark.parametrize("path", WEB_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_web_layer_imports_no_core_types(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    relative = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level]
    assert not relative, f"{path.name}: use absolute imports so this rule sees them"
    inner = {m for m in _imports(path) if m.startswith("pytest_pacts")}
    bad = {m for m in inner if m != "pytest_pacts" and not m.startswith("pytest_pacts.web")}
    assert not bad, f"{path.relative_to(PACKAGE)} imports core modules {sorted(bad)}"


@pytest.mark.parametrize("path", WEB_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_web_layer_compares_no_core_literals(path: Path) -> None:
    bad = _compared_strings(path) & _core_literals()
    assert not bad, f"{path.relative_to(PACKAGE)} compares core values {sorted(bad)}"


@pytest.mark.parametrize(
    "path",
    sorted([*(WEB / "templates").glob("*.j2"), *(WEB / "static").glob("*.js")]),
    ids=lambda p: p.name,
)
def test_web_templates_and_scripts_compare_no_core_literals(path: Path) -> None:
    import re

    text = path.read_text(encoding="utf-8")
    quoted = {
        m.group(2)
        for m in re.finditer(r"(==|!=|===|!==|\bin)\s*(?:\(|\[)?\s*['\"]([\w-]+)['\"]", text)
    }
    quoted |= {m.group(1) for m in re.finditer(r"['\"]([\w-]+)['\"]\s*(?:==|!=|===|!==)", text)}
    bad = quoted & _core_literals()
    assert not bad, f"{path.name} compares core values {sorted(bad)}"


def test_the_literal_check_would_catch_a_comparison(tmp_path: Path) -> None:
    sample = tmp_path / "route.py"
    sample.write_text('def f(run):\n    return "ok" if run.verdict == "pass" else "no"\n')
    assert _compared_strings(sample) & _core_literals() == {"pass"}
