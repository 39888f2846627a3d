"""The response log keeps the JSON of watched responses within a total byte budget and a
depth limit (issue 36 items 4 and 6), in real Chromium on a fixture page.

A page's answers are outside input: 60 bodies of 1 MB each took 1.4 GB when the log kept up
to 200 of any size, and a 100,000-deep JSON array made the parser raise inside the listener,
so the response was dropped without a word ("no response ... has finished").
"""

from __future__ import annotations

import json

from playwright.sync_api import Page, Route

from pytest_pacts.engine.network import ResponseLog, lookup

from .helpers import Site

# its tests change the page itself: a new context per test (tests/tabs.py)
FRESH_CONTEXT = True

API = "http://pacts.test/api/"
BUDGET = 8 * 1024 * 1024  # network.MAX_LOG_BYTES, as docs/reference.md gives it
DEPTH = 200  # network.MAX_JSON_DEPTH


def _serve(tab: Page, bodies: dict[str, bytes]) -> None:
    def answer(route: Route) -> None:
        name = route.request.url.removeprefix(API)
        route.fulfill(status=200, body=bodies[name], content_type="application/json")

    tab.route(API + "**", answer)


def _fetch(tab: Page, log: ResponseLog, names: list[str]) -> None:
    """Fetch ``names`` in turn, then let Playwright deliver the log's last events (each
    listener reads its body through Playwright too): poll, bounded, until all are in."""
    tab.evaluate(
        "async (urls) => { for (const u of urls) { await (await fetch(u)).arrayBuffer(); } }",
        [API + n for n in names],
    )
    for _ in range(100):
        if len(log.entries) >= len(names):
            return
        tab.wait_for_timeout(50)


def test_bodies_past_the_budget_are_dropped_oldest_first_with_a_note(tab: Page, site: Site) -> None:
    size = 900 * 1024  # under the per-body limit (1 MiB)
    count = BUDGET // size + 3
    bodies = {
        f"part{i}": json.dumps({"n": i, "pad": "x" * (size - 30)}).encode() for i in range(count)
    }
    _serve(tab, bodies)
    tab.goto(site.add("p.html", "<h1>Parts</h1>"))
    log = ResponseLog(tab, [API + "*"], max_body_bytes=1024 * 1024)
    try:
        _fetch(tab, log, list(bodies))
    finally:
        log.detach()
    assert len(log.entries) == count
    kept = [e for e in log.entries if e.problem is None]
    assert sum(e.size or 0 for e in kept) <= BUDGET
    assert kept and kept[-1].url.endswith(f"part{count - 1}")  # the newest are kept
    first = lookup(log, API + "part0", "n", 0)
    assert not first.found
    assert "was dropped: the run keeps at most 8 MiB of response bodies" in first.why
    last = lookup(log, API + f"part{count - 1}", "n", 0)
    assert last.found and last.value == count - 1


def test_a_too_deep_body_says_so(tab: Page, site: Site) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    fair = json.dumps({"a": [[[[{"b": 1}]]]]}).encode()
    over = (b'{"a":' * (DEPTH + 1)) + b"1" + b"}" * (DEPTH + 1)
    _serve(tab, {"deep": deep, "fair": fair, "over": over})
    tab.goto(site.add("d.html", "<h1>Deep</h1>"))
    log = ResponseLog(tab, [API + "*"])
    try:
        _fetch(tab, log, ["deep", "fair", "over"])
    finally:
        log.detach()
    for name in ("deep", "over"):
        found = lookup(log, API + name, "a", 0)
        assert not found.found
        assert "its JSON is too deep (nested more than 200 levels)" in found.why, found.why
    fine = lookup(log, API + "fair", "a[0][0][0][0].b", 0)
    assert fine.found and fine.value == 1
