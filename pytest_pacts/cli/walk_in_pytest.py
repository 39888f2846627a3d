"""``pacts discover --as-tests``: the walk inside a pytest session of the project.

Outside pytest the walk knows neither the project's fixtures nor its hooks. With
``--as-tests`` the CLI runs ``python -m pytest`` on the requirement files with this module
as a plugin: each requirement item gets its page from pytest-playwright as its test would
(``browser_context_args``, the requirement's ``context``, the
``pytest_pacts_configure_context`` hook, ``connect_options``, the ``base_url`` fixture),
and this plugin walks the flow on that page instead of running the test (nothing is
written: discovery before the tests, the report folders and the results are turned off).
Each item's report goes to its own JSON file in ``--pacts-walk-out`` (xdist workers
included); the CLI reads them back in the files' order.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.items import RequirementItem

if TYPE_CHECKING:
    from playwright.sync_api import Page

#: How long the whole pytest session may take, beyond each step's own timeout.
SESSION_MARGIN_S = 120.0


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pacts-walk", "pacts discover --as-tests (internal)")
    group.addoption("--pacts-walk-out", default=None, help="folder for the walk reports")
    group.addoption("--pacts-walk-until", type=int, default=None, help="0-based step")


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    out = pyfuncitem.config.getoption("pacts_walk_out")
    page = pyfuncitem.funcargs.get("page")
    if not out or not isinstance(pyfuncitem, RequirementItem) or page is None:
        return None
    from pytest_pacts.cli.walk import walk_plan

    settings = options.settings(pyfuncitem.config)
    base_url = pyfuncitem.funcargs.get("base_url")
    walk = walk_plan(
        cast("Page", page),
        pyfuncitem.plan,
        base_url if isinstance(base_url, str) and base_url else settings.base_url,
        step_timeout_ms=settings.step_timeout * 1000,
        until=pyfuncitem.config.getoption("pacts_walk_until"),
    )
    report = {**walk.report(), "file": str(pyfuncitem.path)}
    name = hashlib.sha256(pyfuncitem.nodeid.encode()).hexdigest()[:16] + ".json"
    target = Path(out) / name
    target.write_text(json.dumps(report, ensure_ascii=False), encoding="utf-8")
    return True


def walk_as_tests(
    files: Sequence[Path],
    out: Path,
    *,
    base_url: str | None,
    until: int | None,
    timeout_s: float,
) -> tuple[list[dict[str, Any]], str]:
    """Run the walk in a pytest session on ``files``; the reports (unordered) and pytest's
    output (for when a report is missing)."""
    command = [
        sys.executable, "-m", "pytest", *[str(f) for f in files],
        "-p", "pytest_pacts.cli.walk_in_pytest", f"--pacts-walk-out={out}",
        "--pacts-discover=off", "--pacts-report-dir=off", "--pacts-results=off",
        "-p", "no:cacheprovider", "-q",
    ]  # fmt: skip
    if base_url:
        command.append(f"--base-url={base_url}")
    if until is not None:
        command.append(f"--pacts-walk-until={until}")
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=timeout_s + SESSION_MARGIN_S,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        )
        said = done.stdout + done.stderr
    except subprocess.TimeoutExpired as exc:
        said = f"the pytest session did not finish within {exc.timeout:.0f} s"
    reports = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(out.glob("*.json"))]
    return reports, said
