"""A locator built on an id the framework generated is neither offered, preferred nor saved.

Ember names every component's element ``ember`` + a counter at render (``#ember9``), React's
``useId`` ``:r1:``; both count in render order, so the same id names another element once
anything renders earlier or later. On Ghost (Ember, its settings React) the alternate rung
healed REQ-GHOST-002 on 5.80.0 to ``css #ember9`` (0.68) and saved it in healing memory; on
the upgrade (5.130.6) the peer healix, which trusts ids, answered five steps wrong from
``#ember77``, ``#ember51``, ``#ember58``, ``#ember66`` (other elements there) and React's
``#:rl:``. Governance already counts both as generated (``auto_generated_id_class``); the
scan's own pattern (``looksGenerated``, js/scan.js) knew React's and not Ember's short
counters. So: discovery renders no locator on ``ember<n>``; a heal tries the recorded
element's stable alternates before one on a generated id or class, and healing memory keeps
no locator built on one (the next render may give that id to another element).

Each test failed before the change: ``a#ember9`` was among the alternates; the alternate rung
took ``#ember9`` (first in the record) and memory kept it.
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.engine.healing import AlternateRung, HealingLadder
from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.store import Store

from .helpers import discovered, failing_context

NAV = """<nav><a id="ember9" class="nav-posts" href="/posts/">Posts</a>
  <a id="ember10" href="/pages/">Pages</a></nav><main><h1>Dashboard</h1></main>"""
GENERATED = Locator(strategy=Strategy.CSS, confidence=0.68, css="#ember9")
STABLE = Locator(strategy=Strategy.CSS, confidence=0.6, css="a.nav-posts")


def _css_of(locators: tuple[Locator, ...]) -> list[str]:
    return [loc.css or "" for loc in locators]


def test_discovery_renders_no_locator_on_an_ember_id(tab: Page) -> None:
    tab.set_content(NAV)
    _plan, state = discovered(tab, "Posts")
    assert state.discovery is not None
    rendered = [state.locator, *state.discovery.alternates]
    assert not [loc for loc in rendered if loc is not None and "ember" in (loc.css or "")], rendered


def _heal_posts(tab: Page, store: Store, alternates: tuple[Locator, ...]) -> Locator | None:
    tab.set_content(NAV)
    plan, state = discovered(tab, "Posts")
    state.alternates = alternates
    # the recorded name now finds two links (a second "Posts" drawn on the dashboard)
    tab.evaluate(
        """() => document.querySelector('main').insertAdjacentHTML('beforeend',
        '<a href="/posts/?type=draft">Posts</a>')"""
    )
    failing = Locator(strategy=Strategy.ROLE_NAME, confidence=0.95, role="link", name="Posts")
    ctx = failing_context(tab, plan, state, locator=failing)
    ladder = HealingLadder(store=store, rungs=[AlternateRung()])
    attempt, result = ladder.heal(ctx)
    assert result is not None and result.locator is not None, attempt.reason
    ladder.confirm(ctx, attempt, result)
    return result.locator


def test_a_heal_takes_the_stable_alternate_before_the_generated_id(tab: Page, store: Store) -> None:
    healed = _heal_posts(tab, store, (GENERATED, STABLE))
    assert healed == STABLE
    [memory] = store.healing.suggest("Posts", req_id="REQ-HEAL-001")
    assert isinstance(memory.locator, dict) and memory.locator.get("css") == "a.nav-posts"


def test_a_heal_on_a_generated_id_alone_is_used_and_not_saved(tab: Page, store: Store) -> None:
    healed = _heal_posts(tab, store, (GENERATED,))
    assert healed == GENERATED  # the element checked as the recorded one: this run uses it
    assert store.healing.suggest("Posts", req_id="REQ-HEAL-001") == []
