"""Discovery benchmark: one in-page pass vs one round trip per strategy per step.

Run: ``.venv/bin/python bench/bench_discovery.py [--repeat N]``. Both implementations run
in the same browser, on the same generated page (about 2,000 elements) and the same
20-step requirement; the figure is the ratio of their median wall times.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from playwright.sync_api import sync_playwright

from pytest_pacts.browser import launch_options
from pytest_pacts.discovery import discover, register_bridge
from pytest_pacts.discovery.naive import naive_discover
from pytest_pacts.models import Action, Target


def build_page() -> str:
    nav = "".join(f'<a href="/p{i}">Section {i}</a>' for i in range(30))
    login = (
        '<form id="login_form" class="login-form"><h2>Sign in</h2>'
        '<label for="user">Username</label><input id="user" name="user">'
        '<label for="pw">Password</label><input id="pw" type="password">'
        '<label><input type="checkbox" name="remember"> Remember me</label>'
        '<button type="submit" data-test="login-button">Login</button></form>'
    )
    cards = "".join(
        f'<div class="inventory_item"><img alt="Product {i}" src="data:,">'
        f'<div class="name"><h3>Product {i:03d}</h3><p>A fine product number {i}.</p></div>'
        f'<span class="price">${i}.99</span><button class="btn">Add to cart</button>'
        f'<a href="/item/{i}">Details</a></div>'
        for i in range(120)
    )
    fields = "".join(
        f'<div class="row"><label for="f{i}">Field {i}</label><input id="f{i}"></div>'
        for i in range(60)
    )
    todos = "".join(
        f'<li><input type="checkbox"><span>Todo item {i:03d}</span><button>Remove</button></li>'
        for i in range(120)
    )
    rows = "".join(
        f"<tr><td>Invoice {i:04d}</td><td>2026-01-{i % 28 + 1:02d}</td><td>${i * 3}</td>"
        f"<td><button>Download</button></td></tr>"
        for i in range(80)
    )
    footer = "".join(f'<a href="/f{i}">Footer link {i}</a>' for i in range(30))
    return (
        f"<header><nav>{nav}</nav><input type=search placeholder='Search the shop'></header>"
        f"<main>{login}<section class='inventory_list'>{cards}</section>"
        f"<form class='settings'><h2>Settings</h2>{fields}"
        "<label for='country'>Country</label><select id='country'><option>France</option>"
        "<option>Japan</option></select>"
        "<label><input type='checkbox' id='news'> Newsletter</label></form>"
        f"<ul class='todo-list'>{todos}</ul><table>{rows}</table></main>"
        f"<footer>{footer}<a href='/privacy'>Privacy policy</a></footer>"
    )


STEPS: list[tuple[int, Target, Action]] = [
    (i, t, a)
    for i, (t, a) in enumerate(
        [
            (Target(element="Username", region="LoginForm"), Action.FILL),
            (Target(element="Password", region="LoginForm"), Action.FILL),
            (Target(element="Remember me"), Action.CHECK),
            (Target(element="Login"), Action.CLICK),
            (Target(element="Search the shop"), Action.FILL),
            (Target(element="Add to cart", region="Product 017"), Action.CLICK),
            (Target(element="Add to cart", region="Product 042"), Action.CLICK),
            (Target(element="Add to cart", region="Product 099"), Action.CLICK),
            (Target(element="Details", region="Product 007"), Action.CLICK),
            (Target(element="Field 12"), Action.FILL),
            (Target(element="Field 33"), Action.FILL),
            (Target(element="Field 57"), Action.FILL),
            (Target(element="Country"), Action.SELECT),
            (Target(element="Newsletter"), Action.CHECK),
            (Target(element="Todo item 057"), Action.CHECK),
            (Target(element="Remove", region="Todo item 080"), Action.CLICK),
            (Target(element="Download", region="Invoice 0042"), Action.CLICK),
            (Target(element="Section 12"), Action.CLICK),
            (Target(element="Privacy policy"), Action.CLICK),
            (Target(element="Footer link 3"), Action.CLICK),
        ]
    )
]


def timed(func: Callable[[], object]) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with sync_playwright() as pw:
        register_bridge(pw.selectors)  # as the plugin does
        browser = pw.chromium.launch(**launch_options())  # type: ignore[arg-type]
        page = browser.new_page()
        page.set_content(build_page())
        elements = page.evaluate("document.querySelectorAll('*').length")
        results = discover(page, STEPS)  # warm-up (installs the scan script)
        naive = naive_discover(page, STEPS)
        one_pass: list[float] = []
        baseline: list[float] = []
        for _ in range(args.repeat):  # interleaved, so a load spike hits both alike
            one_pass.append(timed(lambda: discover(page, STEPS)))
            baseline.append(timed(lambda: naive_discover(page, STEPS)))
        browser.close()
    resolved = sum(r.locator is not None for r in results.values())
    fast, slow = statistics.median(one_pass), statistics.median(baseline)
    print(f"page: {elements} elements, requirement: {len(STEPS)} steps, repeat: {args.repeat}")
    print(f"one-pass discover : {fast * 1000:8.1f} ms median ({resolved}/{len(STEPS)} verified)")
    print(
        f"naive per strategy: {slow * 1000:8.1f} ms median "
        f"({sum(v is not None for v in naive.values())}/{len(STEPS)} first-match hits)"
    )
    print(f"ratio             : {slow / fast:8.1f}x faster")


if __name__ == "__main__":
    main()
