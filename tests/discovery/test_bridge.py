"""The bridge (``runtime/bridge.py``): the gate's check gets a locator's elements from
Playwright's isolated world, where a selector engine registered with ``content_script=True``
marks each element with a numbered event that the in-page code's listener takes, instead
of resolving the locator with Playwright's code in the page's own world
(``Locator.evaluate_all``). ``tests/conftest.py`` registers it, as the plugin does."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page

from pytest_pacts.discovery import check_actionable, check_locator
from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.runtime.bridge import send_on_elements
from pytest_pacts.runtime.scripts import PageScriptError, init_script
from tests.hostile_pages import BROKEN_ARRAYS

from .helpers import find

# its tests change the page itself: a new context per test (tests/tabs.py)
FRESH_CONTEXT = True

LOGIN = Locator(strategy=Strategy.ROLE_NAME, confidence=0.9, role="button", name="Login")
# the page counts the bridge's events it can see (any page can: they are DOM events)
SPY = (
    "<script>window.seen = 0;"
    " document.addEventListener('__pacts_bridge', () => { window.seen += 1; }, true);</script>"
)
FORM = '<form><label for="u">Username</label><input id="u"><button id="go">Login</button></form>'


@pytest.fixture
def engine_tab(tab: Page) -> Page:
    """A page with the in-page code from each document's first moment, as the engine's."""
    tab.add_init_script(init_script())
    return tab


def show(page: Page, body: str) -> None:
    """Open ``body`` as a new document (``set_content`` writes into the current one, and
    ``document.open`` drops the window's listeners)."""
    html = f"<!doctype html><html><body>{body}</body></html>"
    page.route(
        "http://pacts.test/**", lambda route: route.fulfill(body=html, content_type="text/html")
    )
    page.goto("http://pacts.test/page.html")


def test_the_gate_gets_its_element_through_the_bridge(engine_tab: Page) -> None:
    show(engine_tab, SPY + FORM)
    gate = check_locator(engine_tab, LOGIN, "click")
    assert gate.count == 1 and all(p.ok for p in gate.points), gate
    assert engine_tab.evaluate("window.seen") == 1  # one event, on the one element matched


def test_a_page_whose_array_methods_throw_stops_evaluate_all_but_not_the_bridge(
    engine_tab: Page,
) -> None:
    show(engine_tab, FORM + BROKEN_ARRAYS)
    gate = check_locator(engine_tab, LOGIN, "click")
    assert gate.count == 1 and all(p.ok for p in gate.points), gate
    # the same check through evaluate_all: Playwright's code in the page's world throws
    with pytest.raises(PageScriptError, match="patched"):
        check_actionable(engine_tab.get_by_role("button", name="Login"), "click")


def test_an_element_in_an_open_shadow_root_is_handed_over_itself(engine_tab: Page) -> None:
    show(
        engine_tab,
        '<div id="host"></div><script>document.getElementById("host").attachShadow('
        '{mode: "open"}).innerHTML = \'<button id="inner">Login</button>\';</script>',
    )
    # the element itself, not its shadow host: the check finds it inside a shadow root
    gate = check_locator(engine_tab, LOGIN.model_copy(update={"in_shadow": True}), "click")
    assert gate.count == 1 and all(p.ok for p in gate.points), gate


def test_several_matches_are_all_handed_over(engine_tab: Page) -> None:
    show(engine_tab, SPY + "<button>Login</button><button>Login</button>")
    gate = check_locator(engine_tab, LOGIN, "click")
    assert gate.count == 2
    assert engine_tab.evaluate("window.seen") == 2


def test_a_page_that_stops_the_events_falls_back_to_evaluate_all(engine_tab: Page) -> None:
    """The elements heard are fewer than Playwright counted: the call is made again with
    ``evaluate_all``, and answers the same."""
    stop = (
        "<script>window.addEventListener('__pacts_bridge',"
        " (e) => e.stopImmediatePropagation(), true);</script>"
    )
    show(engine_tab, stop + FORM)
    gate = check_locator(engine_tab, LOGIN, "click")
    assert gate.count == 1 and all(p.ok for p in gate.points), gate


def test_a_page_without_the_in_page_code_yet_is_checked_too(tab: Page) -> None:
    """No init script: nothing in the page hears the first call's events; it falls back to
    ``evaluate_all``, which installs the code, and the next call uses the bridge."""
    tab.set_content(SPY + FORM)
    gate = check_locator(tab, LOGIN, "click")
    assert gate.count == 1 and all(p.ok for p in gate.points), gate
    heard = "() => { window.seen = 0; return globalThis.__pacts_bridge !== undefined; }"
    assert tab.evaluate(heard)  # installed by the fallback, listening from now on
    gate = check_locator(tab, LOGIN, "click")
    assert gate.count == 1 and all(p.ok for p in gate.points), gate
    assert tab.evaluate("window.seen") == 1  # one call, through the bridge


def test_a_page_that_writes_itself_anew_is_heard_again(engine_tab: Page) -> None:
    """``document.open()`` (``set_content`` uses it) removes the window's listeners: the
    call that finds them deaf uses ``evaluate_all`` and listens again, so the next call
    goes through the bridge: on this page, by then, ``evaluate_all`` would throw."""
    show(engine_tab, "<p>loading</p>")
    engine_tab.set_content(FORM)
    gate = check_locator(engine_tab, LOGIN, "click")
    assert gate.count == 1 and all(p.ok for p in gate.points), gate
    engine_tab.add_script_tag(
        content=BROKEN_ARRAYS.removeprefix("<script>").removesuffix("</script>")
    )
    gate = check_locator(engine_tab, LOGIN, "click")
    assert gate.count == 1 and all(p.ok for p in gate.points), gate


def test_an_element_inside_an_iframe_is_verified_without_the_bridge(engine_tab: Page) -> None:
    """Frame locators lead to it: the bridge's end part would be in another frame than the
    locator, so its calls use ``evaluate_all`` (in the iframe's document)."""
    inner = "<label for='c'>Card number</label><input id='c'>"
    show(engine_tab, f'<iframe srcdoc="{inner}"></iframe>')
    engine_tab.frames[1].wait_for_selector("#c")
    found = find(engine_tab, "Card number", "fill")
    assert found.ok, found.unresolved
    assert found.locator is not None and found.locator.frame_path


def test_calls_sent_ahead_together_each_get_their_own_elements(engine_tab: Page) -> None:
    """Two calls in flight at once (healing sends some ahead): each takes the elements of
    its own query. Taking one call's elements once forgot the other's wait, which then
    waited out its 3 s and fell back to ``evaluate_all``; on this page that throws."""
    show(engine_tab, FORM + "<button id='again'>Login</button>" + BROKEN_ARRAYS)
    ids = "(els) => { const out = []; for (const el of els) out.push(el.id); return out; }"
    frame = engine_tab.main_frame
    fields = send_on_elements(engine_tab.locator("input"), ids, frame=frame, what="fields")
    buttons = engine_tab.get_by_role("button", name="Login")
    logins = send_on_elements(buttons, ids, frame=frame, what="buttons")
    started = time.monotonic()
    assert logins.result() == ["go", "again"]
    assert fields.result() == ["u"]
    assert time.monotonic() - started < 2.5  # not the 3 s wait for an end already heard


def test_a_count_is_asked_in_the_world_where_the_checks_resolve_locators(
    tab: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40: Playwright builds its selector code once per document and JavaScript world,
    on first use (25-55 ms). Through the bridge the engine's checks resolve locators in
    Playwright's isolated world, and a count is asked there (``Locator.count``). Where the
    bridge is known not to work (a Playwright without its engines, as a hand-written test's
    may be), the checks resolve them in the page's world: a count asked in the isolated
    world built the code a second time, inside a drifted relocation. It is asked in the
    page's world then."""
    import weakref

    from playwright.sync_api import Locator as PWLocator

    from pytest_pacts.runtime import bridge, playwright_private
    from pytest_pacts.runtime.healing import count_matches, count_sent

    tab.set_content("<button>Buy</button><button>Back</button>")
    asked: list[object] = []
    real = PWLocator.count

    def counted(self: PWLocator) -> int:
        asked.append(self)
        return real(self)

    monkeypatch.setattr(PWLocator, "count", counted)
    buttons = tab.locator("button")
    assert count_matches(tab, "counting", buttons) == 2 and count_sent(buttons, "c").result() == 2
    assert len(asked) == 1  # bridged: Playwright's isolated world (the one sent ahead as well)
    asked.clear()
    without = weakref.WeakSet([playwright_private.identity(tab.context)])
    monkeypatch.setattr(bridge, "_unbridged", without)
    assert count_matches(tab, "counting", buttons) == 2 and count_sent(buttons, "c").result() == 2
    assert asked == []
