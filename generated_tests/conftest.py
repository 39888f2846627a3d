"""Runs the generated tests against the bundled demo app (pytest_pacts/demo_app/README.md).

The generated tests are plain pytest-playwright tests: ``pytest generated_tests/``. They
open URLs relative to pytest-playwright's ``base_url``; without ``--base-url`` this conftest
serves the demo app (release from ``PACTS_DEMO_RELEASE``, default v1) and uses its URL.
A user project's ``generated_tests/conftest.py`` (written by ``pacts generate``) only
documents ``base_url`` instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from pytest_pacts.demo_app import DemoServer


@pytest.fixture(scope="session")
def base_url(pytestconfig: pytest.Config) -> Iterator[str]:
    given = pytestconfig.getoption("base_url", default=None)
    if given:
        yield str(given)
        return
    with DemoServer(os.environ.get("PACTS_DEMO_RELEASE", "v1")) as app:
        yield app.url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, object]) -> dict[str, object]:
    """Use a system Chromium when Playwright has none of its own (also with ``-p no:pacts``)."""
    from pytest_pacts.browser import choose_browser

    if "executable_path" in browser_type_launch_args:
        return browser_type_launch_args
    headless = browser_type_launch_args.get("headless", True) is not False  # not --headed
    extra = choose_browser(None, headless=headless).launch_kwargs()
    if not extra:
        return browser_type_launch_args
    args = [*browser_type_launch_args.get("args", []), *extra.pop("args", [])]  # type: ignore[misc]
    return {**browser_type_launch_args, **extra, "args": args}
