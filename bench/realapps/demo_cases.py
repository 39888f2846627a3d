"""Element-level cases from the bundled demo app's two releases, in the corpus format.

Run: ``.venv/bin/python bench/realapps/demo_cases.py [--out bench/realapps/out]``.

Writes ``out/demo/<release>/cases.jsonl`` and one MHTML snapshot per case (Chromium's
``Page.captureSnapshot`` over CDP), the same format ``run_corpus.py`` writes for the corpus
apps (README.md, "Element-level cases"), so ``bench_peers.py`` can be built and checked
before the corpus exists. The flows are the sample requirements (``sample_requirements/``:
REQ-CART-001, REQ-CHECKOUT-001 with the SignIn and AddToCart blocks expanded in place, and
REQ-WIDGETS-001); step N is the N-th step of the expanded requirement.

Each flow is driven with Playwright through the hand-written truth selector of its release
(below): before a step acts, the page is saved as it is; then the step's action is done on
the truth element so the next step meets the state it would meet in a real run. A snapshot
whose truth selector does not resolve to exactly one visible element when the MHTML is
loaded again is left out and named (MHTML keeps neither open shadow roots nor ``:hover``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from pytest_pacts.browser import launch_options
from pytest_pacts.demo_app import DemoServer
from pytest_pacts.discovery import register_bridge

HERE = Path(__file__).resolve().parent
PW = "secret_sauce"
FRAME = "iframe[title='Payment'] >> internal:control=enter-frame >> "


@dataclass(frozen=True)
class Step:
    n: int
    element: str | None
    region: str | None
    action: str
    truth: dict[str, str] | None  # release -> selector; None: no element
    value: str | None = None


def sign_in(first: int) -> list[Step]:
    return [
        Step(first, "Username", "LoginForm", "fill", {"v1": "#user-name", "v2": "#username-input"},
             "standard_user"),
        Step(first + 1, "Password", "LoginForm", "fill",
             {"v1": "#password", "v2": "#password-input"}, PW),
        Step(first + 2, "Login", "LoginForm", "click",
             {"v1": "#login-button", "v2": "#login-button"}),
    ]  # fmt: skip


def add_to_cart(n: int, product: str, pid: str) -> Step:
    truth = {"v1": f"#add-to-cart-{pid}", "v2": f"[data-test='add-to-cart-{pid}']"}
    return Step(n, "Add to cart", product, "click", truth)


CART = {"v1": "a.shopping_cart_link", "v2": "a.cart-link"}
TODO = "#tasks li:has(span:text-is('{}')) input[type=checkbox]"

FLOWS: dict[str, tuple[str, list[Step]]] = {
    "REQ-CART-001": ("/", [
        *sign_in(1),
        Step(4, "Sort products", None, "select", {"v1": "#sort", "v2": "#sort-select"},
             "Price (low to high)"),
        add_to_cart(5, "Sauce Labs Backpack", "sauce-labs-backpack"),
        add_to_cart(6, "Sauce Labs Bike Light", "sauce-labs-bike-light"),
        Step(7, "Shopping cart", None, "click", CART),
    ]),
    "REQ-CHECKOUT-001": ("/", [
        *sign_in(1),
        add_to_cart(4, "Sauce Labs Backpack", "sauce-labs-backpack"),
        Step(5, "Shopping cart", None, "click", CART),
        Step(6, "Checkout", None, "click", {"v1": "#checkout", "v2": "#checkout-btn"}),
        Step(7, "First Name", None, "focus", {"v1": "#first-name", "v2": "#firstName"}),
        Step(8, "First Name", None, "fill", {"v1": "#first-name", "v2": "#firstName"}, "Ada"),
        Step(9, "Last Name", None, "type", {"v1": "#last-name", "v2": "#lastName"}, "Lovelace"),
        Step(10, "Zip/Postal Code", None, "fill", {"v1": "#postal-code", "v2": "#postalCode"},
             "10115"),
        Step(11, "Zip/Postal Code", None, "press", {"v1": "#postal-code", "v2": "#postalCode"},
             "Enter"),
        Step(12, "Finish", None, "click", {"v1": "#finish", "v2": "#place-order"}),
    ]),
    "REQ-WIDGETS-001": ("/widgets.html", [
        Step(2, "Accept cookies", None, "click",
             {"v1": "#accept-cookies", "v2": "#consent-accept"}),
        Step(3, "Account", "Hover menu", "hover",
             {"v1": "#account-button", "v2": "#account-dropdown > button"}),
        Step(4, "Settings", "Hover menu", "click",
             {"v1": "#menu-settings",
              "v2": "#account-dropdown [role=menuitem]:text-is('Settings')"}),
        Step(5, "Shipping method", None, "select", {"v1": "#shipping", "v2": "#shipping-method"},
             "Express"),
        Step(6, "checkbox", "Buy milk", "check", {"v1": "#todo-1", "v2": TODO.format("Buy milk")}),
        Step(7, "checkbox", "Walk the dog", "check",
             {"v1": "#todo-2", "v2": TODO.format("Walk the dog")}),
        Step(8, "checkbox", "Buy milk", "uncheck",
             {"v1": "#todo-1", "v2": TODO.format("Buy milk")}),
        Step(9, "I agree to the terms", None, "check", {"v1": "#agree-terms", "v2": "#terms"}),
        Step(10, "Email", "Newsletter", "fill",
             {"v1": "#nl-email", "v2": "#newsletter-email"}, "ada@example.test"),
        Step(11, "Subscribe", "Newsletter", "click",
             {"v1": "#nl-subscribe", "v2": "pacts-newsletter .nl__actions button"}),
        Step(12, "Card number", "Payment", "fill",
             {"v1": FRAME + "#card-number", "v2": FRAME + "#cc-number"}, "4242 4242 4242 4242"),
        Step(13, "Pay now", "Payment", "click",
             {"v1": FRAME + "#pay-now", "v2": FRAME + "#pay-btn"}),
        Step(14, "Submit", "Contact form", "hover",
             {"v1": "#contact-submit", "v2": "#send-btn"}),
        Step(15, "Full name", "Contact form", "fill", {"v1": "#full-name", "v2": "#name"},
             "Ada Lovelace"),
        Step(16, "Email address", "Contact form", "fill",
             {"v1": "#email-address", "v2": "#email"}, "ada@example.test"),
        Step(17, "Submit", "Contact form", "click", {"v1": "#contact-submit", "v2": "#send-btn"}),
        Step(18, "Show panel", None, "click", {"v1": "#show-panel", "v2": "#show-panel"}),
        Step(19, "Confirm", "Sliding panel", "click",
             {"v1": "#panel-confirm", "v2": "#drawer-confirm"}),
        Step(20, "Load results", None, "click",
             {"v1": "#load-results", "v2": "#fetch-results"}),
        Step(22, "Export results", None, "focus",
             {"v1": "#export-results", "v2": "#export-btn"}),
        Step(23, "Delete", "Draft B", "click",
             {"v1": "#draft-b button", "v2": "[data-test='delete-draft-b']"}),
    ]),
}  # fmt: skip


def act(page: Page, step: Step, selector: str) -> None:
    target = page.locator(selector)
    if step.action in ("fill", "type"):
        target.fill(step.value or "")
    elif step.action == "select":
        target.select_option(label=step.value)
    elif step.action in ("check", "uncheck"):
        getattr(target, step.action)()
    elif step.action == "press":
        target.press(step.value or "Enter")
    elif step.action in ("hover", "focus"):
        getattr(target, step.action)()
    else:
        target.click()
    page.wait_for_load_state("load")
    page.wait_for_timeout(900 if step.element in ("Load results", "Show panel") else 150)


def shown(path: Path) -> str:
    """The snapshot's path as cases.jsonl holds it: relative to bench/realapps when inside."""
    return str(path.relative_to(HERE) if path.is_relative_to(HERE) else path)


def snapshot(page: Page) -> str:
    cdp = page.context.new_cdp_session(page)
    try:
        return str(cdp.send("Page.captureSnapshot", {"format": "mhtml"})["data"])
    finally:
        cdp.detach()


def check(page: Page, path: Path, selector: str) -> str | None:
    """Why the saved snapshot cannot be a case (None: it can)."""
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    target = page.locator(selector)
    n = target.count()
    if n != 1:
        return f"the truth selector matches {n} elements in the snapshot"
    if not target.is_visible():
        return "the truth element is not visible in the snapshot"
    return None


def run_release(release: str, out: Path) -> tuple[int, list[str]]:
    folder = out / "demo" / release
    folder.mkdir(parents=True, exist_ok=True)
    lines: list[str] = []
    dropped: list[str] = []
    with DemoServer(release) as server, sync_playwright() as pw:
        register_bridge(pw.selectors)  # as the plugin does
        browser = pw.chromium.launch(**launch_options())  # type: ignore[arg-type]
        for req_id, (url, steps) in FLOWS.items():
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.set_default_timeout(5_000)
            page = context.new_page()
            page.goto(server.url + url)
            page.wait_for_selector("body.is-ready", state="attached")
            checker = context.new_page()
            for step in steps:
                assert step.truth is not None
                selector = step.truth[release]
                path = folder / req_id / f"step-{step.n}.mhtml"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(snapshot(page), encoding="utf-8")
                why = check(checker, path, selector)
                if why is None:
                    case = {
                        "app": "demo", "version": release, "req_id": req_id, "step": step.n,
                        "element": step.element, "region": step.region, "action": step.action,
                        "truth": selector, "snapshot": shown(path),
                        "url": page.url,
                    }  # fmt: skip
                    lines.append(json.dumps(case))
                else:
                    path.unlink()
                    dropped.append(f"{release} {req_id} step {step.n} ({step.element}): {why}")
                act(page, step, selector)
            context.close()
        browser.close()
    (folder / "cases.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return len(lines), dropped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "out")
    args = parser.parse_args()
    out = args.out.resolve()
    for release in ("v1", "v2"):
        n, dropped = run_release(release, out)
        print(f"{release}: {n} cases in {out / 'demo' / release / 'cases.jsonl'}")
        for line in dropped:
            print(f"  left out: {line}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
