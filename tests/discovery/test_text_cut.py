"""Page text handed to Python is cut at a length, never between the two halves of a character
outside the BMP (an emoji): a lone half is no Unicode text, and the store could not write it
(ArchiveBox 0.5.4's first discovery stopped a whole corpus run). Ground: Unicode (a surrogate
code unit alone is not a character; ECMAScript strings are UTF-16 code units)."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.runtime.scripts import module_function

from .helpers import chosen_id, find


def test_text_is_cut_whole_characters_only(tab: Page) -> None:
    tab.set_content("<p>x</p>")
    cut = module_function("dom", "cut")
    assert tab.evaluate(cut, ["ab\U0001f3db", 3]) == "ab"  # the emoji's first half left out
    assert tab.evaluate(cut, ["ab\U0001f3db", 4]) == "ab\U0001f3db"
    assert tab.evaluate(cut, ["abc", 2]) == "ab"


def test_an_emoji_at_the_cut_leaves_no_half_in_what_discovery_returns(tab: Page) -> None:
    words = "a" * 199 + "\U0001f3db archived"
    tab.set_content(f'<button id="pull" title="Pull">{words}</button><button>Other</button>')
    result = find(tab, "Pull", "click")
    assert chosen_id(tab, result) == "pull"
    text = result.model_dump_json()
    text.encode("utf-8")  # no lone surrogate anywhere in the answer
