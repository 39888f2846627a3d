"""The corpus benchmark's cost of a healed step (``bench/realapps/run_corpus.py``,
``heal_cost``): each step healed on a newer version against the same step on the version
its flow was written for; and its relocation figure (``relocation``): the accepted heal
rounds' own times."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from realapps.harness import load_apps  # noqa: E402
from realapps.run_corpus import FlowResult, heal_cost, relocation  # noqa: E402


def _flow(
    version: str, req_id: str, steps: dict[int, tuple[str, float]], heal_ms: tuple[float, ...] = ()
) -> FlowResult:
    return FlowResult(app="datasette", version=version, req_id=req_id, verdict="pass",
                      healed=len(heal_ms), heal_rungs=[], wrong=0, duration_ms=0.0,
                      step_ms=steps, heal_ms=list(heal_ms))  # fmt: skip


def test_each_healed_step_is_compared_with_the_same_step_where_it_was_written() -> None:
    apps = load_apps(["datasette"])
    old, new = apps[0].versions[0], apps[0].versions[-1]
    results = [
        _flow(old, "REQ-A", {0: ("passed", 100.0), 1: ("passed", 50.0), 2: ("passed", 80.0)}),
        _flow(old, "REQ-B", {0: ("passed", 40.0), 1: ("failed", 30.0)}),
        # healed: +60, +200 and +20 ms; a passed step and a step never passed before: left out
        _flow(new, "REQ-A", {0: ("healed", 160.0), 1: ("passed", 500.0), 2: ("healed", 280.0)}),
        _flow(new, "REQ-B", {0: ("healed", 60.0), 1: ("healed", 900.0)}),
    ]
    line = heal_cost(results, apps)
    assert "healed steps on newer versions: 3;" in line
    assert "median +60 ms, p90 +200 ms" in line


def test_no_healed_step_no_line() -> None:
    apps = load_apps(["datasette"])
    old = apps[0].versions[0]
    assert heal_cost([_flow(old, "REQ-A", {0: ("passed", 100.0)})], apps) == ""


def test_relocation_is_every_accepted_heal_rounds_median_and_p90() -> None:
    results = [
        _flow("1", "REQ-A", {}, (30.0, 10.0)),
        _flow("2", "REQ-B", {}, ()),
        _flow("2", "REQ-C", {}, (20.0, 50.0, 40.0, 60.0, 70.0, 80.0, 90.0, 100.0)),
    ]
    line = relocation(results)
    assert "accepted heal rounds: 10;" in line
    assert "median 55.0 ms, p90 90.0 ms" in line
    assert relocation([_flow("1", "REQ-A", {})]) == ""


def test_flows_whose_element_a_version_removed_are_counted_apart() -> None:
    from realapps.run_corpus import removed_in, runnable

    truth = {"REQ-A": {1: {"1": "#a", "2": "#a2"}, 2: {"1": "#b", "2": None}}, "REQ-B": {}}
    assert removed_in(truth, "REQ-A", "2") and not removed_in(truth, "REQ-A", "1")
    assert not removed_in(truth, "REQ-B", "2") and not removed_in(truth, "REQ-C", "2")
    newer = [
        _flow("2", "REQ-A", {}),
        _flow("2", "REQ-B", {}),
        _flow("2", "REQ-C", {}),
        _flow("2", "REQ-D", {}),
    ]
    newer[1].verdict = "fail"
    newer[2].removed = True
    newer[2].verdict = "fail"
    newer[3].removed = True
    newer[3].verdict = "fail"
    newer[3].wrong = 1  # acted where the version has no right element
    line = runnable(newer)
    assert "still has (truth): 1/2 pass (50.0%), 0 wrong-element actions" in line
    assert "removed (truth null): 2, 1 abstained, 0 passed, 1 wrong-element actions" in line
    assert runnable(newer[:2]) == ""
