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
