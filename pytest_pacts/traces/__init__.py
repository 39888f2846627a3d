"""Trace bundles and trace-based regression compares (docs/user-guide.md "Trace bundles and
regressions").

Every passing run keeps a compact bundle per requirement (``bundles.conclude``); the next runs
are compared with the last one (``compare.compare``); ``pacts compare RUN_A RUN_B`` compares
any two runs whose bundles the store still holds (:func:`compare_runs`).
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_pacts.errors import PactsError
from pytest_pacts.store import Store
from pytest_pacts.traces.bundles import (
    TraceSettings,
    bundle_of,
    conclude,
    delete_pictures,
    keep_evidence,
    load,
)
from pytest_pacts.traces.compare import Comparison, Thresholds, compare, url_key

__all__ = [
    "Comparison",
    "RunComparison",
    "Thresholds",
    "TraceSettings",
    "UnknownRun",
    "bundle_of",
    "compare",
    "compare_runs",
    "conclude",
    "delete_pictures",
    "find_run",
    "keep_evidence",
    "load",
    "url_key",
]


class UnknownRun(PactsError, LookupError):
    """No run (or more than one) of that name kept trace bundles; the message says which
    runs did."""


def find_run(store: Store, name: str) -> str:
    """The label of the run ``name`` names: its full id, a unique prefix of it, ``latest``,
    or ``previous`` (the run before the latest). Raises :class:`UnknownRun`."""
    labels = [label for label, _count, _when in store.traces.labels(limit=500)]
    shown = ", ".join(labels[:5]) + (" ..." if len(labels) > 5 else "")
    if not labels:
        raise UnknownRun("no run has kept trace bundles in this store yet")
    if name in ("latest", "previous"):
        at = 0 if name == "latest" else 1
        if at >= len(labels):
            raise UnknownRun(f"there is no {name} run: only {shown}")
        return labels[at]
    if name in labels:
        return name
    matches = [label for label in labels if label.startswith(name)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UnknownRun(f"{name!r} names several runs: {', '.join(matches[:5])}")
    raise UnknownRun(f"no run {name!r} kept trace bundles; runs that did: {shown}")


@dataclass(frozen=True)
class RunComparison:
    """Two runs compared requirement by requirement."""

    first: str
    second: str
    comparisons: tuple[Comparison, ...]
    only_first: tuple[str, ...]  # requirements with a bundle in the first run only
    only_second: tuple[str, ...]

    @property
    def regressions(self) -> int:
        return sum(len(c.regressions) for c in self.comparisons)


def compare_runs(
    store: Store, first: str, second: str, thresholds: Thresholds | None = None
) -> RunComparison:
    """Compare run ``second`` with run ``first`` (their labels), every requirement both kept
    a bundle of. Raises :class:`UnknownRun` for a name that is not a run."""
    a, b = find_run(store, first), find_run(store, second)
    older = {r.req_id: r for r in store.traces.for_label(a)}
    newer = {r.req_id: r for r in store.traces.for_label(b)}
    found: list[Comparison] = []
    for req_id in sorted(older.keys() & newer.keys()):
        base, current = load(older[req_id]), load(newer[req_id])
        if base is not None and current is not None:
            found.append(compare(base, current, thresholds))
    return RunComparison(
        a,
        b,
        tuple(found),
        tuple(sorted(older.keys() - newer.keys())),
        tuple(sorted(newer.keys() - older.keys())),
    )
