"""A word an icon font draws as one picture (a ligature) is left out of names, as glyphs are.

Google's Material Icons and Material Symbols draw the text "add", "expand_more", "close" as one
icon through the font's ligature feature (CSS Fonts 4, ``font-variant-ligatures``; the OpenType
``liga`` feature, on by default): the page holds the word, a person sees a picture and reads
no word. NocoDB 0.202.10's filter menu names its buttons "add Add filter" and "add Add filter
group" that way (``<span class="material-symbols">add</span>Add filter``), so the step "Add
filter" tied with "Add filter group" and was refused (docs/real-apps.md, "NocoDB's icon
words"). The rule is measured, not a list of fonts: a one-word text node drawn far narrower
than its letters drawn apart (the canvas measures them with ligatures off) is an icon.
docs/discovery.md, "Icon-font glyphs are left out of names".

The fixture font (``fonts/ligature-icons.ttf``, made by ``scripts/make_ligature_font.py``) draws
letters 0.6 em wide and "add", "expand_more" as one square one em wide, loaded from a data:
address (no network).
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import Page

from pytest_pacts.discovery import discover, to_playwright
from pytest_pacts.discovery.inventory import list_elements
from pytest_pacts.models import Action, Target

from .helpers import Site

_FONT = base64.b64encode((Path(__file__).parent / "fonts" / "ligature-icons.ttf").read_bytes())
PAGE = (
    "<style>@font-face{font-family:LigatureIcons;src:url(data:font/ttf;base64,"
    + _FONT.decode()
    + ")} .icon{font-family:LigatureIcons;font-size:20px;display:inline-block}</style>"
    "<p id='out'></p><div>"
    "<button onclick='out.textContent=\"filter\"'><span class='icon'>add</span>Add filter</button>"
    " <button onclick='out.textContent=\"group\"'><span class='icon'>add</span> Add filter group"
    "</button> <button onclick='out.textContent=\"status\"'>Status <span class='icon'>"
    "expand_more</span></button> <button onclick='out.textContent=\"all\"'>"
    "<span style='font-size:20px'>all</span> rows</button></div>"
)
STEPS = ("Add filter", "Status", "all rows")


def test_icon_words_are_left_out_of_names_and_the_step_resolves(tab: Page, site: Site) -> None:
    """ "Add filter" resolves to its button, not to "Add filter group" (before: both names
    held the icon's word "add" and the step was ambiguous); the locator still resolves in
    Playwright; the fingerprint and ``pacts elements`` name the buttons by their words; a
    short word drawn in a text font ("all") stays a word."""
    tab.goto(site.add("icon-words.html", PAGE))
    tab.evaluate("document.fonts.ready.then(() => true)")
    found = discover(tab, [(w, Target(element=w), Action.CLICK) for w in STEPS])
    for words, shows in zip(STEPS, ("filter", "status", "all"), strict=True):
        result = found[words]
        assert result.locator is not None and result.fingerprint is not None, result.unresolved
        assert result.fingerprint.accessible_name == words
        to_playwright(tab, result.locator).click()
        assert tab.locator("#out").text_content() == shows
    names = [e.text for e in list_elements(tab)]
    assert names == ["Add filter", "Add filter group", "Status", "all rows"], names
