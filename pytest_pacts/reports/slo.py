"""The SLOs (docs/reports.md "SLO definitions"), defined precisely over finished runs.

A run here is a :class:`RunFact`, built from the store's ``runs`` rows (``pacts report``) or
from this session's test reports (terminal summary without a store). Definitions:

- **LLM calls per run** = sum of ``llm_calls`` / number of finished runs. Target <= 0.2.
- **Second-run success** ("a requirement that passed once passes again with no
  discovery, no healing and no LLM"): over every run whose previous finished run of the
  same requirement *with the same plan hash* passed, the share that passed with no heal and
  no LLM call. Target >= 95%.
- **Post-patch recovery**: over every run in which a heal was applied (``heal_count > 0``;
  a heal is the in-run patch of the recipe), the share whose verdict is
  ``pass``. Target >= 80%.

An SLO with no qualifying run has no value and status ``N/A``: nothing measured is neither
a pass nor a failure. Nor is a share of a few runs: an SLO measured over fewer than
:data:`MIN_RUNS` qualifying runs keeps its value but has status ``N/A`` (one heal in nine
second runs read "2nd run success 11% FAIL" on a green demo report; with 20 runs one run is
5%, the margin of the 95% target). :func:`shown` picks the SLOs worth printing: the LLM
target applies only to projects whose runs make LLM calls, and by default a session shows
SLOs only once the store holds runs of earlier sessions (one session is no trend).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from pytest_pacts.store import Run

SloStatus = Literal["PASS", "FAIL", "N/A"]
SloMode = Literal["auto", "always", "off"]


@dataclass(frozen=True)
class RunFact:
    """What the SLOs need of one finished run."""

    req_id: str
    plan_hash: str | None
    verdict: str | None
    healed: bool
    heal_count: int
    llm_calls: int
    started_at: str  # ISO 8601, sorts in time order for one writer's format

    @classmethod
    def from_store(cls, run: Run) -> RunFact:
        return cls(
            req_id=run.req_id,
            plan_hash=run.plan_hash,
            verdict=run.verdict,
            healed=run.healed,
            heal_count=run.heal_count,
            llm_calls=run.llm_calls,
            started_at=run.started_at.isoformat(),
        )


@dataclass(frozen=True)
class SloResult:
    key: str
    title: str
    target: str
    numerator: float
    denominator: int
    value: float | None
    status: SloStatus
    percent: bool
    needed: int = 0  # qualifying runs needed for a PASS or FAIL

    @property
    def actual(self) -> str:
        if self.value is None:
            return "n/a"
        shown = f"{self.value:.0%}" if self.percent else f"{self.value:.2f}"
        if self.denominator < self.needed:
            return f"{shown} ({self.denominator} of {self.needed} runs)"
        return shown

    def as_json(self) -> dict[str, object]:
        return {
            "key": self.key,
            "title": self.title,
            "target": self.target,
            "value": self.value,
            "numerator": self.numerator,
            "denominator": self.denominator,
            "status": self.status,
            "min_runs": self.needed,
        }


LLM_CALLS_TARGET = 0.2
SECOND_RUN_TARGET = 0.95
RECOVERY_TARGET = 0.80
#: Qualifying runs an SLO needs before it passes or fails (docs/reports.md, "SLO definitions").
MIN_RUNS = 20


def _result(
    key: str,
    title: str,
    target: str,
    num: float,
    den: int,
    ok: bool | None,
    percent: bool,
    needed: int,
) -> SloResult:
    value = num / den if den else None
    status: SloStatus = "N/A" if value is None or den < needed else ("PASS" if ok else "FAIL")
    return SloResult(key, title, target, num, den, value, status, percent, needed)


def second_run_pairs(runs: Iterable[RunFact]) -> list[tuple[RunFact, RunFact]]:
    """(previous, current) for every run whose previous run (same requirement, same plan
    hash) passed."""
    by_key: dict[tuple[str, str | None], list[RunFact]] = {}
    for run in runs:
        if run.verdict is not None:
            by_key.setdefault((run.req_id, run.plan_hash), []).append(run)
    pairs: list[tuple[RunFact, RunFact]] = []
    for group in by_key.values():
        group.sort(key=lambda r: r.started_at)
        pairs.extend((a, b) for a, b in itertools.pairwise(group) if a.verdict == "pass")
    return pairs


def applicable(results: Sequence[SloResult], *, llm_in_use: bool) -> list[SloResult]:
    """The SLOs whose target applies: "LLM calls/run" only where runs made LLM calls or an
    external healer is configured (a project that uses no LLM has nothing to keep low)."""
    return [s for s in results if s.key != "llm_calls_per_run" or llm_in_use]


def shown(
    results: Sequence[SloResult], mode: SloMode, *, history: bool, llm_in_use: bool
) -> list[SloResult]:
    """The SLOs a run summary shows. ``always``: every SLO that applies, ``N/A`` included;
    ``off``: none; ``auto``: only with ``history`` (the store holds runs of earlier
    sessions), and only the SLOs that apply and have enough runs to pass or fail."""
    if mode == "off":
        return []
    chosen = applicable(results, llm_in_use=llm_in_use)
    if mode == "always":
        return chosen
    return [s for s in chosen if s.status != "N/A"] if history else []


def compute_slos(runs: Sequence[RunFact], *, min_runs: int = MIN_RUNS) -> list[SloResult]:
    """The SLOs over ``runs``; fewer than ``min_runs`` qualifying runs is ``N/A``."""
    finished = [r for r in runs if r.verdict is not None]
    llm = sum(r.llm_calls for r in finished)
    avg = llm / len(finished) if finished else None
    pairs = second_run_pairs(finished)
    clean = sum(1 for _, b in pairs if b.verdict == "pass" and b.heal_count == 0 and not b.healed
                and b.llm_calls == 0)  # fmt: skip
    patched = [r for r in finished if r.heal_count > 0]
    recovered = sum(1 for r in patched if r.verdict == "pass")
    return [
        _result(
            "llm_calls_per_run",
            "LLM calls/run",
            "<= 0.2",
            llm,
            len(finished),
            avg is not None and avg <= LLM_CALLS_TARGET,
            False,
            min_runs,
        ),
        _result(
            "second_run_success",
            "2nd run success",
            ">= 95%",
            clean,
            len(pairs),
            bool(pairs) and clean / len(pairs) >= SECOND_RUN_TARGET,
            True,
            min_runs,
        ),
        _result(
            "post_patch_recovery",
            "Post-patch recovery",
            ">= 80%",
            recovered,
            len(patched),
            bool(patched) and recovered / len(patched) >= RECOVERY_TARGET,
            True,
            min_runs,
        ),
    ]
