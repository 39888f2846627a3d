"""Every element discovery singles out can be located (issue 35, class 4).

Discovery found the element (the scan singled it out, by name or as the only control of its
kind in its region) but every locator it rendered matched more than that element: a list's
rows are ``div``s with generated class names, so the region rendered as ``div`` with the
row's text also matches the list around the rows, and the row's field by its role matches
every row's field there. The step failed with "the scan singled out input, but no rendered
locator resolves to exactly that element". Now the element's place in the page (a CSS path
without generated names) is the last resort, verified through Playwright like any locator,
and the step says so.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.engine.failure_text import render_failure

from .helpers import Site, plan, run

ROWS = """
<main>
  <h1>todos</h1>
  <div class="css-9k8j7h">
    <div class="css-r0w1ab"><span>Buy milk</span><input class="css-e1d1t0"></div>
    <div class="css-r0w1ab"><span>Walk the dog</span><input class="css-e1d1t0"></div>
    <div class="css-r0w1ab"><span>Pay rent</span><input class="css-e1d1t0"></div>
  </div>
</main>
"""


def test_an_element_no_semantic_locator_singles_out_is_located_by_its_place(
    tab: Page, site: Site
) -> None:
    """Seen in three implementations of a to-do list app (rows as ``div``s with generated
    classes, an unlabelled field in each). Playwright's CSS engine matches ``:nth-of-type``
    and the child combinator as CSS Selectors Level 3 defines them, so the element's path
    from ``<body>`` through tags and positions, with no generated class, is unique and
    verified like any locator; the step's note says the locator is positional."""
    url = site.add("rows.html", ROWS)
    record = run(tab, plan(url, ("fill", "input@Walk the dog", "Walk the cat")))
    assert record.verdict == "pass", render_failure(record)
    values = tab.eval_on_selector_all("div.css-r0w1ab input", "els => els.map(e => e.value)")
    assert values == ["", "Walk the cat", ""]
    step = record.steps[0]
    assert step.locator is not None
    if "nth-of-type" in (step.locator.css or ""):  # the last resort was needed: it is said
        assert any("place in the page" in note for note in step.notes), step.notes


def test_a_positional_locator_is_never_bound_ahead() -> None:
    """Found in the real-app corpus (MLflow 2.4.2, a registered model's "Model name" field):
    discovered ahead of its turn, before the dialog holding the field was open, the words
    singled out the list page's search box, which only its place in the page located; bound
    then, the step filled the search box. A step whose words no semantic locator pins down
    is discovered at its own turn."""
    from pytest_pacts.discovery.planning import binds_ahead
    from pytest_pacts.models.locator import DiscoveryResult, Locator, Strategy

    exact = Locator(strategy=Strategy.CSS, confidence=0.88, css="body > div > input")
    found = DiscoveryResult(element="Model name", action="fill", locator=exact)
    assert binds_ahead(found)
    assert not binds_ahead(found.model_copy(update={"positional": True}))
