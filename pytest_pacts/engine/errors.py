"""A Playwright error, read as a typed failure: a dead server, a crashed page, a page that
stopped answering, a script of ours the page broke, a timeout or an element that went away.

Only the first line of Playwright's message is kept; the run's monitor (``engine/env.py``)
adds what it heard happen in the page (``blame_environment``).
"""

from __future__ import annotations

import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.scripts import PageScriptError

# a connection the server refused or dropped (Chromium's net error names)
REFUSED = re.compile(
    r"ERR_(CONNECTION_REFUSED|CONNECTION_RESET|CONNECTION_CLOSED|EMPTY_RESPONSE|"
    r"NAME_NOT_RESOLVED|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED|CONNECTION_FAILED)"
)
CRASHED = re.compile(r"crash", re.I)
CLOSED = re.compile(r"has been closed|Target closed|Browser closed|Connection closed", re.I)


# long because: a table of Playwright's error kinds to typed failures, checked in order
def classify_error(exc: Exception, what: str, step_index: int | None) -> Failure:
    """A Playwright error raised while doing ``what`` (e.g. "click", "navigate to /x"), as a
    typed failure. Only the first line of Playwright's message is kept: its call log is
    plugin internals to the person reading the report."""
    text = str(exc)
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    if isinstance(exc, bounded.PageUnresponsive) or bounded.MESSAGE in text:
        hang = exc.hang.evidence if isinstance(exc, bounded.PageUnresponsive) else first
        return Failure(
            type=FailureType.ENV_FAULT,
            message=bounded.MESSAGE,
            step_index=step_index,
            cause="page_unresponsive",
            evidence=(hang, f"while: {what}"),
        )
    if isinstance(exc, PageScriptError):
        return Failure(
            type=FailureType.ENV_FAULT,
            message=f"{what}: {first}",
            step_index=step_index,
            cause="page_script",
            evidence=(first,),
        )
    refused = REFUSED.search(text)
    if refused:
        return Failure(
            type=FailureType.ENV_FAULT,
            message=f"{what}: the server refused the connection ({refused[0]})",
            step_index=step_index,
            cause="connection_refused",
            evidence=(first,),
        )
    if CRASHED.search(text) or CLOSED.search(text):
        return Failure(
            type=FailureType.ENV_FAULT,
            message=f"{what}: the browser page crashed or was closed",
            step_index=step_index,
            cause="crash",
            evidence=(first,),
        )
    if isinstance(exc, PlaywrightTimeout):
        return Failure(
            type=FailureType.TIMEOUT,
            message=f"{what}: timed out",
            step_index=step_index,
            evidence=(first,),
        )
    if "detached" in text or "not attached" in text:
        return Failure(
            type=FailureType.DETACHED,
            message=f"{what}: the element was removed from the page",
            step_index=step_index,
            evidence=(first,),
        )
    return Failure(
        type=FailureType.TIMEOUT,
        message=f"{what}: {first}",
        step_index=step_index,
        evidence=(first,),
    )
