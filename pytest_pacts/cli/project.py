"""The project as pytest sees it, for ``pacts plan`` and ``pacts discover``.

``pacts`` reads requirement files with the configuration ``pytest PATHS`` would use from the
current directory: the same rootdir and ini file (``pytest.ini``, ``pyproject.toml``,
``tox.ini``, ``setup.cfg``), ``addopts``, the markers plugins and conftest files register,
and the ``pacts_*`` settings. Files are validated by the function collection uses
(``pytest_plugin/validation.py``), so a file ``pacts plan`` accepts is one pytest collects.
No test session starts: nothing is collected, run or reported, no browser is launched.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_pacts.cli.common import EXIT_USAGE, CommandError
from pytest_pacts.models import Plan
from pytest_pacts.planner import LoaderOptions, RequirementFileError
from pytest_pacts.planner.loader import load_blocks_file
from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.collect import wants_file
from pytest_pacts.pytest_plugin.validation import (
    ProjectSettings,
    ValidatedFile,
    project_settings,
    validate_file,
)
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS, PactsSettings

if TYPE_CHECKING:
    from pytest_pacts.contexts import SessionFor


@contextmanager
def pytest_config(paths: Sequence[Path]) -> Iterator[pytest.Config]:
    """pytest's configuration for ``pytest PATHS`` run here, configured (plugins' markers
    registered), never a session. A bad setting is a usage error, as it is for pytest."""
    # pytest builds its configuration this way in ``pytest.main``; there is no public
    # function that stops before the session.
    from _pytest.config import _prepareconfig

    try:
        config = _prepareconfig([os.fspath(p) for p in paths])
    except pytest.UsageError as exc:
        raise CommandError(f"pytest configuration: {exc}", EXIT_USAGE) from None
    except Exception as exc:  # a conftest.py that fails to import fails pytest the same way
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise CommandError(
            f"pytest could not load the project ({type(exc).__name__}: {first}); "
            "`pytest --collect-only` shows the whole error",
            EXIT_USAGE,
        ) from None
    try:
        try:
            config._do_configure()
        except pytest.UsageError as exc:
            raise CommandError(f"pytest configuration: {exc}", EXIT_USAGE) from None
        yield config
    finally:
        config._ensure_unconfigure()


def requirement_files(config: pytest.Config, paths: Sequence[Path]) -> list[Path]:
    """The files pytest would collect as requirement files under ``paths``: named files, and
    under named directories those the plugin wants (``pacts_files`` globs, any ``.xlsx``),
    skipping what pytest skips (``norecursedirs``, ``--ignore``, virtualenvs)."""
    found: list[Path] = []
    for given in paths:
        path = given.resolve()
        if path.is_file():
            found.append(path)
            continue
        if not path.is_dir():
            raise CommandError(f"{given} does not exist", EXIT_USAGE)
        for folder, dirs, files in os.walk(path):
            here = Path(folder)
            dirs[:] = sorted(
                d for d in dirs if not config.hook.pytest_ignore_collect(
                    collection_path=here / d, config=config)
            )  # fmt: skip
            for name in sorted(files):
                file = here / name
                if wants_file(config, file) and not config.hook.pytest_ignore_collect(
                    collection_path=file, config=config
                ):
                    found.append(file)
    return list(dict.fromkeys(found))


@dataclass
class Project:
    """The requirement files under the named paths, validated as pytest validates them."""

    settings: ProjectSettings
    files: list[ValidatedFile] = field(default_factory=list)
    base_url: str | None = None
    step_timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS
    pacts: PactsSettings | None = None  # the pacts_* settings, as the plugin read them
    rootpath: Path | None = None

    @property
    def plans(self) -> list[Plan]:
        return [plan for f in self.files for plan in f.plans]

    @property
    def failed(self) -> list[ValidatedFile]:
        return [f for f in self.files if f.problems]


def _with_blocks(settings: ProjectSettings, extra: Sequence[Path]) -> ProjectSettings:
    """``--blocks FILE``: shared blocks on top of ``pacts_blocks_files``."""
    if not extra:
        return settings
    shared = dict(settings.loader.shared_blocks)
    try:
        for blocks_file in extra:
            shared.update(load_blocks_file(blocks_file, LoaderOptions(env=dict(os.environ))))
    except RequirementFileError as exc:
        raise CommandError(f"shared blocks: {exc}") from None
    return replace(settings, loader=replace(settings.loader, shared_blocks=shared))


def load_project(
    paths: Sequence[Path],
    blocks: Sequence[Path] = (),
    secret_vars: Sequence[str] = (),
) -> Project:
    """Every requirement file under ``paths`` validated with the project's pytest settings;
    ``blocks`` and ``secret_vars`` add to the configured ones."""
    for given in paths:
        if not given.exists():
            raise CommandError(f"{given} does not exist", EXIT_USAGE)
    with pytest_config(paths) as config:
        try:
            # these commands write nothing: no document cache either
            settings = _with_blocks(project_settings(config, cache=False), blocks)
        except pytest.UsageError as exc:
            raise CommandError(f"pytest configuration: {exc}", EXIT_USAGE) from None
        if secret_vars:
            secret = settings.loader.secret_vars | frozenset(secret_vars)
            settings = replace(settings, loader=replace(settings.loader, secret_vars=secret))
        pacts = options.settings(config)  # as the plugin read them when pytest configured
        project = Project(
            settings,
            base_url=pacts.base_url,
            step_timeout_ms=pacts.step_timeout * 1000,
            pacts=pacts,
            rootpath=config.rootpath,
        )
        for file in requirement_files(config, paths):
            project.files.append(validate_file(file, settings))
    return project


def auth_sessions_for(
    project: Project, base_url: str | None, stack: ExitStack
) -> SessionFor | None:
    """The auth profiles' sessions of a command that walks flows (``pacts discover``,
    ``pacts elements --after``): logged in once per profile, kept in a temporary folder
    deleted with ``stack`` (these commands write nothing)."""
    if project.pacts is None or project.rootpath is None:
        return None
    import tempfile

    from pytest_pacts.application import auth_sessions

    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pacts-auth-")))
    sessions = auth_sessions(
        project.pacts,
        project.rootpath,
        None,
        loader=project.settings.loader,
        base_url=base_url,
        run_id="discover",
        vault_dir=folder / "auth",
        say=lambda text: print(f"pacts: {text}", file=sys.stderr),
    )
    return sessions.storage_state
