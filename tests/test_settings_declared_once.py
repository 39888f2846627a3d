"""Each setting is declared once (docs/architecture.md, "Settings"): a field of
:class:`~pytest_pacts.settings.PactsSettings` with its type, default and help, from which the
command-line flags, the ini keys, docs/reference.md's table and the engine's options are
derived. These tests fail when a flag has no row in the reference, or when a setting's
default is written a second time somewhere in the package (in any unit: 10 s, 10_000 ms).
"""

from __future__ import annotations

import ast
import dataclasses
import operator
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.planner.readers.limits import ReadLimits
from pytest_pacts.pytest_plugin.options import add_options
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS, SETTINGS, PactsSettings, base_url_of
from pytest_pacts.traces import Thresholds, TraceSettings

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pytest_pacts"

# -- the flags and ini keys come from the fields ---------------------------------------------


class _Recorder:
    """A stand-in for pytest's parser and its option group: what ``add_options`` declares."""

    def __init__(self) -> None:
        self.flags: dict[str, dict[str, object]] = {}
        self.ini: dict[str, dict[str, object]] = {}

    def getgroup(self, name: str, description: str = "") -> _Recorder:
        return self

    def addoption(self, flag: str, **kwargs: object) -> None:
        self.flags[flag] = kwargs

    def addini(self, name: str, help: str, **kwargs: object) -> None:
        self.ini[name] = kwargs


def _declared() -> _Recorder:
    recorder = _Recorder()
    add_options(recorder)  # type: ignore[arg-type]  # duck-typed: only the calls matter
    return recorder


def _reference_rows() -> dict[str, list[str]]:
    text = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    table = text.split("<!-- settings:begin -->", 1)[1].split("<!-- settings:end -->", 1)[0]
    rows: dict[str, list[str]] = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0].startswith("`--"):
            rows[cells[0].strip("`")] = cells
    return rows


def test_every_field_is_a_flag_and_an_ini_key_with_a_reference_row() -> None:
    fields = [f.name for f in dataclasses.fields(PactsSettings) if f.name != "base_url"]
    assert [s.name for s in SETTINGS] == [f"pacts_{name}" for name in fields]
    declared = _declared()
    rows = _reference_rows()
    assert list(declared.flags) == [s.flag for s in SETTINGS]
    assert list(declared.ini) == [s.name for s in SETTINGS]
    missing = [flag for flag in declared.flags if flag not in rows]
    assert not missing, f"flags without a row in docs/reference.md: {missing}"
    for s in SETTINGS:
        _option, ini, kind = rows[s.flag][:3]
        assert ini == f"`{s.name}`"
        assert kind.startswith(s.kind), (s.flag, kind)
        assert declared.flags[s.flag].get("choices") == (list(s.choices) or None)


def test_the_kinds_and_choices_come_from_the_field_types() -> None:
    by_name = {s.name: s for s in SETTINGS}
    assert by_name["pacts_files"].kind == "linelist"
    assert by_name["pacts_strict_heal"].kind == "bool"
    assert by_name["pacts_max_rows"].kind == "int"
    assert by_name["pacts_step_timeout"].kind == "float"
    assert by_name["pacts_store"].kind == "string"  # str | None
    assert by_name["pacts_discover"].kind == "choice"
    assert by_name["pacts_discover"].choices == ("auto", "always", "off")
    assert by_name["pacts_files"].default == list(PactsSettings.files)


# -- the engine's options and the other layers' defaults are the settings' ---------------------


def test_the_layers_defaults_are_the_settings() -> None:
    settings = PactsSettings()
    engine = EngineOptions()
    assert engine.step_timeout_ms == settings.step_timeout * 1000 == DEFAULT_STEP_TIMEOUT_MS
    assert engine.max_heal_rounds == settings.max_heal_rounds
    assert engine.evidence.threshold == settings.heal_threshold
    assert engine.evidence.margin == settings.heal_margin
    assert engine.max_response_bytes == settings.max_response_kb * 1024
    assert engine.trace_max_bytes == settings.trace_max_kb * 1024
    assert ReadLimits() == ReadLimits.of(settings)
    assert Thresholds().slower == settings.trace_slower
    assert TraceSettings().keep == settings.trace_keep


def test_the_base_url_precedence() -> None:
    """A project's ``base_url`` fixture, then the configured one, then the file's."""
    assert base_url_of("http://fixture", "http://cli", "http://file") == "http://fixture"
    assert base_url_of(None, "http://cli", "http://file") == "http://cli"
    assert base_url_of("", None, "http://file") == "http://file"
    assert base_url_of(None, None) is None


# -- no default written twice ------------------------------------------------------------------

# a number that means something else, with the same name words (checked by a person), and
# the evidence rule's defaults, declared with the rule (settings.py reads them from there)
NOT_A_SETTING = {
    ("engine/vision.py", "MARGIN"),  # template matching's own rule (docs/healing.md)
    ("store/postgres.py", "connect_timeout_s"),  # connecting to PostgreSQL
    ("web/launcher.py", "timeout"),  # stopping the runs `pacts serve` started
    ("models/evidence.py", "DEFAULT_THRESHOLD"),
    ("models/evidence.py", "DEFAULT_MARGIN"),
}
# words of a setting's name that say nothing of what it is
_NOISE = {"max", "min", "ms", "kb", "mb", "px", "pacts"}
_OPS: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Mult: operator.mul,
    ast.Add: operator.add,
    ast.Div: operator.truediv,
}


def _number(node: ast.expr | None) -> float | None:
    """The value of a constant expression (``10_000.0``, ``1024 * 1024``), else ``None``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return None if isinstance(node.value, bool) else float(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _number(node.left), _number(node.right)
        if left is not None and right is not None:
            return _OPS[type(node.op)](left, right)
    return None


def _defaults(tree: ast.AST) -> Iterator[tuple[str, float, int]]:
    """(name, value, line) of each number given as a default: a parameter's default, a
    class attribute, a module constant."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            pairs = [
                *zip(
                    positional[len(positional) - len(args.defaults) :], args.defaults, strict=True
                ),
                *zip(args.kwonlyargs, args.kw_defaults, strict=True),
            ]
            for arg, default in pairs:
                value = _number(default) if default is not None else None
                if value is not None:
                    yield arg.arg, value, arg.lineno
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            value = _number(node.value)
            if value is not None:
                yield node.target.id, value, node.lineno
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            value = _number(node.value)
            if isinstance(target, ast.Name) and value is not None:
                yield target.id, value, node.lineno


def _watched() -> list[tuple[str, set[str], set[float]]]:
    """(setting, its name words, its default in every unit it is counted in) of every
    numeric setting but 0/1 (too common to mean anything)."""
    watched = []
    for s in SETTINGS:
        if s.kind not in ("int", "float") or not isinstance(s.default, int | float):
            continue
        if s.default in (0, 1):
            continue
        words = set(s.name.removeprefix("pacts_").split("_")) - _NOISE
        units = {1.0, 1000.0, 1 / 1000, 1024.0, 1024.0 * 1024}
        watched.append((s.name, words, {round(s.default * u, 6) for u in units}))
    return watched


def written_twice(package: Path) -> list[str]:
    """Each default of a setting written again outside settings.py, as ``file:line``."""
    watched = _watched()
    found: list[str] = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package).as_posix()
        if relative == "settings.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, value, line in sorted(_defaults(tree), key=lambda d: d[2]):
            if (relative, name) in NOT_A_SETTING:
                continue
            words = set(re.split(r"_+", name.lower()))
            for setting, setting_words, values in watched:
                if words & setting_words and round(value, 6) in values:
                    found.append(
                        f"{relative}:{line}: {name} = {value:g} (the default of {setting})"
                    )
    return found


def test_no_default_of_a_setting_is_written_twice() -> None:
    found = written_twice(PACKAGE)
    assert not found, (
        "a setting's default written again (derive it from settings.PactsSettings):\n"
        + "\n".join(found)
    )


def test_the_check_would_catch_a_second_default(tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "run.py").write_text(
        "def run(page, *, timeout_ms: float = 10_000.0, rounds=2):\n    pass\n"
        "class Options:\n    heal_threshold: float = 0.75\n    heal_rounds: int = 3\n"
        "MAX_RESPONSE_BYTES = 1024 * 1024\n"
    )
    assert written_twice(tmp_path) == [
        "engine/run.py:1: timeout_ms = 10000 (the default of pacts_step_timeout)",
        "engine/run.py:4: heal_threshold = 0.75 (the default of pacts_heal_threshold)",
        "engine/run.py:5: heal_rounds = 3 (the default of pacts_max_heal_rounds)",
        "engine/run.py:6: MAX_RESPONSE_BYTES = 1.04858e+06 (the default of pacts_max_response_kb)",
    ]


@pytest.mark.parametrize("setting", [s.name for s in SETTINGS if s.kind == "choice"])
def test_a_choice_default_is_one_of_its_choices(setting: str) -> None:
    s = next(s for s in SETTINGS if s.name == setting)
    assert s.default in s.choices
