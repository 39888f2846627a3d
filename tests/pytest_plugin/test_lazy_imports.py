"""Collection is as light as the plugin can make it: loading the plugin (what every pytest
start-up does, ``--collect-only`` in an IDE included) imports none of what only a run needs.

The engine, the healing ladder, governance, discovery, the store, the run's models (locators,
records), the report writers and pytest-html are imported when a requirement runs or a report is written; Playwright is
imported by pytest-playwright itself, never by us first. Checked in a fresh interpreter,
since this test process has imported all of them already.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

# What a run needs and collection does not (Playwright and pytest-html too, below).
RUN_TIME = (
    "pytest_pacts.application",
    "pytest_pacts.discovery",
    "pytest_pacts.engine",
    "pytest_pacts.governance",
    # a run's models: locators, records, traces (collection builds plans, not records)
    "pytest_pacts.models.locator",
    "pytest_pacts.models.outcome",
    "pytest_pacts.models.trace",
    "pytest_pacts.reports",
    "pytest_pacts.runtime",
    "pytest_pacts.store",
)

# What planning a requirement file imports: a collection whose plans all come from the plan
# cache (planner/plan_cache.py) imports none of it.
PLANNING = (
    "pydantic",
    "pytest_pacts.models.requirement",
    "pytest_pacts.planner.loader",
    "pytest_pacts.planner.readers.base",
    "pytest_pacts.planner.schema",
    "fastjsonschema",
    "yaml",
    "openpyxl",
)

_PROBE = """
import json, sys
import {module}
print(json.dumps(sorted(sys.modules)))
"""

# ``pytest --collect-only`` of the samples, then what it imported (pytest-playwright and
# pytest-html are loaded by pytest itself whether the plugin is on or not).
_COLLECT = """
import json, sys
import pytest
code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", {path!r}])
print(json.dumps([code, sorted(sys.modules)]))
"""
SAMPLES = Path(__file__).resolve().parents[2] / "sample_requirements"


def _run_time(names: list[str], also: tuple[str, ...] = ()) -> list[str]:
    return [n for n in names if n.split(".")[0] in also or n.startswith(RUN_TIME)]


def _imported_by(module: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.format(module=module)],
        capture_output=True,
        text=True,
        check=True,
    )
    return _run_time(json.loads(done.stdout), also=("playwright", "pytest_html"))


def test_loading_the_plugin_imports_nothing_a_run_needs() -> None:
    assert _imported_by("pytest_pacts.pytest_plugin.plugin") == []


def _collect_samples(tmp_path: Path) -> list[str]:
    """The modules a fresh interpreter has imported after collecting the samples."""
    done = subprocess.run(
        [sys.executable, "-c", _COLLECT.format(path=str(SAMPLES))],
        capture_output=True,
        text=True,
        check=True,
        cwd=SAMPLES,
        env={**os.environ, "PACTS_STORE": str(tmp_path / "pacts.db")},
    )
    code, names = json.loads(done.stdout.splitlines()[-1])
    assert code == 0, done.stdout
    return list(names)


def test_collecting_the_samples_imports_nothing_a_run_needs(tmp_path: Path) -> None:
    assert _run_time(_collect_samples(tmp_path)) == []


def test_a_warm_collection_of_the_samples_imports_no_pydantic(tmp_path: Path) -> None:
    imported = []
    for _ in range(2):  # the first fills the plan cache (a clean clone has none)
        imported.append([n for n in _collect_samples(tmp_path) if n.startswith(PLANNING)])
    assert imported[1] == []


def test_the_probe_sees_a_run_time_import() -> None:
    # the checks above can fail: the application layer does import the engine
    assert "pytest_pacts.engine.api" in _imported_by("pytest_pacts.application")
