"""``extract`` steps and the network parser in real Chromium on the demo app (v1).

The runs start on the order confirmation with a signed-in session and an order pending, as
Finish leaves them (an init script), so each run places a real order: the page POSTs
``/api/order`` and shows the id of the JSON answer. The full checkout flow with a response
check on Finish runs in the samples (``REQ-CHECKOUT-001``, tests/engine/test_samples.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from pytest_pacts.demo_app import DemoServer
from pytest_pacts.engine.api import Runtime, run_requirement
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.engine.failure_text import render_failure
from pytest_pacts.models import Plan
from pytest_pacts.models.outcome import RunRecord
from pytest_pacts.planner import LoaderOptions, load_file
from pytest_pacts.reports.artifacts import step_log, summary_markdown
from pytest_pacts.reports.html import step_table

OPTIONS = EngineOptions(step_timeout_ms=4_000, navigation_timeout_ms=15_000)
_PENDING = json.dumps({"items": ["sauce-labs-backpack"], "total": "32.39"})
_SIGNED_IN = f"""
if (location.pathname === "/checkout-complete.html") {{
  localStorage.setItem("pacts.session", "standard_user");
  sessionStorage.setItem("pacts.pendingOrder", {json.dumps(_PENDING)});
}}"""


@pytest.fixture
def order_page(engine_browser: Browser, demo_v1: DemoServer) -> Iterator[Page]:
    context = engine_browser.new_context(viewport={"width": 1000, "height": 700})
    context.set_default_timeout(5_000)
    # the shop's pages need the server's session: sign in as the login form does
    credentials = {"user": "standard_user", "password": "secret_sauce"}
    assert context.request.post(demo_v1.url + "/api/login", data=credentials).ok
    context.add_init_script(_SIGNED_IN)
    yield context.new_page()
    context.close()


def _plan(tmp_path: Path, steps: list[object]) -> Plan:
    text = json.dumps({"req_id": "REQ-ORDER", "url": "/checkout-complete.html", "steps": steps})
    path = tmp_path / "order.req.json"
    path.write_text(text)
    return load_file(path, LoaderOptions(env={})).plans[0]


def _skip(expected: str) -> dict[str, str]:
    """A wait for ``expected`` whose failure is recorded and the run goes on."""
    return {"action": "wait", "expected": expected, "on_fail": "skip"}


def _run(page: Page, demo: DemoServer, plan: Plan, options: EngineOptions = OPTIONS) -> RunRecord:
    return run_requirement(plan, page, Runtime(env={}, base_url=demo.url, options=options))


def _token(demo: DemoServer, order_id: str) -> str:
    server = demo._server  # the demo's own order book: the secret the page never shows
    assert server is not None
    order = server.orders.get(order_id)
    assert order is not None
    return str(order["receipt_token"])


def test_extract_then_use_attribute_regex_response_and_secrets(
    order_page: Page, demo_v1: DemoServer, tmp_path: Path
) -> None:
    plan = _plan(
        tmp_path,
        [
            "Order number | extract | order_id",
            "Order number | extract | digits; regex=ORD-(\\d+)",
            "Order number | extract | attr_id; attribute=data-order-id",
            "response:/api/order order.id | extract | api_id",
            "response:/api/order order.receipt_token | extract | receipt_token",
            "Order number | extract | tail; regex=\\d{3}$; secret",
            "| goto | /api/order?id={{vars.order_id}} | response:/api/order order.id = "
            "{{vars.api_id}}",
            "| wait | | text_visible:{{vars.digits}}",
        ],
    )
    record = _run(order_page, demo_v1, plan)
    failed = record.failed_step
    assert record.verdict == "pass", failed and render_failure(record)
    got = [s.extracted for s in record.steps]
    order_id = got[0]["order_id"]
    assert re.fullmatch(r"ORD-\d{6}", order_id), got
    assert got[1] == {"digits": order_id[4:]}  # the regex's group
    assert got[2] == {"attr_id": order_id}  # the attribute
    assert got[3] == {"api_id": order_id}  # the JSON answer the page fetched
    assert got[4] == {"receipt_token": "***"} and got[5] == {"tail": "***"}  # secrets
    assert record.steps[6].value == f"/api/order?id={order_id}"  # used in a later value
    assert "store" in record.steps[0].description and "{{vars.order_id}}" in (
        record.steps[0].description
    )
    # never the secret in the record, the step table, the step log
    token = _token(demo_v1, order_id)
    html = step_table(record)
    assert "{{vars.receipt_token}}</code> = <code>***" in html and order_id in html
    summary = summary_markdown(record, ())
    assert f"- Step 1 stored {{{{vars.order_id}}}} = {order_id}" in summary
    assert "- Step 5 stored {{vars.receipt_token}} = ***" in summary
    for text in (record.model_dump_json(), html, json.dumps(step_log(record)), summary):
        assert token not in text


def test_a_failing_response_check_says_what_it_expected_and_found_and_masks_secrets(
    order_page: Page, demo_v1: DemoServer, tmp_path: Path
) -> None:
    plan = _plan(
        tmp_path,
        [
            "response:/api/order order.receipt_token | extract | receipt_token",
            _skip("response:/api/order order.status = shipped"),
            _skip("text_visible:{{vars.receipt_token}}"),
            _skip("response:/api/ordr order.id"),
        ],
    )
    fast = EngineOptions(step_timeout_ms=1_000, navigation_timeout_ms=15_000)
    record = _run(order_page, demo_v1, plan, fast)
    assert record.verdict == "partial"
    mismatch, secret, missing = (s.failure for s in record.steps[1:])
    assert mismatch is not None and secret is not None and missing is not None
    assert re.fullmatch(
        r"expected response:/api/order order\.status = shipped, but POST "
        r"http://127\.0\.0\.1:\d+/api/order → 201 has order\.status = 'confirmed'",
        mismatch.message,
    ), mismatch.message
    assert "found: POST" in " ".join(mismatch.evidence)
    assert secret.message == (
        "expected text_visible:***, but no visible text on the page contains '***'"
    )
    assert "no response from a URL matching '/api/ordr' has finished" in missing.message
    order_id = re.search(r"ORD-\d+", order_page.content())
    assert order_id is not None
    token = _token(demo_v1, order_id.group(0))
    assert token not in record.model_dump_json() and token not in render_failure(record)


def test_a_body_over_the_size_bound_is_not_read(
    order_page: Page, demo_v1: DemoServer, tmp_path: Path
) -> None:
    plan = _plan(tmp_path, ["response:/api/order order.id | extract | order_id"])
    small = EngineOptions(step_timeout_ms=1_000, navigation_timeout_ms=15_000,
                          max_response_bytes=40)  # fmt: skip
    record = _run(order_page, demo_v1, plan, small)
    failure = record.steps[0].failure
    assert record.verdict == "fail" and failure is not None
    assert re.search(
        r"POST http://127\.0\.0\.1:\d+/api/order → 201: its body is \d+ bytes, over the limit "
        r"of 40 bytes \(pacts_max_response_kb\); it was not read",
        failure.message,
    ), failure.message
    assert failure.message.startswith("extract order_id: expected a value that is not empty")


def test_a_secret_extracted_value_stays_out_of_the_step_trace(
    order_page: Page, demo_v1: DemoServer, tmp_path: Path
) -> None:
    plan = _plan(tmp_path, ["Order number | extract | hidden; secret"])
    traced = EngineOptions(step_timeout_ms=4_000, navigation_timeout_ms=15_000, trace=True,
                           artifacts_dir=str(tmp_path / "art"))  # fmt: skip
    record = _run(order_page, demo_v1, plan, traced)
    step = record.steps[0]
    assert record.verdict == "pass" and step.extracted == {"hidden": "***"}
    order_id = order_page.locator("[data-test=order-number]").inner_text()
    assert step.trace is not None and step.trace.text == "***", step.trace
    assert step.trace.screenshot is None and "withheld" in (step.trace.note or "")
    assert order_id not in record.model_dump_json()
