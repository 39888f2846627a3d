"""A region's words are mentioned from a word's start, never as the end of another word.

A person reads no "Bases" in "external databases". NocoDB 0.262.5's base page (REQ-NOCODB-008,
``Repairs@Bases``, docs/real-apps.md "NocoDB's icon words, and NocoDB moves to dev"): the
region "Bases" is the sidebar's caption over the bases and their tables, and a card of the
page's main panel says "In realtime to external databases." above the list of tables. The
mention inside "databases" made that panel a region "Bases" too: the list's "Repairs" cell
(0.95) and the sidebar's "Repairs" (0.86) were both in a region, and the step was refused by
the margin; while the sidebar's tables were not yet drawn, the cell was picked at 0.95 (the
calibration's wrong pick). A mention begins where a word begins (no letter or digit before
it; Unicode's word boundaries, UAX #29); its end may run on ("Sauce Labs B" still mentions
both "Sauce Labs Backpack" and "Sauce Labs Bike Light", and "Author" mentions "Authors").
"""

from __future__ import annotations

from playwright.sync_api import Page

from .helpers import chosen_id, find


def _page(sidebar_tables: str) -> str:
    return (
        '<nav><div class="caption">Bases</div><div class="tree"><div>Bike Workshop</div>'
        f"{sidebar_tables}</div></nav><main><div class='card'><b>Connect External Data</b>"
        "<div class='subtext'>In realtime to external databases.</div></div>"
        "<table><tr><th>Name</th></tr><tr><td id='cell-repairs' tabindex='0'>Repairs</td></tr>"
        "<tr><td tabindex='0'>Parts</td></tr></table></main>"
    )


def test_a_region_is_not_mentioned_by_letters_inside_another_word(tab: Page) -> None:
    """``Repairs@Bases`` is the sidebar's table (before: refused, the main panel's cell in a
    region "Bases" too), and while the sidebar holds no table yet it is nothing (before: the
    cell, at 0.95)."""
    tab.set_content(
        _page("<div class='node'><a href='#repairs' id='side-repairs'>Repairs</a></div>")
    )
    assert chosen_id(tab, find(tab, "Repairs", region="Bases")) == "side-repairs"
    tab.set_content(_page(""))
    result = find(tab, "Repairs", region="Bases")
    assert result.locator is None, result.locator
