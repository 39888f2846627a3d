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


def test_an_emoji_at_the_cut_of_the_words_around_an_element_leaves_no_half(tab: Page) -> None:
    """The words around an element are cut at 80 units (its fingerprint's neighbour text):
    ArchiveBox 0.5.4's snapshot row ("2026-11-30 10:51AM Proofing Times by Temperature
    127.0.0.1:51905/proofing.html 📄...") put an emoji's first half at the cut when the time
    of day made the row one unit longer, and the library call (``relocate_element``, the
    peers' pacts-api) raised serializing the fingerprint. Fails before: ``slice`` cut it."""
    words = "b" * 79 + "\U0001f4c4 file"
    tab.set_content(
        f'<div><span>{words}</span><input type="checkbox" id="box" aria-label="Keep"></div>'
    )
    result = find(tab, "Keep", "check")
    assert chosen_id(tab, result) == "box"
    assert result.fingerprint is not None and result.fingerprint.neighbour_text
    result.model_dump_json().encode("utf-8")  # no lone surrogate anywhere in the answer
