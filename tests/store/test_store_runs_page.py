"""``runs.page``: the dashboard's runs list, latest first, filtered and paged, with a total."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pytest_pacts.store import Store

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _fill(store: Store) -> None:
    for i in range(7):
        run = store.runs.begin("s", f"REQ-{i % 2}", now=T0 + timedelta(minutes=i))
        if i != 6:
            store.runs.finish(
                run.id,
                verdict="pass" if i % 3 else "fail",
                now=T0 + timedelta(minutes=i, seconds=5),
            )


def test_latest_first_with_offset_and_total(store: Store) -> None:
    _fill(store)
    first, total = store.runs.page(limit=3)
    second, _ = store.runs.page(limit=3, offset=3)
    last, _ = store.runs.page(limit=3, offset=6)
    assert total == 7
    starts = [r.started_at for r in first + second + last]
    assert starts == sorted(starts, reverse=True) and len(starts) == 7
    assert first[0].status == "running"


def test_filters_count_only_what_matches(store: Store) -> None:
    _fill(store)
    req1, total = store.runs.page(req_id="REQ-1")
    assert total == 3 and {r.req_id for r in req1} == {"REQ-1"}
    failed, total = store.runs.page(verdict="fail")
    assert total == 2 and all(r.verdict == "fail" for r in failed)
    running, total = store.runs.page(status="running")
    assert total == 1 and running[0].req_id == "REQ-0"
    window, total = store.runs.page(
        since=T0 + timedelta(minutes=2), until=T0 + timedelta(minutes=4)
    )
    assert total == 2 and [r.started_at.minute for r in window] == [3, 2]


def test_bad_paging_and_filters_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="limit must be >= 1"):
        store.runs.page(limit=0)
    with pytest.raises(ValueError, match="verdict must be one of"):
        store.runs.page(verdict="maybe")  # type: ignore[arg-type]


def test_healed_elements_most_first_within_the_window(store: Store) -> None:
    for minute, healed in ((0, ["Login", "Cart"]), (5, ["Login"]), (10, ["Login", "Search"])):
        run = store.runs.begin("s", f"REQ-{minute}", now=T0 + timedelta(minutes=minute))
        for i, element in enumerate([*healed, "Untouched"]):
            store.runs.add_step(
                run.id,
                step_index=i,
                action="click",
                status="healed" if element != "Untouched" else "passed",
                element_key=element,
                heal_round=0 if element == "Untouched" else 1,
            )
        store.runs.finish(
            run.id, verdict="pass", healed=True, now=T0 + timedelta(minutes=minute, seconds=1)
        )
    assert store.runs.healed_elements() == [("Login", 3), ("Cart", 1), ("Search", 1)]
    assert store.runs.healed_elements(since=T0 + timedelta(minutes=5)) == [
        ("Login", 2),
        ("Search", 1),
    ]
    assert store.runs.healed_elements(limit=1) == [("Login", 3)]
