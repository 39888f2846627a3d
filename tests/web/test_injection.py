"""No stored value becomes markup: every page of the dashboard, rendered with hostile values
in every field the store holds, has no element the values brought in (docs/observer.md,
"Threat model"). HTML escaping is the HTML standard's rule for text in elements and in
quoted attribute values; the templates' suffix (``.html.j2``) must not turn it off."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from playwright.sync_api import Browser, expect
from starlette.routing import Route

from .conftest import TOKEN, Filled, Server, make_project, serving
from .helpers import HOSTILE, HOSTILE_ID, HostileRecords, add_hostile_records
from .test_security import _sign_in

# The one script every page loads; any other script, any meta refresh, or any element with
# the hostile marker came from a value.
OWN_SCRIPT = "/static/pacts.js"


class Elements(HTMLParser):
    """Every start tag of a page, as a real HTML tokenizer sees it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag


def injected(html: str) -> list[str]:
    """The elements of ``html`` that a stored value brought in."""
    parser = Elements()
    parser.feed(html)
    parser.close()
    found = []
    for tag, attrs in parser.tags:
        if (
            "data-pwn" in attrs
            or (tag == "meta" and "http-equiv" in attrs)
            or (tag == "script" and attrs.get("src") != OWN_SCRIPT)
            or any(name.startswith("on") for name in attrs)
        ):
            found.append(f"<{tag} {attrs}>")
    return found


@pytest.fixture
def hostile(filled: Filled, tmp_path: Path) -> Iterator[tuple[Server, HostileRecords]]:
    project = make_project(tmp_path / "project")
    db = project / ".pacts" / "pacts.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(filled.db, db)
    records = add_hostile_records(str(db), project)
    with serving(str(db), project) as running:
        _sign_in(running)  # the signed-in pages show the most (review buttons, forms)
        yield running, records


def _urls(server: Server, records: HostileRecords) -> list[str]:
    """A URL for each GET route of the app, its path parameters filled with the hostile
    records (or hostile values); a route with a parameter not known here fails the test,
    so a new page cannot be left out."""
    values = {
        "run_id": [str(records.run_id)],
        "req_id": [quote(HOSTILE_ID, safe="")],
        "id": [str(records.pending_id), str(records.rejected_id)],
        "proposal_id": [str(records.pending_id), str(records.rejected_id)],
        "launch_id": [quote(HOSTILE_ID, safe="")],
        "position": ["0"],
        "name": [quote(records.artifact, safe="")],
    }
    urls = []
    for route in server.built.app.routes:
        if not isinstance(route, Route) or "GET" not in (route.methods or ()):
            continue
        paths = [route.path]
        for param in route.param_convertors:
            assert param in values, f"{route.path}: add hostile values for {{{param}}}"
            paths = [
                p.replace(f"{{{param}}}", v)
                .replace(f"{{{param}:int}}", v)
                .replace(f"{{{param}:path}}", v)
                for p in paths
                for v in values[param]
            ]
        urls += paths
    return urls


QUERY = urlencode(
    {k: HOSTILE for k in ("req_id", "session", "verdict", "status", "days", "offset", "since")}
)


def test_every_page_escapes_every_stored_value(
    hostile: tuple[Server, HostileRecords],
) -> None:
    server, records = hostile
    seen_html = 0
    for url in _urls(server, records):
        for full in (url, f"{url}?{QUERY}"):
            response = server.client.get(full)
            assert response.status_code < 500, (full, response.text[:500])
            if not response.headers.get("content-type", "").startswith("text/html"):
                continue
            seen_html += 1
            assert not injected(response.text), (full, injected(response.text))
    # the pages that show the stored values (not only error pages) were rendered
    for url in ("/", f"/runs/{records.run_id}", f"/proposals/{records.pending_id}"):
        page = server.client.get(url).text
        assert "data-pwn" in page and not injected(page), url  # shown, as text
    assert seen_html >= 20
    # the sign-in form's answer too
    wrong = server.client.post("/login", data={"token": HOSTILE})
    assert wrong.status_code == 401 and not injected(wrong.text)
    assert TOKEN not in wrong.text


@pytest.mark.parametrize(
    "path",
    [
        "/" + quote(HOSTILE, safe=""),
        "/" + quote(HOSTILE_ID, safe="/"),
        "/runs/" + quote(HOSTILE_ID, safe=""),
        "/api/x" + quote(HOSTILE_ID, safe=""),
    ],
)
def test_the_not_found_page_escapes_a_crafted_link(
    hostile: tuple[Server, HostileRecords], path: str
) -> None:
    server, _ = hostile
    response = server.client.get(path)
    assert response.status_code == 404
    if path.startswith("/api/"):  # JSON, never sniffed as HTML
        assert response.headers["content-type"] == "application/json"
        assert response.headers["x-content-type-options"] == "nosniff"
    else:
        assert response.headers["content-type"].startswith("text/html")
        assert "data-pwn" in response.text and not injected(response.text)


# What a browser would have made of an injected value: elements carrying the marker, a
# refresh, a script that is not ours, a title a script changed.
LIVE_INJECTED = """() => [
    ...document.querySelectorAll('[data-pwn], meta[http-equiv], script:not([src="/static/pacts.js"])')
].map(e => e.outerHTML.slice(0, 120)).concat(document.title === 'pwned' ? ['title'] : [])"""


def test_pages_in_a_browser_including_the_live_view_show_values_as_text(
    hostile: tuple[Server, HostileRecords], module_browser: Browser
) -> None:
    """The live view is filled by the page's script from the API (paths, keyword, pytest's
    output echoing the keyword), so it is checked in Chromium, as are the pages a visitor
    opens first."""
    server, records = hostile
    started = server.client.post(
        "/api/run",
        headers=server.auth,
        json={"paths": ["quick.req.yaml"], "keyword": HOSTILE, "session": "hostile"},
    )
    assert started.status_code == 202, started.text
    launch = started.json()
    deadline = time.monotonic() + 60
    while server.client.get(f"/api/launches/{launch['id']}").json()["running"]:
        assert time.monotonic() < deadline, "pytest -k with a bad expression did not end"
        time.sleep(0.2)
    context = module_browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        for path in (
            "/",
            f"/runs/{records.run_id}",
            f"/proposals/{records.pending_id}",
            launch["url"],
        ):
            page.goto(server.url + path)
            if path == launch["url"]:
                expect(page.get_by_test_id("live-state")).not_to_have_text("Loading")
                expect(page.get_by_test_id("live-meta")).to_contain_text("data-pwn")
            else:
                expect(page.locator("main")).to_contain_text("data-pwn")  # shown as text
            page.wait_for_timeout(300)  # a refresh of 0 s would have left by now
            assert page.url == server.url + path
            assert page.evaluate(LIVE_INJECTED) == [], path
    finally:
        context.close()
