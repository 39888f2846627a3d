"""A label with a hint after the words a person reads names its field by those words.

HTML: every ``<label>`` in a control's ``labels`` list labels it, so each is compared with
the step apart (Chromium's accessible name joins them: Locust 2.20.1's "Spawn rate" field
is named "Spawn rate (users started/second) Spawn rate ..." through a second, hidden label
of its edit form). A label's leading words are the name a person reads; a hint after them,
a part in parentheses or a sentence after the first, is compared apart, so the length limit
of a loose match applies to the leading words, not to the hint. Two apps showed it: Locust
2.20.1 ("Spawn rate (users started/second)", "Host (e.g. http://www.example.com)", "Run
time (e.g. 20, 20s, ...)", each refused at css 0.68 because the field's ``name`` matched
exactly before the label matched loosely) and Calibre-Web 0.6.27 ("Send to eReader Email
Address. Use comma to separate emails for multiple eReaders"). The locator stays the whole
label, which Playwright's ``get_by_label(exact=True)`` finds.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .helpers import chosen_id, find

GREY = '<span style="color:#8a8a8a;">'
# Locust 2.20.1's start form (templates/index.html), and its hidden edit form, whose label
# also says for="spawn_rate" and so labels the start form's field too.
LOCUST = (
    f'<form><label for="spawn_rate">Spawn rate {GREY}(users started/second)</span></label>'
    '<input type="text" name="spawn_rate" id="spawn_rate"><br>'
    f'<label for="host">Host {GREY}(e.g. http://www.example.com)</span></label>'
    '<input type="text" name="host" id="host"><br>'
    f'<label for="run_time">Run time {GREY}(e.g. 20, 20s, 3m, 2h, 1h20m, 3h30m10s, etc.)</span>'
    '</label><input type="text" name="run_time" id="run_time"></form>'
    '<div style="display:none"><form><label for="spawn_rate">Spawn rate '
    f"{GREY}(users added/stopped per second)</span></label>"
    '<input type="text" name="spawn_rate" id="new_spawn_rate"></form></div>'
)


def test_a_parenthesised_hint_after_the_words_does_not_hide_the_label(tab: Page) -> None:
    tab.set_content(LOCUST)
    for words, field in (("Spawn rate", "spawn_rate"), ("Host", "host"), ("Run time", "run_time")):
        result = find(tab, words, "fill")
        assert result.locator is not None, result.unresolved
        assert result.locator.strategy.value == "label", result.locator
        assert chosen_id(tab, result) == field


def test_a_sentence_after_the_first_is_a_hint(tab: Page) -> None:
    tab.set_content(
        '<label for="email">Email</label><input type="email" name="email" id="email">'
        '<label for="kindle_mail">Send to eReader Email Address. Use comma to separate emails'
        ' for multiple eReaders</label><input type="email" name="kindle_mail" id="kindle_mail">'
    )
    result = find(tab, "Send to eReader Email Address", "fill")
    assert result.locator is not None, result.unresolved
    assert result.locator.strategy.value == "label"
    assert result.locator.confidence >= 0.9
    assert chosen_id(tab, result) == "kindle_mail"


def test_the_words_of_a_hint_alone_name_nothing_more_closely(tab: Page) -> None:
    """The hint is compared apart, never promoted: words only the hint says stay loose."""
    tab.set_content(LOCUST)
    result = find(tab, "users started/second", "fill")
    assert result.locator is None or result.locator.confidence < 0.9


# A back office's form rows (pretalx 2023.1.3 and 2025.2.2, REQ-PRETALX-009 and -005): each
# optional field's caption carries a marker on a line of its own under the field's words, by a
# ``<br>`` (2023.1.3) or a block box (2025.2.2); on a required field the marker is not drawn.
LINES = (
    "<style>.optional{color:#888} .block .optional{display:block} .required .optional{display:none}</style>"
    '<form><label for="id_capacity">Capacity<br><span class="optional">Optional</span></label>'
    '<input type="number" name="capacity" id="id_capacity">'
    '<div class="block"><label for="id_notes">Internal notes <span class="optional">Optional</span>'
    '</label><textarea name="internal_notes" id="id_notes"></textarea></div>'
    '<div class="required"><label for="id_title">Title <span class="optional">Optional</span></label>'
    '<input name="title" id="id_title"></div>'
    '<label for="id_seats">Seats <span class="optional">left</span></label><input name="seats" id="id_seats">'
    "</form>"
)


@pytest.mark.parametrize(
    ("words", "field"),
    [("Capacity", "id_capacity"), ("Internal notes", "id_notes"), ("Title", "id_title")],
)
def test_a_label_s_first_line_is_the_name_a_person_reads(tab: Page, words: str, field: str) -> None:
    """A label drawn on two lines (HTML ``innerText``: a ``<br>`` or a block box ends a line;
    what is not drawn is not read) is read as its first line's words and, under them, a hint:
    the same leading words as a part in parentheses or a sentence after the first (above).
    pretalx 2023.1.3 and 2025.2.2: ``Capacity<br><span class="optional">Optional</span>`` was
    named "Capacity Optional" (accname), the field's ``name`` matched "Capacity" exactly at css
    0.68 (its accessible name says other words) before the label loosely, and the step was
    refused (REQ-PRETALX-009, both versions; REQ-PRETALX-005's "Internal notes" on 2025.2.2).
    The locator stays the whole label, which Playwright's ``get_by_label(exact=True)`` finds."""
    tab.set_content(LINES)
    result = find(tab, words, "fill")
    assert result.locator is not None, result.unresolved
    assert result.locator.strategy.value == "label", result.locator
    assert result.locator.confidence >= 0.9
    assert chosen_id(tab, result) == field


def test_words_on_the_label_s_line_after_its_name_are_not_cut_off(tab: Page) -> None:
    """Only a line break makes a hint: "Seats left" drawn on one line stays one name, matched
    loosely by "Seats" (as before), never exactly."""
    tab.set_content(LINES)
    result = find(tab, "Seats", "fill")
    assert result.locator is None or result.locator.confidence < 0.9


def test_two_labels_whose_first_lines_are_the_step_s_words_stay_a_tie(tab: Page) -> None:
    """Two fields whose captions start with the same line are two fields the words name: the
    step is refused, never the first."""
    tab.set_content(
        '<label for="a">Capacity<br><small>Optional</small></label><input id="a">'
        '<label for="b">Capacity<br><small>Standing</small></label><input id="b">'
    )
    result = find(tab, "Capacity", "fill")
    assert result.locator is None
    assert result.unresolved is not None and result.unresolved.reason == "ambiguous"
