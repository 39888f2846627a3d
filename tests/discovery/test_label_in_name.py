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
