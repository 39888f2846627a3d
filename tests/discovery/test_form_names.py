"""A form control's ``name`` attribute names it for a step only where nothing a person reads
shows the step's words (docs/discovery.md, "The evidence rule", "A form name is no name").

HTML, "Naming form controls: the name attribute": ``name`` gives the name under which a
control's value is sent with its form, a key for the server; the accessible name computation
(accname 1.2) never reads it. So a control with no accessible name that only its ``name``
ties to the step's words is named by a developer's key, and where a shown control of the
step's kind shows those very words (as tokens: ``plan_green_bean_purchases`` is "Plan Green
Bean Purchases") as its name or its text, that control is what a person means; the key
gives way, and stays an alternate locator of its element, which healing counts as
corroboration when that element is picked by other evidence (ArchiveBox 0.7.4's renamed
buttons, whose unchanged unique ``name`` is their identity: docs/healing.md, "Identity by a
form name or an address", ``tests/engine/healing/test_server_keys.py``).

Failure it was made from: Kedro-Viz 12.5.0 (flows 001-003, docs/real-apps.md, "Kedro-Viz's
form names"): each row of the sidebar's element list holds a button showing the node's name
as the code writes it and a show/hide checkbox, drawn under an eye icon, whose ``name`` is
that same code name. "Plan Green Bean Purchases | click" took the checkbox by its ``name``
(``css`` 0.80, an exact token match, before the button's looser textual match), and the click
landed on the eye.
"""

from __future__ import annotations

from playwright.sync_api import Page

from .helpers import chosen_id, find

_EYE = '<svg width="16" height="16" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6"/></svg>'


def _row(code: str, shows: str | None = None) -> str:
    """A row of an element list (Kedro-Viz's sidebar): a button that shows the element's name
    (``shows``, the code name by default) and a show/hide checkbox, named by nothing a
    person reads, whose ``name`` is the code name; its label draws an eye over it."""
    return (
        f'<li role="treeitem" style="display:flex;gap:8px;align-items:center">'
        f'<button id="btn-{code}" title="{shows or code}" type="button">{shows or code}</button>'
        f'<label style="position:relative;display:inline-block;width:16px;height:16px">'
        f'<input id="cb-{code}" type="checkbox" name="{code}" class="toggle-control__checkbox"'
        f' style="position:absolute;inset:0;margin:0;opacity:0" checked>{_EYE}</label></li>'
    )


def _list(*rows: str) -> str:
    return f'<ul role="tree" style="list-style:none">{"".join(rows)}</ul>'


def test_a_form_name_gives_way_to_a_button_that_shows_the_words(tab: Page) -> None:
    """Fails before: the checkbox was taken by its ``name``."""
    tab.set_content(_list(_row("plan_green_bean_purchases"), _row("summarise_roasts")))
    result = find(tab, "Plan Green Bean Purchases")
    assert chosen_id(tab, result) == "btn-plan_green_bean_purchases"
    # the same words as the button shows them, letter for letter
    result = find(tab, "summarise_roasts")
    assert chosen_id(tab, result) == "btn-summarise_roasts"


def test_two_views_of_the_words_are_refused_never_the_form_name(tab: Page) -> None:
    """The row's button and a graph's node showing the same words (Kedro-Viz draws each node
    in its list and its flowchart): two readable candidates too close to tell apart, refused
    before acting; the checkbox is no candidate (before: it was the pick)."""
    graph = (
        '<svg width="300" height="60"><g tabindex="0" class="pipeline-node">'
        '<rect width="200" height="30"/><text x="10" y="20">plan_green_bean_purchases</text>'
        "</g></svg>"
    )
    tab.set_content(_list(_row("plan_green_bean_purchases")) + graph)
    result = find(tab, "Plan Green Bean Purchases")
    assert result.locator is None
    assert result.unresolved is not None
    described = " ".join(c.description for c in result.unresolved.candidates)
    assert "checkbox" not in described and "cb-" not in described


def test_a_form_name_still_names_a_control_nothing_shows_the_words_of(tab: Page) -> None:
    """Where no shown control of the step's kind shows the words, the ``name`` is the only
    name there is (an unlabelled filter field: Datasette's ``_filter_column``): kept. A button
    showing the words is no control a fill or a check operates, so it changes nothing."""
    tab.set_content(
        '<form><input id="zip" name="zip_code"> <button type="button">Zip code</button>'
        '<input id="cb" type="checkbox" name="remember_me"> <button type="button">'
        "Remember me</button></form>"
    )
    assert chosen_id(tab, find(tab, "Zip code", "fill")) == "zip"
    assert chosen_id(tab, find(tab, "Remember me", "check")) == "cb"
    tab.set_content(_list(_row("plan_green_bean_purchases")))
    assert chosen_id(tab, find(tab, "Plan Green Bean Purchases", "check")) == (
        "cb-plan_green_bean_purchases"
    )
