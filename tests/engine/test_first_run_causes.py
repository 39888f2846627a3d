"""A first run's failures name their real cause (issue 39): nothing recorded is never drift.

Small fixture pages in a real Chromium, run through the engine's front door with the real
healing ladder, as a new user's first run does.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models.outcome import RcaClass

from .helpers import Site, plan, run

# Two controls with one accessible name in different regions, as every list page has
# (a "Sort" combobox in two panels, an "Edit" link per row): WAI-ARIA names need not be
# unique, so a name alone can be ambiguous on a first run.
TWO_SORTS = """<section aria-label="Products"><h2>Products</h2>
<select aria-label="Sort"><option>Name (A to Z)</option><option>Price</option></select>
</section>
<section aria-label="Reviews"><h2>Reviews</h2>
<select aria-label="Sort"><option>Newest</option><option>Oldest</option></select>
</section>"""


def test_an_ambiguous_name_with_nothing_recorded_is_not_drift(tab: Page, site: Site) -> None:
    """Nothing recorded (no cache, no recipe): nothing drifted, so the root cause is the
    requirement's wording (``data_issue``), and the advice says how to name one element,
    never to accept a heal proposal (there is none on a first run)."""
    url = site.add("sorts.html", TWO_SORTS)
    record = run(tab, plan(url, ("select", "Sort", "Price")), healer=HealingLadder())
    assert record.verdict == "fail"
    assert record.rca.rca_class is not RcaClass.SELECTOR_DRIFT
    assert record.rca.rca_class is RcaClass.DATA_ISSUE
    text = render_failure(record)
    assert "selector_drift" not in text
    assert "proposal" not in record.rca.recommendation
    assert "region" in record.rca.recommendation


# Two product cards, each with an "ADD TO CART" button (text-transform on real shops), as
# shops and list apps show: the region names the card, and a region the page does not show
# is what a person must fix, not the button's name.
CARDS = """<div class="card"><h3>Backpack</h3><button>ADD TO CART</button></div>
<div class="card"><h3>Bike Light</h3><button>ADD TO CART</button></div>"""


def test_a_missing_region_is_the_headline(tab: Page, site: Site) -> None:
    """The region matches nothing on the page and the element alone is not unique: the
    failure's first words say the region was not found, not "did you mean" the element's own
    name (issue 39), and what to do says to name the region as the page shows it."""
    url = site.add("cards.html", CARDS)
    record = run(tab, plan(url, ("click", "Add to cart@Fleece Jacket")), healer=HealingLadder())
    assert record.verdict == "fail"
    step = record.failed_step
    assert step is not None and step.failure is not None
    headline = step.failure.message
    assert headline.startswith('the region "Fleece Jacket" is not on this page'), headline
    assert "did you mean" not in headline
    assert '"Add to cart" alone matches 2 elements, so the region is needed' in headline
    assert record.rca.message == headline
    text = render_failure(record)
    assert 'failure:  not_found: the region "Fleece Jacket" is not on this page' in text
