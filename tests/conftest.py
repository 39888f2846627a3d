from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import cast

import pytest
from playwright.sync_api import Browser, Page, Playwright
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.browser import launch_options
from pytest_pacts.discovery import register_bridge
from pytest_pacts.runtime import bounded
from tests import forked_sessions

pytest_plugins = ["pytester"]


# Modules whose tests run whole pytest sessions (pytester, the CLI) or a PostgreSQL cluster:
# collected first, so under xdist the long tests start early and the two workers do not end
# on them one after the other (the suite's wall time on a 2-core CI machine). Stable: the
# order inside each group is pytest's.
_LONG_FIRST = (
    "tests/pytest_plugin/",
    "tests/store/test_store_shared_runners.py",
    "tests/cli/",
    "tests/traces/",
    "tests/realapps/",
    "tests/reports/",
    "tests/web/",
    "tests/engine/test_drifts_and_deployments.py",
    "tests/engine/test_samples.py",
)


def pytest_configure(config: pytest.Config) -> None:
    forked_sessions.install()


def pytest_unconfigure(config: pytest.Config) -> None:
    forked_sessions.uninstall()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def group(item: pytest.Item) -> int:
        return next(
            (i for i, prefix in enumerate(_LONG_FIRST) if item.nodeid.startswith(prefix)),
            len(_LONG_FIRST),
        )

    items.sort(key=group)


@pytest.fixture(autouse=True)
def _terminal_as_on_a_workstation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs under ``pytester`` print the same on a CI machine as on a workstation.

    pytest stops shortening the "short test summary" lines when ``CI`` or ``BUILD_NUMBER``
    is set, so a message counted in a run's output would appear once more there.
    """
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("BUILD_NUMBER", raising=False)


@pytest.fixture(scope="session")
def _chromium(playwright: Playwright) -> Iterator[list[Browser]]:
    """The tests' own Chromium, one per worker (launching one costs about a second of CPU;
    the suite is CPU-bound): ``module_browser`` launches it, and again if it went away. The
    in-page calls' bridge is registered with the worker's Playwright, as the plugin does."""
    register_bridge(playwright.selectors)
    held: list[Browser] = []
    yield held
    for browser in held:
        with contextlib.suppress(PlaywrightError):
            browser.close()


@pytest.fixture(scope="module")
def module_browser(playwright: Playwright, _chromium: list[Browser]) -> Iterator[Browser]:
    """The tests' Chromium for a module (not pytest-playwright's ``browser``), shared by the
    modules of a worker; the contexts a module leaves open are closed after it."""
    if not _chromium or not _chromium[0].is_connected():
        _chromium[:] = [playwright.chromium.launch(**launch_options())]  # type: ignore[arg-type]
    browser = _chromium[0]
    yield browser
    for context in browser.contexts:
        with contextlib.suppress(PlaywrightError):
            context.close()


@pytest.fixture
def tab(module_browser: Browser) -> Iterator[Page]:
    """A fresh context and page per test: 1000×700, 5 s default timeout."""
    context = module_browser.new_context(viewport={"width": 1000, "height": 700})
    context.set_default_timeout(5_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="module")
def module_pytester(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[], pytest.Pytester]]:
    """Makes pytesters shared by a module's tests: a module-scoped fixture lays out one
    project and runs one whole pytest session in it, and several tests each assert their
    own part of that session, where each used to start the same session again (a session
    costs one to several seconds of CPU; docs/testing.md). Each call gives a new project
    folder and makes it the working directory, as a test's ``pytester`` does (run its
    session right away); the runs see what a test's ``pytester`` gives them: their own
    HOME, no ``PYTEST_ADDOPTS``, no CI variables."""
    # Pytester reads ``request.function``, which a module-scoped request does not have
    as_module = cast(pytest.FixtureRequest, _ModuleRequest(request))
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("CI", raising=False)
        mp.delenv("BUILD_NUMBER", raising=False)
        yield lambda: pytest.Pytester(as_module, tmp_path_factory, mp, _ispytest=True)


class _ModuleRequest:
    """What :class:`pytest.Pytester` uses of its request, for a module's fixture."""

    function = None
    instance = None

    def __init__(self, request: pytest.FixtureRequest) -> None:
        self.node = request.node
        self.config = request.config
        self.addfinalizer = request.addfinalizer


@pytest.fixture
def page_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What every page call made through ``bounded.call`` from now on was for, in order
    (its ``what``): the round trips a path makes, counted where the engine makes them."""
    seen: list[str] = []
    real = bounded.call

    def counted(target: object, what: str, *args: object, **kwargs: object) -> object:
        seen.append(what)
        return real(target, what, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bounded, "call", counted)
    return seen
