"""An unnamed control found again in its row is the recorded one by what is stable about it
(issue 35, held-out changedetection.io 0.45.26 -> 0.60.10 REQ-CDIO-012 and jotter-app
3.0.0 -> 3.4.0 REQ-JOTTER-009).

Both apps list items as table rows, each with one selection box that has no label:
``checkbox@<row's words> | check``. On the newer version the row's box was found again,
the right one, and refused: jotter-app's because the row's recorded context held the time
the app prints in it ("11/29, 02:43 PM", "02:45 PM" on the next start), changedetection.io's
because its ``name`` (``uuids``, the same on both versions) is a group's name, not the
element's, and its region had been recorded by the table's striping class
(``tr.pure-table-odd``), which changes when a row above is added. Each test also checks
the other direction: a genuinely different element is still refused.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Action
from pytest_pacts.models.locator import Locator, Strategy

from .helpers import Site, plan, run, target

TASKS = (
    "<table><thead><tr><th></th><th>Task</th><th>Updated</th></tr></thead><tbody>{}</tbody>"
    "</table><script>window.hits = []; document.addEventListener('change', (e) =>"
    " hits.push(e.target.closest('tr').children[1].textContent.trim()));</script>"
)
TASK = (
    '<tr><td><input type="checkbox" class="accent cursor-pointer"></td><td>{}</td><td>{}</td></tr>'
)


def _tasks(*rows: tuple[str, str]) -> str:
    return TASKS.format("".join(TASK.format(words, when) for words, when in rows))


@pytest.mark.parametrize(
    ("v2_rows", "cached", "wrong"),
    [
        # the same rows, each printed with the time of the app's next start
        (
            (("Repaint the shop sign", "11/29, 02:45 PM"), ("Order seeds", "11/29, 02:45 PM")),
            "tbody > tr:nth-child(1) input",
            None,
        ),
        # a row added above at the same moment: the first row's box is another task's
        (
            (
                ("Feed the hens", "11/29, 02:43 PM"),
                ("Repaint the shop sign", "11/29, 02:43 PM"),
                ("Order seeds", "11/29, 02:43 PM"),
            ),
            "tbody > tr:nth-child(1) input",
            "Feed the hens",
        ),
    ],
    ids=["time-changed", "other-row"],
)
def test_a_rows_time_is_not_the_rows_identity(
    tab: Page,
    site: Site,
    v2_rows: tuple[tuple[str, str], ...],
    cached: str,
    wrong: str | None,
) -> None:
    """jotter-app 3.4.0 (REQ-JOTTER-009) and changedetection.io (a row's "Last checked"
    and "Last changed" columns, "2 minutes ago") print moments in a row: a time of day, a
    date, a time ago. They change with every start of the app and every edit of the row;
    the row's words do not. The identity check of a cached hit on a box with no name
    compares the words recorded around it without them (ECMA-402's
    ``Intl.RelativeTimeFormat`` units, ISO 8601's dates and times), so the same row's box
    at another time is the same box, with no heal round; a box in another row at the same
    time is still another element (healing may abstain, never checks it)."""
    v1 = _tasks(("Repaint the shop sign", "11/29, 02:43 PM"), ("Order seeds", "11/29, 02:43 PM"))
    url1 = site.add("tasks-v1.html", v1)
    url2 = site.add(f"tasks-v2-{len(v2_rows)}.html", _tasks(*v2_rows))
    tab.goto(url1)
    step = ("check", "checkbox@Repaint the shop sign")
    found = discover(tab, [(0, target(step[1]), Action.CHECK)])[0]
    assert found.locator is not None and found.fingerprint is not None, found.unresolved
    assert any("02:43" in t for t in found.fingerprint.neighbour_text)
    # the box's place in the table, as a structural locator would hold it
    located = Locator(strategy=Strategy.CSS, confidence=0.7, css=cached)
    found = found.model_copy(update={"locator": located})
    record = run(tab, plan(url2, step), pom={0: found}, healer=HealingLadder())
    hits = tab.evaluate("() => window.hits")
    if wrong is None:
        assert (record.verdict, hits, record.steps[0].heals) == (
            "pass",
            ["Repaint the shop sign"],
            (),
        ), record.steps[0].failure
    else:
        assert wrong not in hits, hits


WATCHES = (
    '<form><table class="pure-table"><tbody>{}</tbody></table>'
    '<button type="button">Mute</button></form><script>window.hits = [];'
    " document.addEventListener('change', (e) =>"
    " hits.push(e.target.name + ':' + e.target.closest('tr').querySelector('.title')"
    ".textContent.trim()));</script>"
)
WATCH_V1 = (
    '<tr class="{stripe} processor-text_json_diff"><td><input type="checkbox" name="uuids" '
    'value="{uuid}"></td><td class="title">{words}</td><td>2 minutes ago</td>'
    '<td><a href="#">Edit</a></td></tr>'
)
WATCH_V2 = (
    '<tr class="{stripe} paused-state"><td><input type="checkbox" name="{name}" '
    'value="{uuid}"></td><td class="title">{words}</td><td>5 seconds ago</td>'
    '<td><a href="#" class="pure-button">Edit</a></td></tr>'
)
WORDS = ("Seed prices", "Compost collection days", "Opening hours", "Plot waiting list")


def _watches(row: str, uuid: str, name: str = "uuids") -> str:
    stripes = ("pure-table-odd", "pure-table-even")
    return WATCHES.format(
        "".join(
            row.format(stripe=stripes[i % 2], uuid=f"{uuid}-{i}", words=w, name=name)
            for i, w in enumerate(WORDS)
        )
    )


@pytest.mark.parametrize(
    ("name", "right"), [("uuids", True), ("favourite", False)], ids=["same-group", "other-group"]
)
def test_the_rows_only_box_of_the_recorded_group_is_the_recorded_box(
    tab: Page, site: Site, name: str, right: bool
) -> None:
    """changedetection.io 0.60.10 (REQ-CDIO-012): the row's selection box kept its
    ``name="uuids"`` (its ``value``, the watch's id, is new), the row's classes changed,
    and re-discovery found the row's only box; healing refused it, "shares none of the
    recorded element's own attributes", since a box's ``name`` names its group. HTML's form
    submission makes the controls of one name one group; inside the row the step names
    (``checkbox@Opening hours``), the group's box there is the recorded box. A box of
    another group in that row (``name="favourite"``) is still refused: nothing is
    checked. jotter-app's row box (REQ-JOTTER-009) is the same case without a name."""
    url1 = site.add("watches-v1.html", _watches(WATCH_V1, "a1"))
    url2 = site.add(f"watches-v2-{name}.html", _watches(WATCH_V2, "b2", name))
    tab.goto(url1)
    step = ("check", "checkbox@Opening hours")
    found = discover(tab, [(0, target(step[1]), Action.CHECK)])[0]
    assert found.locator is not None and found.fingerprint is not None, found.unresolved
    assert found.fingerprint.name == "uuids"
    record = run(tab, plan(url2, step), pom={0: found}, healer=HealingLadder())
    hits = tab.evaluate("() => window.hits")
    if right:
        assert (record.verdict, hits) == ("pass", ["uuids:Opening hours"]), record.steps[0]
    else:
        assert hits == [], hits


def test_a_striping_class_is_not_in_a_recorded_region(tab: Page, site: Site) -> None:
    """Selectors Level 3, ``:nth-of-type(odd)`` / ``(even)``: a class that exactly every
    other sibling row has is a row's place, not what it is (pure CSS's
    ``pure-table-odd``/``-even`` in changedetection.io, REQ-CDIO-003/004/012/013/014, whose
    ``Edit@<row>`` steps all healed on 0.60.10 from a region recorded as
    ``tr.pure-table-odd.processor-text_json_diff``; Django admin's ``row1``/``row2``). It
    changes when a row above is added or removed, so a region or element locator never
    holds one: with a watch added above, the cached locator still finds the row's box with
    no heal round."""
    url1 = site.add("striped-v1.html", _watches(WATCH_V1, "a1"))
    added = WATCH_V1.format(stripe="x", uuid="n", words="New watch", name="uuids")
    v2 = _watches(WATCH_V1, "a1").replace("<tbody>", "<tbody>" + added)
    v2 = _restripe(v2)
    url2 = site.add("striped-v2.html", v2)
    tab.goto(url1)
    step = ("check", "checkbox@Opening hours")
    found = discover(tab, [(0, target(step[1]), Action.CHECK)])[0]
    assert found.locator is not None, found.unresolved
    said = found.locator.model_dump_json()
    assert "pure-table-odd" not in said and "pure-table-even" not in said, said
    record = run(tab, plan(url2, step), pom={0: found}, healer=HealingLadder())
    hits = tab.evaluate("() => window.hits")
    assert (record.verdict, hits, record.steps[0].heals) == (
        "pass",
        ["uuids:Opening hours"],
        (),
    ), record.steps[0].failure


def _restripe(page: str) -> str:
    """The rows' striping counted again from the top, as the app's template does."""
    out: list[str] = []
    for i, part in enumerate(page.split('<tr class="')):
        if i == 0:
            out.append(part)
            continue
        rest = part.split(" ", 1)[1]
        out.append(("pure-table-odd " if i % 2 == 1 else "pure-table-even ") + rest)
    return '<tr class="'.join(out)


NUMBERED = (
    '<tr class="{stripe}"><td><input type="checkbox" name="uuids" value="{uuid}"> '
    '<span>{n}</span></td><td class="title">{words}</td><td><a href="#">Edit</a></td></tr>'
)


def _numbered(order: tuple[str, ...]) -> str:
    rows = (
        NUMBERED.format(stripe=("odd", "even")[i % 2], uuid=f"u{i}", n=i + 1, words=w)
        for i, w in enumerate(order)
    )
    return WATCHES.format("".join(rows))


def test_a_rows_number_beside_its_box_is_not_the_boxs_identity(tab: Page, site: Site) -> None:
    """changedetection.io prints each row's number beside its box (``<span>3</span>``,
    ``loop.index``), which changes as rows are added or sorted (0.60.10 listed the same
    watches in another order on one run: "recorded with no name beside "2"", REQ-CDIO-012);
    jotter-app's row prints a time (REQ-JOTTER-009). A cached locator that is the step's
    own ``Element@Region`` rendered (the region's only checkbox, in the row the step's
    region words name) has the region as its context, which the locator itself checks: its
    one match is the box with no heal round, whatever number is beside it."""
    url1 = site.add("numbered-v1.html", _numbered(WORDS))
    url2 = site.add("numbered-v2.html", _numbered(tuple(reversed(WORDS))))
    tab.goto(url1)
    step = ("check", "checkbox@Opening hours")
    found = discover(tab, [(0, target(step[1]), Action.CHECK)])[0]
    assert found.locator is not None and found.fingerprint is not None, found.unresolved
    assert found.locator.strategy is Strategy.RELATIONAL, found.locator
    assert "3" in found.fingerprint.neighbour_text, found.fingerprint.neighbour_text
    record = run(tab, plan(url2, step), pom={0: found}, healer=HealingLadder())
    hits = tab.evaluate("() => window.hits")
    assert (record.verdict, hits, record.steps[0].heals) == (
        "pass",
        ["uuids:Opening hours"],
        (),
    ), record.steps[0].failure
