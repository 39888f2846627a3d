"""A page's title heading names the page, never a field in it (docs/discovery.md, "Relational").

A step whose words are a heading's (``Custom SQL query | fill``) is read as the heading
captioning the one control it leads. HTML gives ``h1`` the highest rank: the heading of the
page as a whole, and the section it opens runs to the end of the page. So a page's one
unnamed field is no more "the Harbor Handbook" than the page is. Seen on two dev apps:
TiddlyWiki 5.1.23's site title ``<h1>Harbor Handbook</h1>`` over the sidebar's one search
box, and Datasette 0.59.4's ``<h1>orders</h1>`` over the table's one filter value box and
``<h1>shop</h1>`` over the SQL box: ``Harbor Handbook | fill`` and ``orders | fill`` typed
into those boxes (a guess that acts). A lower-ranked heading over its own section's one
field still names it: Datasette's ``<h3>Custom SQL query returning 34 rows</h3>`` over one
unnamed ``<textarea>`` (REQ-DATASETTE-008), doccano 1.6.2's ``<h3>Description</h3>`` over one
input (REQ-DOCCANO-010).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .helpers import chosen_id, find

# TiddlyWiki 5.1.23's sidebar: the site title, then the search box, each in its own reveal.
TIDDLYWIKI = """
<div class="tc-sidebar-scrollable"><div class="tc-sidebar-header">
  <div class="tc-reveal"><div class="tc-reveal"><h1 class="tc-site-title">Harbor Handbook</h1></div>
  <div class="tc-reveal"><div class="tc-sidebar-search"><p></p><div class="tc-search">
    <input id="search" type="search"></div></div></div></div>
</div></div>
<section class="tc-story-river"><div class="tc-tiddler-frame">
  <h2 class="tc-title">Welcome</h2><p>Start with the onboarding checklist.</p></div></section>
"""

# Datasette 0.59.4's table page: the table's name, the row count, the filter form.
DATASETTE_TABLE = """
<section class="content">
  <div class="page-header"><h1>orders</h1></div>
  <h3>240 rows</h3>
  <form class="filters"><div class="filter-row"><input id="value" class="filter-value"
    name="_filter_value"></div><div class="filter-row"><input type="submit" value="Apply"></div></form>
</section>
"""

# Datasette 0.59.4's database page: the database's name over the custom SQL form.
DATASETTE_DATABASE = """
<section class="content">
  <div class="page-header"><h1>shop</h1></div>
  <form class="sql"><h3>Custom SQL query returning 34 rows</h3>
    <p><textarea id="sql" name="sql"></textarea></p>
    <p><button type="button">Format SQL</button><input type="submit" value="Run SQL"></p></form>
  <div class="db-table"><h2>products</h2><p>34 rows</p></div>
</section>
"""


@pytest.mark.parametrize(
    ("page", "title"),
    [(TIDDLYWIKI, "Harbor Handbook"), (DATASETTE_TABLE, "orders"), (DATASETTE_DATABASE, "shop")],
    ids=["tiddlywiki-site-title", "datasette-table-name", "datasette-database-name"],
)
def test_a_page_title_names_no_field(tab: Page, page: str, title: str) -> None:
    tab.set_content(page)
    result = find(tab, title, action="fill")
    assert result.locator is None and result.unresolved is not None
    assert result.unresolved.reason in ("none", "ambiguous")
    assert f'"{title}"' in result.unresolved.message
    # the refusal names the heading that holds the words, not a wrapper around it
    assert "names h1" in result.unresolved.message, result.unresolved.message


def test_a_lower_heading_still_names_its_sections_one_field(tab: Page) -> None:
    tab.set_content(DATASETTE_DATABASE)
    assert chosen_id(tab, find(tab, "Custom SQL query", action="fill")) == "sql"
    tab.set_content(
        '<div class="v-card"><h3>Description</h3><div class="v-input"><input id="d" type="text">'
        '</div></div><div class="v-card"><h3>Name</h3><p>Bird reports</p></div>'
    )
    assert chosen_id(tab, find(tab, "Description", action="fill")) == "d"


# Datasette 0.59.4's database page ends with its views and queries: headings after the SQL
# box, in the same section.content (hdg's survey: `Views | fill` filled the SQL box).
DATASETTE_CLOSING = """
<section class="content">
  <form class="sql"><p><textarea id="sql" name="sql"></textarea></p>
    <p><input type="submit" value="Run SQL"></p></form>
  <h2 id="views">Views</h2><ul class="bullets"><li><a href="/shop/weekly">weekly</a></li></ul>
  <h2 id="queries">Queries</h2><ul class="bullets"><li><a href="/shop/top">top</a></li></ul>
</section>
"""

# sqladmin 0.21's list page: the search box in the card header, the table's heading after it.
SQLADMIN_LIST = """
<div class="card"><div class="card-header"><div class="ms-auto">
  <input id="search-input" type="search" placeholder="Search: title"></div></div>
  <div class="card-body"><h3 class="card-title">Books</h3><table><tr><td>Dune</td></tr></table>
  </div></div>
"""


@pytest.mark.parametrize(
    ("page", "words"),
    [(DATASETTE_CLOSING, "Views"), (DATASETTE_CLOSING, "Queries"), (SQLADMIN_LIST, "Books")],
    ids=["datasette-views", "datasette-queries", "sqladmin-books"],
)
def test_a_heading_names_no_field_before_it(tab: Page, page: str, words: str) -> None:
    """HTML: a heading heads the content that follows it, not what comes before it. On
    Datasette's database page (its closing "Views" and "Queries") and sqladmin's list page
    (the table's "Books" after the search box), the heading's nearest container holds one
    field, before the heading: it is no caption of it. Failed before: each filled that box."""
    tab.set_content(page)
    result = find(tab, words, action="fill")
    assert result.locator is None and result.unresolved is not None


def test_a_heading_over_a_field_in_a_shadow_root_still_names_it(tab: Page) -> None:
    """A field inside a web component's shadow root has no document order against the
    heading (DOM: DISCONNECTED, with an arbitrary order bit); the heading keeps naming it."""
    tab.set_content('<div class="card"><h3>Description</h3><x-field id="host"></x-field></div>')
    tab.evaluate(
        """() => document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML =
        '<input id="d" type="text">'"""
    )
    result = find(tab, "Description", action="fill")
    assert result.locator is not None, result.unresolved
