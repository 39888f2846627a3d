"""Playwright's private attributes the runtime reads are still there, and do what it takes
them for (``runtime/playwright_private.py``).

Without them the runtime keeps working the slow way: no call sent ahead, and no deadline on a
call into a page, so a hung page would stop the run. Nobody would notice that from a run; this
test says it, naming the Playwright version, on the first upgrade that renames them.
"""

from __future__ import annotations

import asyncio

from playwright.sync_api import Page

from pytest_pacts.runtime import playwright_private as private


def test_playwright_has_the_private_attributes_the_runtime_reads(tab: Page) -> None:
    tab.set_content("<button>Buy</button>")
    session = tab.context.new_cdp_session(tab)
    try:
        gone = private.missing(
            page=tab, frame=tab.main_frame, locator=tab.locator("button"), cdp_session=session
        )
        assert not gone, private.missing_message(gone)
        # ... and they are what the runtime takes them for
        loop = private.event_loop(tab)
        assert isinstance(loop, asyncio.AbstractEventLoop) and private.can_run(tab)
        assert private.identity(tab) is private.identity(tab.main_frame.page)
        frame = private.impl(tab.main_frame)
        assert frame is not None
        assert private.run(tab, frame.evaluate("() => 6 * 7", None)) == 42
        button = private.impl(tab.locator("button"))
        assert button is not None
        assert private.run(tab, button.count()) == 1
        assert private.run(tab, private.bounding_box(button, 1000)) is not None
        cdp = private.impl(session)
        answer = private.run(
            tab, private.cdp_send(cdp, "Runtime.evaluate", {"expression": "1 + 1"})
        )
        assert answer["result"]["value"] == 2
    finally:
        session.detach()


def test_a_missing_attribute_is_named_with_the_playwright_version() -> None:
    gone = private.missing(page=object(), locator=object())
    assert gone == ["page._impl_obj", "page._loop", "page._sync", "locator._impl_obj"]
    message = private.missing_message(gone)
    assert f"Playwright {private.playwright_version()} has no page._impl_obj" in message
    assert "runtime/playwright_private.py" in message
    assert private.event_loop(object()) is None and not private.can_run(object())
    assert private.identity(tab := object()) is tab
