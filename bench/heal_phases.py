"""Where a healed step's extra time goes (``bench_heal_speed.py --phases``).

Wraps the calls a step makes (the gate, the heal round, the action and the wait for heal
pictures inside it, the expectation, the heal's confirmation) with timers that add their
wall time to the step being run, on the clean side (A) and the drifted side (B) alike. For
each healed step, B's parts are set against A's same step in the same round: the failed
check of the recorded locator (B's first gate) against A's gate, the heal round, the
retry's gate, and so on; "the rest" is the step's time outside the timed calls (the run's
stages, readiness, the heal's pictures asked for and kept).
"""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

# what is being run: side ("A", "B", or None outside the measured rounds), round, requirement
NOW: dict[str, Any] = {"side": None, "round": -1, "req": None, "step": None, "attempt": 0}
# (side, round, req_id, step index) -> "attempt:part" -> wall ms
SPENT: dict[tuple[Any, ...], dict[str, float]] = defaultdict(lambda: defaultdict(float))
WRITES: list[float] = []  # a confirmed heal's writes off the step's path (wall ms each)

PARTS = (  # (label, attempt, part): a part of B's healed step and A's counterpart
    ("the failed check (B) / the gate (A)", 1, "gate"),
    ("its gate checks, count", 1, "checks"),
    ("the heal round", 1, "heal"),
    ("the retry's gate", 2, "gate"),
    ("the action", 2, "act"),
    ("  of it, the wait for heal pictures", 2, "pictures"),
    ("the expectation", 2, "expect"),
    ("the heal confirmed, on the step's path", 2, "confirm"),
)


def _wrap(owner: Any, name: str, part: str, *, step: bool = False) -> None:
    real: Callable[..., Any] = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        if step:  # StepRunner.run(self, step, attempt): a new attempt of a step
            index = args[1].index
            NOW["attempt"] = NOW["attempt"] + 1 if NOW["step"] == index else 1
            NOW["step"] = index
        start = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            if NOW["side"] is not None:
                key = (NOW["side"], NOW["round"], NOW["req"], NOW["step"])
                attempt = min(NOW["attempt"], 2)
                SPENT[key][f"{attempt}:{part}"] += (time.perf_counter() - start) * 1000

    setattr(owner, name, timed)


def install() -> None:
    from pytest_pacts.engine import actions, checked, executor, expectations
    from pytest_pacts.engine import gate as gate_module
    from pytest_pacts.engine.healing.ladder import HealingLadder

    _wrap(executor.StepRunner, "run", "attempt", step=True)
    _wrap(executor, "run_gate", "gate")
    _wrap(checked, "perform", "act")
    _wrap(actions, "await_heal_pictures", "pictures")
    _wrap(expectations.Checker, "check", "expect")
    _wrap(HealingLadder, "heal", "heal")
    # the heal confirmed on the step's path: all of ``confirm`` before the writes went to a
    # worker thread (engine/confirming.py), the heal's adoption since
    later = hasattr(HealingLadder, "confirm_later")
    _wrap(HealingLadder, "confirm_later" if later else "confirm", "confirm")
    if later:  # the writes it hands back, timed on the worker thread that makes them
        adopt = HealingLadder.confirm_later

        def timed_writes(*args: Any, **kwargs: Any) -> Any:
            write = adopt(*args, **kwargs)
            side = NOW["side"]

            def timed() -> Any:
                start = time.perf_counter()
                try:
                    return write()
                finally:
                    if side is not None:
                        WRITES.append((time.perf_counter() - start) * 1000)

            return timed

        HealingLadder.confirm_later = timed_writes  # type: ignore[method-assign]
    real_check = gate_module._check

    def counted(*args: Any, **kwargs: Any) -> Any:
        if NOW["side"] is not None:
            key = (NOW["side"], NOW["round"], NOW["req"], NOW["step"])
            SPENT[key][f"{min(NOW['attempt'], 2)}:checks"] += 1
        return real_check(*args, **kwargs)

    gate_module._check = counted


def start(side: str | None, req_id: str | None = None, round_: int | None = None) -> None:
    """What runs next: ``side`` ("A" or "B"; ``None``: not measured), its requirement and
    round."""
    NOW.update(side=side, req=req_id, step=None, attempt=0)
    if round_ is not None:
        NOW["round"] = round_


def report(healed: set[tuple[int, str, int]], a_ms: Any, b_ms: Any) -> None:
    """Per part, the median over the healed steps of B's time, A's and B minus A (wall ms);
    ``a_ms``/``b_ms``: each side's step times by (req_id, index), one per round."""
    rows: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for r, req, index in sorted(healed):
        a, b = SPENT.get(("A", r, req, index), {}), SPENT.get(("B", r, req, index), {})
        for label, attempt, part in PARTS:
            mine = b.get(f"{attempt}:{part}", 0.0)
            theirs = a.get(f"1:{part}", 0.0) if attempt == 1 or part != "gate" else 0.0
            rows[label].append((mine, theirs))
        timed_b = sum(b.get(f"{n}:attempt", 0.0) for n in (1, 2)) + b.get("1:heal", 0.0)
        timed_b += b.get("2:confirm", 0.0)
        rows["the rest (outside the timed calls)"].append(
            (b_ms[(req, index)][r] - timed_b, a_ms[(req, index)][r] - a.get("1:attempt", 0.0))
        )
        rows["the whole step"].append((b_ms[(req, index)][r], a_ms[(req, index)][r]))
        after = (req, index + 1)  # the next step, when it did not heal itself
        if (r, req, index + 1) not in healed and after in b_ms and after in a_ms:
            rows["the next step, not healed itself"].append((b_ms[after][r], a_ms[after][r]))
    print(f"\nwhere a healed step's time goes ({len(healed)} healed steps; wall ms, medians; A's")
    print("counterpart of a part the clean step has once is its own):")
    print(f"  {'':44} {'B':>7} {'A':>7} {'B - A':>7}")
    for label, pairs in rows.items():
        b = statistics.median(x for x, _ in pairs)
        a = statistics.median(y for _, y in pairs)
        d = statistics.median(x - y for x, y in pairs)
        print(f"  {label:44} {b:7.1f} {a:7.1f} {d:+7.1f}")
    if WRITES:
        print(
            f"  a confirmed heal's writes, off the step's path (worker thread): median "
            f"{statistics.median(WRITES):.1f} ms over {len(WRITES)}"
        )
