"""``pacts`` imports what the command it runs needs, nothing more.

Building the parser imports every subcommand module, so their top levels import only
argparse, the standard library and light modules (``cli/common.py``, ``cli/render.py``, the
store); Playwright, openpyxl, pytest, pydantic and the engine load inside the handlers that
use them. Each case runs ``pacts`` in a fresh interpreter and reads ``sys.modules`` after it.

Which command needs what:

- ``pacts --help`` builds the parser only: none of the heavy packages.
- ``pacts heals list`` and ``pacts report`` read the store: pydantic (the governance and
  report models) but no browser, no Excel and no pytest.
- ``pacts plan FILE`` reads files as ``pytest FILE`` would collect them, so it needs pytest
  itself, not only its ini parser: it builds pytest's configuration (the ini file wherever
  pytest finds it: pytest.ini, pyproject.toml, tox.ini, setup.cfg; ``addopts``; the markers
  plugins and conftest files register, checked under ``strict_markers``) and asks pytest's
  ``pytest_ignore_collect`` hook which files a directory holds (``cli/project.py``). It
  needs no Playwright and, for a YAML file, no openpyxl. pytest-playwright, when installed,
  imports Playwright as pytest loads it (``pytest FILE`` does the same), so that case
  blocks it with ``-p no:playwright`` to see what pytest-pacts itself imports.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent

HEAVY = ("playwright", "greenlet", "openpyxl", "pytest", "_pytest", "pydantic", "jinja2", "yaml")

# Runs ``pacts ARGS`` in this interpreter, then prints its exit code and which of HEAVY
# were imported, as the last line of stdout.
PROBE = f"""\
import json, sys
from pytest_pacts.cli.main import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
loaded = sorted({{name.partition(".")[0] for name in sys.modules}} & set({HEAVY!r}))
print("\\n" + json.dumps({{"code": code, "loaded": loaded}}))
"""

SHEET = """\
req_id: REQ-IMPORTS-001
url: https://example.test/login
steps:
  - "Username@Login form | fill | standard_user"
  - "Login@Login form | click | | navigates_to:Products"
"""


def _loaded(
    args: list[str], cwd: Path, env: dict[str, str] | None = None
) -> tuple[int, set[str], str]:
    """``pacts ARGS``' exit code, the HEAVY packages it imported, and its output."""
    clean = {k: v for k, v in os.environ.items() if k not in ("PACTS_STORE", "PYTEST_ADDOPTS")}
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=cwd,
        env={**clean, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )
    *output, last = result.stdout.rstrip("\n").split("\n")
    assert last.startswith("{"), result.stdout + result.stderr
    probe = json.loads(last)
    return probe["code"], set(probe["loaded"]), "\n".join(output) + result.stderr


@pytest.fixture(scope="module")
def empty_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pytest_pacts.store import open_store

    path = tmp_path_factory.mktemp("store") / "pacts.db"
    open_store(str(path)).close()
    return path


def test_help_builds_the_parser_without_heavy_imports(tmp_path: Path) -> None:
    code, loaded, output = _loaded(["--help"], tmp_path)
    assert code == 0 and "heals" in output
    assert not loaded, f"building the parser imported {sorted(loaded)}"


@pytest.mark.parametrize(
    "args", [["heals", "list"], ["report"], ["report", "--format", "json"]], ids=" ".join
)
def test_store_commands_import_no_browser_excel_or_pytest(
    args: list[str], empty_store: Path, tmp_path: Path
) -> None:
    code, loaded, output = _loaded([*args, "--store", str(empty_store)], tmp_path)
    assert code == 0, output
    assert not loaded & {"playwright", "greenlet", "openpyxl", "pytest", "_pytest"}, loaded


def test_plan_imports_pytest_but_no_browser_or_excel(tmp_path: Path) -> None:
    (tmp_path / "login.req.yaml").write_text(SHEET, encoding="utf-8")
    code, loaded, output = _loaded(
        ["plan", "login.req.yaml"], tmp_path, {"PYTEST_ADDOPTS": "-p no:playwright"}
    )
    assert code == 0, output
    assert "REQ-IMPORTS-001" in output and "1 requirement(s) planned" in output
    assert "pytest" in loaded  # the project's pytest configuration, as pytest reads it
    assert not loaded & {"playwright", "greenlet", "openpyxl"}, loaded


def test_the_cli_copies_of_library_constants_match() -> None:
    """The parser's choices and defaults, written in the command modules so building the
    parser imports neither governance nor traces, are the library's."""
    from dataclasses import asdict

    from pytest_pacts.cli import compare_cmd, heals_cmd
    from pytest_pacts.governance import LANGUAGES
    from pytest_pacts.traces import Thresholds

    assert heals_cmd.LANGUAGES == LANGUAGES
    assert asdict(Thresholds()) == {
        "slower": compare_cmd.DEFAULT_SLOWER,
        "slow_floor_ms": compare_cmd.DEFAULT_SLOW_FLOOR_MS,
        "move_px": compare_cmd.DEFAULT_MOVE_PX,
    }
