"""A page whose scripts replaced JavaScript built-ins the in-page code relies on.

From the first call that finds a built-in replaced, the in-page code runs as a second copy
compiled in a fresh realm, whose built-ins the page has never seen (``runtime/js/realm.js``).
Where no fresh realm can be had (a Content-Security-Policy that forbids compiling code), an
exception the code throws is a ``PageScriptError`` that says what happened, never a bare
``Frame.evaluate: TypeError`` from deep inside the scan.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.runtime.bridge import call_on_elements
from pytest_pacts.runtime.scripts import PageScriptError, _installer
from tests.hostile_pages import PROTOTYPE_ARRAY_FROM, SIMILARITY_OF_TWO_BUTTONS

from .helpers import chosen_id, find

# its tests change the page itself: a new context per test (tests/tabs.py)
FRESH_CONTEXT = True

# What libraries of the Prototype.js and MooTools era did, and worse: methods that throw, a
# ``toJSON`` that changes what JSON.stringify writes, a replaced JSON.
PATCHES = """
<script>
  Array.prototype.map = function () { throw new TypeError('patched map'); };
  Array.from = function () { throw new TypeError('patched from'); };
  String.prototype.trim = function () { return 'patched'; };
  Array.prototype.toJSON = function () { return 'patched'; };
  JSON.stringify = function () { return 'patched'; };
</script>
"""
FORM = """
<form><label for="user">Username</label><input id="user">
<button id="go">Login</button><button id="other">Cancel</button></form>
"""
HOSTILE = PATCHES + FORM
# a page that forbids compiling code from strings: no fresh realm can be built there
NO_EVAL = (
    '<meta http-equiv="Content-Security-Policy" content="script-src \'unsafe-inline\'">' + HOSTILE
)


def realm_of(tab: Page) -> str:
    key, _ = _installer()
    answer = tab.evaluate(f"() => globalThis[{key!r}] ? globalThis[{key!r}].realm() : null")
    assert isinstance(answer, str)
    return answer


def test_a_page_that_replaced_built_ins_is_scanned_in_a_fresh_realm(tab: Page) -> None:
    tab.set_content(HOSTILE)
    assert chosen_id(tab, find(tab, "Login")) == "go"
    assert chosen_id(tab, find(tab, "Username", "fill")) == "user"
    assert realm_of(tab) == "fresh"
    # the frame the realm came from is gone, and the page keeps its own built-ins
    assert tab.evaluate("() => document.querySelectorAll('iframe').length") == 0
    assert len(tab.frames) == 1
    assert tab.evaluate("() => '  x  '.trim()") == "patched"


def test_element_calls_on_such_a_page_answer_too(tab: Page) -> None:
    tab.set_content(HOSTILE)
    names = call_on_elements(tab.locator("#go"), "names", None)
    assert isinstance(names, list) and names and "Login" in str(names[0])


def test_a_built_in_replaced_after_the_api_was_installed_is_noticed(tab: Page) -> None:
    tab.set_content(FORM)
    assert chosen_id(tab, find(tab, "Login")) == "go"
    assert realm_of(tab) == "page"  # nothing replaced: the page's own realm, no fresh one
    tab.wait_for_timeout(100)
    last_change = "() => (globalThis.__pacts_changes.flush(), globalThis.__pacts_changes.at)"
    quiet_since = tab.evaluate(last_change)
    tab.evaluate("() => { Array.prototype.map = function () { throw new TypeError('late'); }; }")
    assert chosen_id(tab, find(tab, "Cancel")) == "other"
    assert realm_of(tab) == "fresh"
    # the frame the fresh realm came from is no change of the page: the page is still quiet
    assert tab.evaluate(last_change) == quiet_since


# What Angular's zone.js replaces, keeping the contract: the global Promise, and the toString
# methods that make its replacements read as the browser's own
ZONE_LIKE = """
<script>
  window.Promise = class ZoneAwarePromise extends Promise {};
  const fnText = Function.prototype.toString;
  Function.prototype.toString = function () { return fnText.call(this); };
  const objText = Object.prototype.toString;
  Object.prototype.toString = function () { return objText.call(this); };
</script>
"""


def test_replacements_that_keep_the_contract_keep_the_page_realm(tab: Page) -> None:
    tab.set_content(ZONE_LIKE + FORM)
    assert chosen_id(tab, find(tab, "Login")) == "go"
    assert realm_of(tab) == "page"


# MooTools 1.4 replaces ``window.Event`` with its own wrapper type, which is no DOM event
MOOTOOLS_EVENT = """
<script>
  window.Event = function (event, win) {
    win = win || window; event = event || win.event;
    this.event = event; this.type = event.type; this.$extended = true;
  };
</script>
"""


def test_a_replaced_event_constructor_does_not_reach_the_gate(tab: Page) -> None:
    tab.set_content(MOOTOOLS_EVENT + FORM)
    assert chosen_id(tab, find(tab, "Login")) == "go"  # the gate threw here before


PROTOTYPE_FROM = f"<script>{PROTOTYPE_ARRAY_FROM}</script>"


def test_healing_scores_on_a_page_with_prototype_js_array_from(tab: Page) -> None:
    """Healing's similarity builds its table with ``Array.from({length}, fn)``: with
    Prototype.js's ``Array.from`` every row was ``undefined`` and the heal threw (seen with
    the real Prototype.js 1.7.3: ``bench/realapps/legacy_libraries.py``)."""
    from pytest_pacts.engine.healing.scoring import WEIGHTS
    from pytest_pacts.runtime.healing import pure_function

    tab.set_content(PROTOTYPE_FROM + "<form><button>Log in</button><button>Reset</button></form>")
    scores = tab.evaluate(
        pure_function("similarity").replace(
            "return await api.pure['similarity'](...args);", SIMILARITY_OF_TWO_BUTTONS
        ),
        [dict(WEIGHTS)],
    )
    assert scores[0] == pytest.approx(1.0) and scores[1] < 0.75


def test_without_a_fresh_realm_the_exception_is_a_clear_error(tab: Page) -> None:
    tab.set_content(NO_EVAL)
    with pytest.raises(PageScriptError) as caught:
        find(tab, "Login")
    message = str(caught.value)
    assert "in-page discovery scan failed inside the page's JavaScript" in message
    assert "TypeError: patched map" in message
    assert "replaced a JavaScript built-in" in message
    assert isinstance(caught.value, PlaywrightError)  # every browser-error handler catches it
    assert realm_of(tab) == "page"


def test_without_a_fresh_realm_an_element_call_fails_clearly(tab: Page) -> None:
    tab.set_content(NO_EVAL)
    with pytest.raises(PageScriptError, match=r"'names' call failed .*patched map"):
        call_on_elements(tab.locator("#go"), "names", None)


def test_closed_page_errors_stay_what_they_are(tab: Page) -> None:
    tab.set_content("<button id='go'>Login</button>")
    locator = tab.locator("#go")
    tab.close()
    with pytest.raises(PlaywrightError) as caught:
        call_on_elements(locator, "names", None)
    assert not isinstance(caught.value, PageScriptError)
