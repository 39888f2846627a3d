"""What pytest accepts from a requirement file, decided in one place.

Collection (``collect.py``) and the ``pacts plan`` / ``pacts discover`` commands all read a
file through :func:`validate_file`, with settings taken from the same pytest configuration
(:func:`project_settings`: the ini file, ``addopts``, the plugins' markers, the
``pacts_*`` settings). A check added here is made by both, so ``pacts plan`` cannot pass a
file that pytest then rejects, or the other way round.

Checked here, after the file itself (format, schema, steps, blocks, templates, read limits;
``planner.load_file``): each requirement's tags against the registered markers. pytest turns
tags into markers; with strict markers on (``--strict-markers``, ``strict_markers = true`` or
``strict = true``) an unregistered one is an error, otherwise it is registered on the fly.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_pacts.planner.errors import RequirementFileError
from pytest_pacts.planner.options import LoaderOptions
from pytest_pacts.planner.plan_cache import PlainPlan, PlanInputs, blocks_digest, plain_plans
from pytest_pacts.planner.readers.limits import ReadLimits, max_file_bytes
from pytest_pacts.pytest_plugin import options

# The loader, the readers and the models (pydantic) are imported when a file is planned:
# a collection whose plans all come from the plan cache imports none of them.
if TYPE_CHECKING:
    from pytest_pacts.models import Plan
    from pytest_pacts.planner.blocks import BlockDefinition

SHARED_BLOCKS_KEY = pytest.StashKey[dict[str, "BlockDefinition"]]()

# Documents read before (planner/readers/cache.py), beside the store's default place.
DOCUMENT_CACHE_DIR = Path(".pacts") / "cache" / "documents"
# Plans built before (planner/plan_cache.py), beside it.
PLAN_CACHE_DIR = Path(".pacts") / "cache" / "plans"

# Marker names pytest itself refuses when they are not registered (it suggests `parametrize`).
_MISSPELT_PARAMETRIZE = frozenset({"parameterize", "parametrise", "parameterise"})


@dataclass(frozen=True)
class ProjectSettings:
    """What validating a requirement file takes from the pytest configuration."""

    loader: LoaderOptions
    markers: frozenset[str]
    strict_markers: bool
    rootpath: Path
    # where plans built before are kept (None: every file is planned); the shared blocks
    # files, as the plan cache knows them
    plan_cache: Path | None = None
    blocks: tuple[str, ...] = ()


@dataclass(frozen=True)
class ValidatedFile:
    """One file's plans, or the problems that make pytest refuse the whole file.

    ``planned`` are the plans as plain data (collection builds its items from them);
    ``new_markers`` are tags pytest registers on the fly (strict markers off)."""

    path: Path
    display: str
    planned: tuple[PlainPlan, ...]
    problems: tuple[str, ...]
    new_markers: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def plans(self) -> tuple[Plan, ...]:
        """The plans as the models build them (the ``pacts`` commands)."""
        return tuple(p.plan for p in self.planned)


def registered_markers(config: pytest.Config) -> frozenset[str]:
    """Marker names from ``markers`` in the ini file and those plugins registered."""
    return frozenset(
        re.split(r"[:(]", line, maxsplit=1)[0].strip() for line in config.getini("markers")
    )


def strict_markers(config: pytest.Config) -> bool:
    """Is an unregistered marker an error (as pytest decides it)?"""
    try:
        value = config.getini("strict_markers")
        if value is None:
            value = config.getini("strict")
        return bool(value)
    except ValueError:  # pytest 8: option only
        return bool(getattr(config.option, "strict_markers", False))


def shared_blocks(
    config: pytest.Config, cache_dir: Path | None = None
) -> dict[str, BlockDefinition]:
    """Blocks from ``pacts_blocks_files``, read once per session (through the document
    cache in ``cache_dir`` when one is given)."""
    if SHARED_BLOCKS_KEY in config.stash:
        return config.stash[SHARED_BLOCKS_KEY]
    from pytest_pacts.planner.loader import load_blocks_file

    blocks: dict[str, BlockDefinition] = {}
    for name in options.settings(config).blocks_files:
        path = config.rootpath / name
        if not path.is_file():
            raise pytest.UsageError(f"pacts_blocks_files: {name} does not exist (looked at {path})")
        try:
            blocks.update(
                load_blocks_file(path, LoaderOptions(env=dict(os.environ), cache_dir=cache_dir))
            )
        except RequirementFileError as exc:
            raise pytest.UsageError(f"pacts_blocks_files: {exc}") from None
    config.stash[SHARED_BLOCKS_KEY] = blocks
    return blocks


class _SharedBlocks(Mapping[str, "BlockDefinition"]):
    """:func:`shared_blocks`, read when planning first asks for them (never when every plan
    of a collection comes from the plan cache)."""

    def __init__(self, config: pytest.Config, cache_dir: Path | None) -> None:
        self._config = config
        self._cache_dir = cache_dir

    def _blocks(self) -> dict[str, BlockDefinition]:
        return shared_blocks(self._config, self._cache_dir)

    def __getitem__(self, name: str) -> BlockDefinition:
        return self._blocks()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._blocks())

    def __len__(self) -> int:
        return len(self._blocks())


def document_cache_dir(config: pytest.Config) -> Path:
    """``<rootdir>/.pacts/cache/documents``: requirement files read before, by content, so
    an unchanged workbook is not parsed (nor openpyxl imported) at the next collection."""
    return config.rootpath / DOCUMENT_CACHE_DIR


def loader_options(config: pytest.Config, *, cache: bool = True) -> LoaderOptions:
    """How files are read; ``cache=False`` neither reads nor writes the document cache
    (the ``pacts`` commands, which write nothing)."""
    settings = options.settings(config)
    cache_dir = document_cache_dir(config) if cache else None
    return LoaderOptions(
        env=dict(os.environ),
        secret_vars=frozenset(settings.secret_vars),
        shared_blocks=_SharedBlocks(config, cache_dir),
        max_file_bytes=max_file_bytes(settings),
        limits=ReadLimits.of(settings),
        cache_dir=cache_dir,
    )


def project_settings(config: pytest.Config, *, cache: bool = True) -> ProjectSettings:
    """The settings of a configured pytest session (markers are read now: register any
    before calling); ``cache`` as for :func:`loader_options`."""
    blocks_files = options.settings(config).blocks_files
    return ProjectSettings(
        loader=loader_options(config, cache=cache),
        markers=registered_markers(config),
        strict_markers=strict_markers(config),
        rootpath=config.rootpath,
        plan_cache=config.rootpath / PLAN_CACHE_DIR if cache else None,
        blocks=tuple(blocks_digest(config.rootpath / name) for name in blocks_files),
    )


def display_path(rootpath: Path, path: Path) -> str:
    """How errors name the file: relative to the rootdir when inside it, as pytest shows it."""
    return path.relative_to(rootpath).as_posix() if path.is_relative_to(rootpath) else str(path)


def tag_problem(plan: PlainPlan, markers: frozenset[str], strict: bool) -> str | None:
    """Why pytest would refuse the requirement's tags as markers, or ``None``."""
    unknown = [t for t in plan.tags if t not in markers]
    misspelt = [t for t in unknown if t in _MISSPELT_PARAMETRIZE]
    where = plan.source()
    if misspelt:
        return (
            f"{where}: tag {misspelt[0]!r} of {plan.req_id} is refused by pytest as a "
            "misspelling of `parametrize`; rename the tag"
        )
    if unknown and strict:
        return (
            f"{where}: tag(s) "
            + ", ".join(repr(t) for t in unknown)
            + f" of {plan.req_id} are not registered markers and strict markers are on;"
            " expected them under `markers` or `pacts_markers` in your ini file"
        )
    return None


def validate_file(path: Path, settings: ProjectSettings) -> ValidatedFile:
    """Load ``path`` as pytest collects it: its plans, or every problem that makes pytest
    report the file as a collection error (then no requirement of it runs)."""
    display = display_path(settings.rootpath, path)
    loader = settings.loader
    inputs = PlanInputs(
        display=display,
        folder=str(path.resolve().parent),
        secret_vars=loader.secret_vars,
        limits=loader.limits,
        max_file_bytes=loader.max_file_bytes,
        check_env=loader.check_env,
        blocks=settings.blocks,
    )

    def plan(env: Mapping[str, str]) -> tuple[Plan, ...]:
        from pytest_pacts.planner.loader import load_file

        return load_file(path, replace(loader, env=env), display=display).plans

    try:
        planned = plain_plans(path, inputs, loader.env, settings.plan_cache, plan)
    except RequirementFileError as exc:
        return ValidatedFile(path, display, (), (str(exc),))
    problems: list[str] = []
    new: list[str] = []
    for each in planned:
        problem = tag_problem(each, settings.markers | frozenset(new), settings.strict_markers)
        if problem is not None:
            problems.append(problem)
            continue
        new.extend(t for t in each.tags if t not in settings.markers and t not in new)
    if problems:
        return ValidatedFile(path, display, (), tuple(problems))
    return ValidatedFile(path, display, planned, (), tuple(new))
