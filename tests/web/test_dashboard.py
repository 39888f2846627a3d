"""The dashboard in a real Chromium against the real server: pages render with no console
errors and review works with the GO / NOT GO confirmation (on SQLite and PostgreSQL), and
the live view follows a run started from the UI (whose session then refuses a second run
with SESSION_CONFLICT)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import REQ, TOKEN, Filled, serving
from .helpers import add_major_proposal


@pytest.fixture
def page(module_browser: Browser) -> Iterator[Page]:
    context = module_browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    tab = context.new_page()
    problems: list[str] = []
    tab.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda error: problems.append(str(error)))
    yield tab
    context.close()
    assert not problems, f"console errors: {problems}"


@pytest.fixture
def store_copy(filled: Filled, tmp_path: Path) -> str:
    db = tmp_path / "pacts.db"
    db.write_bytes(filled.db.read_bytes())
    return str(db)


def _sign_in(page: Page, url: str) -> None:
    page.goto(url + "/login")
    page.get_by_label("Token").fill(TOKEN)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text("Signed in: can review and run")).to_be_visible()


# Whether a picture loads (the card is visible before its picture has arrived): waits for
# its load or error event, at most 10 s.
LOADED = """img => img.complete ? img.naturalWidth > 0 : new Promise(done => {
    img.addEventListener("load", () => done(img.naturalWidth > 0));
    img.addEventListener("error", () => done(false));
    setTimeout(() => done(false), 10000);
})"""


def test_pages_render(page: Page, store_target: str, filled: Filled) -> None:
    with serving(store_target, filled.project) as server:
        page.goto(server.url + "/")
        rows = page.get_by_test_id("runs-table").locator("tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.first.locator(".badge")).to_have_text("Pass · healed")
        expect(rows.last.locator(".badge")).to_have_text("Pass")

        rows.first.get_by_role("link", name=re.compile(r"^#\d+$")).click()
        expect(page.get_by_test_id("verdict")).to_have_text("Pass · healed")
        steps = page.get_by_test_id("steps-table").locator("tbody tr")
        expect(steps).to_have_count(5)
        expect(steps.first).to_contain_text("Username@LoginForm")
        expect(steps.first.locator(".gate .point.ok")).to_have_count(5)
        cards = page.get_by_test_id("heal-card")
        expect(cards.first).to_be_visible()
        image = cards.first.locator("img").first
        expect(image).to_be_visible()
        assert image.evaluate(LOADED), "the heal card's picture did not load"
        expect(cards.first.locator("figcaption")).to_have_text(
            "The healed element, highlighted (the heal only read the page)"
        )
        expect(page.get_by_test_id("proposals-table").locator("tbody tr").first).to_contain_text(
            "Pending"
        )

        page.goto(server.url + "/trends")
        chart = page.get_by_test_id("runs-chart")
        expect(chart).to_be_visible()
        assert chart.locator("rect.passed").count() == 7 * 2  # 14 days by default
        expect(page.get_by_test_id("heal-rates")).to_contain_text(REQ)
        expect(page.get_by_test_id("heal-rates")).to_contain_text("50%")

        page.goto(server.url + "/proposals")
        expect(page.get_by_test_id("proposals-table").locator("tbody tr")).to_have_count(
            len(server.client.get("/api/proposals?status=pending").json()["proposals"])
        )
        page.goto(server.url + f"/requirements/{REQ}")
        expect(page.get_by_role("heading", name=REQ)).to_be_visible()


def test_review_accept_reject_and_go(page: Page, store_target: str, filled: Filled) -> None:
    major = add_major_proposal(store_target)
    with serving(store_target, filled.project) as server:
        pending = server.client.get("/api/proposals?status=pending").json()["proposals"]
        minor = [p["id"] for p in pending if not p["major"]]
        page.goto(server.url + f"/proposals/{minor[0]}")
        expect(page.get_by_test_id("accept")).to_have_count(0)  # read only before signing in
        _sign_in(page, server.url)

        page.goto(server.url + f"/proposals/{minor[-1]}")
        # what the heal changed, in words (issue 39: old and new locators could read the same)
        expect(page.get_by_test_id("change")).not_to_have_text("-")
        page.get_by_label("Your name").fill("Ada QA")
        page.get_by_test_id("accept").click()
        expect(page.get_by_test_id("review-result")).to_contain_text(f"recipe {REQ} v001 -> v002")
        expect(page.get_by_test_id("proposal-status")).to_have_text("Accepted")
        # the page shows the state after the accept: every version it wrote and the diff of
        # what it wrote, not the v001 -> v002 suggestion made before it (issue 39)
        expect(page.get_by_test_id("written")).to_contain_text(f"{REQ} v002")
        expect(page.get_by_test_id("written-diff")).to_contain_text(f"recipes/{REQ}/v002")
        expect(page.get_by_role("heading", name="Suggested diff")).to_have_count(0)
        shots = os.environ.get("PACTS_SCREENSHOTS")
        if shots:  # a person looks at it (tests/web: PACTS_SCREENSHOTS=folder)
            page.screenshot(path=str(Path(shots) / "dashboard-review.png"), full_page=True)
        accepted = server.client.get(f"/api/proposals/{minor[-1]}").json()
        assert accepted["summary"]["decided_by"] == "Ada QA"

        page.goto(server.url + f"/proposals/{minor[0]}")
        expect(page.get_by_label("Your name")).to_have_value("Ada QA")  # remembered
        page.get_by_label("Reason for rejecting").fill("a test build's ids")
        page.get_by_test_id("reject").click()
        expect(page.get_by_test_id("proposal-status")).to_have_text("Rejected")
        expect(page.get_by_text("reason: a test build's ids")).to_be_visible()

        page.goto(server.url + f"/proposals/{major}")
        page.get_by_test_id("accept").click()
        dialog = page.get_by_test_id("go-dialog")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("navigates_to:Cart")
        dialog.get_by_test_id("not-go").click()
        expect(page.get_by_test_id("review-result")).to_contain_text("NOT GO")
        expect(page.get_by_test_id("proposal-status")).to_have_text("Pending")
        page.get_by_test_id("accept").click()
        dialog.get_by_label("Type GO").fill("GO")
        dialog.get_by_test_id("go").click()
        expect(page.get_by_test_id("proposal-status")).to_have_text("Accepted")
        decided = server.client.get(f"/api/proposals/{major}").json()
        assert decided["summary"]["decided_by"] == "Ada QA"


def test_live_view_follows_a_run_started_from_the_ui(
    page: Page, store_copy: str, filled: Filled
) -> None:
    with serving(store_copy, filled.project) as server:
        _sign_in(page, server.url)
        page.goto(server.url + "/live")
        page.get_by_label("Paths (one per line, relative to the project)").fill("quick.req.yaml")
        page.get_by_role("button", name="Run").click()
        page.wait_for_url(re.compile(r"/live/[\w-]+$"))
        launch_id = page.url.rsplit("/", 1)[1]
        # the session's run is in flight: a second one is refused
        second = server.client.post(
            "/api/run", headers=server.auth, json={"paths": ["quick.req.yaml"]}
        )
        assert second.status_code == 409, second.text
        assert second.json()["error"] == "SESSION_CONFLICT"
        assert launch_id in second.json()["message"]

        state = page.get_by_test_id("live-state")
        expect(state).to_have_text(re.compile(r"^\s*(Passed|Finished.*)\s*$"), timeout=180_000)
        if state.inner_text().strip() != "Passed":  # say why: the run's own output
            answer = server.client.get(f"/api/launches/{launch_id}", headers=server.auth).json()
            pytest.fail(f"the run failed: {state.inner_text()}\n" + "\n".join(answer["output"]))
        row = page.get_by_test_id("live-runs").locator("tbody tr")
        expect(row).to_have_count(1)
        expect(row).to_contain_text("REQ-QUICK-001")
        expect(row.locator("ol.steps li")).to_have_count(3)
        expect(page.get_by_test_id("live-output")).to_contain_text("1 passed")
        view = server.client.get(f"/api/launches/{launch_id}").json()
        assert view["exit_code"] == 0 and view["runs"][0]["session"] == "web.default"
        again = server.client.post(
            "/api/run", headers=server.auth, json={"paths": ["quick.req.yaml"], "keyword": "NONE"}
        )
        assert again.status_code == 202  # the guard was released when the run ended
        server.built.observer.launcher.stop_all()
