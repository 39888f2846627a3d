"""``aria-hidden`` hides from assistive technologies, not from view (docs/discovery.md,
"Hidden is what a person cannot see").

WAI-ARIA 1.2: ``aria-hidden="true"`` removes an element and its subtree from the accessibility
tree; authors may use it on content that stays visibly rendered. Playwright's visibility
(``is_visible``, the actionability checks, ``get_by_text``) ignores it; only its role
locators (``get_by_role`` without ``include_hidden``) leave such elements out. pgAdmin 4 7.8
draws its menu bar and its dialogs inside ``aria-hidden="true"`` containers (left there by
Material UI's modal manager, which marks the page's other top-level containers when a modal
opens), so its preferences dialog's "Cancel" and its tree's "Nodes" were refused as "on the
page but hidden" while a person sees and clicks them.

The same attribute is how modal libraries fence off the page behind a dialog (Material UI,
react-modal): there it comes with a backdrop drawn over the page, or with ``inert``, which
hit testing passes through (HTML). So an element under ``aria-hidden`` counts as shown only
when it is drawn on top at its own centre, inside the viewport: a control behind an open
modal stays hidden, and is never acted on.
"""

from __future__ import annotations

from playwright.sync_api import Page

from .helpers import chosen_id, find

# A menu bar and a dialog, each inside an aria-hidden container; the dialog's layer is drawn
# over the page with a backdrop (Material UI's Dialog markup).
MODAL = (
    '<div aria-hidden="true"><button id="file">File</button>'
    '<label>Name <input id="bg-name"></label></div>'
    '<div aria-hidden="true">'
    '<div role="presentation" style="position:fixed;inset:0;z-index:10">'
    '<div aria-hidden="true" style="position:fixed;inset:0;background:rgba(0,0,0,.5)"></div>'
    '<div role="dialog" style="position:relative;margin:80px auto;width:320px;background:#fff">'
    '<span id="nodes" tabindex="-1" style="cursor:pointer">Nodes</span>'
    '<button id="cancel">Cancel</button></div></div></div>'
)


def test_a_dialog_drawn_on_top_inside_aria_hidden_is_shown(tab: Page) -> None:
    """Fails before: "'Cancel' is on the page but hidden ... and no control evidently
    opens it"."""
    tab.set_content(MODAL)
    assert chosen_id(tab, find(tab, "Cancel")) == "cancel"
    assert chosen_id(tab, find(tab, "Nodes")) == "nodes"


def test_the_page_behind_a_modal_stays_refused(tab: Page) -> None:
    """The menu bar and the field under the backdrop are hidden (passes before and after);
    so is a page made ``inert`` behind a dialog with no backdrop."""
    tab.set_content(MODAL)
    assert find(tab, "File").locator is None
    assert find(tab, "Name", "fill").locator is None
    tab.set_content(
        '<main aria-hidden="true" inert><label>Name <input id="bg"></label>'
        '<button id="save">Save</button></main>'
        '<div role="dialog"><button id="ok">OK</button></div>'
    )
    assert find(tab, "Save").locator is None
    assert find(tab, "Name", "fill").locator is None
    assert chosen_id(tab, find(tab, "OK")) == "ok"
