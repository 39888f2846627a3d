"""Discovery in a context whose JavaScript is disabled (``java_script_enabled=False``).

Such a page runs no callback at all: animation frames and timers never fire, so an in-page
wait on them never returned and discovery hung. Every page-side call is bounded now.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from pytest_pacts.discovery import check_locator, to_playwright

from .helpers import chosen_id, find

STATIC_FORM = """
<form id="login" action="about:blank">
  <label for="user">Username</label><input id="user" name="user">
  <label for="pass">Password</label><input id="pass" type="password">
  <button id="go" type="submit">Log in</button>
</form>
<noscript><p>Please enable JavaScript</p></noscript>
"""


@pytest.fixture
def no_script_tab(module_browser: Browser) -> Iterator[Page]:
    context = module_browser.new_context(
        java_script_enabled=False, viewport={"width": 1000, "height": 700}
    )
    context.set_default_timeout(5_000)
    page = context.new_page()
    page.set_content(STATIC_FORM)
    yield page
    context.close()


def test_discovery_returns_quickly_with_scripts_disabled(no_script_tab: Page) -> None:
    started = time.monotonic()
    user = find(no_script_tab, "Username", "fill")
    go = find(no_script_tab, "Log in", "click")
    assert time.monotonic() - started < 10
    assert user.ok and go.ok, (user.unresolved, go.unresolved)
    assert chosen_id(no_script_tab, user) == "user"
    assert chosen_id(no_script_tab, go) == "go"
    assert go.gate is not None and go.gate.ok


def test_gate_and_action_with_scripts_disabled(no_script_tab: Page) -> None:
    go = find(no_script_tab, "Log in", "click")
    assert go.locator is not None
    started = time.monotonic()
    gate = check_locator(no_script_tab, go.locator, "click")
    assert time.monotonic() - started < 5
    assert gate.ok, gate.failed
    assert "scripts are disabled" in gate.point("stable").reason
    user = find(no_script_tab, "Username", "fill")
    assert user.locator is not None

    to_playwright(no_script_tab, user.locator).fill("ada")
    assert no_script_tab.locator("#user").input_value() == "ada"


def test_a_running_css_animation_is_unstable_with_scripts_disabled(no_script_tab: Page) -> None:
    """Without animation frames, "stable" is that no CSS animation or transition runs on the
    element or an ancestor (CSS Animations run without scripts; nothing else moves an element
    in a page without them): one that runs makes the point fail, never a still element
    assumed."""
    no_script_tab.set_content(
        "<style>@keyframes slide { from { margin-left: 0 } to { margin-left: 300px } }"
        "#moving { animation: slide 60s linear infinite }</style>"
        '<div id="moving"><button id="go">Go</button></div>'
    )
    go = find(no_script_tab, "Go", "click")
    assert go.locator is not None
    gate = check_locator(no_script_tab, go.locator, "click")
    stable = gate.point("stable")
    assert not gate.ok and stable.code == "unstable", stable
    assert "a CSS animation or transition of its box is running on div#moving" in stable.reason
