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
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_pacts.models import Plan
from pytest_pacts.planner import LoaderOptions, RequirementFileError, load_file
from pytest_pacts.planner.blocks import BlockDefinition
from pytest_pacts.planner.loader import load_blocks_file
from pytest_pacts.planner.readers.limits import ReadLimits, max_file_bytes
from pytest_pacts.pytest_plugin import options

SHARED_BLOCKS_KEY = pytest.StashKey[dict[str, BlockDefinition]]()

# Documents read before (planner/readers/cache.py), beside the store's default place.
DOCUMENT_CACHE_DIR = Path(".pacts") / "cache" / "documents"

# Marker names pytest itself refuses when they are not registered (it suggests `parametrize`).
_MISSPELT_PARAMETRIZE = frozenset({"parameterize", "parametrise", "parameterise"})


@dataclass(frozen=True)
class ProjectSettings:
    """What validating a requirement file takes from the pytest configuration."""

    loader: LoaderOptions
    markers: frozenset[str]
    strict_markers: bool
    rootpath: Path


@dataclass(frozen=True)
class ValidatedFile:
    """One file's plans, or the problems that make pytest refuse the whole file.

    ``new_markers`` are tags pytest registers on the fly (strict markers off)."""

    path: Path
    display: str
    plans: tuple[Plan, ...]
    problems: tuple[str, ...]
    new_markers: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


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
        shared_blocks=shared_blocks(config, cache_dir),
        max_file_bytes=max_file_bytes(settings),
        limits=ReadLimits.of(settings),
        cache_dir=cache_dir,
    )


def project_settings(config: pytest.Config, *, cache: bool = True) -> ProjectSettings:
    """The settings of a configured pytest session (markers are read now: register any
    before calling); ``cache`` as for :func:`loader_options`."""
    return ProjectSettings(
        loader=loader_options(config, cache=cache),
        markers=registered_markers(config),
        strict_markers=strict_markers(config),
        rootpath=config.rootpath,
    )


def display_path(rootpath: Path, path: Path) -> str:
    """How errors name the file: relative to the rootdir when inside it, as pytest shows it."""
    return path.relative_to(rootpath).as_posix() if path.is_relative_to(rootpath) else str(path)


def tag_problem(plan: Plan, markers: frozenset[str], strict: bool) -> str | None:
    """Why pytest would refuse the requirement's tags as markers, or ``None``."""
    unknown = [t for t in plan.requirement.tags if t not in markers]
    misspelt = [t for t in unknown if t in _MISSPELT_PARAMETRIZE]
    where = plan.requirement.source.render()
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
    try:
        loaded = load_file(path, settings.loader, display=display)
    except RequirementFileError as exc:
        return ValidatedFile(path, display, (), (str(exc),))
    problems: list[str] = []
    new: list[str] = []
    for plan in loaded.plans:
        problem = tag_problem(plan, settings.markers | frozenset(new), settings.strict_markers)
        if problem is not None:
            problems.append(problem)
            continue
        new.extend(t for t in plan.requirement.tags if t not in settings.markers and t not in new)
    if problems:
        return ValidatedFile(path, display, (), tuple(problems))
    return ValidatedFile(path, display, loaded.plans, (), tuple(new))
