"""Controls before text, and what opens a hidden element (issue 38; docs/discovery.md
"Controls before text", docs/user-guide.md "Menus, tabs and disclosures").

Controls before text: a click operates a control. A heading titles content (HTML's
heading content, ARIA's ``heading`` role: not an operable widget), so it is never what a
click means when a control with the words exists, and with none it is no answer either;
seen on a CMS admin ("Add user | click" took the page heading "Add user" while the form's
submit button said the same) and on the Django admin (its "Add user" heading above a form
whose buttons hold the words). A visually hidden element (the "sr-only"/"visually hidden"
pattern of Bootstrap and Tailwind, moved off-screen as skip links are) is never a pointer's
target: a person cannot see it.

Openers: an element hidden inside a collapsed menu, drop-down, accordion or tab panel is
shown by the control related to it by WAI-ARIA (the APG menu button, disclosure and tabs
patterns: ``aria-controls``, ``aria-expanded``/``aria-haspopup``, ``role=tab`` →
``tabpanel``) or by HTML (``details``/``summary``); several possible controls are named,
never guessed.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import to_playwright

from .helpers import chosen_id, find

# -- controls before text -------------------------------------------------------------------


def test_a_click_takes_the_control_whose_name_holds_the_words_not_the_heading(tab: Page) -> None:
    tab.set_content(
        '<h1 id="h">Add user</h1><form><input name="u">'
        '<button id="b" type="submit">Add user and continue</button></form>'
    )
    assert chosen_id(tab, find(tab, "Add user")) == "b"


def test_a_heading_alone_is_no_answer_to_a_click(tab: Page) -> None:
    tab.set_content('<h1 id="h">Add user</h1><form><input name="u"><button>Save</button></form>')
    result = find(tab, "Add user")
    assert result.locator is None and result.unresolved is not None
    assert "heading" in result.unresolved.message
    # hovering or reading a heading is still fine
    assert chosen_id(tab, find(tab, "Add user", "hover")) == "h"


def test_a_paragraph_comes_after_the_controls_that_hold_the_words(tab: Page) -> None:
    tab.set_content('<p id="p">Delete</p><button id="b">Delete selected</button>')
    assert chosen_id(tab, find(tab, "Delete")) == "b"


def test_words_a_sentence_mentions_come_after_the_control_that_holds_them(tab: Page) -> None:
    """The HTML standard: a ``<p>`` represents a paragraph and holds phrasing content, so its
    ``strong``, ``em``, ``b``... are part of the paragraph's running text, and a click treats
    them as the paragraph: after the controls whose names hold the words. Seen on DokuWiki
    (all three versions of the corpus): "you may create it by clicking on <strong>Create
    this page</strong>" was clicked instead of the page tool named "Create this page [e]"."""
    tab.set_content(
        '<p>You may create it by clicking on <strong id="s">Create this page</strong>.</p>'
        '<p>Click <b id="b">Add page</b> to start.</p>'
        '<a id="t" href="#e" title="Create this page [e]"><span style="display:none">'
        'Create this page</span><svg width="24" height="24"></svg></a>'
        '<button id="a">Add page here</button>'
    )
    assert chosen_id(tab, find(tab, "Create this page")) == "t"
    assert chosen_id(tab, find(tab, "Add page")) == "a"
    # with no control holding the words and nothing showing the mention clickable, the
    # mention is still the best match, but a click on plain text is weak evidence
    # (``INERT_FACTOR``: text 0.86 x 0.85 = 0.73, under the threshold): refused before acting
    tab.set_content('<p>Read the <strong id="s">release notes</strong> first.</p>')
    refused = find(tab, "release notes")
    assert refused.unresolved is not None and refused.unresolved.candidates
    assert refused.unresolved.candidates[0].description.startswith("strong#s")
    assert refused.unresolved.candidates[0].score < 0.75


def test_a_clickable_heading_is_a_control(tab: Page) -> None:
    tab.set_content('<h3 id="h" onclick="this.dataset.x=1">Shipping</h3>')
    assert chosen_id(tab, find(tab, "Shipping")) == "h"


SR_ONLY = (
    "position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;"
    "clip:rect(0,0,0,0);white-space:nowrap;border:0"
)


def test_a_visually_hidden_element_is_no_pointer_target(tab: Page) -> None:
    tab.set_content(
        f'<button id="sr" style="{SR_ONLY}">Save</button>'
        '<a id="off" href="#x" style="position:absolute;left:-9999px">Skip</a>'
        '<button id="v">Save</button><a id="skip" href="#y">Skip</a>'
    )
    assert chosen_id(tab, find(tab, "Save")) == "v"
    assert chosen_id(tab, find(tab, "Skip")) == "skip"


def test_visually_hidden_text_gives_way_to_the_control_holding_the_words(tab: Page) -> None:
    tab.set_content(
        f'<span style="{SR_ONLY}">Add user</span>'
        '<div style="clip-path:inset(50%);position:absolute">Add user</div>'
        '<button id="b">Add user to group</button>'
    )
    assert chosen_id(tab, find(tab, "Add user")) == "b"


def test_a_checkbox_drawn_by_its_label_is_still_checked(tab: Page) -> None:
    tab.set_content(
        f'<input type="checkbox" id="c" style="{SR_ONLY}"><label for="c">Remember me</label>'
    )
    assert chosen_id(tab, find(tab, "Remember me", "check")) == "c"


# A disclosure drawn closed by a zero-width overflow clip, opened while the pointer (or the
# focus) is in it: its label is what a person sees, its text box and button are 0 px wide.
CLIPPED_DISCLOSURE = """
<style>
 .pop { position: relative; display: inline-block; padding: .5em }
 .pop .drawer { position: absolute; left: 0; top: 2em; width: 0; padding: 0; overflow: hidden;
   white-space: nowrap }
 .pop:hover .drawer, .pop:focus-within .drawer { width: auto; padding: .5em }
</style>
<nav><h3>Top</h3><span class="pop"><form><span class="words">New list</span><span class="drawer">
 <input placeholder="title"><button id="go" type="submit">New list</button></span></form></span></nav>
<div><h3>Garden</h3><span class="pop"><form><span class="words">rename</span>
 <span class="drawer"><input><button id="g">rename</button></span></form></span></div>
<div><h3>Kitchen</h3><span class="pop"><form><span class="words">rename</span>
 <span class="drawer"><input><button id="k">rename</button></span></form></span></div>
"""


def _text_of(page: Page, element: str, action: str, region: str | None = None) -> str:
    result = find(page, element, action, region)
    assert result.locator is not None, result.unresolved
    value = to_playwright(page, result.locator).evaluate(
        "e => e.className + ' in ' + e.closest('div, nav').firstElementChild.textContent"
    )
    assert isinstance(value, str)
    return value


def test_a_control_clipped_to_nothing_gives_way_to_the_words_a_person_points_at(tab: Page) -> None:
    """Playwright's actionability (https://playwright.dev/docs/actionability#visible): an
    element is visible with a non-empty bounding box; one clipped to nothing by an
    ``overflow: hidden`` box of no width is no target a person can point at (CSS Overflow:
    no scroll shows it). Seen on reader 3.3 and 3.20 (docs/real-apps.md, "reader to dev"):
    `add feed | hover`, `update feed title@Allotment Diary | hover` and `update feed
    tags@Heron Watch | hover` picked the submit button (role and name, 0.95) drawn 0 px wide
    until the pointer is on its visible words; the gate refused it (obscured) and the steps
    failed. The words a person sees are the hover's target; a click keeps the control (the
    label operates nothing), refused by the gate before acting while it is clipped, and
    taken once the hover has opened it."""
    tab.set_content(CLIPPED_DISCLOSURE)
    assert _text_of(tab, "New list", "hover") == "words in Top"
    assert _text_of(tab, "rename", "hover", "Kitchen") == "words in Kitchen"
    assert _text_of(tab, "rename", "hover", "Garden") == "words in Garden"
    closed = find(tab, "New list", "click")
    assert chosen_id(tab, closed) == "go" and closed.unresolved is not None  # refused, not acted
    assert "visible check" in closed.unresolved.message
    to_playwright(tab, find(tab, "New list", "hover").locator).hover()  # type: ignore[arg-type]
    opened = find(tab, "New list", "click")
    assert chosen_id(tab, opened) == "go" and opened.unresolved is None


def test_a_control_with_no_box_gives_way_to_a_shown_control_with_the_words(tab: Page) -> None:
    """The same rule for a click (Playwright: no box, not visible): a button of no height and
    a button clipped to nothing give way to the shown button with the words, where before
    the three were ambiguous; a positioned button is not clipped by a static box between it
    and its containing block (CSS Positioned Layout), and an sr-only link is no hover target
    either (issue 38: a visually hidden element is never chosen for a pointer action)."""
    tab.set_content(
        '<button style="height:0;padding:0;border:0;overflow:hidden">Save</button>'
        '<div style="width:0;overflow:hidden"><button>Save</button></div>'
        '<button id="v">Save</button>'
        '<div style="width:0;overflow:hidden"><button id="out" style="position:absolute;top:60px">'
        "Open</button></div>"
        f'<a href="#a" style="{SR_ONLY}">Skip</a><a id="skip" href="#b">Skip</a>'
    )
    assert chosen_id(tab, find(tab, "Save")) == "v"
    assert chosen_id(tab, find(tab, "Open")) == "out"
    assert chosen_id(tab, find(tab, "Skip", "hover")) == "skip"


# -- openers --------------------------------------------------------------------------------

MENU_BUTTON = """
<div><button id="save">Save draft</button>
<button id="more" aria-haspopup="menu" aria-expanded="false" aria-controls="m"
  onclick="document.getElementById('m').hidden=false;this.setAttribute('aria-expanded','true')">
  More actions</button>
<ul id="m" role="menu" hidden><li role="menuitem" id="pub" tabindex="-1"
  onclick="document.title='published'">Publish</li></ul></div>
"""


def _opener_ids(page: Page, element: str, action: str = "click") -> list[str]:
    result = find(page, element, action)
    assert result.locator is None and result.unresolved is not None
    out = []
    for opener in result.unresolved.openers:
        value = to_playwright(page, opener.locator).evaluate("e => e.id")
        assert isinstance(value, str)
        out.append(value)
    return out


def test_a_menu_button_opens_its_menu_by_aria_controls(tab: Page) -> None:
    tab.set_content(MENU_BUTTON)
    assert _opener_ids(tab, "Publish") == ["more"]
    result = find(tab, "Publish")
    assert result.unresolved is not None
    assert result.unresolved.openers[0].relation == "aria-controls"


def test_a_nameless_toggle_beside_the_hidden_menu_opens_it(tab: Page) -> None:
    tab.set_content(
        '<div class="dropup"><button id="save">Save draft</button>'
        '<button id="arrow" class="toggle" aria-expanded="false"></button>'
        '<ul class="menu" style="display:none"><li><button id="pub">Publish</button></li></ul></div>'
    )
    result = find(tab, "Publish")
    assert result.unresolved is not None and result.unresolved.openers
    assert result.unresolved.openers[0].relation == "toggle"
    assert _opener_ids(tab, "Publish") == ["arrow"]


def test_a_tab_opens_its_panel(tab: Page) -> None:
    tab.set_content(
        '<div role="tablist"><button role="tab" id="t1" aria-selected="true" aria-controls="p1">'
        'Account</button><button role="tab" id="t2" aria-selected="false" aria-controls="p2">'
        "Roles</button></div>"
        '<div role="tabpanel" id="p1" aria-labelledby="t1"><input aria-label="Username"></div>'
        '<div role="tabpanel" id="p2" aria-labelledby="t2" hidden>'
        '<label><input type="checkbox" id="adm"> Administrator</label></div>'
    )
    assert _opener_ids(tab, "Administrator", "check") == ["t2"]
    assert find(tab, "Administrator", "check").unresolved.openers[0].relation == "tab"  # type: ignore[union-attr]


def test_a_closed_details_opens_by_its_summary(tab: Page) -> None:
    tab.set_content(
        '<details><summary id="s">Advanced options</summary>'
        '<label>Slug <input id="slug"></label></details>'
    )
    assert _opener_ids(tab, "Slug", "fill") == ["s"]


def test_a_submenu_is_opened_after_its_menu(tab: Page) -> None:
    tab.set_content(
        '<button id="top" aria-expanded="false" aria-controls="m1">Actions</button>'
        '<ul id="m1" hidden><li><button id="sub" aria-expanded="false" aria-controls="m2">Export'
        '</button><ul id="m2" hidden><li><a id="csv" href="#csv">CSV</a></li></ul></li></ul>'
    )
    assert _opener_ids(tab, "CSV") == ["top", "sub"]


def test_two_controls_that_could_open_it_are_named_not_guessed(tab: Page) -> None:
    tab.set_content(
        '<div><button id="a" aria-expanded="false">Options</button>'
        '<button id="b" aria-haspopup="true">More</button>'
        '<ul style="display:none"><li><button>Archive</button></li></ul></div>'
    )
    result = find(tab, "Archive")
    assert result.unresolved is not None and not result.unresolved.openers
    assert len(result.unresolved.opener_choices) == 2
    assert "2 controls could open" in result.unresolved.message


def test_an_open_toggle_is_never_clicked_again(tab: Page) -> None:
    tab.set_content(
        '<div><button id="a" aria-expanded="true">Options</button>'
        '<ul><li style="display:none"><button>Archive</button></li></ul></div>'
    )
    result = find(tab, "Archive")
    assert result.unresolved is not None and not result.unresolved.openers
    assert "no control evidently opens it" in result.unresolved.message


def test_a_menu_drawn_faded_out_is_hidden_and_its_bootstrap_toggle_opens_it(tab: Page) -> None:
    """CSS Color: an element whose ``opacity`` is 0 is drawn fully transparent, so a closed
    drop-up drawn that way (Wagtail 5.2's "Publish" menu) shows a person nothing, though
    Playwright counts it visible (its actionability needs only a box and no
    ``visibility:hidden``). Bootstrap's documented dropdown markup wires its toggle by
    ``data-(bs-)toggle="dropdown"`` (with ``aria-expanded``): that toggle opens it. A class
    alone is not evidence (HTML gives class names no meaning; healing's ``opensPopup`` says
    the same): Wagtail 5.2's ``<div class="dropdown-toggle">`` with neither attribute, the
    one app whose markup has it, opens nothing (the item is left to the gate, which refuses
    it as not visible: docs/real-apps.md, "The in-page JavaScript reviewed", fifteenth
    round)."""
    menu = (
        '<div class="dropdown dropup"><button id="save">Save draft</button>'
        '<div class="dropdown-toggle" id="arrow"{}>▲</div>'
        '<ul style="opacity:0;position:absolute"><li><button id="pub">Publish</button></li></ul>'
        "</div>"
    )
    tab.set_content(menu.format(' data-bs-toggle="dropdown" aria-expanded="false"'))
    assert _opener_ids(tab, "Publish") == ["arrow"]
    tab.set_content(menu.format(' data-toggle="dropdown"'))
    assert _opener_ids(tab, "Publish") == ["arrow"]
    tab.set_content(menu.format(""))
    result = find(tab, "Publish")
    assert result.unresolved is None or not result.unresolved.openers
    assert "arrow" not in repr(result)


def test_the_hidden_item_with_the_words_beats_the_toggle_whose_name_holds_them(
    tab: Page,
) -> None:
    """ "Account" is the account menu's item, not its toggle "Edit your account" (an APG
    menu button): the toggle is opened, then the item is the step's element."""
    tab.set_content(
        '<div><button id="t" aria-label="Edit your account" aria-haspopup="menu"'
        ' aria-expanded="false">admin</button>'
        '<ul hidden><li><a id="acc" href="#account">Account</a></li>'
        '<li><a href="#logout">Log out</a></li></ul></div>'
    )
    assert _opener_ids(tab, "Account") == ["t"]


def test_an_open_sections_toggle_inside_a_closed_tab_panel_does_not_hide_the_tab(
    tab: Page,
) -> None:
    """Inside the closed "Roles" panel, the field's section has its own (open) toggle: the
    panel's tab opens it (a CMS admin's tabbed user form; APG tabs and disclosure)."""
    tab.set_content(
        '<div role="tablist"><a role="tab" id="t1" href="#p1" aria-controls="p1">Account</a>'
        '<a role="tab" id="t2" href="#p2" aria-controls="p2">Roles</a></div>'
        '<section role="tabpanel" id="p1"><input aria-label="Username">'
        '<a role="tab" href="#p2" aria-controls="p2">Next: Roles</a></section>'
        '<section role="tabpanel" id="p2" hidden><button aria-expanded="true"'
        ' aria-controls="roles-body">Roles</button><div id="roles-body">'
        '<label><input type="checkbox"> Administrator</label></div></section>'
    )
    assert _opener_ids(tab, "Administrator", "check") == ["t2"]


def test_a_visually_hidden_heading_is_no_context_for_a_relational_click(tab: Page) -> None:
    """The next release made the heading "Add user: User" visually hidden, above a
    breadcrumb whose current page is a link: the link is not "Add user" (a guess), and the
    step fails before acting, naming the heading."""
    tab.set_content(
        f'<header><h1 style="{SR_ONLY}">Add user: User</h1>'
        '<nav><a id="crumb" href=""><svg width="9" height="9"></svg></a></nav></header>'
        '<form><input aria-label="Username"><footer><button>Create</button></footer></form>'
    )
    result = find(tab, "Add user")
    assert result.locator is None and result.unresolved is not None
    assert "heading" in result.unresolved.message
