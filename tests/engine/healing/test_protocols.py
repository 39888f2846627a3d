"""The ladder and its rungs satisfy the engine's seams (checked by mypy --strict and at
run time), and the package never imports pytest."""

from __future__ import annotations

import ast
from pathlib import Path

from pytest_pacts.engine.contracts import Healer, Rung
from pytest_pacts.engine.healing import HealingLadder, default_rungs
from pytest_pacts.models.outcome import HealRung

PACKAGE = Path(__file__).resolve().parents[3] / "pytest_pacts" / "engine" / "healing"


def test_the_ladder_is_a_healer_and_its_rungs_are_rungs_in_spec_order() -> None:
    healer: Healer = HealingLadder()
    rungs: list[Rung] = default_rungs()
    assert isinstance(healer, HealingLadder)
    # The ladder's order; region-drift repair is a second repair rung right after alternates
    names = [r.name for r in rungs]
    assert names == [HealRung.ALTERNATE, HealRung.REPAIR, *list(HealRung)[1:]]


def test_healing_never_imports_pytest() -> None:
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not {m for m in names if m == "pytest" or m.startswith("_pytest")}, path
