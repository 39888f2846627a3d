"""A usable Chromium is found without any user conftest (issue 2 item 2)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_pacts.browser import (
    ENV_BROWSER_PATH,
    NoBrowserError,
    choose_browser,
    playwright_has_own_chromium,
    run_option_problems,
)


def test_configured_path_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "chrome"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv(ENV_BROWSER_PATH, str(fake))
    choice = choose_browser()
    assert choice.source == "configured" and choice.executable_path == str(fake)
    assert "--no-sandbox" in choice.launch_kwargs()["args"]  # type: ignore[operator]


def test_bad_configured_path_says_how_to_get_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_BROWSER_PATH, "/nonexistent/chromium")
    with pytest.raises(NoBrowserError) as info:
        choose_browser()
    text = str(info.value)
    assert "apt-get install chromium" in text and "playwright install chromium" in text
    assert "'/nonexistent/chromium' is not executable" in text


def test_playwright_download_detected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_BROWSER_PATH, raising=False)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path))
    assert not playwright_has_own_chromium()
    (tmp_path / "chromium-1234").mkdir()
    assert playwright_has_own_chromium()
    assert choose_browser().launch_kwargs() == {}  # Playwright launches its own


def test_page_fixture_works_without_a_user_conftest(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
def test_page(page):
    page.set_content("<button id=b>Ready</button>")
    assert page.inner_text("#b") == "Ready"
""")
    result = pytester.runpytest_subprocess("-q")
    result.assert_outcomes(passed=1)


def test_no_browser_error_in_a_real_session(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_page(page):\n    pass\n")
    env = {**os.environ, ENV_BROWSER_PATH: "/nonexistent/chromium"}
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        result = pytester.runpytest_subprocess("-q")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*No usable Chromium was found*apt-get install chromium*"])


def test_browsers_and_video_this_machine_cannot_run_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path))
    assert run_option_problems(["chromium"], "off") == []
    problems = run_option_problems(["firefox", "chromium"], "retain-on-failure")
    assert len(problems) == 2
    assert problems[0].startswith("--browser firefox:") and "playwright install" in problems[0]
    assert problems[1].startswith("--video retain-on-failure:")
    (tmp_path / "firefox-1490").mkdir()
    (tmp_path / "ffmpeg-1011").mkdir()
    assert run_option_problems(["firefox"], "on") == []


@pytest.mark.parametrize("option", [("--browser", "webkit"), ("--video", "on")])
def test_unrunnable_browser_or_video_is_one_usage_error(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, option: tuple[str, str]
) -> None:
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(pytester.path / "no-downloads"))
    pytester.makepyfile("def test_page(page):\n    pass\n")
    result = pytester.runpytest_subprocess("-q", *option)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    text = result.stderr.str()
    assert f"{option[0]} {option[1]}:" in text and "Traceback" not in text, text


def _fake(path: Path) -> str:
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return str(path)


def test_a_headless_run_prefers_chromiums_headless_shell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Playwright itself launches Chromium's headless shell for a headless run; a system
    one is taken the same way when installed (about half the CPU of the full browser in
    headless mode). A headed run needs the full browser."""
    import pytest_pacts.browser as browser

    monkeypatch.delenv(ENV_BROWSER_PATH, raising=False)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "none"))
    monkeypatch.setenv("PATH", str(tmp_path))
    shell, full = _fake(tmp_path / "chromium-headless-shell"), _fake(tmp_path / "chromium")
    monkeypatch.setattr(browser, "SYSTEM_HEADLESS_SHELL_PATHS", ())
    monkeypatch.setattr(browser, "SYSTEM_CHROMIUM_PATHS", ())
    assert choose_browser().executable_path == shell
    assert choose_browser(headless=False).executable_path == full
    assert browser.launch_options(headless=False)["executable_path"] == full
    (tmp_path / "chromium-headless-shell").unlink()
    assert choose_browser().executable_path == full  # no shell: the full browser, headless


@pytest.mark.skipif(
    not os.access("/usr/bin/chromium-headless-shell", os.X_OK) or playwright_has_own_chromium(),
    reason="Debian's chromium-headless-shell is not installed (scripts/setup.sh installs it)",
)
def test_the_tests_browser_is_the_headless_shell_unless_headed(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
def test_launch(browser_type_launch_args):
    print("EXE", browser_type_launch_args["executable_path"])
""")
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(ENV_BROWSER_PATH, raising=False)
        headless = pytester.runpytest_subprocess("-q", "-s", "-p", "no:cacheprovider")
        headed = pytester.runpytest_subprocess("-q", "-s", "-p", "no:cacheprovider", "--headed")
    headless.assert_outcomes(passed=1)
    headed.assert_outcomes(passed=1)
    assert "EXE /usr/bin/chromium-headless-shell" in headless.stdout.str()
    assert "EXE /usr/bin/chromium\n" in headed.stdout.str()
