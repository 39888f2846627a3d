"""Which passing run a run is compared with: the last one on the same deployment.

A real SQLite store; bundles built by hand (the comparison rules are in test_compare.py)."""

from __future__ import annotations

from pathlib import Path

from pytest_pacts.models.trace import BundleStep, StepTrace, TraceBundle
from pytest_pacts.store import Store, open_store
from pytest_pacts.traces.bundles import baseline_for, deployment


def _keep(store: Store, label: str, url: str) -> None:
    step = BundleStep(index=0, action="click", description="click Buy", status="passed",
                      trace=StepTrace(url=url + "/shop.html", text="Buy"))  # fmt: skip
    bundle = TraceBundle(req_id="R", label=label, plan_hash="h", verdict="pass",
                         created_at="2026-11-28T00:00:00+00:00", url=url + "/", steps=(step,))  # fmt: skip
    store.traces.add("R", label, "h", bundle.model_dump(mode="json", exclude_none=True))


def test_a_run_is_compared_with_the_last_pass_on_its_own_deployment(tmp_path: Path) -> None:
    """Release 1 on one port, release 2 on another, then release 1 again: the third run is
    compared with release 1's last pass, not release 2's (issue 39: 11 "regressions" were
    flagged on a passing run that switched back to an older release)."""
    v1, v2 = "http://127.0.0.1:8001", "http://127.0.0.1:8002"
    with open_store(tmp_path / "pacts.db") as store:
        _keep(store, "run-0", v1)
        _keep(store, "run-1", v1)
        _keep(store, "run-2", v2)
        found = baseline_for(store, "R", v1 + "/inventory.html")
        assert found is not None and found.label == "run-1"
        found = baseline_for(store, "R", v2 + "/")
        assert found is not None and found.label == "run-2"
        # a deployment with no pass of its own: the newest pass of any
        found = baseline_for(store, "R", "http://127.0.0.1:8003/")
        assert found is not None and found.label == "run-2"
        found = baseline_for(store, "R", v1 + "/", limit=1)  # only the newest looked at
        assert found is not None and found.label == "run-2"
    assert deployment("HTTP://Shop.Example:8080/a?b") == "http://shop.example:8080"
    assert deployment(None) == deployment("/relative") == ""
