"""A name borrowed through ``aria-labelledby`` from a control is that control's name
(docs/discovery.md, "The control, not its container").

accname 1.2 (step 2B) computes an element's name from the elements its ``aria-labelledby``
references: the words are theirs. WAI-ARIA's tabs pattern labels each ``tabpanel`` by its
``tab`` (the APG's example gives the panel ``tabindex="0"`` too, so it takes focus and counts
as operable); the tab is the control a person clicks. Seen on two apps: pgAdmin 4 9.13's
rc-dock panels (`Dashboard | click` took the shown ``tabpanel`` by its label at 0.92, the
calibration's one wrong pick at >= 0.90: its tab's name is "Dashboard Close", the words and
its close button) and marimo 0.9.0's Radix tabs (`Calendar | click` refused as two look-alikes,
the tab at 0.95 and its panel at 0.92). For a pointer, the labelled element gives way to the
control it borrows its words from; never the panel, and ambiguous rather than a guess when the
tab itself is not singled out.
"""

from __future__ import annotations

from playwright.sync_api import Page

from .helpers import chosen_id, find

# The APG's tabs example: tab buttons, the shown panel focusable and labelled by its tab.
APG_TABS = (
    '<div role="tablist" aria-label="Garden">'
    '<button role="tab" id="t1" aria-selected="true" aria-controls="p1">Calendar</button>'
    '<button role="tab" id="t2" aria-selected="false" aria-controls="p2" tabindex="-1">Pests</button>'
    "</div>"
    '<div role="tabpanel" id="p1" tabindex="0" aria-labelledby="t1"><p>Sow in spring.</p></div>'
    '<div role="tabpanel" id="p2" tabindex="0" aria-labelledby="t2" hidden><p>Slugs.</p></div>'
)

# A docking layout's panel tab (rc-dock): the tab holds its title and an icon button named
# "Close", so its name from content is "Dashboard Close"; the panel, labelled by the tab,
# reads "Dashboard" (the tab's text).
DOCK_TABS = (
    '<div role="tablist">'
    '<div role="tab" id="t1" aria-selected="true" tabindex="0" aria-controls="p1">'
    '<div title="Dashboard" id="title1"><span>Dashboard</span>'
    '<button aria-label="Close" id="x1"><svg width="8" height="8"></svg></button></div></div>'
    '<div role="tab" id="t2" aria-selected="false" tabindex="-1" aria-controls="p2">'
    '<div title="Properties"><span>Properties</span><button aria-label="Close"><svg width="8" height="8"></svg></button></div></div>'
    "</div>"
    '<div role="tabpanel" id="p1" tabindex="0" aria-labelledby="t1" style="height:300px">'
    "<p>Sessions and locks.</p></div>"
    '<div role="tabpanel" id="p2" tabindex="-1" aria-labelledby="t2" style="display:none"></div>'
)


def test_a_click_on_a_tabs_words_is_the_tab_not_the_panel_it_labels(tab: Page) -> None:
    """Fails before: refused as ambiguous (the tab 0.95, its panel 0.92 by its label)."""
    tab.set_content(APG_TABS)
    assert chosen_id(tab, find(tab, "Calendar")) == "t1"
    # the panel's borrowed name still names the region a person sees
    tab.set_content(APG_TABS.replace("<p>Sow in spring.</p>", '<button id="sow">Sow</button>'))
    assert chosen_id(tab, find(tab, "Sow", region="Calendar")) == "sow"


def test_a_dock_tab_with_a_close_button_is_not_its_panel(tab: Page) -> None:
    """Fails before: refused, the panel ``p1`` by its label "Dashboard" at 0.92 against the
    tab's title at 0.90 (the tab's own name, "Dashboard Close", only holds the words); with no
    evidence rule (the calibration) the panel was the pick."""
    tab.set_content(DOCK_TABS)
    result = find(tab, "Dashboard")
    assert result.locator is not None, result.unresolved
    assert chosen_id(tab, result) in {"t1", "title1"}
