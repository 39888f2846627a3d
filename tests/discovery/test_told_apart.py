"""What the evidence rule counts as *another* element (docs/discovery.md, "The evidence
rule"): two links of one repeated item to the same address are one choice, and a name written
in the step's letter case is told apart from the same words in another case.

Both come from false refusals, never guesses, on Calibre-Web (0.6.21 and 0.6.27): the series
card's title link and cover link to the same series, and the top bar's "admin" (the signed-in
user) beside "Admin" (the admin page). Their grounds are web standards, not that app:

- HTML, "following hyperlinks": activating an ``<a href>``, or an element inside it with no
  activation behaviour of its own, navigates to the link's URL (with its ``target`` and
  ``download``). A card whose cover and title both link to the item's page offers one click
  twice: Calibre-Web's series and book cards, and django-oscar's product cards
  (``article.product_pod``: the image link and the title link to the product's page, whose
  tie on 2.1.1 and 4.2.1 the image's unseen alt text settles, docs/real-apps.md). The rule
  weighs the better-named link against the other elements, for a click only (a hover over
  the cover is not a hover over the title). Narrow on purpose: a real URL (not
  ``javascript:``, not the page itself or a place in it, where scripts act), the links alike
  in every attribute but presentation and naming (``id``, ``class``, ``style``, ``title``,
  ``tabindex``, ``aria-*``), no inline event handler on them or on the way to them, no control
  in between, and inside one repeated item. A listener added from script cannot be seen; with
  the same URL and attributes there is nothing a click could tell apart.
- Playwright's exact name matching (``exact=True``) is case-sensitive and whole-string: of
  elements whose names are the step's words but for letter case, the one written as the step
  writes them is the one an exact locator names. It is evidence with a score: where one
  of the elements the step's words name exactly writes them in the step's case, one that
  writes them in another scores x0.85 (``OTHER_CASE_FACTOR``, models/locator.py), and is
  still the runner-up: two of one kind of name clear the margin (0.95 against 0.81), a
  stronger kind in the other case against a weaker one in the step's does not. When none or
  several are in the step's case, they score alike and the step is refused.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import Discoverer, to_playwright
from pytest_pacts.discovery.inventory import list_elements
from pytest_pacts.models import Action, Target

from .helpers import chosen_id, find

BASE = "http://127.0.0.1:9"  # never opened: discovery reads the page, it does not navigate


def _card(n: int, name: str, cover: str = "", title: str = "", attrs: str = "") -> str:
    """A card of the grid (Calibre-Web's series list): a cover link whose picture is named by
    a span's tooltip, then a title link (with ``attrs``), both to the series' page unless
    ``cover`` or ``title`` give another address."""
    href = f"{BASE}/series/{n}"
    return (
        f'<div class="col-sm-3 book"><div class="cover">'
        f'<a id="cover{n}" href="{cover or href}"><span class="img" title="{name}">'
        f'<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="60" height="90" alt="">'
        f'<span class="badge">2</span></span></a></div>'
        f'<div class="meta"><a id="title{n}" href="{title or href}"{attrs}>'
        f'<p class="title" title="{name}">{name}</p></a></div></div>'
    )


def _grid(first: str = "") -> str:
    cards = first or _card(1, "Sherlock Holmes")
    return (
        "<h1>Series</h1><div id='list' class='row'>"
        f"{cards}{_card(2, 'Discworld')}{_card(3, 'Foundation')}</div>"
    )


def test_a_cards_cover_and_title_links_to_one_address_are_one_choice(tab: Page) -> None:
    tab.set_content(_grid())
    result = find(tab, "Sherlock Holmes")
    assert result.unresolved is None, result.unresolved
    # the better-named of the two: the title link by its role and name
    assert chosen_id(tab, result) == "title1"


def test_a_lone_cards_two_links_are_one_choice_too(tab: Page) -> None:
    """A list of one card (Calibre-Web's series list with one series) repeats nothing: the
    smallest container of both links holds no other control, so they are one item."""
    tab.set_content(
        f"<h1>Series</h1><div id='list' class='row'>{_card(1, 'Sherlock Holmes')}</div>"
    )
    result = find(tab, "Sherlock Holmes")
    assert result.unresolved is None, result.unresolved
    assert chosen_id(tab, result) == "title1"


def test_a_hover_still_weighs_the_two_links_as_rivals(tab: Page) -> None:
    tab.set_content(_grid())
    result = find(tab, "Sherlock Holmes", "hover")
    assert result.locator is None
    assert result.unresolved is not None and result.unresolved.reason == "ambiguous"


def test_the_same_links_are_listed_under_the_name_discovery_resolves(tab: Page) -> None:
    """``pacts elements`` names the title link by its words, as discovery resolves them."""
    tab.set_content(_grid())
    texts = {e.text for e in list_elements(tab) if e.text}
    assert "Sherlock Holmes" in texts


@pytest.mark.parametrize(
    ("href", "attrs"),
    [
        pytest.param(f"{BASE}/series/9", "", id="another address"),
        pytest.param("", ' target="_blank"', id="another target"),
        pytest.param("", " download", id="a download"),
        pytest.param("", ' onclick="void 0"', id="an inline handler"),
        pytest.param("", ' data-toggle="modal"', id="a script's attribute"),
        pytest.param("#series-1", "", id="a place in this page"),
        pytest.param("javascript:void(0)", "", id="javascript"),
    ],
)
def test_links_a_click_could_tell_apart_stay_rivals(tab: Page, href: str, attrs: str) -> None:
    same = href.startswith(("#", "javascript:"))  # both links so, else only the title's
    card = _card(1, "Sherlock Holmes", cover=href if same else "", title=href, attrs=attrs)
    tab.set_content(_grid(card))
    result = find(tab, "Sherlock Holmes")
    assert result.locator is None
    assert result.unresolved is not None and result.unresolved.reason == "ambiguous"


def test_the_same_address_outside_one_item_stays_a_rival(tab: Page) -> None:
    """Not in one item: a page's logo and a heading link to the same page are two places on
    the page (their smallest common container holds the page's other controls), not one
    card."""
    tab.set_content(
        f'<div id="page"><header><a id="logo" href="{BASE}/series/1"><span title="Sherlock '
        'Holmes"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="60" height="30"'
        f' alt=""></span></a><a href="{BASE}/tasks">Tasks</a></header><main><h1>Series</h1>'
        f'<a id="title" href="{BASE}/series/1">Sherlock Holmes</a></main></div>'
    )
    result = find(tab, "Sherlock Holmes")
    assert result.locator is None
    assert result.unresolved is not None and result.unresolved.reason == "ambiguous"


GLYPH_USER, GLYPH_ADMIN = "\ue008", "\ue141"  # icon-font glyphs, as Bootstrap 3 draws them


def _top_bar(user: str = "admin") -> str:
    """Calibre-Web's top bar: the signed-in user's link (named by the user, here "admin")
    and the admin page's link "Admin", each an icon and a word."""
    return (
        '<nav><ul class="nav">'
        f'<li><a id="top_tasks" href="{BASE}/tasks">Tasks</a></li>'
        f'<li><a id="top_admin" href="{BASE}/admin"><span class="glyphicon">{GLYPH_ADMIN}</span>'
        ' <span class="hidden-sm">Admin</span></a></li>'
        f'<li><a id="top_user" href="{BASE}/me"><span class="glyphicon">{GLYPH_USER}</span>'
        f' <span class="hidden-sm">{user}</span></a></li>'
        f'<li><a id="logout" href="{BASE}/logout">Logout</a></li></ul></nav>'
    )


@pytest.mark.parametrize(("words", "chosen"), [("admin", "top_user"), ("Admin", "top_admin")])
def test_the_name_in_the_steps_letter_case_is_told_apart(
    tab: Page, words: str, chosen: str
) -> None:
    tab.set_content(_top_bar())
    result = find(tab, words)
    assert result.unresolved is None, result.unresolved
    assert chosen_id(tab, result) == chosen
    # the other link is the runner-up, scored in its letter case (it did not count before)
    assert result.score == 0.95 and result.runner_up == 0.808


def test_the_other_letter_case_still_counts_against_a_weaker_kind_of_name(tab: Page) -> None:
    """A box whose placeholder is "admin" (0.88) and the link "Admin" (role and name, 0.95 in
    another case: 0.81): 0.07 apart, under the margin, so the key is refused. Before, the link
    did not count at all, and the box was taken on the letter case alone. With a label (0.92)
    the lead is 0.11 and the box is taken."""
    for field, refused in (
        ('<input id="box" placeholder="admin">', True),
        ('<label for="box">admin</label> <input id="box">', False),
    ):
        tab.set_content(_top_bar("me") + field)
        result = find(tab, "admin", "press")
        if refused:
            assert result.unresolved is not None and result.unresolved.reason == "ambiguous"
            assert "0.81" in result.unresolved.message, result.unresolved.message
        else:
            assert chosen_id(tab, result) == "box"


@pytest.mark.parametrize(
    ("user", "words"),
    [
        pytest.param("admin", "ADMIN", id="no name in the step's case"),
        pytest.param("Admin", "Admin", id="two names in the step's case"),
    ],
)
def test_without_exactly_one_name_in_the_steps_case_it_is_refused(
    tab: Page, user: str, words: str
) -> None:
    tab.set_content(_top_bar(user))
    result = find(tab, words)
    assert result.locator is None
    assert result.unresolved is not None and result.unresolved.reason == "ambiguous"


def test_pacts_elements_names_each_by_its_own_letter_case(tab: Page) -> None:
    """``pacts elements`` names both links by their own words, as discovery resolves them
    (the icon glyph left out of the name it lists, as discovery leaves it out: one path for
    names, docs/discovery.md "Icon-font glyphs are left out of names")."""
    tab.set_content(_top_bar())
    listed = {e.description.split()[0]: e for e in list_elements(tab)}
    for el, words in (("a#top_user", "admin"), ("a#top_admin", "Admin")):
        assert listed[el].text == words and listed[el].code is not None, listed[el]


# Tabs whose markup writes their words in lower case and whose style draws them in capitals,
# over a row of toggle buttons written as drawn (a component library's buttons are drawn in
# capitals by their theme the same way)
DRAWN_IN_CAPITALS = (
    "<style>.tabs span { text-transform: uppercase }</style>"
    '<nav><div role="tablist" class="tabs"><div role="tab" id="tab-home"><span> home </span></div>'
    '<div role="tab" id="tab-reports"><span> reports </span></div></div></nav>'
    '<main><div role="group"><button role="checkbox" aria-checked="true" id="all">All</button>'
    '<button role="checkbox" aria-checked="false" id="reports">Reports</button></div></main>'
)


@pytest.mark.parametrize(
    ("words", "chosen"),
    [
        pytest.param("REPORTS", "tab-reports", id="the case drawn"),
        pytest.param("reports", "tab-reports", id="the case in the markup"),
        pytest.param("Reports", "reports", id="the other's case"),
    ],
)
def test_the_letter_case_a_person_reads_is_the_drawn_one(
    tab: Page, words: str, chosen: str
) -> None:
    """The letter case is the one a person reads: HTML's ``innerText`` is the element's
    *rendered* text, with CSS Text's ``text-transform`` applied, so a tab whose markup says
    "reports" and whose style draws it "REPORTS" writes the words in capitals as much as in
    lower case, and "Reports" (drawn as written) in neither. Component libraries draw their
    controls so from a theme: Locust 2.32.0's MUI buttons ("NEW", "STOP", "RESET" from
    "New", "Stop", "Reset"), Angular Material's tab labels. Before, only the markup's case
    counted: ``REPORTS`` matched neither element's case and the step was refused as a tie."""
    tab.set_content(DRAWN_IN_CAPITALS)
    result = find(tab, words)
    assert result.unresolved is None, result.unresolved
    assert chosen_id(tab, result) == chosen
    assert result.score == 0.95 and result.runner_up == 0.808


def test_a_case_drawn_by_neither_is_still_a_tie(tab: Page) -> None:
    """Words in a case that neither the markup nor the drawing writes ("rEPORTS") name both
    elements alike: refused, as before."""
    tab.set_content(DRAWN_IN_CAPITALS)
    result = find(tab, "rEPORTS")
    assert result.locator is None
    assert result.unresolved is not None and result.unresolved.reason == "ambiguous"


# A sort box (Piccolo Admin 0.45.2 and 1.14.0): two drop-downs under one caption paragraph,
# the column's and the direction's; two selects labelled alike; a listbox drawn open.
SORT_BOX = (
    '<div class="sort"><p>Sort by:</p><select id="column" name="property">'
    '<option value="id"> id </option><option value="name"> name </option>'
    '<option value="price"> price </option></select><select id="dir" name="ordering">'
    '<option value="ascending">Ascending</option><option value="descending">Descending</option>'
    "</select><button>Sort</button></div>"
    '<div class="range"><p>Between:</p><select id="lo"><option>1</option><option>5</option>'
    '</select><select id="hi"><option>5</option><option>9</option></select></div>'
    '<label for="s1">Size</label><select id="s1"><option>S</option><option>M</option></select>'
    '<label for="s2">Size</label><select id="s2"><option>L</option><option>XL</option></select>'
    '<div id="tone-label">Tone</div><ul role="listbox" id="t1" aria-labelledby="tone-label">'
    '<li role="option">Warm</li></ul><ul role="listbox" id="t2" aria-labelledby="tone-label">'
    '<li role="option">Cool</li></ul>'
)


@pytest.mark.parametrize(
    ("words", "value", "chosen"),
    [
        pytest.param("Sort by", "price", "column", id="the column's drop-down (relational)"),
        pytest.param("Sort by", "Descending", "dir", id="the direction's, by its option's words"),
        pytest.param("Size", "XL", "s2", id="two labelled alike (role and name)"),
        pytest.param("Tone", "Cool", "t2", id="two ARIA listboxes"),
        pytest.param("Sort by", "weight", None, id="none offers it"),
        pytest.param("Between", "5", None, id="both offer it"),
    ],
)
def test_a_select_steps_option_tells_apart_drop_downs_tied_under_its_words(
    tab: Page, words: str, value: str, chosen: str | None
) -> None:
    """Two drop-downs under the caption ``<p>Sort by:</p>`` (a column's and a direction's)
    tied at 0.85 by relation, and ``Sort by | select | price`` was refused as ambiguous
    (Piccolo Admin 0.45.2 and 1.14.0, REQ-PICCOLO-005: only the column's has an option
    "price"; the same relational tie between two fields of one group as Radicale 3.0.6's
    "Title" and "Description", docs/real-apps.md). A select step's value is evidence about
    its element: a native ``<select>`` whose option list (HTML) has no option of that value
    or label cannot take the step (Playwright's ``select_option`` fails on it), nor an ARIA
    listbox none of whose options says the words, so neither is a rival of one that can. It
    drops out of the tie; the one left is judged by the evidence rule, its threshold and
    margin, as any pick. When none or several offer the option, the step is refused as
    before; a lone drop-down is never dropped (the action says what it offers)."""
    tab.set_content(SORT_BOX)
    target = Target(element=words)
    result = Discoverer().discover(tab, [("s", target, Action.SELECT)], values={"s": value})["s"]
    if chosen is None:
        assert result.locator is None, chosen_id(tab, result)
        assert result.unresolved is not None and result.unresolved.reason == "ambiguous"
        return
    assert chosen_id(tab, result) == chosen
    assert result.score is not None and result.score >= 0.75
    # without the value, the same words are a tie, refused before acting
    alone = Discoverer().discover(tab, [("s", target, Action.SELECT)])["s"]
    assert alone.locator is None and alone.unresolved is not None


def test_a_lone_drop_down_without_the_option_is_still_the_pick(tab: Page) -> None:
    tab.set_content(SORT_BOX)
    target = Target(element="Size")
    result = Discoverer().discover(tab, [("s", target, Action.SELECT)], values={"s": "XXL"})["s"]
    assert result.locator is None  # two alike, neither offers it: refused
    tab.set_content(SORT_BOX.replace('<label for="s2">Size</label>', "<label>Fit</label>"))
    result = Discoverer().discover(tab, [("s", target, Action.SELECT)], values={"s": "XXL"})["s"]
    assert chosen_id(tab, result) == "s1"


# A side navigation as Vendure 2.0.0's Admin UI draws it (Clarity): each entry a link holding
# an icon named by its title (``role="none"``, its SVG labelled by an off-screen span) and the
# entry's words in a span, so the link's own name is "Inventory Inventory" (a loose match).
def _nav_entry(key: str, words: str, icon: str = "", words_attrs: str = "") -> str:
    return (
        f'<div class="nav-link"><a id="{key}" href="{BASE}/admin/catalog/{key}">'
        f'<clr-icon id="{key}-icon" role="none" title="{icon or words}" '
        'style="display:inline-block;width:16px;height:16px">'
        f'<svg viewBox="0 0 36 36" width="16" height="16" focusable="false" role="img" '
        f'aria-labelledby="{key}-c"><path d="M3 3h30v30H3z"></path></svg>'
        f'<span id="{key}-c" style="position:fixed;left:-9999px">{icon or words}</span>'
        f'</clr-icon><span id="{key}-words"{words_attrs}>{words}</span></a></div>'
    )


def _nav(*entries: str) -> str:
    return f'<nav class="main-nav">{"".join(entries)}</nav><main><h1>Dashboard</h1></main>'


# A wizard's choices as django CMS 3.11.11 draws them (cms/wizards/wizardoptionwidget.html):
# a label holding its radio, the choice's words in a <strong> and a description under them.
def _choice(key: str, words: str, hint: str) -> str:
    return (
        f'<label tabindex="0" class="choice"><input type="radio" id="{key}" name="entry" '
        f'value="{key}"> <strong id="{key}-words">{words}</strong> <span class="info">{hint}'
        "</span></label>"
    )


CHOICES = (
    "<style>.choice .info { display: block }</style>"
    '<form><div class="choice-wrapper">'
    + _choice("page", "New page", "Create a new page next to the current page.")
    + _choice("sub", "New sub page", "Create a page below the current page.")
    + '</div><input type="submit" value="Next"></form>'
)


@pytest.mark.parametrize(
    ("page", "words", "inside"),
    [
        pytest.param(
            _nav(_nav_entry("inventory", "Inventory"), _nav_entry("facets", "Facets")),
            "Inventory",
            "inventory",
            id="a link's icon and words (Vendure)",
        ),
        pytest.param(CHOICES, "New sub page", "sub", id="a label's words and radio (django CMS)"),
        pytest.param(
            '<button id="save" type="button"><svg role="img" aria-label="Save" width="16" '
            f'height="16"></svg> <span>Save</span></button><a href="{BASE}/back">Back</a>',
            "Save",
            "save",
            id="a button's icon and words",
        ),
    ],
)
def test_parts_of_one_control_are_one_candidate(
    tab: Page, page: str, words: str, inside: str
) -> None:
    """The parts of one control are that control, not two look-alikes. HTML's activation
    behaviour: a click on an element with none of its own (an icon, a ``<span>``) reaches the
    nearest control around it (a link follows its hyperlink, a button is pressed), and a click
    on a ``<label>``'s content is a click on its labelled control (HTML, "The label element");
    accname 1.2 names a link or button from its content, and WAI-ARIA 1.2's ``role="none"``
    gives an icon no role of its own. Two false refusals, on two apps:

    - Vendure 2.0.0 (REQ-VENDURE-002, 003, 004 step 1, ``Inventory``): the navigation entry
      ``<a href="/admin/catalog/inventory">`` holds a Clarity icon ``<clr-icon role="none"
      title="Inventory">`` (``aria``, 0.90) and ``<span>Inventory</span>`` (``text``, 0.86);
      the link itself is named "Inventory Inventory" (its SVG's label and the words), a loose
      match ranked after both. The span counted as the icon's runner-up (0.04 apart) and the
      step was refused.
    - django CMS 3.11.11 (REQ-DJANGOCMS-006 step 2, ``New sub page``): the wizard's radio,
      named by its label's first line (``label``, 0.92), against the ``<strong>`` inside that
      label (``text``, 0.86): 0.06 apart, refused.

    Each is now one candidate, judged by the evidence rule against the *other* elements; the
    action goes to the better-scored part, whose click reaches the same control."""
    tab.set_content(page)
    result = find(tab, words)
    assert result.unresolved is None, result.unresolved
    assert result.locator is not None and result.runner_up is None
    # the pick, or the control its click reaches (its link or button, its label's control)
    reaches = "(e, id) => !!e.closest('#' + id) || (e.closest('label') || {}).control?.id === id"
    assert to_playwright(tab, result.locator).evaluate(reaches, inside)


@pytest.mark.parametrize(
    ("page", "action"),
    [
        pytest.param(
            _nav(_nav_entry("inventory", "Inventory"), _nav_entry("stock", "Inventory")),
            "click",
            id="two links, each an icon and words",
        ),
        pytest.param(_nav(_nav_entry("inventory", "Inventory")), "hover", id="a hover"),
        pytest.param(
            _nav(_nav_entry("inventory", "Inventory", words_attrs=' onclick="void 0"')),
            "click",
            id="an inline handler on the way",
        ),
        pytest.param(
            f'<a id="a" href="{BASE}/inventory"><i title="Inventory">i</i> <span>Inventory</span>'
            ' <button type="button">Remove</button></a>',
            "click",
            id="a link holding another control",
        ),
        pytest.param(
            '<div tabindex="0"><span>Inventory</span> <i title="Inventory">i</i></div>',
            "click",
            id="a focusable container, no control",
        ),
        pytest.param(
            CHOICES.replace("below the current page.", f"below it (<a href='{BASE}/h'>help</a>)"),
            "click",
            id="a label holding another control",
        ),
    ],
)
def test_what_a_click_could_tell_apart_stays_a_tie(tab: Page, page: str, action: str) -> None:
    """Never two different controls, nor a container of two: two links each with an icon and
    the same words, a hover (an icon's tooltip is not its words'), an inline handler on the
    way (it may act on its own), a link or label holding another control, and a focusable
    container that is no control (``tabindex`` alone: a scrolled region) stay rivals, and the
    step is refused before acting."""
    tab.set_content(page)
    result = find(tab, "New sub page" if "choice" in page else "Inventory", action)
    assert result.locator is None, result.locator
    assert result.unresolved is not None and result.unresolved.reason == "ambiguous"
