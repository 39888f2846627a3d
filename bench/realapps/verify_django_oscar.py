"""Check ``truth/django_oscar.yaml`` against the live shop: for every version, start it,
replay every requirement with plain Playwright by acting on the truth selectors themselves,
and report each element step whose selector does not resolve to exactly one visible element
at that moment, and each ``text_visible`` expectation the page does not meet (so the flows
are checked too against what the oldest version shows).

    .venv/bin/python bench/realapps/verify_django_oscar.py [VERSION ...]

Exit code 0 when every selector of every version held. Never used by the engine.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml
from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from realapps.apps.django_oscar import APP
from realapps.harness import offline_launch_options

_TEMPLATE = re.compile(r"\{\{\s*(env|vars)\.([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?\s*\}\}")
# the auth profile's login (flows/django_oscar.auth.yaml), on each version's own fields
_LOGIN = ("#id_login-username", "#id_login-password", "button[name=login_submit]")


def _resolve(text: str, variables: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        kind, name, default = match.groups()
        table = APP.env if kind == "env" else variables
        return str(table.get(name, default or ""))

    return _TEMPLATE.sub(one, text)


def _act(page: Page, selector: str, action: str, value: str) -> None:
    loc = page.locator(selector)
    if action == "fill":
        loc.fill(value)
    elif action == "click":
        loc.click()
    elif action == "select":
        loc.select_option(label=value)
    else:
        raise ValueError(f"unsupported action {action!r}")
    page.wait_for_load_state("load")


def _expect(page: Page, expected: str) -> str:
    """'' when a text expectation holds within 5 s, else what was missing."""
    kind, _, text = expected.partition(":")
    if kind not in ("text_visible", "navigates_to") or not text:
        return ""
    want = re.sub(r"\s+", " ", text).strip().lower()
    try:
        page.wait_for_function(
            "w => (document.title + ' ' + document.body.innerText).replace(/\\s+/g, ' ')"
            ".toLowerCase().includes(w)",
            arg=want,
            timeout=5_000,
        )
    except Exception:
        return f"{expected!r} not on {page.url}"
    return ""


def verify(version: str, flows: dict[str, Any], truth: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    variables = {k: str(v) for k, v in (flows.get("vars") or {}).items()}
    with APP.serve(version) as served, sync_playwright() as pw:
        browser = pw.chromium.launch(**offline_launch_options())  # type: ignore[arg-type]
        try:
            for req in flows["requirements"]:
                rid = req["req_id"]
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                if req.get("auth"):
                    page.goto(served.base_url + "accounts/login/")
                    page.fill(_LOGIN[0], APP.env["PACTS_OSCAR_EMAIL"])
                    page.fill(_LOGIN[1], APP.env["PACTS_OSCAR_PASSWORD"])
                    _act(page, _LOGIN[2], "click", "")
                page.goto(served.base_url + req["url"].lstrip("/"))
                for number, step in enumerate(req["steps"], start=1):
                    element, action, value, expected = [
                        part.strip() for part in [*step.split("|"), "", "", ""][:4]
                    ]
                    if element:
                        entry = truth.get(rid, {}).get(number)
                        if entry is None or version not in entry:
                            problems.append(f"{rid} step {number}: no truth for {version}")
                            break
                        selector = entry[version]
                        if selector is None:
                            print(f"  {version} {rid} step {number} {element!r}: null (gone)")
                            break
                        found = page.locator(selector)
                        count = found.count()
                        if count != 1 or not found.is_visible():
                            problems.append(f"{rid} step {number} ({element}): {selector!r} "
                                            f"matches {count}")  # fmt: skip
                            break
                        print(f"  ok {version} {rid} step {number} {element!r}: {selector}")
                        _act(page, selector, action, _resolve(value, variables))
                    elif action == "goto":
                        page.goto(served.base_url + value.lstrip("/"))
                    missing = _expect(page, _resolve(expected, variables))
                    if missing:
                        problems.append(f"{rid} step {number}: expectation {missing}")
                        break
                context.close()
                print(f"{version} {rid}: replayed", flush=True)
        finally:
            browser.close()
    return problems


def main(argv: list[str]) -> int:
    flows = yaml.safe_load(APP.flows.read_text())
    truth = yaml.safe_load(APP.truth.read_text())
    failed = False
    for version in argv or APP.versions:
        problems = verify(version, flows, truth)
        for line in problems:
            print(f"{version} FAIL {line}")
        print(f"{version}: {'ok' if not problems else f'{len(problems)} problem(s)'}")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
