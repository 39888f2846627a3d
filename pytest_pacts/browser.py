"""Finding a usable Chromium: Playwright's own when installed, else a system one.

Playwright's browser download is impossible on some machines (no internet); Debian's
``chromium`` package works when launched with ``executable_path`` and a few flags.
Everything that launches a browser outside
pytest-playwright's fixtures (:class:`StandaloneBrowser`, benchmarks) takes its options from
:func:`launch_options`; the pytest layer feeds the same options into
pytest-playwright's ``browser_type_launch_args`` fixture.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.errors import PactsError

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright

# Without the networking flags Chromium keeps trying to reach the internet; ``--no-sandbox``
# is needed when running as root (CI containers).
SYSTEM_CHROMIUM_ARGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
)

# Chromium's headless shell (Debian's ``chromium-headless-shell`` package): what Playwright
# itself launches for a headless Chromium (its own download of it is ``chromium-headless-shell``
# too). On the same run it costs about half the CPU of the full browser in headless mode
# (docs/benchmarks.md, "The test command's duration"), so a headless run takes it when it is
# there; a headed run needs the full browser.
SYSTEM_HEADLESS_SHELL_PATHS: tuple[str, ...] = (
    "/usr/bin/chromium-headless-shell",
    "/usr/lib/chromium/chromium-headless-shell",
)

SYSTEM_CHROMIUM_PATHS: tuple[str, ...] = (
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/snap/bin/chromium",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
)

ENV_BROWSER_PATH = "PACTS_BROWSER_PATH"

HOW_TO_GET_ONE = (
    "No usable Chromium was found. Playwright's own browsers are not installed and no system "
    "Chromium was found at " + ", ".join(SYSTEM_CHROMIUM_PATHS[:3]) + ". Get one with "
    "`playwright install chromium`, or on Debian/Ubuntu `apt-get install chromium`, or point "
    f"pytest-pacts at a Chromium binary with the {ENV_BROWSER_PATH} environment variable or "
    "the `pacts_browser_path` ini key."
)


class NoBrowserError(RuntimeError, PactsError):
    """No Chromium could be found; the message says how to get one."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(HOW_TO_GET_ONE + (f" ({detail})" if detail else ""))


@dataclass(frozen=True)
class BrowserChoice:
    """Which Chromium will be used and the launch keyword arguments that select it."""

    source: str  # "playwright", "configured" or "system"
    executable_path: str | None
    args: tuple[str, ...] = ()

    def launch_kwargs(self) -> dict[str, object]:
        """Keyword arguments for ``playwright.chromium.launch(...)``."""
        if self.executable_path is None:
            return {}
        return {"executable_path": self.executable_path, "args": list(self.args)}


def _playwright_browsers_dir() -> Path:
    configured = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if configured and configured != "0":
        return Path(configured)
    if os.name == "nt":  # pragma: no cover - not our CI
        return Path(os.environ.get("LOCALAPPDATA", "")) / "ms-playwright"
    if os.uname().sysname == "Darwin":  # pragma: no cover
        return Path.home() / "Library" / "Caches" / "ms-playwright"
    return Path.home() / ".cache" / "ms-playwright"


def playwright_has_own_chromium() -> bool:
    """True when ``playwright install chromium`` has put a browser where Playwright looks."""
    return playwright_has_own("chromium")


def playwright_has_own(name: str) -> bool:
    """True when Playwright's own download of ``name`` (``firefox``, ``webkit``,
    ``ffmpeg`` for videos) is where Playwright looks for it."""
    root = _playwright_browsers_dir()
    return root.is_dir() and any(p.name.startswith(name) and p.is_dir() for p in root.iterdir())


def run_option_problems(browsers: list[str], video: str | None) -> list[str]:
    """What pytest-playwright's ``--browser`` and ``--video`` ask for that this machine cannot
    give, each said in words (checked before any test starts, instead of a launch traceback
    in every test). Chromium always has a fallback (a system Chromium); Firefox, WebKit and
    the video encoder are only ever Playwright's own downloads."""
    problems: list[str] = []
    for name in dict.fromkeys(browsers):
        if name != "chromium" and not playwright_has_own(name):
            problems.append(
                f"--browser {name}: Playwright's {name} is not installed on this machine "
                f"(`playwright install {name}` downloads it); drop the option to run on "
                "Chromium"
            )
    if video in ("on", "retain-on-failure") and not playwright_has_own("ffmpeg"):
        problems.append(
            f"--video {video}: Playwright records videos with its own ffmpeg build, which is "
            "not installed on this machine (`playwright install ffmpeg` downloads it; a system "
            "ffmpeg is not used); use --tracing instead, whose screencast shows the run"
        )
    return problems


def find_system_chromium(*, headless: bool = False) -> str | None:
    """The first executable system Chromium (or Chrome) at the usual paths or on PATH; for
    a ``headless`` run, Chromium's headless shell first when it is installed."""
    shells: tuple[str, ...] = SYSTEM_HEADLESS_SHELL_PATHS if headless else ()
    for candidate in (*shells, *SYSTEM_CHROMIUM_PATHS):
        if os.access(candidate, os.X_OK):
            return candidate
    names: tuple[str, ...] = ("chromium-headless-shell",) if headless else ()
    for name in (*names, "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def choose_browser(configured_path: str | None = None, *, headless: bool = True) -> BrowserChoice:
    """Pick the Chromium to launch.

    Order: an explicitly configured path (ini ``pacts_browser_path`` or the
    ``PACTS_BROWSER_PATH`` variable), Playwright's own download, a system Chromium (for a
    ``headless`` run its headless shell when installed, as Playwright's own choice would be).
    Raises :class:`NoBrowserError` when there is none.
    """
    explicit = configured_path or os.environ.get(ENV_BROWSER_PATH)
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise NoBrowserError(f"the configured browser path {explicit!r} is not executable")
        return BrowserChoice("configured", explicit, SYSTEM_CHROMIUM_ARGS)
    if playwright_has_own_chromium():
        return BrowserChoice("playwright", None)
    system = find_system_chromium(headless=headless)
    if system is not None:
        return BrowserChoice("system", system, SYSTEM_CHROMIUM_ARGS)
    raise NoBrowserError()


def launch_options(
    configured_path: str | None = None, *, headless: bool = True
) -> dict[str, object]:
    """Full keyword arguments for ``sync_playwright().chromium.launch(**launch_options())``."""
    options = choose_browser(configured_path, headless=headless).launch_kwargs()
    options["headless"] = headless
    return options


def prepare_playwright(playwright: Playwright) -> None:
    """What the run needs of a Playwright instance before its pages open: the selector
    engine through which the in-page calls get a locator's elements from Playwright's
    isolated world (:func:`~pytest_pacts.discovery.register_bridge`). Idempotent."""
    from pytest_pacts.discovery import register_bridge

    register_bridge(playwright.selectors)


class StandaloneBrowser:
    """A Playwright and a Chromium of their own, outside pytest-playwright's fixtures.

    The one way this package launches a browser itself: ``pacts discover``, ``pacts
    elements`` and ``pacts generate --discover``, and discovery before the tests when
    pytest-playwright is not loaded (in a pytest session it otherwise uses the tests' own
    ``browser``). Chromium starts on first use, with
    :func:`launch_options`; :class:`NoBrowserError` is raised then, before Playwright
    starts, when there is none. With ``connect`` (a Playwright browser server's
    ``ws://`` endpoint) it connects to that browser instead and launches none.
    """

    def __init__(
        self, browser_path: str | None = None, *, connect: str | None = None, headless: bool = True
    ) -> None:
        self._browser_path = browser_path
        self._connect = connect
        self._headless = headless
        self._pw: Playwright | None = None
        self._browser: Browser | None = None
        self.launches = 0

    def __enter__(self) -> StandaloneBrowser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def browser(self) -> Browser:
        if self._browser is None:
            from playwright.sync_api import sync_playwright

            self._pw = sync_playwright().start()
            prepare_playwright(self._pw)
            if self._connect:
                self._browser = self._pw.chromium.connect(self._connect)
                return self._browser
            options = launch_options(self._browser_path, headless=self._headless)
            self._browser = self._pw.chromium.launch(**options)  # type: ignore[arg-type]
            self.launches += 1
        return self._browser

    @contextmanager
    def page(self, context_options: Mapping[str, object] | None = None) -> Iterator[Page]:
        """A page in a fresh browser context, closed with it."""
        context = self.browser.new_context(**dict(context_options or {}))  # type: ignore[arg-type]
        try:
            yield context.new_page()
        finally:
            context.close()

    def close(self) -> None:
        if self._browser is not None:
            self._browser.close()
            self._browser = None
        if self._pw is not None:
            self._pw.stop()
            self._pw = None
