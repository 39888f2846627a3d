"""Check truth/flask_admin.yaml by hand-driving the flows with Playwright (no pytest-pacts).

For every version, every requirement of flows/flask_admin.req.yaml is replayed on a fresh
app, in file order on one served instance (as a corpus run does): each element step must
find exactly one element with its truth selector, and is then acted on with that selector
the way a person would (a native confirm is accepted, a hidden select is chosen through the
page). The steps' expected outcomes are checked loosely (text, value, checked, title/heading)
so a flow that cannot be done on a version shows up too.

    .venv/bin/python bench/realapps/flask_admin_verify.py [VERSION ...]
"""

from __future__ import annotations

import contextlib
import re
import sys
from pathlib import Path

import yaml
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, sync_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from realapps.apps.flask_admin import APP  # noqa: E402
from realapps.harness import offline_launch_options  # noqa: E402


def _rows(req: dict) -> list[tuple[str, str, str, str]]:
    rows = []
    for step in req["steps"]:
        parts = [p.strip() for p in step.split("|")] + ["", "", ""]
        rows.append((parts[0], parts[1], parts[2], parts[3]))
    return rows


def _body_text(page: Page) -> str:
    return re.sub(r"\s+", " ", page.locator("body").inner_text()).lower()


def _expect_ok(page: Page, loc: Locator | None, expected: str) -> bool:
    if not expected:
        return True
    kind, _, arg = expected.partition(":")
    want = re.sub(r"\s+", " ", arg).strip().lower()
    if kind == "text_visible":
        return want in _body_text(page)
    if kind == "text_hidden":
        return want not in _body_text(page)
    if kind == "navigates_to":
        heads = " ".join(page.locator("h1, h2, h3, h4, h5").all_inner_texts()).lower()
        return want in page.title().lower() or want in heads
    if kind == "url_contains":
        return arg in page.url
    if kind == "value" and loc is not None:
        return loc.input_value() == arg
    if kind in ("checked", "unchecked") and loc is not None:
        return loc.is_checked() == (kind == "checked")
    return True  # element_visible, count: judged by eye in the pacts runs


def _act(page: Page, loc: Locator, action: str, value: str) -> None:
    if action == "click":
        loc.click()
    elif action == "fill":
        loc.fill(value)
        loc.dispatch_event("keyup")
    elif action == "check":
        loc.check()
    elif action == "uncheck":
        loc.uncheck()
    elif action == "select":
        loc.select_option(label=value, force=True)
    elif action == "press":
        loc.press(value)
    elif action == "focus":
        loc.focus()
    else:
        raise ValueError(action)


def verify(version: str) -> int:
    flows = yaml.safe_load(APP.flows.read_text())["requirements"]
    truth = yaml.safe_load(APP.truth.read_text())
    problems = 0
    with APP.serve(version) as served, sync_playwright() as pw:
        browser = pw.chromium.launch(**offline_launch_options())  # type: ignore[arg-type]
        for req in flows:
            rid = req["req_id"]
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.set_default_timeout(8000)
            page = context.new_page()
            page.on("dialog", lambda d: d.accept())
            page.goto(served.base_url.rstrip("/") + req["url"])
            for n, (element, action, value, expected) in enumerate(_rows(req), start=1):
                loc = None
                if element:
                    sel = truth.get(rid, {}).get(n, {}).get(version, "<missing>")
                    if sel == "<missing>":
                        print(f"{version} {rid} step {n}: no truth entry for {element!r}")
                        problems += 1
                        break
                    if sel is None:
                        print(f"{version} {rid} step {n}: {element!r} is null here; skipped")
                        continue
                    loc = page.locator(sel)
                    with contextlib.suppress(PlaywrightError):
                        loc.first.wait_for(state="attached", timeout=5000)
                    count = loc.count()
                    if count != 1:
                        print(f"{version} {rid} step {n}: {sel!r} matches {count} elements")
                        problems += 1
                        break
                    _act(page, loc, action, value)
                page.wait_for_load_state()
                ok = False
                for _ in range(20):
                    if _expect_ok(page, loc, expected):
                        ok = True
                        break
                    page.wait_for_timeout(250)
                if not ok:
                    print(f"{version} {rid} step {n}: expected {expected!r} does not hold")
                    problems += 1
            context.close()
            print(f"{version} {rid}: checked")
        browser.close()
    return problems


def main(argv: list[str]) -> int:
    versions = argv or list(APP.versions)
    total = sum(verify(v) for v in versions)
    print(f"{total} problem(s)")
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
