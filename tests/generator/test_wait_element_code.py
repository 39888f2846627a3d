"""A ``wait`` step that names an element becomes generated code that waits for it.

The generated plain Playwright test is run against a real page: the counter shows at once,
the item a little later, so a test that only checked the outcome would return before the
element the step waits for is on the page.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route

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

URL = "http://gen.test/todos.html"
PAGE = """<!doctype html><title>todos</title><h1>todos</h1>
<input id="new" placeholder="What needs to be done?"><ul id="list"></ul><span id="left"></span>
<script>
document.getElementById('new').addEventListener('keydown', (e) => {
  if (e.key !== 'Enter') return;
  const text = e.target.value;
  document.getElementById('left').textContent = '1 item left';
  setTimeout(() => {
    document.getElementById('list').innerHTML = '<li><label>' + text + '</label></li>';
  }, 600);
});
</script>"""


def _step(
    index: int, action: Action, element: str, value: str | None, expected: str | None
) -> Step:
    return Step(
        index=index,
        action=action,
        target=Target(element=element),
        value=value,
        expected=Expectation(kind=ExpectationKind.TEXT_VISIBLE, text=expected)
        if expected
        else None,
        source=SourceRef(path="todos.req.yaml", row=index + 2),
    )


def _plan() -> Plan:
    steps = (
        _step(0, Action.FILL, "What needs to be done?", "Walk dog", None),
        _step(1, Action.PRESS, "What needs to be done?", "Enter", None),
        _step(2, Action.WAIT, "Walk dog", None, "1 item left"),
    )
    req = Requirement(req_id="REQ-TODO-1", url=URL, steps=steps,
                      source=SourceRef(path="todos.req.yaml", row=1))  # fmt: skip
    return Plan(requirement=req, steps=steps, plan_hash="sha256:wait")


@pytest.fixture
def page(module_browser: Browser) -> Iterator[Page]:
    # the worker's Chromium (tests/conftest.py), not a browser launched for each test: a
    # launch costs about a second of CPU; the test's own context still gets its own route
    context = module_browser.new_context()

    def serve(route: Route) -> None:
        route.fulfill(status=200, body=PAGE, content_type="text/html; charset=utf-8")

    context.route("http://gen.test/**", serve)
    yield context.new_page()
    context.close()


def test_generated_wait_waits_for_its_element(page: Page) -> None:
    field = Locator(strategy=Strategy.CSS, confidence=0.7, css="#new")
    item = Locator(strategy=Strategy.CSS, confidence=0.7, css="#list label")
    source = render_test(_plan(), Locators(steps={0: field, 1: field, 2: item}))
    assert "expect(step3).to_be_visible()" in source
    namespace: dict[str, Any] = {"__name__": "generated"}
    exec(compile(source, "generated.py", "exec"), namespace)
    namespace["test_req_todo_1"](page)
    # the generated test returned only once the item it waited for was on show
    assert page.locator("#list label").is_visible()
