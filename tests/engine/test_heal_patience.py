"""A recorded locator whose element a newer release keeps but hides (or disables) is handed
to healing once the page is settled, not after the step's whole timeout (issue 40: the first
heal of a run on a real shop took the full 10 s step timeout, later heals 0.2-0.8 s).

Bootstrap's navigation (used by django-oscar and Flask-Admin in the real-app corpus) keeps
a collapsed menu's links in the page, hidden, while the release draws the visible control
elsewhere; an id the old release gave the visible link can land on the hidden copy. Playwright
waits for visibility on such an element (its actionability rule) for the whole timeout; the
engine's gate did too, and only then let the ladder try the recorded element's other
locators."""

from __future__ import annotations

from dataclasses import replace

from playwright.sync_api import Page

from pytest_pacts.discovery import discover
from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import DiscoveryResult
from pytest_pacts.models.outcome import HealAttempt

from .helpers import FAST, Site, plan, run

OLD = """
<header><nav><a href="#cat">Catalogue</a> <a id="account" href="#acc">Account</a></nav></header>
<main><h1>Shop</h1><p>Welcome</p></main>
"""
# the release moved "Account" into a drop-down whose collapsed copy keeps the old id, hidden,
# and draws a visible button for it
NEW = """
<header><nav><a href="#cat">Catalogue</a>
  <div class="collapse" style="display:none"><a id="account" href="#acc">Account</a></div>
  <button type="button" class="dropdown-toggle" onclick="location.hash='acc'">Account</button>
</nav></header>
<main><h1>Shop</h1><p>Welcome</p></main>
"""
SLOW = replace(FAST, step_timeout_ms=8_000)


class Watched(HealingLadder):
    """The ladder, noting the failure each round was handed."""

    def __init__(self) -> None:
        super().__init__()
        self.handed: list[tuple[str, ...]] = []

    def heal(self, ctx: HealContext) -> tuple[HealAttempt, RungResult | None]:
        self.handed.append(ctx.failure.evidence)
        return super().heal(ctx)


def _recorded(tab: Page, site: Site) -> DiscoveryResult:
    tab.goto(site.add("shop-v1.html", OLD))
    found = discover(tab, [(0, Target(element="Account"), Action.CLICK)])[0]
    assert found.locator is not None
    by_id = next(a for a in found.alternates if a.css == "#account")
    return found.model_copy(update={"locator": by_id})


def test_a_hidden_recorded_element_goes_to_healing_before_the_step_timeout(
    tab: Page, site: Site
) -> None:
    recorded = _recorded(tab, site)
    ladder = Watched()
    new = site.add("shop-v2.html", NEW)
    record = run(tab, plan(new, ("click", "Account")), pom={0: recorded}, healer=ladder,
                 options=SLOW)  # fmt: skip
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("location.hash") == "#acc"
    heal = next(h for h in record.steps[0].heals if h.accepted)
    assert heal.new_locator is not None and heal.new_locator.css != "#account"
    # the ladder was handed the hidden element as soon as the page was seen settled, not
    # after the step's 8 s of waiting for it to show
    assert ladder.handed, "the ladder never ran"
    assert any("handed to healing" in line for line in ladder.handed[0]), ladder.handed[0]


def test_without_a_healer_the_hidden_element_is_waited_for_as_playwright_does(
    tab: Page, site: Site
) -> None:
    recorded = _recorded(tab, site)
    reveal = "<script>setTimeout(() => document.querySelector('.collapse').style.display = '', 2500)</script>"
    new = site.add("shop-v2-reveal.html", NEW + reveal)
    record = run(tab, plan(new, ("click", "Account")), pom={0: recorded}, options=SLOW)
    # no healer to hand it to: the gate waits for the element to show, up to the timeout
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("location.hash") == "#acc"


# The shop's pages load jQuery from a CDN with a local fallback (django-oscar's base.html,
# "cdn_scripts"), a parser-blocking script at the end of the body. Without internet, the
# first lookup of the CDN's host can take seconds to fail (later ones fail at once: the
# browser remembers), and the document stays "loading" meanwhile, though all its content is
# there. Playwright's own navigation waits for "load"; a page reached by a click is not
# waited for past the readiness cap.
START = """<main><h1>Shop</h1><a href="shop-cdn.html">Go to the shop</a></main>"""
HUNG_CDN = '<script src="https://cdn.pacts-test.invalid/jquery.min.js"></script>'


def test_a_page_stuck_on_a_third_party_script_is_healed_on_once_its_dom_is_quiet(
    tab: Page, site: Site
) -> None:
    """The page is settled for healing once its DOM has not changed for the readiness cap
    (2.5 s) and it waits only on requests older than that, as readiness itself decides
    (docs/engine.md, "Ready to act": a page that polls never settles), not after the step's
    whole timeout (issue 40: 10 s for the first heal of a run on a real shop, 0.2-0.8 s for
    the later ones, whose pages found the CDN's failure remembered).

    The standard behind it: HTML, "The script element": a classic ``<script src>`` without
    ``async`` or ``defer`` is parser-blocking (the parser stops until it is fetched and run),
    so the document stays ``readyState == "loading"``; and "The end" of parsing fires
    ``load`` only once such scripts and everything else that "delays the load event" (images,
    stylesheets) are done. Content before the script is all there meanwhile. Seen on two
    apps: django-oscar 2.1's ``base.html`` loads jQuery from ajax.googleapis.com that way
    (the ``cdn_scripts`` block), and Flask-Admin 1.6's ``form_js`` macro loads the Google
    Maps JavaScript API from maps.googleapis.com that way on a form with a map field when
    ``MAPBOX_SEARCH`` is set (``templates/bootstrap4/admin/lib.html``). Without the
    internet, both hosts fail slowly or not at all."""
    recorded = _recorded(tab, site)
    recorded = recorded.model_copy(update={"element": "Account"})
    tab.route("https://cdn.pacts-test.invalid/**", lambda route: None)  # never answered
    site.add("shop-cdn.html", NEW.replace('id="account" ', "") + HUNG_CDN)
    start = site.add("start.html", START)
    ladder = Watched()
    record = run(tab, plan(start, ("click", "Go to the shop"), ("click", "Account")),
                 pom={1: recorded}, healer=ladder, options=SLOW)  # fmt: skip
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("document.readyState") == "loading"  # still waiting on the CDN
    assert ladder.handed, "the ladder never ran"
    assert any("taken as settled" in line for line in ladder.handed[0]), ladder.handed[0]
