"""Replay the MLflow flows on their truth selectors and report, per step, how many elements
each truth selector matches at the moment the step acts (it must be exactly 1).

    python bench/realapps/mlflow_truth_check.py VERSION [--base-url URL] [--req REQ-ID]

Without ``--base-url`` the app is started fresh (``APP.serve``). A ``null`` truth is not
acted on (the flow goes on from the same page), so later steps are checked on the page the
truth path reaches.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

import yaml
from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from realapps.apps.mlflow import APP  # noqa: E402
from realapps.harness import offline_launch_options  # noqa: E402


def steps_of(req: dict) -> list[tuple[str, str, str, str]]:
    rows = []
    for raw in req["steps"]:
        cells = [c.strip() for c in raw.split("|")] + ["", "", ""]
        rows.append((cells[0], cells[1], cells[2], cells[3]))
    return rows


def replay(base: str, version: str, only: str | None) -> int:
    flows = yaml.safe_load(APP.flows.read_text())["requirements"]
    truth = yaml.safe_load(APP.truth.read_text())
    bad = 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**offline_launch_options())  # type: ignore[arg-type]
        for req in flows:
            rid = req["req_id"]
            if only and rid != only:
                continue
            context = browser.new_context(viewport={"width": 1400, "height": 900})
            page = context.new_page()
            page.goto(base.rstrip("/") + req["url"])
            with contextlib.suppress(Exception):
                page.wait_for_load_state("networkidle", timeout=20000)
            page.wait_for_timeout(2000)
            for n, (target, action, value, _expected) in enumerate(steps_of(req), 1):
                if not target:
                    page.wait_for_timeout(1500)
                    continue
                entry = truth.get(rid, {}).get(n, {})
                if version not in entry:
                    print(f"{rid} {n}: MISSING truth for {version}")
                    bad += 1
                    continue
                selector = entry[version]
                if selector is None:
                    print(f"{rid} {n}: null ({target} | {action})")
                    continue
                loc = page.locator(selector)
                with contextlib.suppress(Exception):
                    loc.first.wait_for(state="attached", timeout=8000)
                count = loc.count()
                status = "ok" if count == 1 else "BAD"
                bad += count != 1
                print(f"{rid} {n}: {status} count={count} {selector!r} ({target} | {action})")
                if count != 1:
                    continue
                try:
                    if action == "click":
                        loc.click(timeout=5000)
                    elif action == "fill":
                        loc.fill(value, timeout=5000)
                    elif action == "press":
                        loc.press(value, timeout=5000)
                    elif action == "check":
                        loc.check(force=True, timeout=5000)
                    elif action == "uncheck":
                        loc.uncheck(force=True, timeout=5000)
                    elif action == "hover":
                        loc.hover(timeout=5000)
                except Exception as exc:  # report and go on: the count is what is checked
                    print(f"    action failed: {str(exc).splitlines()[0]}")
                page.wait_for_timeout(1500)
            context.close()
        browser.close()
    print(f"{version}: {bad} problem(s)")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("version")
    parser.add_argument("--base-url")
    parser.add_argument("--req")
    args = parser.parse_args()
    if args.base_url:
        return replay(args.base_url, args.version, args.req)
    with APP.serve(args.version) as served:
        return replay(served.base_url, args.version, args.req)


if __name__ == "__main__":
    raise SystemExit(main())
