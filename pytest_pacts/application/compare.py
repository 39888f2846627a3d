"""``pacts compare``: two runs compared from the trace bundles in the store."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from pytest_pacts.store import Store
from pytest_pacts.traces import RunComparison, Thresholds
from pytest_pacts.traces import compare_runs as _compare_runs

if TYPE_CHECKING:
    pass


def compare_runs(
    store: Store,
    first: str,
    second: str,
    thresholds: Thresholds | None = None,
    req_ids: Sequence[str] = (),
) -> RunComparison:
    """``pacts compare``: run ``second`` against run ``first`` (run ids as their report folders
    are named, a unique prefix, ``latest`` or ``previous``), requirement by requirement, from
    the trace bundles in the store; only ``req_ids`` when given. Raises :class:`UnknownRun`."""
    result = _compare_runs(store, first, second, thresholds)
    if not req_ids:
        return result
    wanted = set(req_ids)
    return replace(
        result,
        comparisons=tuple(c for c in result.comparisons if c.current.req_id in wanted),
        only_first=tuple(r for r in result.only_first if r in wanted),
        only_second=tuple(r for r in result.only_second if r in wanted),
    )
