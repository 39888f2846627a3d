"""A page whose scripts replaced JavaScript built-ins the in-page code relies on.

The in-page scan still runs in the page's own JavaScript world (see docs/discovery.md, known
limits); an exception it throws there is a ``PageScriptError`` that says what happened, never
a bare ``Frame.evaluate: TypeError`` from deep inside the scan.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.discovery._js import PageScriptError, call_on_elements

from .helpers import find

HOSTILE = """
<script>
  Array.prototype.map = function () { throw new TypeError('patched map'); };
</script>
<form><button id="go">Login</button></form>
"""


def test_page_exception_in_the_scan_is_a_clear_error(tab: Page) -> None:
    tab.set_content(HOSTILE)
    with pytest.raises(PageScriptError) as caught:
        find(tab, "Login")
    message = str(caught.value)
    assert "in-page discovery scan failed inside the page's JavaScript" in message
    assert "TypeError: patched map" in message
    assert "replaced a JavaScript built-in" in message
    assert isinstance(caught.value, PlaywrightError)  # every browser-error handler catches it


def test_page_exception_in_an_element_call_is_a_clear_error(tab: Page) -> None:
    tab.set_content(HOSTILE)
    with pytest.raises(PageScriptError, match=r"'names' call failed .*patched map"):
        call_on_elements(tab.locator("#go"), "names", None)


def test_closed_page_errors_stay_what_they_are(tab: Page) -> None:
    tab.set_content("<button id='go'>Login</button>")
    locator = tab.locator("#go")
    tab.close()
    with pytest.raises(PlaywrightError) as caught:
        call_on_elements(locator, "names", None)
    assert not isinstance(caught.value, PageScriptError)
