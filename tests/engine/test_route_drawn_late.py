"""After a step that moved the page to a new URL within its document, the next step does not
act on the old view: it waits until the view has been drawn since the URL changed.

The standards: the HTML History API (``history.pushState``) changes the document's URL with no
new document, and Playwright reports it as a navigation of the frame (``framenavigated``) with
no request. A single-page app's router pushes the URL and draws the route's view afterwards: in
a later task (Verdaccio 6.8.0's and doccano 1.8.4's routes drawn after their URL changed,
docs/real-apps.md), or after the old view's leave transition (a CSS transition, the Web
Animations API's ``document.getAnimations()``), which Vue's ``<Transition mode="out-in">``
around its router view runs: Prefect 2.20.27 and 3.9.1 (REQ-PREFECT-011 step 2, "Prefect 011:
the old view acted on"): after ``Work Pools | click``, the URL was ``/work-pools`` at once, the
dashboard faded out for about 280 ms with no request open and no DOM change, and its "Active
Work Pools" card's link ``bakery-pool`` (the same name and ``href`` as the list's) was clicked.
In the meantime nothing else tells the page is not ready: no request is open, the DOM is quiet.

Both tests failed before the rule (the old view's link was clicked: ``old``).
"""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.engine.failure_text import render_failure

from .helpers import Site, plan, run

ROUTER = """
<style>
  .view { transition: opacity %(fade)s ease; }
  .view.leaving { opacity: 0; }
  nav a[aria-current] { font-weight: bold; }
</style>
<nav><a href="/spa/dashboard" aria-current="page">Dashboard</a>
  <a href="/spa/work-pools" id="to-pools">Work Pools</a></nav>
<main id="main"><section class="view" id="dash"><h1>Dashboard</h1>
  <h2>Active Work Pools</h2><a href="/spa/work-pools/bakery-pool" class="pool">bakery-pool</a>
</section></main>
<p id="out">none</p>
<script>
window.__clicked = 'none';
const main = document.getElementById('main');
const pool = (which) => (e) => {
  e.preventDefault(); window.__clicked = which;
  document.getElementById('out').textContent = "The bakery's own machines";
};
document.querySelector('#dash .pool').addEventListener('click', pool('old'));
const draw = () => {
  main.innerHTML = '<section class="view"><h1>Work Pools</h1><ul><li>'
    + '<a href="/spa/work-pools/bakery-pool" class="pool">bakery-pool</a></li></ul></section>';
  main.querySelector('.pool').addEventListener('click', pool('new'));
};
document.getElementById('to-pools').addEventListener('click', (e) => {
  e.preventDefault();
  history.pushState({}, '', '/spa/work-pools');
  %(then)s
});
</script>
"""
# Vue's out-in transition: the nav marks the new route at once, the old view fades out, and
# the new one is drawn when the fade ends
FADES = {
    "fade": "400ms",
    "then": """
  document.querySelector('nav a[aria-current]').removeAttribute('aria-current');
  e.target.setAttribute('aria-current', 'page');
  const dash = document.getElementById('dash');
  dash.addEventListener('transitionend', draw, {once: true});
  requestAnimationFrame(() => requestAnimationFrame(() => dash.classList.add('leaving')));""",
}
# the view drawn in a later task, 600 ms after the URL changed, nothing changing meanwhile
LATER = {"fade": "0s", "then": "setTimeout(draw, 600);"}


def _run(tab: Page, site: Site, name: str, page: dict[str, str]) -> None:
    url = site.add(f"{name}.html", ROUTER % page, title="Pools")
    record = run(
        tab,
        plan(
            url,
            ("click", "Work Pools", "", "url_contains:/work-pools"),
            ("click", "bakery-pool", "", "text_visible:The bakery's own machines"),
        ),
    )
    assert record.verdict == "pass", render_failure(record)
    assert tab.evaluate("window.__clicked") == "new", "the old view's link was clicked"


def test_the_old_view_fading_out_is_not_acted_on(tab: Page, site: Site) -> None:
    _run(tab, site, "route-fades", FADES)


def test_a_view_drawn_in_a_later_task_is_waited_for(tab: Page, site: Site) -> None:
    _run(tab, site, "route-later", LATER)
