"""Icon-font glyphs are left out of the names the engine records and compares.

Icon fonts draw their pictures with characters of Unicode's Private Use Areas (U+E000-U+F8FF,
planes 15-16), through CSS ``::before`` content (part of the accessible name) or a text node.
The Unicode Standard gives such a character no meaning outside a private agreement (chapter
23.5, "Private-Use Characters"): here the icon font, which the next release changes. On the
real-app corpus a name recorded with one stopped matching on every icon-set upgrade and cost
a heal: Flask-AppBuilder 3.4.5 → 5.3.0 ("Birthday \\uf07d" → "Birthday \\uf338", Font Awesome
4 → 6), Buildbot 3.11.9 → 4.3.0 ("Console View \\uf06a" → "Console View", SVG icons),
sqladmin 0.21.0 → 0.32.0 ("\\uf007 Authors" → "Authors"); An Otter Wiki 2.7.0 recorded its
pencil link by the glyph alone ("\\uf303"). docs/discovery.md, "Icon-font glyphs".
"""

from __future__ import annotations

import re

from playwright.sync_api import Page

import pytest_pacts
from pytest_pacts.discovery import discover, to_code, to_playwright
from pytest_pacts.discovery.render import page_query
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import DiscoveryResult, Fingerprint, Locator, Strategy
from pytest_pacts.runtime.healing import FIND
from pytest_pacts.runtime.scripts import api_key

from .helpers import Site, plan, run

PUA = re.compile("[\ue000-\uf8ff\U000f0000-\U0010fffd]")
STEPS = ("Birthday", "Authors", "Advanced Search", "Save")


def _release(sort: str, user: str, search: str, save: str, pencil: str) -> str:
    """A page drawn with one icon set: each glyph is a code point of the font's."""
    glyph = 'font-family:monospace;content:"{}"'
    css = "".join(
        f".i-{n}::before{{{glyph.format(c)}}}"
        for n, c in (("sort", sort), ("user", user), ("save", save), ("pencil", pencil))
    )
    return (
        f"<style>{css}</style><p id='out'></p>"
        "<table><tr><th><a href='#' onclick='out.textContent=\"sorted\"'>Birthday "
        "<i class='i-sort'></i></a></th><th>Name</th></tr></table>"
        "<nav><a href='#' onclick='out.textContent=\"authors\"'><i class='i-user'></i> Authors</a>"
        " <a href='#'>Books</a></nav>"
        f"<button onclick='out.textContent=\"searched\"'><span>{search}</span> Advanced Search"
        "</button> <button class='i-save' onclick='out.textContent=\"saved\"'> Save</button>"
        " <a href='#' title='Edit Page' role='button' class='i-pencil'"
        " onclick='out.textContent=\"editing\"'></a>"
    )


# Font Awesome 4 (U+F0DC sort, U+F007 user), Glyphicons in a text node (U+E003), Material
# Design Icons in plane 15 (U+F0193), Font Awesome 5's pencil (U+F303) ...
OLD = _release("\\f0dc", "\\f007", "\ue003", "\\F0193", "\\f303")
# ... and the next release's: Font Awesome 6's sort (U+F338), no user icon, another
# magnifier (U+E09C), another floppy (U+F0818), Font Awesome 4's pencil (U+F040)
NEW = _release("\\f338", "", "\ue09c", "\\F0818", "\\f040")


def _record(tab: Page, site: Site) -> dict[int, DiscoveryResult]:
    tab.goto(site.add("icons-old.html", OLD))
    return discover(tab, [(i, Target(element=w), Action.CLICK) for i, w in enumerate(STEPS)])


def test_a_name_is_recorded_without_its_glyphs_and_holds_on_the_next_icon_set(
    tab: Page, site: Site
) -> None:
    """Recorded on the old icon set, every step passes on the new one with no heal (before:
    each name held its glyph, matched nothing on the new page and needed a heal)."""
    found = _record(tab, site)
    for i, words in enumerate(STEPS):
        loc, fp = found[i].locator, found[i].fingerprint
        assert loc is not None and fp is not None, found[i].unresolved
        assert loc.strategy is Strategy.ROLE_NAME and loc.name == words and loc.glyphs, loc
        assert not PUA.search(fp.accessible_name)
    assert found[0].locator is not None and to_code(found[0].locator) == (
        'page.get_by_role("link", name=re.compile(r"^[\\s\\ue000-\\uf8ff\\udb80-\\udfff]*'
        'Birthday[\\s\\ue000-\\uf8ff\\udb80-\\udfff]*$"))'
    )
    steps = [("click", w, "", f"text_visible:{said}") for w, said in zip(
        STEPS, ("sorted", "authors", "searched", "saved"), strict=True)]  # fmt: skip
    record = run(tab, plan(site.add("icons-new.html", NEW), *steps), pom=found,
                 healer=HealingLadder())  # fmt: skip
    assert record.verdict == "pass", record.failed_step
    assert all(not s.heals for s in record.steps), [h.reason for s in record.steps for h in s.heals]


def test_a_control_named_by_a_glyph_alone_is_nameless(tab: Page, site: Site) -> None:
    """An icon link whose only name is its glyph is found by what a person reads (its
    tooltip), and no locator of it is its glyph (before: Otter Wiki's pencil kept the
    alternate ``role_name button "\\uf303"``)."""
    tab.goto(site.add("icons-old.html", OLD))
    found = discover(tab, [(0, Target(element="Edit Page"), Action.CLICK)])[0]
    assert found.locator is not None, found.unresolved
    for loc in (found.locator, *found.alternates):
        assert not PUA.search(loc.describe()), loc.describe()
    assert found.locator.title == "Edit Page"


def test_a_name_stored_with_its_glyph_is_read_as_its_words(tab: Page, site: Site) -> None:
    """A store written before: the recorded name with Font Awesome 4's sort glyph is read as
    "Birthday" (so it equals the name recorded now) and still finds the header link on the
    new icon set, in Playwright and in the page's own resolver alike."""
    old = Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="link",
                  name="Birthday \uf0dc")  # fmt: skip
    assert old == Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="link",
                          name="Birthday", glyphs=True)  # fmt: skip
    assert Fingerprint(tag="a", accessible_name="\uf007 Authors").accessible_name == "Authors"
    tab.goto(site.add("icons-old.html", OLD))
    pytest_pacts.discover_element(tab, "Birthday")  # the in-page code in the next document
    tab.goto(site.add("icons-new.html", NEW))
    assert to_playwright(tab, old).count() == 1
    to_playwright(tab, old).evaluate_all("els => { globalThis.__pw = els; }")
    same = tab.evaluate(
        f"([q, key]) => {{ const els = ({FIND})(q, globalThis[key].api());"
        " return els.length === 1 && els[0] === globalThis.__pw[0]; }",
        [page_query(old), api_key()],
    )
    assert same
