"""A page's top document called through a DevTools session of the page's own (Chromium).

Playwright's ``Frame.evaluate`` runs each call through its evaluation script
(``UtilityScript``: arguments and answers serialized, handles kept), which its driver builds
in a new document's main world on the first ``evaluate`` there: one more round trip to the
browser, and that script compiled, before the call itself. A call whose argument is one
JSON string and whose answer is one (``healing.find_check_and_rank``) needs none of it: here
it is one ``Runtime.evaluate`` of the function applied to the argument, on a CDP session
kept for the page (made on the page's first such call: once per page, not per document).

Not used (:data:`UNAVAILABLE`, the caller then calls through Playwright as before) in a frame
other than the top one, in a browser without DevTools sessions (Firefox, WebKit), or when the
page threw (Playwright's call then reports the error as it always did). A session that
failed is forgotten, and made again on the next call.
"""

from __future__ import annotations

import json
import weakref

from playwright.sync_api import CDPSession, Frame
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.runtime import bounded, playwright_private

UNAVAILABLE = object()
"""What :func:`call_json` answers when it was not made: the caller calls through Playwright."""

# the page's session (its implementation object as the key), None: the browser has none
_sessions: weakref.WeakKeyDictionary[object, CDPSession | None] = weakref.WeakKeyDictionary()


def _session(frame: Frame, key: object) -> CDPSession | None:
    if key not in _sessions:
        try:
            _sessions[key] = frame.page.context.new_cdp_session(frame.page)
        except PlaywrightError:  # not Chromium (or the page is closing: Playwright then says so)
            _sessions[key] = None
    return _sessions[key]


OPENING = "opening the page's DevTools session"
"""What :func:`open_session` is for, as ``bounded.call`` is told: a browser call, once per page."""


def open_session(frame: Frame) -> None:
    """Make the page's session now, if it has none yet (one message, once per page), so that
    the round trip of the :func:`call_json` that follows is the call's own (a check's round
    trip is compared with how long the page has been quiet: ``gate.observed_settled``)."""
    key = playwright_private.identity(frame.page)
    if frame.parent_frame is None and key not in _sessions:
        bounded.call(frame, OPENING, _session, frame, key)


def call_json(frame: Frame, what: str, function: str, text: str) -> object:
    """``function(text)`` in ``frame``'s document (``function``: the source of a function of
    one string argument answering a value JSON can hold), in one round trip within the
    budget (``bounded.call``); :data:`UNAVAILABLE` where it cannot be called so."""
    if frame.parent_frame is not None:
        return UNAVAILABLE
    key = playwright_private.identity(frame.page)
    params = {
        "expression": f"({function})({json.dumps(text)})",
        "awaitPromise": True,
        "returnByValue": True,
    }

    def send() -> object:
        session = _session(frame, key)
        if session is None:
            return UNAVAILABLE
        try:
            answer = session.send("Runtime.evaluate", params)
        except PlaywrightError:
            _sessions.pop(key, None)
            raise
        if "exceptionDetails" in answer:
            return UNAVAILABLE
        return answer.get("result", {}).get("value")

    return bounded.call(frame, what, send)
