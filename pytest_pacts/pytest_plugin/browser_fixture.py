"""The Chromium launch fixture, registered by the plugin only when pytest-playwright is loaded."""

from __future__ import annotations

import pytest

from pytest_pacts.browser import NoBrowserError, choose_browser
from pytest_pacts.pytest_plugin import options


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, object],
    browser_name: str | None,
    pytestconfig: pytest.Config,
) -> dict[str, object]:
    """Point pytest-playwright at a usable Chromium when its own is not installed.

    Overrides pytest-playwright's fixture of the same name and chains after it (so
    ``--headed``, ``--browser-channel`` and a user's conftest still apply); it only adds an
    ``executable_path`` when Playwright has no browser of its own (PLATFORM.md). Registered
    only when pytest-playwright is loaded.
    """
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
    if not choice.launch_kwargs():
        return browser_type_launch_args
    extra = browser_type_launch_args.get("args", [])
    args = [*(extra if isinstance(extra, list) else []), *choice.args]
    return {
        **browser_type_launch_args,
        "executable_path": choice.executable_path,
        "args": args,
    }
