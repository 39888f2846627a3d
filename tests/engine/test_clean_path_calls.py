"""The clean path's reads of the element, counted (issue 40 item 3: the warm clean path).

A warm step (its locator cached, its element there) makes the calls its checks need and no
more: each read of the element is a round trip, on every step of every run
(``bench/bench_overhead.py --scripts`` counts them on the demo). Counted here as the engine
makes them (``bounded.call``), in a warm run of a small form: the fill reads its field's kind
(set by steps? a date?) in one call. A click's guard (``pointer_guard``) is read back
through the element, as before: read from the frame's window instead (one call), the guard's
verdict was kept where the element's read had lost it, and the retry that followed acted on
a wrong pick (docs/benchmarks.md, "Execution overhead", 2026-11-30 evening). A click that set
off a navigation of the page is the exception: its element's document is gone or going, and
the guard is read from the window in one call.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_pacts.models.locator import DiscoveryResult

from .helpers import Site, plan, run

FORM = """<form action="sent.html"><label>Name <input id="name"></label>
<label>Size <select id="size"><option>Small</option><option>Large</option></select></label>
<button id="send">Send</button></form>"""

READS = ("reading the element",)


@pytest.fixture
def calls(page_calls: list[str]) -> list[str]:
    """What each page call was for, in order (the suite's ``page_calls``)."""
    return page_calls


def reads_in(calls: list[str], action: str) -> list[str]:
    """The reads of the element made within the action's own call (they follow it)."""
    start = calls.index(action) + 1
    end = next((i for i in range(start, len(calls)) if calls[i] not in READS), len(calls))
    return calls[start:end]


def test_a_warm_step_reads_its_element_once_per_question(
    tab: Page, site: Site, calls: list[str]
) -> None:
    url = site.add("clean-form.html", FORM)
    site.add("sent.html", "<h1>Sent</h1>")
    p = plan(
        url,
        ("fill", "Name", "Ada"),
        ("select", "Size", "Large"),
        ("click", "Send", "", "text_visible:Sent"),
    )
    pom: dict[int, DiscoveryResult] = {}
    assert run(tab, p, on_discovered=pom.__setitem__).verdict == "pass"
    calls.clear()
    record = run(tab, p, pom=dict(pom))  # warm: no discovery
    assert record.verdict == "pass"
    # the field's kind (set by steps, a date), then the End key's field and its value
    assert reads_in(calls, "fill") == ["reading the element"] * 3  # before: 4
    assert reads_in(calls, "select") == ["reading the element"] * 2  # its kind, its option
    # the guard set, then, as the click set off a navigation, read from the window (the
    # element's document is gone: before, read back through the element, then through the
    # locator again in the new document, whose window has no guard: 3 reads)
    assert reads_in(calls, "click") == ["reading the element"]
    after = calls.index("click") + 2
    assert calls[after : after + 1] == ["reading the click's guard"]
