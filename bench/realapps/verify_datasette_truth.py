"""Check truth/datasette.yaml: replay every Datasette flow on every version with plain
Playwright, acting on each element step through its truth selector, and report every
selector that does not resolve to exactly one visible element at the moment of its step.

    .venv/bin/python bench/realapps/verify_datasette_truth.py [VERSION ...]

Exit status 0 when every selector of every version checked resolves to exactly one element.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml
from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from realapps.apps.datasette import APP
from realapps.harness import offline_launch_options


def parse_step(step: object) -> tuple[str, str, str, str]:
    if isinstance(step, dict):
        return (
            str(step.get("element") or ""),
            str(step.get("action") or ""),
            str(step.get("value") or ""),
            str(step.get("expected") or ""),
        )
    cells = [c.strip() for c in str(step).split("|")]
    cells += [""] * (4 - len(cells))
    return cells[0], cells[1], cells[2], cells[3]


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def wait_text(page: Page, expected: str) -> None:
    """Follow the flow's text_visible / url_contains expectations, so that the next step's
    selector is checked on the page the step really sees."""
    if expected.startswith("text_visible:"):
        want = fold(expected.split(":", 1)[1])
        page.wait_for_function(
            "w => document.body && document.body.innerText.replace(/\\s+/g, ' ')"
            ".toLowerCase().includes(w)",
            arg=want,
            timeout=10_000,
        )
    elif expected.startswith("url_contains:"):
        part = expected.split(":", 1)[1]
        page.wait_for_url(lambda url: part in url, timeout=10_000)


def act(page: Page, selector: str, action: str, value: str) -> None:
    loc = page.locator(selector)
    if action == "click":
        loc.click()
    elif action == "fill":
        # Focus, not click: CodeMirror 5's input textarea sits under the rendered lines.
        loc.focus()
        page.keyboard.press("Control+A")
        loc.fill(value)
    elif action == "select":
        loc.select_option(label=value)
    elif action == "press":
        loc.press(value)
    else:
        raise ValueError(f"no replay for action {action!r}")
    page.wait_for_load_state()


def check_version(version: str, flows: list[dict], truth: dict) -> list[str]:
    problems: list[str] = []
    with APP.serve(version) as served, sync_playwright() as pw:
        browser = pw.chromium.launch(**offline_launch_options())  # type: ignore[arg-type]
        for req in flows:
            rid = req["req_id"]
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(served.base_url.rstrip("/") + req["url"])
            for n, raw in enumerate(req["steps"], start=1):
                element, action, value, expected = parse_step(raw)
                if element and action not in ("goto", "wait", "use"):
                    selector = truth.get(rid, {}).get(n, {}).get(version, "missing")
                    if selector == "missing":
                        problems.append(f"{version} {rid} step {n}: no truth entry")
                        break
                    if selector is None:
                        problems.append(f"{version} {rid} step {n}: null, flow cannot go on")
                        break
                    page.wait_for_timeout(300)
                    count = page.locator(selector).count()
                    visible = count == 1 and page.locator(selector).is_visible()
                    status = "ok" if visible else "BAD"
                    print(f"  {status} {version} {rid} step {n} {element!r}: {selector} x{count}")
                    if not visible:
                        problems.append(f"{version} {rid} step {n}: {selector} x{count}")
                        break
                    try:
                        act(page, selector, action, value)
                    except Exception as exc:
                        problems.append(f"{version} {rid} step {n}: {action} failed: {exc}")
                        break
                try:
                    wait_text(page, expected)
                except Exception as exc:
                    problems.append(f"{version} {rid} step {n}: expectation {expected}: {exc}")
                    break
            page.close()
        browser.close()
    return problems


def main(argv: list[str]) -> int:
    flows = yaml.safe_load(APP.flows.read_text())["requirements"]
    truth = yaml.safe_load(APP.truth.read_text())
    problems: list[str] = []
    for version in argv or APP.versions:
        problems += check_version(version, flows, truth)
    for p in problems:
        print("PROBLEM", p)
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
