"""A title Bootstrap's tooltip plugin moved is still the element's title.

Bootstrap's tooltip plugin, when it initialises on an element, takes the element's ``title``
(the words the tooltip shows) out of it so the browser does not draw its own tooltip too:
Bootstrap 3 and 4 copy it into ``data-original-title`` and leave ``title=""`` (tooltip.js,
``fixTitle``), Bootstrap 5 into ``data-bs-original-title`` and remove ``title`` (5.2 and
later also set ``aria-label`` from it, but only when the element has no text; the "Tooltips"
page of Bootstrap's documentation: "Tooltips rely on the title attribute"). The words a
person sees on pointing are then in no ``title``. Discovery, ``pacts elements`` and
healing's fingerprint read those two attributes as the element's title when ``title`` is
empty or absent, with the weight a ``title`` has (the ``aria`` strategy, 0.90).

Where it occurs: Flask-AppBuilder (3.4.5 and 5.3.0, Bootstrap 3): a list's icon buttons
"Show record", "Edit record", "Delete record" and "Add a new record" carry
``data-toggle="tooltip" title=...`` over a screen-reader-only word ("Show") and an icon, so
six of its 14 flows failed before acting (docs/real-apps.md, "New held-out app:
Flask-AppBuilder"); Flask-Admin (1.6.1 and 2.2.1, Bootstrap 3 and 4): a column's
description is an icon link ``title=... data-role="tooltip"`` that its ``filters.js``
initialises with ``.tooltip()``; sqladmin (0.21.0 and 0.32.0, Bootstrap 5 through Tabler,
which initialises every ``[data-bs-toggle="tooltip"]``): a row's "View" and "Edit" icon
links. The fixture below is what the plugin leaves, written out (no Bootstrap is loaded:
no network), one table per major.

It failed before the change: "Show record@Bob" was ``not_found`` (the link is named "Show"
by its screen-reader-only text), and ``pacts elements`` listed an icon named only by its tooltip as showing no name.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery.inventory import list_elements
from pytest_pacts.models.locator import Strategy

from .helpers import chosen_id, find

_ROW = (
    "<tr><td>{name}</td><td>"
    '<a id="show-{n}" href="/show/{n}" class="btn" {attrs}="Show record">'
    '<span class="sr-only">Show</span><i class="fa fa-search"></i></a>'
    '<a id="edit-{n}" href="/edit/{n}" class="btn" {attrs}="Edit record">'
    '<span class="sr-only">Edit</span><i class="fa fa-edit"></i></a></td></tr>'
)
_SR = (
    "<style>.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}"
    ".fa{display:inline-block;width:14px;height:14px}</style>"
)
#: what Bootstrap 3/4 leave on an initialised element, and what Bootstrap 5 leaves
_BS3 = 'data-toggle="tooltip" title="" data-original-title'
_BS5 = 'data-bs-toggle="tooltip" data-bs-original-title'


def _page(attrs: str) -> str:
    rows = "".join(
        _ROW.format(name=name, n=n, attrs=attrs) for n, name in enumerate(("Alice", "Bob"))
    )
    return f"{_SR}<table>{rows}</table>"


def test_bootstrap3_moved_title_names_the_button(tab: Page) -> None:
    tab.set_content(_page(_BS3))
    result = find(tab, "Show record", region="Bob")
    assert result.ok and chosen_id(tab, result) == "show-1"
    assert result.locator is not None
    aria = [loc for loc in (result.locator, *result.alternates) if loc.strategy is Strategy.ARIA]
    assert aria and aria[0].title == "Show record" and aria[0].confidence == 0.90
    assert result.fingerprint is not None and result.fingerprint.title == "Show record"


def test_bootstrap5_moved_title_names_the_button(tab: Page) -> None:
    tab.set_content(_page(_BS5))
    result = find(tab, "Edit record", region="Alice")
    assert result.ok and chosen_id(tab, result) == "edit-0"


def test_a_title_of_its_own_comes_first(tab: Page) -> None:
    # the plugin leaves title empty; a title the page sets later is what the browser shows
    tab.set_content(
        f'{_SR}<a id="a" href="/a" title="Refresh" data-original-title="Reload">'
        '<i class="fa fa-refresh"></i></a>'
    )
    assert chosen_id(tab, find(tab, "Refresh")) == "a"
    assert find(tab, "Reload").locator is None


def test_pacts_elements_lists_an_icon_by_its_tooltip(tab: Page) -> None:
    # Flask-Admin's column description: an icon link whose one name is its tooltip
    tab.set_content(
        f"{_SR}<table><tr><th>Email "
        f'<a id="q" class="fa fa-question-circle" href="javascript:void(0)" data-role="tooltip" '
        f'{_BS3}="Where we write to"></a></th></tr></table>'
    )
    [element] = list_elements(tab)
    assert element.text == "Where we write to" and element.strategy == "aria", element
