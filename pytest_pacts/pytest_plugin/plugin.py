"""The ``pacts`` pytest plugin (entry point ``pytest11: pacts``). Hooks only; logic elsewhere.

Disable it with ``-p no:pacts``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_pacts.browser import NoBrowserError, choose_browser
from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.collect import RequirementFile, wants_file


def pytest_addoption(parser: pytest.Parser) -> None:
    options.add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    for tag in options.get_list(config, "pacts_markers"):
        config.addinivalue_line("markers", f"{tag}: requirement tag (pacts_markers)")
    from pytest_pacts.pytest_plugin import discovery_phase

    config.pluginmanager.register(discovery_phase, "pacts-discovery")
    if config.pluginmanager.hasplugin("playwright"):
        config.pluginmanager.register(BrowserLaunch(), "pacts-browser-launch")


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if wants_file(parent.config, file_path):
        return RequirementFile.from_parent(parent, path=file_path)
    return None


class BrowserLaunch:
    """Points pytest-playwright at a usable Chromium when its own is not installed.

    The fixture chains after pytest-playwright's ``browser_type_launch_args`` (so
    ``--headed``, ``--browser-channel`` and a user's conftest still apply) and only adds an
    ``executable_path`` when Playwright has no browser of its own (PLATFORM.md).
    """

    @pytest.fixture(scope="session")
    def browser_type_launch_args(
        self,
        browser_type_launch_args: dict[str, object],
        browser_name: str | None,
        pytestconfig: pytest.Config,
    ) -> dict[str, object]:
        if (
            (browser_name or "chromium") != "chromium"
            or "executable_path" in browser_type_launch_args
            or browser_type_launch_args.get("channel")
        ):
            return browser_type_launch_args
        try:
            choice = choose_browser(options.get_str(pytestconfig, "pacts_browser_path"))
        except NoBrowserError as exc:
            pytest.fail(str(exc), pytrace=False)
        extra = choice.launch_kwargs()
        if not extra:
            return browser_type_launch_args
        args = [*browser_type_launch_args.get("args", []), *choice.args]  # type: ignore[misc]
        return {**browser_type_launch_args, "executable_path": choice.executable_path, "args": args}
