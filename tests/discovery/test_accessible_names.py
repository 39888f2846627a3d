"""Accessible names: the scan computes the very name Playwright's role locators match.

Every element of one fixture page with many naming patterns (ARIA, labels, alt, title,
placeholder, generated ::before/::after content, icon-font glyphs, hidden parts, nested text,
input values) gets our name, and ``get_by_role(role, name=ours, exact=True)`` must resolve to
exactly that element. A disagreement means a role locator the scan proposes cannot verify.
"""

from __future__ import annotations

from typing import cast

import pytest
from playwright.sync_api import Page

from pytest_pacts.models.locator import Strategy
from pytest_pacts.runtime.bridge import call_on_elements

from .helpers import chosen_id, find

NAMING_PAGE = r"""
<style>
  @font-face { font-family: icons; src: local("no-such-font"); }
  .icon-login::before { content: "\e900"; font-family: icons; }
  .fa-save::before { content: "\f0c7"; font-family: icons; }
  .arrow::after { content: " ›"; }
  .block-before::before { content: "New"; display: block; }
  .attr-after::after { content: attr(data-suffix); }
  .alt-text::before { content: "\e901" / "Delete"; }
  .gone::before { content: "Hidden"; display: none; }
  .required::after { content: " *"; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden;
             clip: rect(0 0 0 0); white-space: nowrap; }
</style>
<button id="icon-glyph"><i class="icon-login"></i> Login</button>
<button id="icon-span"><i class="icon-login"></i><span>Sign in</span></button>
<a id="fa-link" href="#"><span class="fa-save" aria-hidden="true"></span> Save</a>
<a id="fa-visible" href="#"><span class="fa-save"></span>Save draft</a>
<button id="after-text" class="arrow">Next</button>
<button id="block-before" class="block-before">Item</button>
<button id="attr-after" class="attr-after" data-suffix="(3)">Inbox </button>
<button id="alt-text" class="alt-text"></button>
<button id="gone-before" class="gone">Shown</button>
<button id="aria-label" aria-label="Close dialog">×</button>
<span id="lbl-a">Billing</span><span id="lbl-b">address</span>
<input id="labelledby" aria-labelledby="lbl-a lbl-b">
<label for="label-for" class="required">Email</label><input id="label-for">
<label>Password <input id="wrapping-label" type="password"></label>
<input id="title-only" title="Search the site">
<input id="placeholder" placeholder="Your name">
<img id="img-alt" alt="Company logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<button id="img-in-button"><img alt="Settings" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></button>
<button id="hidden-part">Buy <span style="display:none">secret</span>now</button>
<button id="aria-hidden-part">Share <span aria-hidden="true">→</span></button>
<button id="sr-only-part"><span class="sr-only">Open</span> menu</button>
<button id="nested"><span>Add <b>to</b></span> <em>cart</em></button>
<button id="block-children"><div>Top</div><div>Bottom</div></button>
<input id="submit" type="submit" value="Send form">
<input id="submit-default" type="submit">
<input id="reset" type="reset">
<button id="title-button" title="Refresh"></button>
<a id="link-title" href="#" title="Home page"><span class="fa-save"></span></a>
<h2 id="heading"><span class="fa-save"></span> Account settings</h2>
<label id="checkbox-label"><input id="checkbox" type="checkbox"> Remember me</label>
<button id="labelledby-self" aria-labelledby="lbl-a labelledby-self">Pay</button>
<fieldset id="fieldset"><legend>Shipping</legend><input id="in-fieldset" aria-label="Zip"></fieldset>
<table id="table"><caption>Orders</caption><tr><td id="cell">42</td></tr></table>
<select id="select" aria-label="Country"><option>France</option></select>
<button id="with-select">Size <select><option>L</option></select></button>
"""

IDS = [
    "icon-glyph", "icon-span", "fa-link", "fa-visible", "after-text", "block-before",
    "attr-after", "alt-text", "gone-before", "aria-label", "labelledby", "label-for",
    "wrapping-label", "title-only", "placeholder", "img-alt", "img-in-button", "hidden-part",
    "aria-hidden-part", "sr-only-part", "nested", "block-children", "submit", "submit-default",
    "reset", "title-button", "link-title", "heading", "checkbox", "labelledby-self", "fieldset",
    "in-fieldset", "table", "cell", "select", "with-select",
]  # fmt: skip


def _ours(page: Page, element_id: str) -> tuple[str, str]:
    [raw] = cast(
        list[dict[str, str]], call_on_elements(page.locator(f"#{element_id}"), "names", None)
    )
    return raw["role"], raw["name"]


def test_our_names_are_playwrights_names(tab: Page) -> None:
    tab.set_content(NAMING_PAGE)
    wrong = []
    for element_id in IDS:
        role, name = _ours(tab, element_id)
        assert role, f"#{element_id} has no role"
        by_role = tab.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]
        ids = by_role.evaluate_all("els => els.map((e) => e.id)")
        if ids != [element_id]:
            theirs = tab.locator(f"#{element_id}").aria_snapshot().splitlines()[0]
            wrong.append(f"#{element_id}: ours {role} {name!r}, Playwright's {theirs}, {ids}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("element_id", "expected"),
    [("icon-glyph", "\ue900 Login"), ("after-text", "Next ›"), ("alt-text", "Delete")],
)
def test_generated_content_is_part_of_the_name(tab: Page, element_id: str, expected: str) -> None:
    tab.set_content(NAMING_PAGE)
    assert _ours(tab, element_id)[1] == expected


def test_icon_font_button_found_by_its_words(tab: Page) -> None:
    # An icon font's glyph is in the button's accessible name ("\ue900 Login"): the person's
    # "Login" still names it exactly, and the role locator records the words without the
    # glyph, rendered as a pattern that allows it (tests/engine/test_icon_glyphs.py).
    tab.set_content(NAMING_PAGE)
    for words, element_id in [
        ("Login", "icon-glyph"),
        ("Sign in", "icon-span"),
        ("Next", "after-text"),
    ]:
        result = find(tab, words)
        assert result.ok, result.unresolved
        assert chosen_id(tab, result) == element_id
        assert result.locator is not None
        assert result.locator.strategy is Strategy.ROLE_NAME
        assert result.locator.confidence == 0.95  # an exact match, not a substring one
    result = find(tab, "Login")
    assert result.locator is not None and result.locator.name == "Login" and result.locator.glyphs
