"""What a person reads names a control before a label only assistive technology reads
(WCAG 2.5.3, "Label in Name"; docs/discovery.md, "Controls before text")."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import to_playwright
from pytest_pacts.models.locator import DiscoveryResult

from .helpers import find

ICON = '<svg width="16" height="16"><path d="M2 8h12"/></svg>'
SIDEBAR = (
    '<div class="tabs"><button id="open">Open</button><button id="recent">Recent</button>'
    '<button id="more">More</button></div>'
    '<div class="frame"><h2>Welcome</h2><button id="icon1" aria-label="more" {title}>'
    f"{ICON}</button></div>"
    '<div class="frame"><h2>Coffee machine</h2><button id="icon2" aria-label="more" {title}>'
    f"{ICON}</button></div>"
)


def _id_of(page: Page, result: DiscoveryResult) -> str:
    assert result.locator is not None, result.unresolved
    value = to_playwright(page, result.locator).evaluate("e => e.id")
    assert isinstance(value, str)
    return value


def test_the_control_that_shows_the_words_outranks_an_unseen_label(tab: Page) -> None:
    """TiddlyWiki (held out, REQ-TIDDLYWIKI-009, both versions): ``More`` was ambiguous
    between the sidebar's "More" tab and each page's "more actions" icon button, whose
    ``aria-label="more"`` no one sees (its tooltip says "More actions"). django-oscar (dev):
    a product's name matched its card's title link and the image link named by the image's
    ``alt``, which is not shown. WCAG 2.5.3: the visible label is the name a person uses;
    where one control shows the words, a control that has them only from an unseen label is
    not what they name."""
    tab.set_content(SIDEBAR.format(title='title="More actions"'))
    assert _id_of(tab, find(tab, "More")) == "more"
    assert _id_of(tab, find(tab, "More actions", region="Coffee machine")) == "icon2"

    tab.set_content(
        '<div class="card"><a id="pic" href="/p/1"><img alt="The Clockmaker\'s Map" '
        'width="40" height="40" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></a>'
        '<h3><a id="title" href="/p/1">The Clockmaker\'s Map</a></h3><p>£7.99</p></div>'
    )
    assert _id_of(tab, find(tab, "The Clockmaker's Map")) == "title"


def test_an_icon_whose_tooltip_says_the_words_stays_ambiguous(tab: Page) -> None:
    """An icon button named by the tooltip a person reads when pointing at it (its
    ``title``) is named as much as a control showing the words: the step stays ambiguous
    and fails before acting, never taking the first."""
    tab.set_content(SIDEBAR.format(title='title="More"'))
    result = find(tab, "More")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "ambiguous"


# A proposals list's filters (pretalx 2023.1.3, REQ-PRETALX-003): the page's search box, and
# in each multi-select select2 4.1 draws, its own search box named "Search" by an
# ``aria-label`` and showing the widget's placeholder ("Session types", "Tracks").
FILTERS = (
    '<form><input name="q" placeholder="Search" id="id_q">{second}'
    '<span class="select2"><textarea id="s1" role="searchbox" aria-label="Search"'
    ' placeholder="Session types"></textarea></span>'
    '<span class="select2"><textarea id="s2" role="searchbox" aria-label="Search"'
    ' placeholder="Tracks"></textarea></span></form>'
)


def test_a_field_shows_its_placeholder_and_its_label(tab: Page) -> None:
    """HTML draws an empty field's placeholder, and a ``<label>`` is drawn beside its field:
    those are the words a person reads on a field (WCAG 2.5.3's visible label). pretalx
    2023.1.3's "Search" was refused (0.95 against 0.92) between its search box, whose
    placeholder says "Search", and select2's in-widget search boxes, named "Search" by an
    ``aria-label`` no one sees while they show "Session types" and "Tracks"."""
    tab.set_content(FILTERS.format(second=""))
    assert _id_of(tab, find(tab, "Search", "fill")) == "id_q"
    tab.set_content(
        FILTERS.format(second="")
        .replace(' placeholder="Search"', "")
        .replace("<input", '<label for="id_q">Search</label><input')
    )
    assert _id_of(tab, find(tab, "Search", "fill")) == "id_q"


def test_two_fields_showing_the_words_stay_ambiguous(tab: Page) -> None:
    """Two fields that show the words (a placeholder, a label) are two answers: refused."""
    tab.set_content(FILTERS.format(second='<label for="q2">Search</label><input id="q2">'))
    result = find(tab, "Search", "fill")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason == "ambiguous"
