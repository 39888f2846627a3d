"""The regression rules on bundles built by hand (no browser): what is flagged, what is
noise, and how steps are paired when the plan changed."""

from __future__ import annotations

from pytest_pacts.models.locator import BoundingBox
from pytest_pacts.models.trace import BundleStep, StepTrace, TraceBundle, TracedRequest
from pytest_pacts.traces import Thresholds, compare, url_key


def _step(index: int, *, text: str | None = "Add to cart", x: float = 10, ms: float = 100,
          url: str = "http://127.0.0.1:1/inventory.html", requests: tuple[TracedRequest, ...] = (),
          status: str = "passed", element: str = "Add to cart") -> BundleStep:  # fmt: skip
    trace = StepTrace(url=url, text=text, box=BoundingBox(x=x, y=10, width=80, height=20),
                      requests=requests, screenshot=f"/shots/step{index}.jpg")  # fmt: skip
    return BundleStep(index=index, action="click", description=f"click {element}",
                      element_key=element, status=status, duration_ms=ms, trace=trace)  # fmt: skip


def _bundle(*steps: BundleStep, plan: str = "h1") -> TraceBundle:
    return TraceBundle(req_id="R", label="run", plan_hash=plan, verdict="pass",
                       created_at="2026-11-25T00:00:00+00:00", steps=steps)  # fmt: skip


def test_the_same_run_twice_has_no_regressions() -> None:
    same = _bundle(_step(0), _step(1))
    result = compare(same, same)
    assert result.regressions == () and result.compared == 2 and result.skipped == 0


def test_text_move_page_and_slowness_are_flagged_past_their_thresholds() -> None:
    before = _bundle(_step(0), _step(1, ms=20), _step(2, ms=400))
    after = _bundle(
        _step(0, text="Add to Cart", x=300, url="http://127.0.0.1:2/cart.html"),
        _step(1, ms=70),  # 3.5x a tiny step: under slower x floor (900 ms), noise
        _step(2, ms=1300),  # over 3x 400 ms
    )
    found = [(r.step_index, r.kind) for r in compare(before, after).regressions]
    assert found == [(0, "text_changed"), (0, "moved"), (0, "url_changed"), (2, "slower")]
    loose = Thresholds(slower=4.0, move_px=1000)
    assert [r.kind for r in compare(before, after, loose).regressions] == [
        "text_changed",
        "url_changed",
    ]


def test_the_host_and_port_of_a_deployment_are_not_a_change() -> None:
    assert url_key("http://127.0.0.1:1/a?x=...") == url_key("http://127.0.0.1:2/a?x=...")
    before = _bundle(_step(0, url="http://127.0.0.1:1/a"))
    assert compare(before, _bundle(_step(0, url="http://127.0.0.1:9/a"))).regressions == ()


def test_a_new_failing_request_is_flagged_once_where_it_came_in() -> None:
    ok = TracedRequest(method="GET", url="http://h/api/x", status=200)
    broken = TracedRequest(method="GET", url="http://h/api/x", status=500)
    known = TracedRequest(method="GET", url="http://h/favicon.ico", status=404)
    before = _bundle(_step(0, requests=(ok, known)), _step(1))
    after = _bundle(_step(0, requests=(known,)), _step(1, requests=(broken, broken)))
    (found,) = compare(before, after).regressions
    assert (found.kind, found.step_index) == ("failing_request", 1)
    assert found.message.startswith("GET /api/x answered 500")


def test_healed_and_failed_steps_and_a_changed_plan() -> None:
    before = _bundle(_step(0, ms=100), _step(1), _step(2, element="Remove"))
    after = _bundle(
        _step(0, ms=5000, status="healed"),  # its time is the healing: not "slower"
        _step(1, status="failed", text="other"),  # not compared
        _step(2, element="Checkout", text="Checkout"),  # another step of a changed plan
        plan="h2",
    )
    result = compare(before, after)
    assert result.regressions == () and (result.compared, result.skipped) == (1, 2)
