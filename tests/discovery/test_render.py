"""Rendering locators to Playwright and to Python source."""

from __future__ import annotations

import ast

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import UnrenderableLocator, to_code, to_playwright
from pytest_pacts.discovery.chain import py_literal
from pytest_pacts.models.locator import Locator, Region, RegionMatch, Strategy

from .helpers import chosen_id, find

NASTY = [
    'He said "hi"',
    "it's",
    "both ' and \"",
    "back\\slash",
    "new\nline",
    "{{ jinja }} {% x %}",
    "'); import os; os.system('x') #",
    "emoji 🎉 and \u2028 separator",
]


@pytest.mark.parametrize("value", NASTY)
def test_py_literal_round_trips(value: str) -> None:
    assert ast.literal_eval(py_literal(value)) == value


LOCATORS = [
    Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Login"),
    Locator(strategy=Strategy.TEST_ID, confidence=0.98, test_id="a", test_id_attribute="data-testid"),
    Locator(strategy=Strategy.TEST_ID, confidence=0.98, test_id='x"y', test_id_attribute="data-qa"),
    Locator(strategy=Strategy.LABEL, confidence=0.92, label="Username"),
    Locator(strategy=Strategy.PLACEHOLDER, confidence=0.88, placeholder="Search"),
    Locator(strategy=Strategy.ARIA, confidence=0.9, title="Refresh"),
    Locator(strategy=Strategy.ARIA, confidence=0.9, alt="Logo"),
    Locator(strategy=Strategy.TEXT, confidence=0.86, text="View all", exact=False),
    Locator(strategy=Strategy.CSS, confidence=0.7, css="#zip"),
    Locator(strategy=Strategy.SHADOW, confidence=0.8, host="icon-close", css="button"),
    Locator(
        strategy=Strategy.RELATIONAL,
        confidence=0.85,
        role="checkbox",
        region=Region(description="Buy milk", matched_by=RegionMatch.TEXT, css="li", has_text="Buy milk"),
    ),
    Locator(
        strategy=Strategy.LABEL,
        confidence=0.92,
        label="Email",
        frame_path=("iframe#pay",),
        region=Region(description="Shipping", matched_by=RegionMatch.HEADING, css="section", heading="Shipping"),
    ),
    Locator(
        strategy=Strategy.ROLE_NAME,
        confidence=0.95,
        role="link",
        name="Home",
        region=Region(description="Footer", matched_by=RegionMatch.NAME, role="navigation", name="Footer"),
    ),
]  # fmt: skip


@pytest.mark.parametrize("locator", LOCATORS, ids=lambda loc: loc.describe())
def test_to_code_parses_and_builds_the_same_locator(tab: Page, locator: Locator) -> None:
    code = to_code(locator)
    ast.parse(code)
    built = eval(code, {"page": tab})  # the generated test's own expression
    assert repr(built) == repr(to_playwright(tab, locator))


def test_to_code_reads_like_a_person_wrote_it() -> None:
    assert to_code(LOCATORS[0]) == 'page.get_by_role("button", name="Login", exact=True)'
    assert to_code(LOCATORS[10]) == (
        'page.locator("li").filter(has_text="Buy milk").get_by_role("checkbox")'
    )
    assert to_code(LOCATORS[11]) == (
        'page.frame_locator("iframe#pay").locator("section")'
        '.filter(has=page.get_by_role("heading", name="Shipping", exact=True))'
        '.get_by_label("Email", exact=True)'
    )


@pytest.mark.parametrize("label", NASTY[:5])
def test_discovered_locator_with_odd_text_still_resolves(tab: Page, label: str) -> None:
    tab.evaluate(
        "(text) => { const l = document.createElement('label'); l.htmlFor = 'odd';"
        " l.textContent = text; const i = document.createElement('input'); i.id = 'odd';"
        " document.body.append(l, i); }",
        label,
    )
    result = find(tab, label, "fill")
    assert chosen_id(tab, result) == "odd"
    assert result.locator is not None
    code = to_code(result.locator)
    ast.parse(code)
    assert eval(code, {"page": tab}).evaluate("e => e.id") == "odd"


def test_unknown_role_is_unrenderable() -> None:
    bad = Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="made-up", name="x")
    with pytest.raises(UnrenderableLocator):
        to_code(bad)


def test_locator_describe_and_hash() -> None:
    assert LOCATORS[0].describe() == 'role_name button "Login"'
    assert 'in "Buy milk"' in LOCATORS[10].describe()
    assert len(set(LOCATORS)) == len(LOCATORS)  # frozen, hashable: usable as cache keys


def test_an_ordinal_and_an_innermost_region_render_and_run(tab: Page) -> None:
    """``Locator.nth`` renders as Playwright's ``nth`` (0-based) after the strategy's call;
    ``Region.innermost`` keeps only the containers none of whose descendants match too."""
    tab.set_content(
        "<div><div><span>Buy milk</span><button id=a>Delete</button>"
        "<button id=b>Delete</button></div><div><span>Pay</span><button>Delete</button></div></div>"
    )
    region = Region(
        description="Buy milk", matched_by=RegionMatch.TEXT, css="div", has_text="Buy milk",
        innermost=True,
    )  # fmt: skip
    locator = Locator(
        strategy=Strategy.ROLE_NAME, confidence=0.95, role="button", name="Delete",
        region=region, nth=1,
    )  # fmt: skip
    assert to_code(locator) == (
        'page.locator("div").filter(has_text="Buy milk")'
        '.filter(has_not=page.locator("div").filter(has_text="Buy milk"))'
        '.get_by_role("button", name="Delete", exact=True).nth(1)'
    )
    assert to_playwright(tab, locator).evaluate("e => e.id") == "b"
    assert locator.describe() == 'role_name button "Delete" [2] in "Buy milk"'
