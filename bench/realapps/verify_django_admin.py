"""Check ``truth/django_admin.yaml`` against the live app: for every version, start the app,
replay every requirement by acting on the truth selectors themselves, and report each
element step whose selector does not resolve to exactly one element at that moment.

    .venv/bin/python bench/realapps/verify_django_admin.py [VERSION ...]

Exit code 0 when every selector of every version held. Never used by the engine.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml
from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from realapps.apps.django_admin import APP
from realapps.harness import offline_launch_options

_TEMPLATE = re.compile(r"\{\{\s*(env|vars)\.([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?\s*\}\}")


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
    elif action == "check":
        loc.check()
    elif action == "select":
        loc.select_option(label=value)
    elif action == "focus":
        loc.focus()
    else:
        raise ValueError(f"unsupported action {action!r}")
    page.wait_for_load_state("load")


def verify(version: str, flows: dict, truth: dict) -> list[str]:
    problems: list[str] = []
    variables = {k: str(v) for k, v in (flows.get("vars") or {}).items()}
    with APP.serve(version) as served, sync_playwright() as pw:
        browser = pw.chromium.launch(**offline_launch_options())  # type: ignore[arg-type]
        try:
            for req in flows["requirements"]:
                rid = req["req_id"]
                context = browser.new_context()
                page = context.new_page()
                if req.get("auth"):  # the auth profile's login, on the truth selectors
                    page.goto(served.base_url + "admin/login/")
                    page.fill("#id_username", APP.env["PACTS_DJANGO_USER"])
                    page.fill("#id_password", APP.env["PACTS_DJANGO_PASSWORD"])
                    _act(page, "#login-form input[type=submit]", "click", "")
                page.goto(served.base_url + req["url"].lstrip("/"))
                for number, step in enumerate(req["steps"], start=1):
                    element, action, value, _expected = [
                        part.strip() for part in [*step.split("|"), "", "", ""][:4]
                    ]
                    entry = truth.get(rid, {}).get(number)
                    if not element:
                        continue
                    if entry is None or version not in entry:
                        problems.append(f"{rid} step {number}: no truth for {version}")
                        break
                    selector = entry[version]
                    if selector is None:
                        break
                    count = page.locator(selector).count()
                    if count != 1:
                        problems.append(
                            f"{rid} step {number} ({element}): {selector!r} matches {count}"
                        )
                        break
                    _act(page, selector, action, _resolve(value, variables))
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
