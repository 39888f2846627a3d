"""pytest-pacts through its library API, as a hand-written Playwright test calls it.

Record: ``discover_element(page, "Element[N]@Region", action)`` (with the ordinal when the
flow's step has one) on the old page; it must single out the ground-truth element (checked
by identity), else the case is a record failure.
Relocate: ``relocate_element(page, recorded)`` on the new page (the recorded locator
checked with its identity in one page call; when that fails, the gate and the healing
ladder's relocating rungs under the evidence rule); the answer is the locator it returns,
an abstention none. Each answer also reports how many messages the relocation sent to
Playwright's driver (page calls, selector counts, event subscriptions, init scripts: each one
a round trip), a count that does not depend on how loaded the machine is, and how long the
first of them took (``first_ms``: the recorded locator's check). With ``PEERS_CPU`` set
(``bench_peers.py --cpu``) it also reports the CPU time the relocation cost this process,
Playwright's driver, the browser and the renderer (``cpu_ms``, ``process_cpu.py``); their
second reading is inside the timed call, so leave it off where the time itself is measured.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import IS_MARKED_JS, MARK_ALL_JS, UNMARK_JS, RecordFailed, serve, truth_set
from pairing import step_words
from playwright._impl.connection import Connection
from process_cpu import cpu_ms, processes, spent

from pytest_pacts.discovery import to_playwright
from pytest_pacts.elements import discover_element, relocate_element
from pytest_pacts.models.locator import DiscoveryResult

_calls = [0]
_first: list[float | None] = [None, None]  # when the first message was sent, answered
_real_send = Connection.send_message_to_server
# with PEERS_CPU: the processes read, and their CPU times just before the relocation
_cpu: dict[str, Any] = {}


def _answered(_: Any) -> None:
    if _first[1] is None:
        _first[1] = time.perf_counter()


def _counted(self: Any, *args: Any, **kwargs: Any) -> Any:
    _calls[0] += 1
    sent = _real_send(self, *args, **kwargs)
    if _first[0] is None:
        _first[0] = time.perf_counter()
        sent.add_done_callback(_answered)
    return sent


Connection.send_message_to_server = _counted  # type: ignore[method-assign]


def record(page: Any, case: dict[str, Any]) -> DiscoveryResult:
    # the step's words as the flow writes them: Element[N]@Region, name@ for a name with an @
    words = step_words(case["element"], case["region"], case.get("ordinal"))
    found = discover_element(page, words, case["action"])
    if found.locator is None or found.fingerprint is None:
        why = found.unresolved.reason if found.unresolved is not None else "no locator"
        raise RecordFailed(f"discovery singled out no element ({why})")
    page.locator(truth_set(case)).evaluate_all(MARK_ALL_JS)
    target = to_playwright(page, found.locator)
    same = target.count() == 1 and bool(target.evaluate(IS_MARKED_JS))
    page.evaluate(UNMARK_JS)
    if not same:
        raise RecordFailed(f"discovery picked another element: {found.locator.describe()}")
    return found


def prepare(page: Any, case: dict[str, Any], recorded: DiscoveryResult) -> DiscoveryResult:
    """Untimed, with ``PEERS_CPU``: the processes listed and read before the relocation."""
    if os.environ.get("PEERS_CPU"):
        _cpu["listed"] = processes()
        _cpu["before"] = cpu_ms(_cpu["listed"])
    return recorded


def relocate(page: Any, case: dict[str, Any], recorded: DiscoveryResult) -> tuple[Any, str]:
    _calls[0] = 0
    _first[:] = [None, None]
    try:
        found = relocate_element(page, recorded)
    finally:
        if _cpu:
            relocate.cpu_ms = spent(_cpu["before"], cpu_ms(_cpu["listed"]))  # type: ignore[attr-defined]
        relocate.calls = _calls[0]  # type: ignore[attr-defined]
        sent, answered = _first
        # the first message's round trip: the recorded locator's check, with Playwright's
        # selector code built in this new document (and two frames watched when it fails)
        relocate.first_ms = (  # type: ignore[attr-defined]
            (answered - sent) * 1000 if sent is not None and answered is not None else None
        )
    if found.locator is None:
        return None, f"abstained: {found.reason[-240:]}"
    how = found.rung.value if found.rung is not None else "the recorded locator"
    return to_playwright(page, found.locator), f"{how}: {found.locator.describe()}"


if __name__ == "__main__":
    serve(record, relocate, prepare)
