"""When a cached locator that matches nothing goes to healing: as soon as the page is
observed settled (no request it waits on, loaded, no DOM change over the gate's animation
frames), never while it is still fetching or re-rendering.

No timings are asserted: each test checks which path was taken (how many gate checks,
whether a heal happened, which element was acted on).
"""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Browser, Page, Playwright
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.demo_app import DemoServer
from pytest_pacts.discovery.actionability import check_actionable
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.engine.gate import IN_PAGE_RULE, GateOutcome, observed_settled, run_gate
from pytest_pacts.engine.healing import HealingLadder
from pytest_pacts.engine.waiting import epoch_ms, settled, wait_for_change
from pytest_pacts.models import Action
from pytest_pacts.models.locator import DiscoveryResult, GateSnapshot, Locator, Strategy
from pytest_pacts.models.outcome import FailureType

from .helpers import Site, plan, run

# Long enough that giving up early and waiting it out cannot be confused, and that a page
# rendering frame by frame on a loaded machine (a few frames a second) finishes well within
# it: a step that timed out would be healed, which these tests must not take for the rule
# failing. Every test here passes long before it.
PATIENT = EngineOptions(step_timeout_ms=20_000, navigation_timeout_ms=10_000)

# "Go" appears only after a request the page makes (800 ms on the server) has answered; a
# decoy a heal could take for it is there from the start. Served from the demo app's origin
# (``_on_demo``): the browser refuses a request from the routed fake origin to loopback.
FETCHING = """
<h1>Orders</h1>
<button id="load" onclick="load()">Load</button>
<button id="back">Go back</button>
<div id="out"></div>
<script>
function load() {
  fetch('{slow}', {cache: 'no-store'}).finally(() => {
    document.getElementById('out').innerHTML =
      '<button id="go" onclick="this.textContent=\\'Gone\\'">Go</button>';
  });
}
</script>
"""

# "Go" appears after the page has re-rendered on every animation frame for a while, with no
# request at all (a client-side render or an animation in scripts). Frame by frame, not on
# a timer: a loaded machine can delay timer ticks past two frames, which would be a quiet
# page indeed.
RENDERING = """
<h1>Orders</h1>
<button id="load" onclick="load()">Load</button>
<button id="back">Go back</button>
<div id="out"></div>
<script>
function load() {
  let n = 0;
  const tick = () => {
    n += 1;
    document.getElementById('out').textContent = 'rendering ' + n;
    if (n < 40) { requestAnimationFrame(tick); return; }
    document.getElementById('out').innerHTML =
      '<button id="go" onclick="this.textContent=\\'Gone\\'">Go</button>';
  };
  requestAnimationFrame(tick);
}
</script>
"""

DRIFTED = """
<h1>Orders</h1>
<button id="load">Load</button>
<button id="back">Go back</button>
<div id="out"><button id="go-v2" data-testid="go" onclick="this.textContent='Gone'">Go</button></div>
"""


def _go_with_fingerprint(page: Page, site: Site) -> DiscoveryResult:
    """The "Go" button as a first run discovers and caches it (locator ``#go``, with its
    fingerprint and alternates)."""
    url = site.add(
        "settled-seed.html",
        "<h1>Orders</h1><button id='load'>Load</button><button id='back'>Go back</button>"
        "<div id='out'><button id='go' data-testid='go'>Go</button></div>",
    )
    found: dict[int, DiscoveryResult] = {}
    record = run(page, plan(url, ("click", "Go")), on_discovered=found.__setitem__)
    assert record.verdict == "pass", record.failed_step
    result = found[0]
    assert result.fingerprint is not None
    css = Locator(strategy=Strategy.CSS, confidence=0.7, css="#go")
    return result.model_copy(update={"locator": css})


@pytest.mark.parametrize("page_kind", ["fetching", "rendering"])
def test_a_page_still_loading_is_not_healed(
    tab: Page, site: Site, demo_v1: DemoServer, page_kind: str
) -> None:
    cached = _go_with_fingerprint(tab, site)
    url = _on_demo(tab, demo_v1, FETCHING if page_kind == "fetching" else RENDERING)
    p = plan(url, ("click", "Load"), ("click", "Go", "", "text_visible:Gone"))
    record = run(tab, p, pom={1: cached}, healer=HealingLadder(), options=PATIENT, navigate=False)
    assert record.verdict == "pass", record.failed_step
    go = record.steps[1]
    assert go.status == "passed" and go.heals == (), go.heals
    assert go.locator is not None and go.locator.css == "#go"


def test_the_gate_keeps_checking_while_a_request_is_open(tab: Page, demo_v1: DemoServer) -> None:
    """The page's own count of its open requests keeps the gate checking, whatever the
    engine has heard of them. Here it has heard nothing (a monitor that does not listen), as
    when Playwright's ``request`` event comes late: with a route on the context it is
    emitted only once the browser's network stack paused the request (CDP
    ``Fetch.requestPaused``, Playwright's ``crNetworkManager``), and it can reach Python after
    the answer of the check that follows the click. Under load the gate then saw a settled
    page with no request open, and failed its first check: count 0, to healing."""
    monitor = EnvMonitor(tab, listen=False)  # hears no request, as one that hears it late
    _on_demo(tab, demo_v1, FETCHING)
    tab.click("#load")
    outcome = _gate(tab, monitor, "#go")
    assert outcome.failure is None, outcome.failure
    assert outcome.checks > 1  # it matched nothing at first, and was checked again


def test_the_page_counts_the_requests_its_scripts_open(tab: Page, demo_v1: DemoServer) -> None:
    """``fetch`` is open until its answer (or failure) comes, an XMLHttpRequest until its
    ``loadend`` (Fetch and XMLHttpRequest standards: ``loadend`` ends load, error, abort and
    timeout alike); one opened longer ago than asked is not counted (a long-poll)."""
    EnvMonitor(tab, listen=False)  # the in-page code from the document's first moment
    _on_demo(tab, demo_v1, "<h1>Orders</h1>")
    counts = tab.evaluate(
        """(slow) => {
          const open = (ms) => globalThis.__pacts_changes.requests(ms);
          fetch(slow);
          const xhr = new XMLHttpRequest();
          xhr.open('GET', slow);
          xhr.send();
          const both = open(60000);
          xhr.abort();
          return [both, open(60000), open(0), fetch.name, String(fetch).includes('[native code]')];
        }""",
        "/__faults/slow?ms=200",
    )
    assert counts == [2, 1, 0, "fetch", True]
    tab.wait_for_function("() => globalThis.__pacts_changes.requests(60000) === 0")


def test_a_settled_page_without_the_element_fails_on_the_first_check(tab: Page, site: Site) -> None:
    url = site.add("settled-drifted.html", DRIFTED)
    monitor = EnvMonitor(tab)
    tab.goto(url)
    assert settled(tab, monitor)
    # quiet for a while, not only over the two frames just watched: a check's "quiet" counts
    # when the page stayed unchanged for its whole round trip, which a loaded machine stretches
    tab.wait_for_timeout(300)
    outcome = _gate(tab, monitor, "#go")
    assert outcome.failure is not None and outcome.failure.type is FailureType.NOT_UNIQUE
    assert outcome.snapshot is not None and outcome.snapshot.count == 0
    assert outcome.checks == 1  # no second check, no extra wait for the page to settle


def test_a_settled_page_without_the_element_is_healed(tab: Page, site: Site) -> None:
    cached = _go_with_fingerprint(tab, site)
    url = site.add("settled-drifted-run.html", DRIFTED)
    record = run(
        tab,
        plan(url, ("click", "Go", "", "text_visible:Gone")),
        pom={0: cached},
        healer=HealingLadder(),
        options=PATIENT,
    )
    assert record.verdict == "pass", record.failed_step
    step = record.steps[0]
    assert step.status == "healed" and len(step.heals) == 1
    heal = step.heals[0]
    assert heal.failure is FailureType.NOT_UNIQUE and heal.accepted
    assert heal.old_locator is not None and heal.old_locator.css == "#go"


def _on_demo(page: Page, demo: DemoServer, body: str) -> str:
    """``body`` as a page of the demo app's origin (so its requests to the demo's slow
    endpoint are same-origin); returns its URL."""
    url = demo.url + "/__faults/slow?ms=0"
    page.goto(url)
    page.set_content(body.replace("{slow}", "/__faults/slow?ms=800"))
    return url


def _gate(page: Page, monitor: EnvMonitor, selector: str) -> GateOutcome:
    return run_gate(
        page,
        Locator(strategy=Strategy.CSS, confidence=0.7, css=selector),
        Action.CLICK,
        step_index=0,
        timeout_ms=PATIENT.step_timeout_ms,
        settle_ms=PATIENT.settle_timeout_ms,
        monitor=monitor,
    )


# The button is in the page from the start but hidden; a timer shows it (cards revealed
# after their data is "ready"). The page is settled meanwhile: no request, no DOM change.
REVEALED_LATER = """
<h1>Products</h1>
<div id="card" style="display:none"><h2>Backpack</h2><button id="add">Add to cart</button></div>
<p id="out"></p>
<script>setTimeout(() => { document.getElementById('card').style.display = 'block'; }, 1200);
document.getElementById('add').onclick = () => { document.getElementById('out').textContent = 'Added'; };
</script>
"""


def test_a_hidden_match_is_waited_for_on_a_settled_page(tab: Page, site: Site) -> None:
    """Nothing cached: the step's element exists but is hidden. A settled page fails a step
    at once only when nothing matches; a hidden match is waited for (as Playwright waits for
    visibility). It failed after one look, 'searched for 72 ms', before."""
    url = site.add("revealed-later.html", REVEALED_LATER)
    record = run(
        tab, plan(url, ("click", "Add to cart", "", "text_visible:Added")), options=PATIENT
    )
    assert record.verdict == "pass", record.failed_step
    assert record.steps[0].status == "passed"


# A shown page that gets no animation frame (here: requestAnimationFrame never calls back,
# as for a renderer starved on a loaded machine; the page itself renders frame by frame, so
# it is not rendering either): the timer that stands in for a frame observed nothing, which
# is no evidence that the page is quiet. (Under load the rendering page above was once taken
# for settled after two such timers, and its "Go" healed to another element's locator.)
NO_FRAMES = """
<h1>Orders</h1>
<script>window.ownFrames = window.requestAnimationFrame; window.requestAnimationFrame = () => 0;</script>
<button id="back">Go back</button>
<div id="out"></div>
"""


def test_a_page_that_gets_no_animation_frame_is_not_taken_for_settled(
    tab: Page, site: Site
) -> None:
    tab.goto(site.add("settled-no-frames.html", NO_FRAMES))
    monitor = EnvMonitor(tab)
    assert not settled(tab, monitor)
    snapshot = check_actionable(tab.locator("#go"), "click")
    assert snapshot.count == 0 and snapshot.settled is False
    # the same page with its frames: settled, by both observations
    tab.evaluate("() => { window.requestAnimationFrame = window.ownFrames; }")
    assert settled(tab, monitor)
    assert check_actionable(tab.locator("#go"), "click").settled is True


# A selector engine whose first query renders "Go" into the page and answers "nothing":
# the elements a gate check is given are then stale before the check's own watch begins
# (the race of a list whose last frame lands between resolving the locator and watching the
# page). Later queries find what is there.
_RACY_ENGINE = """{
  query(root, selector) { return this.queryAll(root, selector)[0] || null; },
  queryAll(root, selector) {
    const doc = root.ownerDocument || root;
    if (!doc.__rendered) {
      doc.__rendered = true;
      doc.getElementById('out').innerHTML = '<button id="' + selector + '">Go</button>';
      return [];
    }
    return Array.from(root.querySelectorAll('#' + selector));
  }
}"""


@pytest.fixture(scope="module")
def racy_selectors(playwright: Playwright) -> str:
    with contextlib.suppress(PlaywrightError):  # registered once per Playwright instance
        playwright.selectors.register("pacts-racy", _RACY_ENGINE)
    return "pacts-racy"


def test_a_change_between_resolving_and_watching_is_not_a_settled_page(
    engine_browser: Browser, racy_selectors: str
) -> None:
    context = engine_browser.new_context()
    try:
        page = context.new_page()
        page.set_content("<h1>Orders</h1><button id='back'>Go back</button><div id='out'></div>")
        monitor = EnvMonitor(page)
        # an earlier call installed the in-page code: its watch has been running since
        check_actionable(page.locator("#back"), "click")
        page.wait_for_timeout(100)
        outcome = run_gate(
            page,
            Locator(strategy=Strategy.CSS, confidence=0.7, css=f"{racy_selectors}=go"),
            Action.CLICK,
            step_index=0,
            timeout_ms=PATIENT.step_timeout_ms,
            settle_ms=0,
            monitor=monitor,
        )
        assert outcome.failure is None, outcome.failure
        assert outcome.checks == 2  # the first check's "nothing" was stale, not final
    finally:
        context.close()


def test_what_a_check_observed_counts_only_over_a_quiet_round_trip() -> None:
    quiet = GateSnapshot(points=(), count=0, settled=True, quiet_ms=500.0)
    assert observed_settled(quiet, 40.0) is True
    assert observed_settled(quiet.model_copy(update={"quiet_ms": 12.0}), 40.0) is False
    assert observed_settled(quiet.model_copy(update={"settled": False}), 40.0) is False
    assert observed_settled(quiet.model_copy(update={"settled": None}), 40.0) is None
    assert observed_settled(quiet.model_copy(update={"quiet_ms": None}), 40.0) is True


# Counts the animation frames the in-page code asks for: the page's own requestAnimationFrame
# is wrapped (the change watch, installed before the page's scripts, keeps the original and
# is not counted).
COUNTED_FRAMES = """
<h1>Orders</h1>
<button id="load">Load</button>
<script>
window.__frames_asked = 0;
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb) => { window.__frames_asked += 1; return raf(cb); };
</script>
"""


def _quiet(page: Page) -> None:
    """Until the page's change watch has seen two frames drawn since the last change."""
    page.wait_for_function("() => globalThis.__pacts_changes.frames >= 2")
    page.evaluate("() => { window.__frames_asked = 0; }")


def test_a_missing_element_on_a_settled_page_is_told_without_waiting_a_frame(
    tab: Page, site: Site
) -> None:
    """The change watch already saw the page quiet for two frames after the last action: the
    check that finds nothing says "settled" at once, with no frame of its own."""
    url = site.add("counted-frames.html", COUNTED_FRAMES)
    EnvMonitor(tab)
    tab.goto(url)
    _quiet(tab)
    acted = tab.evaluate("() => performance.timeOrigin") - 1.0  # before the page existed
    gate = check_actionable(tab.locator("#go"), Action.CLICK, since=acted, rule=IN_PAGE_RULE)
    assert gate.count == 0 and gate.settled is True
    assert tab.evaluate("() => window.__frames_asked") == 0


def test_a_quiet_spell_from_before_the_last_action_is_watched_again(tab: Page, site: Site) -> None:
    """The page's answer to an action may not have begun (a render on its next frame): a
    quiet spell that began before the action does not count, the check watches two frames."""
    url = site.add("counted-frames-acted.html", COUNTED_FRAMES)
    EnvMonitor(tab)
    tab.goto(url)
    _quiet(tab)
    acted = tab.evaluate("() => performance.timeOrigin + performance.now()")
    gate = check_actionable(tab.locator("#go"), Action.CLICK, since=acted, rule=IN_PAGE_RULE)
    assert gate.count == 0 and gate.settled is True
    assert tab.evaluate("() => window.__frames_asked") >= 2


def test_a_change_the_last_look_missed_ends_the_wait_at_once(tab: Page, site: Site) -> None:
    """A change between a probe and the wait that follows it (a navigation committing, a
    render) is seen by the wait: it does not wait out its cap for another one."""
    url = site.add("changed-between.html", "<h1>Orders</h1><p id='out'></p>")
    EnvMonitor(tab)
    tab.goto(url)
    _quiet(tab)
    looked = epoch_ms()
    tab.evaluate("() => { document.getElementById('out').textContent = 'changed'; }")
    assert wait_for_change(tab, 5_000, since=looked) is True
    assert wait_for_change(tab, 200, since=epoch_ms()) is False  # nothing changed since
