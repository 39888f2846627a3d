"""The Chromium launch fixture and a requirement's browser context, registered by the plugin
only when pytest-playwright is loaded."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.browser import NoBrowserError, choose_browser, prepare_playwright
from pytest_pacts.errors import PactsError
from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.context_setup import context_setup
from pytest_pacts.pytest_plugin.items import RequirementItem
from pytest_pacts.pytest_plugin.keys import AUTH_FAILED_KEY, add_secrets


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, object],
    browser_name: str | None,
    pytestconfig: pytest.Config,
) -> dict[str, object]:
    """Point pytest-playwright at a usable Chromium when its own is not installed.

    Overrides pytest-playwright's fixture of the same name and chains after it (so
    ``--headed``, ``--browser-channel`` and a user's conftest still apply); it only adds an
    ``executable_path`` when Playwright has no browser of its own. Registered
    only when pytest-playwright is loaded.
    """
    if (
        (browser_name or "chromium") != "chromium"
        or "executable_path" in browser_type_launch_args
        or browser_type_launch_args.get("channel")
    ):
        return browser_type_launch_args
    try:
        headless = browser_type_launch_args.get("headless", True) is not False  # not --headed
        choice = choose_browser(options.settings(pytestconfig).browser_path, headless=headless)
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


class _RelaunchingBrowser:
    """pytest-playwright's session browser, relaunched when it is no longer connected.

    The ``browser`` fixture is session-scoped: once its process dies (killed, out of memory,
    crashed), every later test would fail at setup. Each attribute read goes to the live
    browser, launched again through pytest-playwright's ``launch_browser`` when the last one
    is gone, so the next test gets a fresh one.
    """

    def __init__(self, launch: Callable[[], Browser]) -> None:
        self._launch = launch
        self._browser = launch()
        self.launches = 1

    @property
    def current(self) -> Browser:
        if not self._browser.is_connected():
            with contextlib.suppress(PlaywrightError):
                self._browser.close()
            self._browser = self._launch()
            self.launches += 1
        return self._browser

    def __getattr__(self, name: str) -> Any:
        return getattr(self.current, name)

    def close(self) -> None:
        with contextlib.suppress(PlaywrightError):
            self._browser.close()


@pytest.fixture(scope="session")
def browser(launch_browser: Callable[[], Browser], playwright: Playwright) -> Iterator[Browser]:
    """Overrides pytest-playwright's ``browser``: the same launch, relaunched after a death.
    Prepares the session's Playwright for the run's in-page calls
    (:func:`~pytest_pacts.browser.prepare_playwright`)."""
    prepare_playwright(playwright)
    live = _RelaunchingBrowser(launch_browser)
    yield cast(Browser, live)
    live.close()


_MISSING = object()


@pytest.fixture(autouse=True)
def _pacts_context_options(request: pytest.FixtureRequest) -> None:
    """A requirement's context options, from the one place that builds them
    (:func:`~pytest_pacts.pytest_plugin.context_setup.context_setup`): put where
    pytest-playwright's ``new_context`` reads per-test options (the ``browser_context_args``
    marker, whose keys win over the fixture's), before ``context`` is created. Autouse so it
    runs before ``page``; does nothing for other tests, or a requirement that opens no page
    (``--pacts-dry-run``)."""
    item = request.node
    if not isinstance(item, RequirementItem) or "context" not in request.fixturenames:
        return
    base: dict[str, object] = request.getfixturevalue("browser_context_args")
    requirement = item.plan.requirement
    try:
        # a requirement with an auth profile may log in first, in the tests' browser
        browser = None
        if requirement.auth:
            from pytest_pacts.pytest_plugin.auth_access import use_base_url

            use_base_url(request.config, request.getfixturevalue("base_url"))
            browser = request.getfixturevalue("browser")
        wanted = context_setup(request.config, base).options(requirement, browser)
    except PactsError as exc:
        from pytest_pacts.auth import AuthFailed

        if not isinstance(exc, AuthFailed):
            raise
        item.stash[AUTH_FAILED_KEY] = exc  # the test body fails with it, once, in words
        wanted = context_setup(request.config, base, sessions=False).options(requirement)
    from pytest_pacts.auth.session_values import context_secrets

    # the saved session's cookies and tokens, and credential headers: masked in the trace
    add_secrets(item, context_secrets(wanted))
    own = {k: v for k, v in wanted.items() if base.get(k, _MISSING) != v}
    if own:
        item.add_marker(pytest.mark.browser_context_args(**own), append=False)


@pytest.fixture
def context(
    context: BrowserContext, request: pytest.FixtureRequest, browser_context_args: dict[str, object]
) -> BrowserContext:
    """pytest-playwright's ``context``, customised for a requirement (the
    ``pytest_pacts_configure_context`` hook, as discovery's context is), whose teardown
    tolerates a context that is already gone: closed because its page stopped responding, or
    its browser died during the test. The failure is the test's (``env_fault``), never a
    second error at teardown."""
    item = request.node
    if isinstance(item, RequirementItem):
        context_setup(request.config, browser_context_args).customise(
            context, item.plan.requirement
        )
    close = context.close

    def tolerant_close(*args: Any, **kwargs: Any) -> None:
        try:
            close(*args, **kwargs)
        except PlaywrightError:
            if context.browser is not None and context.browser.is_connected() and _open(context):
                raise

    context.close = tolerant_close  # type: ignore[method-assign]
    return context


def _open(context: BrowserContext) -> bool:
    """False when the context was closed already (by a deadline or a dying browser)."""
    try:
        context.cookies()
    except PlaywrightError:
        return False
    return True
