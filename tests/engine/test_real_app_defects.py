"""Defects seen on real third-party apps, reproduced on small fixture pages of our own."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import DiscoveryResult, Locator, Strategy
from pytest_pacts.models.outcome import FailureType, RcaClass
from pytest_pacts.planner import load_file
from pytest_pacts.scaffold.init import templates_dir
from tests.hostile_pages import PROTOTYPE_ARRAY_FROM

from .helpers import Site, plan, run

SHOP = """
<header>
  <a href="#menu" id="menu">Menu</a>
  <div id="cart"><a href="#cart" id="cart-link">Shopping Cart</a></div>
</header>
<main>
  <button>Add to cart</button><button>Remove</button><button>Checkout</button>
  <button>Continue shopping</button><button>Sort by price</button>
</main>
"""


def test_a_misspelt_element_on_a_first_run_is_not_found_with_the_closest_name(
    tab: Page, site: Site
) -> None:
    url = site.add("shop.html", SHOP)
    record = run(tab, plan(url, ("click", "Shoping Cart")), healer=HealingLadder())
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert step.failure.type is FailureType.NOT_FOUND
    assert "did you mean 'Shopping Cart'" in step.failure.message
    assert step.heals == () and record.heal_rounds == 0  # nothing recorded to heal from
    assert record.rca.rca_class is RcaClass.DATA_ISSUE
    assert "no longer" not in record.rca.recommendation
    text = render_failure(record)
    assert "did you mean 'Shopping Cart'" in text
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith("- ")]
    assert len(lines) == len(set(lines)), text  # every candidate and fact listed once


# A plain login form as many real apps (Django's among them) render it: labels with a colon,
# no container named "LoginForm", a submit input.
LOGIN = """
<h1>Log in</h1>
<form method="post" action="/products.html">
  <p><label for="id_username">Username:</label> <input type="text" name="username" id="id_username"></p>
  <p><label for="id_password">Password:</label> <input type="password" name="password" id="id_password"></p>
  <input type="submit" value="Log in">
</form>
"""


def test_a_region_that_matches_nothing_falls_back_to_the_unique_element(
    tab: Page, site: Site
) -> None:
    url = site.add("login.html", LOGIN)
    found: dict[int, object] = {}
    record = run(
        tab, plan(url, ("fill", "Username@LoginForm", "ada", "field_populated")),
        on_discovered=found.__setitem__,
    )  # fmt: skip
    assert record.verdict == "pass", render_failure(record)
    step = record.steps[0]
    assert step.notes and 'the region "LoginForm" matches no container' in step.notes[0]
    assert tab.input_value("#id_username") == "ada"
    assert "warning at step 1" in render_failure(record)
    # the next run (warm cache) still says so
    again = run(tab, plan(url, ("fill", "Username@LoginForm", "bob")), pom=found)
    assert again.verdict == "pass" and again.steps[0].notes == step.notes


def test_a_missing_region_does_not_pick_one_of_several_page_wide_matches(
    tab: Page, site: Site
) -> None:
    url = site.add("two-forms.html", "<button>Save</button><button>Save</button>")
    record = run(tab, plan(url, ("click", "Save@Settings")))
    assert record.verdict == "fail"
    step = record.failed_step
    assert step is not None and step.failure is not None and not step.notes


def test_the_scaffolded_example_passes_on_a_plain_login_page(tab: Page, site: Site) -> None:

    site.add("products.html", "<h1>Products</h1>", title="Products")
    site.add("", LOGIN, title="Log in")
    plans = load_file(templates_dir() / "example.req.yaml").plans
    record = run(tab, plans[0], base_url="http://pacts.test/")
    assert record.verdict == "pass", render_failure(record)
    assert all(s.notes for s in record.steps)  # each step says its region was not found


SAVE_FORM = """
<script>window.clicked = [];</script>
<form onsubmit="return false">
  <input aria-label="Title">
  {buttons}
</form>
"""
_BUTTON = '<button type="button" id="{id}" onclick="clicked.push(this.id)">{text}</button>'


def _buttons(*pairs: tuple[str, str]) -> str:
    return SAVE_FORM.format(buttons="".join(_BUTTON.format(id=i, text=t) for i, t in pairs))


def _cached_by_id(tab: Page, site: Site) -> dict[int, DiscoveryResult]:
    """The POM a first version of the page gives, its locator the id one (``#submit``): a
    locator that keeps resolving when the element behind the id changes."""
    url = site.add("save-v1.html", _buttons(("submit", "Save"), ("cancel", "Cancel")))
    tab.goto(url)
    result = discover(tab, [(0, Target(element="Save"), Action.CLICK)])[0]
    by_id = next(a for a in result.alternates if a.css == "#submit")
    others = tuple(a for a in (result.locator, *result.alternates) if a and a != by_id)
    return {0: result.model_copy(update={"locator": by_id, "alternates": others})}


def test_a_cached_locator_that_now_finds_another_element_is_healed_not_trusted(
    tab: Page, site: Site
) -> None:
    pom = _cached_by_id(tab, site)
    url = site.add("save-v2.html", _buttons(("submit", "Delete"), ("keep", "Save")))
    record = run(tab, plan(url, ("click", "Save")), pom=pom, healer=HealingLadder())
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("clicked") == ["keep"]  # the real Save, never Delete
    step = record.steps[0]
    assert step.status == "healed" and step.heals[0].failure is FailureType.NOT_UNIQUE


def test_a_cached_locator_whose_element_changed_abstains_when_the_element_is_gone(
    tab: Page, site: Site
) -> None:
    pom = _cached_by_id(tab, site)
    url = site.add("save-v3.html", _buttons(("submit", "Delete"), ("cancel", "Cancel")))
    record = run(tab, plan(url, ("click", "Save")), pom=pom, healer=HealingLadder())
    assert record.verdict == "fail"
    assert tab.evaluate("clicked") == []  # Delete was never clicked
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert step.failure.cause == "identity_changed"
    assert 'recorded as "Save"' in step.failure.message


@pytest.mark.parametrize(
    "drifted",
    [
        "save",
        "  SAVE  ",
        '<svg aria-hidden="true" width="10" height="10"></svg> Save',
        '<i class="icon" aria-hidden="true">floppy</i>Save',
        "Save changes",
    ],
)
def test_small_drift_of_a_cached_element_is_still_the_same_element(
    tab: Page, site: Site, drifted: str
) -> None:
    pom = _cached_by_id(tab, site)
    url = site.add("save-drift.html", _buttons(("submit", drifted), ("cancel", "Cancel")))
    record = run(tab, plan(url, ("click", "Save")), pom=pom, healer=HealingLadder())
    assert record.verdict == "pass", render_failure(record)
    assert record.steps[0].status == "passed" and not record.steps[0].heals
    assert tab.evaluate("clicked") == ["submit"]


# A single-page app draws its frame, then fetches the list's rows: between two requests the
# page looks settled for a moment (nothing in flight, no DOM change for two frames) while
# the rows the step's region names are not there yet (MLflow's runs table).
LATE_ROWS = """
<h1>iris-classifier</h1><div id="grid"><p>Loading…</p></div>
<script>
  setTimeout(() => {
    document.getElementById('grid').innerHTML = ['alpha', 'beta'].map((n) =>
      `<div role="row"><input type="checkbox" id="cb-${n}"><a href="#${n}">${n}</a></div>`
    ).join('');
  }, 700);
</script>
"""


def test_a_region_the_page_does_not_mention_yet_is_waited_for(tab: Page, site: Site) -> None:
    url = site.add("late-rows.html", LATE_ROWS)
    record = run(tab, plan(url, ("check", "checkbox@beta", "", "checked")))
    assert record.verdict == "pass", render_failure(record)
    assert tab.is_checked("#cb-beta") and not tab.is_checked("#cb-alpha")
    assert not record.steps[0].notes  # found in its region, not by the region-less fallback


def test_an_element_the_page_does_not_show_yet_is_waited_for(tab: Page, site: Site) -> None:
    # the same late rows, a step with no region: the run's link is not on the page yet
    url = site.add("late-links.html", LATE_ROWS)
    record = run(tab, plan(url, ("click", "beta", "", "url_contains:#beta")))
    assert record.verdict == "pass", render_failure(record)


# Save says "Saved" 1.2 s after the click (a DOM change, no request): the step after it runs
# on a page whose last request, navigation and load lie over a second back
STILL = """<h1>Nothing moves here</h1><p id="status"></p><button onclick="window.saved = true;
setTimeout(() => { document.getElementById('status').textContent = 'Saved'; }, 1200)">Save
</button>"""


def test_a_page_quiet_for_a_while_is_not_waited_on_again(
    tab: Page, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quiet window counts from the page's last request, navigation or load (or a DOM
    change seen while waiting), not from the step's start: a step that nothing matches on
    a page that has been still for longer is not made to wait another second (a page that
    has just loaded still is: the two tests above)."""
    from pytest_pacts.engine import finder, waiting

    url = site.add("still.html", STILL)
    after_save: list[float] = []
    real = waiting.wait_for_change

    def counting(page: Page, cap_ms: float = 100.0, since: float | None = None) -> bool:
        if page.evaluate("window.saved === true"):
            after_save.append(cap_ms)
        return real(page, cap_ms, since)

    monkeypatch.setattr(finder, "wait_for_change", counting)
    record = run(tab, plan(url, ("click", "Save", "", "text_visible:Saved"), ("click", "Publish")))
    assert record.verdict == "fail" and record.failed_step is not None
    assert record.failed_step.index == 1 and tab.evaluate("window.saved") is True
    # before: nine or ten 100 ms waits (a second from the step's start); now the few a
    # discovery pass takes to see the page settled
    assert len(after_save) <= 5, after_save


def test_a_longer_name_on_an_element_of_another_tag_is_another_element(
    tab: Page, site: Site
) -> None:
    """MLflow 2.22: the run page's "Tags" section header (a div with the button role, found
    as "the only button in the tags section") gave way to a table whose only button is
    "Edit tags". The cached locator resolves to that button; its name keeps the word "Tags",
    but on an element of another tag that is not drift of the recorded one: never clicked."""
    v1 = (
        '<script>window.clicked = [];</script><section data-test-id="tags-section">'
        '<div role="button" tabindex="0" class="collapse-header" onclick="clicked.push(\'header\')"'
        ">Tags</div></section>"
    )
    tab.goto(site.add("tags-v1.html", v1))
    found = discover(tab, [(0, Target(element="Tags"), Action.CLICK)])[0]
    assert found.locator is not None
    # a locator by kind and place, as the relational one recorded there
    cached = Locator(
        strategy=Strategy.CSS, confidence=0.8, css="section [role=button], section button"
    )
    pom = {0: found.model_copy(update={"locator": cached, "alternates": ()})}
    v2 = (
        '<script>window.clicked = [];</script><section data-test-id="tags-section">'
        "<table><tr><th>Tags</th><td>team: vision</td></tr></table>"
        '<button aria-label="Edit tags" onclick="clicked.push(\'edit\')">✎</button></section>'
    )
    record = run(tab, plan(site.add("tags-v2.html", v2), ("click", "Tags")), pom=pom)
    assert tab.evaluate("clicked") == []
    step = record.failed_step
    assert step is not None and step.failure is not None
    assert step.failure.cause == "identity_changed"


# -- a page whose scripts replace JavaScript built-ins (the in-page code's fresh realm) -------

# Prototype.js 1.7's ``Array.from`` and ``toJSON``, and worse: a method that throws, a
# replaced JSON
PATCHED = (
    "<script>"
    + PROTOTYPE_ARRAY_FROM
    + """
  Array.prototype.map = function () { throw new TypeError('patched map'); };
  String.prototype.trim = function () { return 'patched'; };
  Array.prototype.toJSON = function () { return 'patched'; };
  JSON.stringify = function () { return 'patched'; };
</script>"""
)


def _signin(button: str) -> str:
    return (
        PATCHED + '<form onsubmit="document.body.dataset.user = this.user.value; '
        "document.querySelector('#out').textContent = 'Welcome ' + this.user.value; "
        'return false"><label for="u">Username</label><input id="u" name="user">'
        f"{button}</form><p id='out'></p>"
    )


def test_a_requirement_runs_and_heals_on_a_page_that_replaced_built_ins(
    tab: Page, site: Site
) -> None:
    """The engine's pages get the in-page code at the document's first moment, before the
    page's scripts run: the first call after they replaced a built-in moves to a fresh
    realm. Discovery, the gate, the expectation and a heal all run there."""
    url = site.add("patched-v1.html", _signin('<button id="go">Sign in</button>'))
    rows = (("fill", "Username", "ada"), ("click", "Sign in", "", "text_visible:Welcome ada"))
    found: dict[int, DiscoveryResult] = {}
    record = run(tab, plan(url, *rows), on_discovered=found.__setitem__)
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("document.body.dataset.user") == "ada"
    # the next release renamed the button's id: the cached locator heals
    v2 = site.add("patched-v2.html", _signin('<button id="submit-btn">Sign in</button>'))
    stale = found[1].model_copy(
        update={
            "locator": Locator(strategy=Strategy.CSS, confidence=0.9, css="#go"),
            "alternates": (),
            "batch_url": None,  # as if found on this page's address
        }
    )
    again = run(tab, plan(v2, *rows), pom={0: found[0], 1: stale}, healer=HealingLadder())
    assert again.verdict == "pass", render_failure(again)
    assert again.steps[1].heals, "the stale locator was healed"
    assert tab.evaluate("document.body.dataset.user") == "ada"
    assert tab.evaluate("'  x '.trim()") == "patched"  # the page keeps its own built-ins
