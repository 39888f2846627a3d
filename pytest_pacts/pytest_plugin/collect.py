"""Requirement files as pytest collectors and requirements as ``pytest.Function`` items.

Items are ``Function`` subclasses built with ``callobj``, so fixtures are injected through
public API. Node IDs are
``path/to/file.xlsx::REQ-ID``; names and order come only from the file, never from discovery,
so every xdist worker collects the same items in the same order.
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path

import pytest
from _pytest._code.code import TerminalRepr

from pytest_pacts.engine.api import RequirementFailed
from pytest_pacts.models import Plan
from pytest_pacts.planner import LoaderOptions, RequirementFileError, load_file
from pytest_pacts.planner.blocks import BlockDefinition
from pytest_pacts.planner.loader import load_blocks_file
from pytest_pacts.planner.readers import READERS
from pytest_pacts.planner.readers.limits import MIB, ReadLimits
from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.execution import dry_run_test, requirement_test

SHARED_BLOCKS_KEY = pytest.StashKey[dict[str, BlockDefinition]]()


def _explicit_args(config: pytest.Config) -> list[Path]:
    """Paths the user named on the command line (not testpaths, not the rootdir default)."""
    if config.args_source is not pytest.Config.ArgsSource.ARGS:
        return []
    base = config.invocation_params.dir
    return [(base / arg.split("::", 1)[0]).resolve() for arg in config.args]


def wants_file(config: pytest.Config, file_path: Path) -> bool:
    """Configured globs, plus .xlsx under named directories and named files (docs/user-guide.md)."""
    suffix = file_path.suffix.lower()
    if suffix not in READERS or file_path.name.startswith("~$"):
        return False
    rel = file_path.as_posix()
    for pattern in options.get_list(config, "pacts_files"):
        if fnmatch.fnmatch(file_path.name, pattern) or (
            "/" in pattern and fnmatch.fnmatch(rel, "*" + pattern)
        ):
            return True
    resolved = file_path.resolve()
    for arg in _explicit_args(config):
        if resolved == arg:
            return True
        if suffix == ".xlsx" and arg.is_dir() and arg in resolved.parents:
            return True
    return False


def _registered_markers(config: pytest.Config) -> set[str]:
    names = set()
    for line in config.getini("markers"):
        names.add(re.split(r"[:(]", line, maxsplit=1)[0].strip())
    return names


def _strict_markers(config: pytest.Config) -> bool:
    try:
        value = config.getini("strict_markers")
        if value is None:
            value = config.getini("strict")
        return bool(value)
    except ValueError:  # pytest 8: option only
        return bool(getattr(config.option, "strict_markers", False))


def shared_blocks(config: pytest.Config) -> dict[str, BlockDefinition]:
    """Blocks from ``pacts_blocks_files``, read once per session."""
    if SHARED_BLOCKS_KEY in config.stash:
        return config.stash[SHARED_BLOCKS_KEY]
    blocks: dict[str, BlockDefinition] = {}
    for name in options.get_list(config, "pacts_blocks_files"):
        path = config.rootpath / name
        if not path.is_file():
            raise pytest.UsageError(f"pacts_blocks_files: {name} does not exist (looked at {path})")
        try:
            blocks.update(load_blocks_file(path, LoaderOptions(env=dict(os.environ))))
        except RequirementFileError as exc:
            raise pytest.UsageError(f"pacts_blocks_files: {exc}") from None
    config.stash[SHARED_BLOCKS_KEY] = blocks
    return blocks


def loader_options(config: pytest.Config) -> LoaderOptions:
    secret = frozenset(options.get_list(config, "pacts_secret_vars"))
    max_mb = options.get_float(config, "pacts_max_file_mb") or 20.0
    limits = ReadLimits(
        max_uncompressed_bytes=int(options.get_float(config, "pacts_max_uncompressed_mb") * MIB),
        max_compression_ratio=options.get_float(config, "pacts_max_compression_ratio"),
        max_rows=int(options.get_float(config, "pacts_max_rows")),
        max_cell_chars=int(options.get_float(config, "pacts_max_cell_chars")),
        max_depth=int(options.get_float(config, "pacts_max_nesting")),
        max_nodes=int(options.get_float(config, "pacts_max_yaml_nodes")),
    )
    return LoaderOptions(
        env=dict(os.environ),
        secret_vars=secret,
        shared_blocks=shared_blocks(config),
        max_file_bytes=int(max_mb * MIB),
        limits=limits,
    )


class RequirementFile(pytest.File):
    """One requirement file; a bad file is one clean collection error, no traceback."""

    def collect(self) -> list[pytest.Item]:
        config = self.config
        display = (
            self.path.relative_to(config.rootpath).as_posix()
            if self.path.is_relative_to(config.rootpath)
            else str(self.path)
        )
        try:
            loaded = load_file(self.path, loader_options(config), display=display)
        except RequirementFileError as exc:
            raise self.CollectError(str(exc)) from None
        problems: list[str] = []
        registered = _registered_markers(config)
        strict = _strict_markers(config)
        items: list[pytest.Item] = []
        body = dry_run_test if options.get_bool(config, "pacts_dry_run") else requirement_test
        for plan in loaded.plans:
            unknown = [t for t in plan.requirement.tags if t not in registered]
            if unknown and strict:
                problems.append(
                    f"{plan.requirement.source.render()}: tag(s) "
                    + ", ".join(repr(t) for t in unknown)
                    + f" of {plan.req_id} are not registered markers and strict markers are on;"
                    " expected them under `markers` or `pacts_markers` in your ini file"
                )
                continue
            for tag in unknown:
                # Not strict: tags are markers by design, register instead of warning.
                config.addinivalue_line("markers", f"{tag}: requirement tag")
                registered.add(tag)
            # Every item of a file has the same test body and location, so the same fixture
            # closure: computing it once per file makes collecting 1,000 requirements ~4x
            # faster. ``fixtureinfo`` is a Function constructor parameter; if a future pytest
            # renames the attribute it is read from, each item computes its own again.
            shared = getattr(items[0], "_fixtureinfo", None) if items else None
            extra: dict[str, object] = {"fixtureinfo": shared} if shared is not None else {}
            items.append(
                RequirementItem.from_parent(
                    self, name=plan.req_id, callobj=body, plan=plan, **extra
                )
            )
        if problems:
            raise self.CollectError("\n".join(problems))
        return items


class RequirementItem(pytest.Function):
    """A requirement as a test. ``plan`` is the validated, block-expanded plan."""

    def __init__(self, *, plan: Plan, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.plan = plan
        for tag in plan.requirement.tags:
            self.add_marker(tag)
        if plan.requirement.context:
            # pytest-playwright reads per-item context options from this marker
            self.add_marker(pytest.mark.browser_context_args(**plan.requirement.context))
        self.user_properties.append(("pacts_plan_hash", plan.plan_hash))

    def reportinfo(self) -> tuple[Path, int, str]:
        req = self.plan.requirement
        title = f": {req.title}" if req.title else ""
        return self.path, req.source.zero_based_line, f"{req.req_id}{title}"

    def repr_failure(  # type: ignore[override]
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, RequirementFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)
