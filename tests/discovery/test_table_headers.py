"""Links in table header cells, as admin index pages lay them out (a first column of <th>
in rows of <td>): the header cell's role is Playwright's (a row header beside data cells),
and a header cell named by the link it holds is not a container standing in for that link.
Found on the Django admin's index page, where "Books" and "Add@Authors" resolved to no
verifiable locator."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.discovery.helpers import chosen_id, find

INDEX = """
<table><caption>Catalog</caption>
  <thead><tr><th>Model</th><th>Add</th><th>Change</th></tr></thead>
  <tr><th scope="row"><a id="k1" href="/book/">Books</a></th>
      <td><a id="k2" href="/book/add/">Add</a></td><td><a href="/book/">Change</a></td></tr>
  <tr><th><a id="k3" href="/author/">Authors</a></th>
      <td><a id="k4" href="/author/add/">Add</a></td><td><a href="/author/">Change</a></td></tr>
</table>
"""


@pytest.mark.parametrize(
    ("element", "region", "expected"),
    [
        ("Books", None, "k1"),
        ("Authors", None, "k3"),
        ("Add", "Books", "k2"),
        ("Add", "Authors", "k4"),
    ],
)
def test_links_in_row_headers_resolve_to_the_link(
    tab: Page, element: str, region: str | None, expected: str
) -> None:
    tab.set_content(INDEX)
    result = find(tab, element, "click", region)
    assert chosen_id(tab, result) == expected


def test_header_cell_roles_are_playwrights(tab: Page) -> None:
    tab.set_content(INDEX)
    assert tab.get_by_role("rowheader", name="Books").count() == 1
    assert tab.get_by_role("rowheader", name="Authors").count() == 1
    assert tab.get_by_role("columnheader", name="Model").count() == 1
    result = find(tab, "Authors", "click")
    assert result.locator is not None and result.locator.region is None, result.locator
