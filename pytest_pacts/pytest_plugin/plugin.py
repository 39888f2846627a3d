"""The ``pacts`` pytest plugin (entry point ``pytest11: pacts``). Hooks only; logic elsewhere.

Disable it with ``-p no:pacts``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.collect import RequirementFile, wants_file


def pytest_addoption(parser: pytest.Parser) -> None:
    options.add_options(parser)


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    from pytest_pacts.pytest_plugin import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


# pytest-playwright 0.10 declares its fallback ``base_url`` fixture as a method, which pytest
# 9 warns about on every run; the warning is about their code, not the user's.
_PLAYWRIGHT_BASE_URL_WARNING = (
    "ignore:Session-scoped fixtures defined as instance methods:pytest.PytestRemovedIn10Warning"
)


def pytest_configure(config: pytest.Config) -> None:
    settings = options.configure(config)  # read once; modules read this object
    config.addinivalue_line("filterwarnings", _PLAYWRIGHT_BASE_URL_WARNING)
    config.addinivalue_line(
        "markers", "browser_context_args(**kwargs): Playwright context options for one test"
    )
    for tag in settings.markers:
        config.addinivalue_line("markers", f"{tag}: requirement tag (pacts_markers)")
    from pytest_pacts.pytest_plugin import discovery_phase

    config.pluginmanager.register(discovery_phase, "pacts-discovery")
    from pytest_pacts.pytest_plugin import reporting

    reporting.register(config)  # JUnit properties, pytest-html, artifacts, summary
    if config.pluginmanager.hasplugin("playwright"):
        _check_browser_options(config)
        from pytest_pacts.pytest_plugin import browser_fixture

        config.pluginmanager.register(browser_fixture, "pacts-browser-launch")
        from pytest_pacts.pytest_plugin import steps_fixture

        config.pluginmanager.register(steps_fixture, "pacts-steps")  # the `pacts` fixture


def _check_browser_options(config: pytest.Config) -> None:
    from pytest_pacts.browser import run_option_problems

    browsers = config.getoption("browser", default=None) or []
    video = config.getoption("video", default=None)
    problems = run_option_problems([str(b) for b in browsers], str(video) if video else None)
    if problems:
        raise pytest.UsageError("; ".join(problems))


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if wants_file(parent.config, file_path):
        return RequirementFile.from_parent(parent, path=file_path)
    return None
