"""The exact-name rule counts the controls so named in the step's region when it names one.

A control whose tag changed (a link that became a button) loses most of its recorded
fingerprint (type, role, href, ancestors, position); the name a person reads is what stayed.
The exact-name rule lets a candidate found by intent overrule the fingerprint's ranking when
it is the only control of the recorded kind named exactly as recorded and as the step says
(``engine/healing/names.py``, ``exact_name``). It counted such controls on the whole page,
so it never applied to a control repeated once per row, the very case a region is named for:

- Django admin 5 turned "Log out" from a link into a POST form's button (the rule's origin,
  page-wide: one "Log out" on the page; ``test_corpus_defects.py``);
- changedetection.io 0.60.10 turned each watch row's "Recheck" link into a button, and
  ``Recheck@Plot waiting list`` abstained: rediscovery found the row's button (the truth
  element) but the fingerprint ranked the row's "Preview" link higher, and "Recheck" is on
  every row (docs/real-apps.md, "changedetection.io to dev", REQ-CDIO-006).

A step that names a region is resolved inside it (issue 35, "role in region": inside a
region, the only control of its kind is what the step means, two or more are ambiguous), so
the rule now counts there: the only control so named in the step's region. Being outside the
region is never overruled (``test_the_exact_name_rule_never_leaves_the_steps_region``).
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Action, Target

from .helpers import Site, plan, run

# changedetection.io's watch list, as 0.45.26 and 0.60.10 draw a row (their templates)
ROW_LINK = """<tr><td><input type=checkbox name=uuids value={i}></td>
<td class=title><a class=external href="http://x/{i}">{t}</a></td><td>2 hours ago</td>
<td><a href="/api/checknow?uuid={i}" class="recheck pure-button pure-button-primary">Recheck</a>
<a href="/edit/{i}#general" class="pure-button pure-button-primary">Edit</a>
<a href="/preview/{i}" target="{i}" class="pure-button pure-button-primary">Preview</a></td></tr>"""
ROW_BUTTON = """<tr><td><input type=checkbox name=uuids value={i}></td>
<td class=title><a class=external href="http://x/{i}">{t}</a></td><td>2 hours ago</td>
<td><button type=button data-op=recheck class="ajax-op recheck cdio-btn cdio-btn--primary"
  onclick="window.hit = (window.hit || []).concat('{t}')">Recheck</button>{extra}
<a href="/edit/{i}#general" class="cdio-btn cdio-btn--primary">Edit</a>
<a href="/preview/{i}" target="{i}" class="cdio-btn cdio-btn--primary preview-link">Preview</a>
</td></tr>"""
TITLES = ("Plot waiting list", "Bakery prices", "Train times")


def _table(row: str, extra: str = "") -> str:
    rows = "".join(row.format(i=i, t=t, extra=extra) for i, t in enumerate(TITLES))
    return f"<table><tbody>{rows}</tbody></table>"


def _recorded(tab: Page, site: Site) -> object:
    tab.goto(site.add("watches-v1.html", _table(ROW_LINK)))
    step = Target(element="Recheck", region="Plot waiting list")
    found = discover(tab, [(0, step, Action.CLICK)])[0]
    assert found.locator is not None and found.locator.role == "link"
    return found


def test_a_row_link_that_became_a_button_heals_by_its_exact_name_in_the_row(
    tab: Page, site: Site
) -> None:
    """Fails before: the step abstained ("intent and fingerprint disagree": the row's
    "Preview" link ranked above its "Recheck" button)."""
    found = _recorded(tab, site)
    v2 = site.add("watches-v2.html", _table(ROW_BUTTON))
    record = run(
        tab,
        plan(v2, ("click", "Recheck@Plot waiting list")),
        pom={0: found},
        healer=HealingLadder(),
    )
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("window.hit") == ["Plot waiting list"]
    assert "in the step's region" in (record.steps[0].heals[-1].reason or "")


def test_two_controls_so_named_in_the_row_are_not_overruled(tab: Page, site: Site) -> None:
    """Two "Recheck" buttons in the row: neither is the only one, the ranking stands and the
    step does not act on either."""
    found = _recorded(tab, site)
    extra = """<button type=button class="cdio-btn" onclick="window.hit = ['second']"
      >Recheck</button>"""
    v2 = site.add("watches-v2b.html", _table(ROW_BUTTON, extra))
    record = run(
        tab,
        plan(v2, ("click", "Recheck@Plot waiting list")),
        pom={0: found},
        healer=HealingLadder(),
    )
    assert record.verdict == "fail"
    assert tab.evaluate("window.hit") is None
