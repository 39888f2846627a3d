"""An icon link whose words are only in its tooltip: ``<a title="Create a new calendar"><img
alt="➕"></a>`` is named "➕" by its image, and its ``title`` becomes its accessible
description (HTML-AAM, "Accessible Name and Description Computation"; ACCNAME 1.2: the
tooltip attribute names an element only when nothing else does). The words are still the
ones a person reads when pointing at it, so healing's similarity counts them for the text the
recorded link showed, weaker than text it shows itself (docs/healing.md). Radicale 3.0.6 →
3.9.0: "Create new addressbook or calendar" became such an icon beside two others, and the
three tied at 0.49 (docs/real-apps.md, "Radicale and I hate money to dev").
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Action, Target

from .helpers import Site, plan, run

V1 = (
    '<nav class="fab"><a href="#" class="green">Create new calendar</a> '
    '<a href="#" class="blue">Upload a calendar</a></nav><p id="out"></p>'
)


def _icons(first: str, second: str, second_class: str = "blue") -> str:
    icon = (
        '<a href="#" class="{cls}" title="{title}" onclick="out.textContent={said!r}; '
        'return false"><img alt="{alt}" width="16" height="16"></a> '
    )
    return (
        '<nav class="fab">'
        + icon.format(cls="green", title=first, said="created", alt="+")
        + icon.format(cls=second_class, title=second, said="uploaded", alt="^")
        + '</nav><p id="out"></p>'
    )


def test_a_text_link_redrawn_as_an_icon_heals_by_its_tooltip(tab: Page, site: Site) -> None:
    tab.goto(site.add("fab-v1.html", V1))
    found = discover(tab, [(0, Target(element="Create new calendar"), Action.CLICK)])[0]
    assert found.locator is not None
    v2 = site.add("fab-v2.html", _icons("Create a new calendar", "Upload a calendar"))
    record = run(
        tab,
        plan(v2, ("click", "Create new calendar", "", "text_visible:created")),
        pom={0: found},
        healer=HealingLadder(),
    )
    assert record.verdict == "pass", render_failure(record)
    assert tab.text_content("#out") == "created"
    assert record.steps[0].heals[-1].accepted


def test_two_icons_whose_tooltips_fit_equally_are_not_guessed(tab: Page, site: Site) -> None:
    tab.goto(site.add("fab-v1b.html", V1))
    found = discover(tab, [(0, Target(element="Create new calendar"), Action.CLICK)])[0]
    assert found.locator is not None
    # the same words, the same class: nothing but their order tells them apart
    v3 = site.add("fab-v3.html", _icons("Create a new calendar", "Create a new calendar", "green"))
    record = run(tab, plan(v3, ("click", "Create new calendar")), pom={0: found},
                 healer=HealingLadder())  # fmt: skip
    assert record.verdict == "fail", [h.reason for h in record.steps[0].heals]
    assert tab.text_content("#out") == ""
