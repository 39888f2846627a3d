"""Generated tests check ``navigates_to:X`` by the engine's page-name rule.

A page that shows its name in ``<span class="title">`` (the ``<title>`` is the app's name)
passes; a page whose nav menu says "Products" but whose heading says "Orders" does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route
from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.generator import Locators, render_test
from pytest_pacts.models import (
    Action,
    Expectation,
    ExpectationKind,
    Plan,
    Requirement,
    SourceRef,
    Step,
    Target,
)
from pytest_pacts.models.locator import Locator, Strategy

NAV = "<nav><a href='#'>Home</a> <a href='#'>Products</a> <a href='#'>Orders</a></nav>"
PAGES = {
    "/start": "<a id='go' href='/named'>Go on</a><a id='other' href='/orders'>Orders</a>",
    "/named": NAV + "<div><span class='title'>Products</span></div><p>Six items.</p>",
    "/orders": NAV + "<h1>Orders</h1><p>Products you ordered are listed below.</p>",
}


def _plan(link: str) -> tuple[Plan, Locators]:
    step = Step(
        index=0,
        action=Action.CLICK,
        target=Target(element="Go on"),
        expected=Expectation(kind=ExpectationKind.NAVIGATES_TO, text="Products"),
        source=SourceRef(path="nav.req.yaml", row=2),
    )
    req = Requirement(req_id="REQ-NAV-1", url="http://gen.test/start", steps=(step,),
                      source=SourceRef(path="nav.req.yaml", row=1))  # fmt: skip
    locator = Locator(strategy=Strategy.CSS, confidence=0.7, css=link)
    return Plan(requirement=req, steps=(step,), plan_hash="sha256:nav"), Locators(
        steps={0: locator}
    )


@pytest.fixture
def page(module_browser: Browser) -> Iterator[Page]:
    # the worker's Chromium (tests/conftest.py), not a browser launched for each test: a
    # launch costs about a second of CPU; the test's own context still gets its own route
    context = module_browser.new_context()
    context.set_default_timeout(2_000)

    def serve(route: Route) -> None:
        path = route.request.url.removeprefix("http://gen.test")
        body = f"<!doctype html><title>Swag Labs</title>{PAGES.get(path, '')}"
        route.fulfill(status=200, body=body, content_type="text/html; charset=utf-8")

    context.route("http://gen.test/**", serve)
    yield context.new_page()
    context.close()


def _generated(link: str) -> Any:
    source = render_test(*_plan(link))
    namespace: dict[str, Any] = {"__name__": "generated"}
    exec(compile(source, "generated.py", "exec"), namespace)
    return namespace["test_req_nav_1"]


def test_generated_navigates_to_reads_a_styled_page_name(page: Page) -> None:
    _generated("#go")(page)


def test_generated_navigates_to_ignores_nav_links(page: Page) -> None:
    with pytest.raises(PlaywrightError, match="Timeout"):
        _generated("#other")(page)
