"""Requirement files as pytest collectors and requirements as ``pytest.Function`` items.

Items are ``Function`` subclasses built with ``callobj``, so fixtures are injected through
public API. Node IDs are
``path/to/file.xlsx::REQ-ID``; names and order come only from the file, never from discovery,
so every xdist worker collects the same items in the same order.
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_pacts.planner.readers import SUFFIXES
from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.execution import dry_run_test, requirement_test
from pytest_pacts.pytest_plugin.items import RequirementItem
from pytest_pacts.pytest_plugin.progress import say
from pytest_pacts.pytest_plugin.validation import (
    loader_options,
    project_settings,
    shared_blocks,
    validate_file,
)
from pytest_pacts.pytest_plugin.workers import worker_slot

if TYPE_CHECKING:
    from pytest_pacts.planner.plan_cache import PlainPlan

__all__ = ["RequirementFile", "RequirementItem", "loader_options", "shared_blocks", "wants_file"]


def _start_paths(config: pytest.Config) -> list[Path]:
    """The paths pytest starts collecting from: those named on the command line, else the
    ``testpaths``, else the invocation directory. A workbook under any of them is collected by
    the same rule, so plain ``pytest`` runs what ``pytest requirements/`` runs
    (docs/user-guide.md, "Which files are collected")."""
    base = config.invocation_params.dir
    return [(base / arg.split("::", 1)[0]).resolve() for arg in config.args]


def _in_report_dir(config: pytest.Config, resolved: Path) -> bool:
    """Results workbooks (``<report dir>/<run id>/results/``) are copies, never requirements."""
    root = options.settings(config).report_root(config.rootpath)
    return root is not None and root.resolve() in resolved.parents


def wants_file(config: pytest.Config, file_path: Path) -> bool:
    """Configured globs, plus .xlsx under the start paths and named files (docs/user-guide.md)."""
    suffix = file_path.suffix.lower()
    if suffix not in SUFFIXES or file_path.name.startswith("~$"):
        return False
    rel = file_path.as_posix()
    for pattern in options.settings(config).files:
        if fnmatch.fnmatch(file_path.name, pattern) or (
            "/" in pattern and fnmatch.fnmatch(rel, "*" + pattern)
        ):
            return True
    resolved = file_path.resolve()
    for arg in _start_paths(config):
        if resolved == arg:
            return True
        if suffix == ".xlsx" and arg.is_dir() and arg in resolved.parents:
            return not _in_report_dir(config, resolved)
    return False


def _say_secret_words(config: pytest.Config, display: str, plans: tuple[PlainPlan, ...]) -> None:
    """Tell once, at collection, when a secret's value is one of the file's own words
    (``planner/secret_words.py``). Under xdist only the workers collect, and every one of
    them would: the first says it (the controller prints its lines at the end)."""
    if worker_slot(config) != 0:
        return
    from pytest_pacts.planner.secret_words import secrets_in_own_words

    for found in secrets_in_own_words(plans, os.environ):
        say(config)(found.message(display))


class RequirementFile(pytest.File):
    """One requirement file; a bad file is one clean collection error, no traceback."""

    def collect(self) -> list[pytest.Item]:
        config = self.config
        # The same validation as `pacts plan` (validation.py): they cannot disagree.
        checked = validate_file(self.path, project_settings(config))
        if checked.problems:
            raise self.CollectError("\n".join(checked.problems))
        _say_secret_words(config, checked.display, checked.planned)
        for tag in checked.new_markers:
            # Not strict: tags are markers by design, register instead of warning.
            config.addinivalue_line("markers", f"{tag}: requirement tag")
        items: list[pytest.Item] = []
        body = dry_run_test if options.settings(config).dry_run else requirement_test
        for planned in checked.planned:
            # Every item of a file has the same test body and location, so the same fixture
            # closure: computing it once per file makes collecting 1,000 requirements ~4x
            # faster. ``fixtureinfo`` is a Function constructor parameter; if a future pytest
            # renames the attribute it is read from, each item computes its own again.
            shared = getattr(items[0], "_fixtureinfo", None) if items else None
            extra: dict[str, object] = {"fixtureinfo": shared} if shared is not None else {}
            items.append(
                RequirementItem.from_parent(
                    self, name=planned.req_id, callobj=body, planned=planned, **extra
                )
            )
        return items
