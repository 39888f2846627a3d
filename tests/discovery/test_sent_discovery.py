"""``Discoverer.send``: a discovery begun now, read later, answers as ``discover`` does."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import Discoverer
from pytest_pacts.models import Action, Target

# its tests change the page itself: a new context per test (tests/tabs.py)
FRESH_CONTEXT = True

PAGE = """<form id="login"><label>Username <input id="u"></label>
<button id="go">Sign in</button></form><button id="help">Help</button>"""
TARGETS = [
    ("user", Target(element="Username"), Action.FILL),
    ("go", Target(element="Sign in", region="login"), Action.CLICK),
    ("nothing", Target(element="Delete account"), Action.CLICK),
]


def test_a_sent_discovery_answers_as_discover_and_the_same_when_asked_again(tab: Page) -> None:
    tab.set_content(PAGE)
    discoverer = Discoverer()
    sent = discoverer.send(tab, TARGETS)
    tab.title()  # another page call while the scan is on its way
    first = sent.result()
    assert sent.result() is first
    now = discoverer.discover(tab, TARGETS)
    assert {k: r.locator for k, r in first.items()} == {k: r.locator for k, r in now.items()}
    assert first["user"].locator is not None and first["go"].locator is not None
    assert first["nothing"].locator is None


def test_a_dropped_discovery_cannot_be_read(tab: Page) -> None:
    tab.set_content(PAGE)
    sent = Discoverer().send(tab, TARGETS)
    sent.drop()
    with pytest.raises(RuntimeError, match="dropped before it was read"):
        sent.result()


def test_no_targets_no_page_call(tab: Page) -> None:
    assert Discoverer().send(tab, []).result() == {}


def test_a_step_whose_action_finds_no_element_is_refused_at_once(tab: Page) -> None:
    with pytest.raises(ValueError, match="has no element to find"):
        Discoverer().send(tab, [(0, Target(element="x"), Action.GOTO)])
