"""The run summary: terminal lines, Markdown and JSON (docs/reports.md "Terminal summary").

One :class:`RunSummary` feeds the pytest terminal summary, ``index.md`` / ``index.json`` and
``pacts report``, so they always say the same thing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from pytest_pacts.reports import regressions
from pytest_pacts.reports.slo import RunFact, SloMode, SloResult, applicable, compute_slos, shown

if TYPE_CHECKING:
    from pytest_pacts.store import Store

VERDICTS = ("pass", "fail", "partial")
TRACKS = ("contract", "exception", "ungated")


@dataclass
class RunSummary:
    verdicts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))
    no_record: int = 0  # requirement items that produced no run record
    healed: int = 0
    heals_by_track: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TRACKS, 0))
    pending_by_track: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TRACKS, 0))
    promotion_required: int = 0
    slos: list[SloResult] = field(default_factory=list)
    slo_scope: str = ""
    llm_calls: int = 0  # LLM calls made by the runs the SLOs were computed over
    earlier_runs: int = 0  # stored runs that started before this session
    report_dir: str | None = None
    results: list[str] = field(default_factory=list)  # the results workbooks and CSVs
    store: str | None = None
    recent: list[RunFact] = field(default_factory=list)
    # differences from the last passing runs (trace bundles): the count and the lines shown
    regressions: int = 0
    regression_lines: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.verdicts.values())

    def as_json(self) -> dict[str, object]:
        return {
            "verdicts": dict(self.verdicts),
            "no_record": self.no_record,
            "healed": self.healed,
            "heals_by_track": dict(self.heals_by_track),
            "pending_proposals_by_track": dict(self.pending_by_track),
            "promotion_required": self.promotion_required,
            "slo_scope": self.slo_scope,
            "slos": [s.as_json() for s in self.slos],
            "regressions": self.regressions,
            "report_dir": self.report_dir,
            "results": list(self.results),
            "store": self.store,
        }

    # -- renderings ---------------------------------------------------------------------
    def terminal_lines(self) -> list[str]:
        v = self.verdicts
        line = f"verdicts: {v['pass']} pass, {v['fail']} fail, {v['partial']} partial"
        if self.no_record:
            line += f", {self.no_record} without a run record"
        heals = ", ".join(f"{n} {t}" for t, n in self.heals_by_track.items() if n) or "none"
        pending = ", ".join(f"{n} {t}" for t, n in self.pending_by_track.items() if n) or "none"
        lines = [
            line,
            f"healed: {self.healed} requirement(s); heals by track: {heals}",
            f"pending proposals: {pending}; promotion required: {self.promotion_required}",
        ]
        lines.extend(self.regression_lines)
        if self.slos:
            lines.append(f"SLOs ({self.slo_scope}):")
        for s in self.slos:
            lines.append(
                f"  {s.status:<4} {s.title:<20} {s.actual:>6} (target {s.target}, "
                f"{_fmt(s.numerator)}/{s.denominator})"
            )
        if self.report_dir:
            lines.append(f"reports: {self.report_dir}")
            if self.regressions:
                lines.append(f"regressions: {self.report_dir}/regressions.md")
        lines.extend(f"results: {path}" for path in self.results)
        return lines

    def markdown(self, title: str = "pytest-pacts report") -> str:
        v = self.verdicts
        out = [
            f"# {title}",
            "",
            f"- Verdicts: {v['pass']} pass, {v['fail']} fail, {v['partial']} partial",
            f"- Healed requirements: {self.healed}",
            "- Heals by track: " + _pairs(self.heals_by_track),
            "- Pending proposals: " + _pairs(self.pending_by_track),
            f"- Promotion required: {self.promotion_required}",
        ]
        if self.regression_lines:
            out += ["", "## Regressions", "", *(f"- {x.strip()}" for x in self.regression_lines)]
        if self.slos:
            out += [
                "",
                f"## SLO Compliance ({self.slo_scope})",
                "| SLO | Target | Actual | Status |",
                "|-----|--------|--------|--------|",
            ]
            out += [f"| {s.title} | {s.target} | {s.actual} | {s.status} |" for s in self.slos]
        if self.results:
            out += ["", "## Results files", *(f"- `{path}`" for path in self.results)]
        if self.recent:
            out += ["", "## Recent Runs", "| Requirement | Started | Verdict | Heals | LLM |"]
            out.append("|---|---|---|---|---|")
            for r in self.recent[-20:]:
                out.append(
                    f"| {_cell(r.req_id)} | {r.started_at[:19]} | {r.verdict or '-'} | "
                    f"{r.heal_count} | {r.llm_calls} |"
                )
        return "\n".join(out) + "\n"


def _fmt(n: float) -> str:
    return str(int(n)) if float(n).is_integer() else f"{n:.2f}"


def _pairs(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{t} {n}" for t, n in counts.items()) or "none"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def add_store_proposals(summary: RunSummary, store: Store) -> None:
    """Pending proposals by track and the promotion-required count, from the store."""
    summary.pending_by_track = dict.fromkeys(TRACKS, 0)
    summary.promotion_required = 0
    for p in store.proposals.query(status="pending"):
        summary.pending_by_track[p.track if p.track in TRACKS else "ungated"] += 1
        summary.promotion_required += int(p.promotion_required)


def store_facts(store: Store, since: datetime | None) -> list[RunFact]:
    return [RunFact.from_store(r) for r in store.runs.query(since=since, status="finished")]


def from_store(store: Store, since: datetime | None) -> RunSummary:
    """``pacts report``: everything from the store, runs started at or after ``since``."""
    facts = store_facts(store, since)
    summary = RunSummary(store=store.location)
    for fact in facts:
        if fact.verdict in summary.verdicts:
            summary.verdicts[fact.verdict] += 1
        summary.healed += int(fact.healed)
    for p in store.proposals.query(since=since):
        summary.heals_by_track[p.track if p.track in TRACKS else "ungated"] += 1
    add_store_proposals(summary, store)
    llm_calls = sum(f.llm_calls for f in facts)
    summary.slos = applicable(compute_slos(facts), llm_in_use=llm_calls > 0)
    summary.llm_calls = llm_calls
    summary.slo_scope = f"{len(facts)} stored run(s)" + (
        f" since {since.isoformat(timespec='seconds')}" if since else ""
    )
    summary.recent = facts
    return summary


def from_entries(entries: Iterable[Mapping[str, object]], no_record: int = 0) -> RunSummary:
    """The session's summary from the per-test ``pacts`` report entries (controller side)."""
    entries = list(entries)
    summary = RunSummary(no_record=no_record)
    facts: list[RunFact] = []
    for e in entries:
        verdict = str(e.get("verdict"))
        if verdict in summary.verdicts:
            summary.verdicts[verdict] += 1
        summary.healed += int(bool(e.get("healed")))
        proposals = e.get("proposals")
        for p in proposals if isinstance(proposals, list) else []:
            track = p.get("track") if isinstance(p, dict) else None
            key = track if track in ("contract", "exception") else "ungated"
            summary.heals_by_track[key] += 1
            summary.pending_by_track[key] += 1
            summary.promotion_required += int(bool(p.get("promotion_required")))
        facts.append(_fact(e))
    summary.slos = compute_slos(facts)
    summary.slo_scope = f"this session, {len(facts)} run(s)"
    summary.regression_lines = regressions.summary_lines(list(entries))
    summary.regressions = sum(
        len(r) for e in entries if isinstance(r := e.get("regressions"), list)
    )
    summary.llm_calls = sum(f.llm_calls for f in facts)
    return summary


def _first_start(facts: Sequence[RunFact]) -> datetime | None:
    """When the first of ``facts`` started (UTC when the store wrote no zone)."""
    starts: list[datetime] = []
    for f in facts:
        try:
            when = datetime.fromisoformat(f.started_at)
        except ValueError:
            continue
        starts.append(when if when.tzinfo else when.replace(tzinfo=UTC))
    return min(starts, default=None)


def _fact(e: Mapping[str, object]) -> RunFact:
    def num(key: str) -> int:
        value = e.get(key)
        return int(value) if isinstance(value, int | float) else 0

    plan_hash = e.get("plan_hash")
    return RunFact(
        req_id=str(e.get("req_id")),
        plan_hash=plan_hash if isinstance(plan_hash, str) else None,
        verdict=str(e.get("verdict")) if e.get("verdict") else None,
        healed=bool(e.get("healed")),
        heal_count=num("heal_count"),
        llm_calls=num("llm_calls"),
        started_at=str(e.get("started_at") or ""),
    )


def with_store_history(
    summary: RunSummary,
    store: Store,
    since: datetime | None,
    session_start: datetime | None = None,
) -> RunSummary:
    """Replace session-only SLOs and proposal counts by the store's (terminal summary);
    ``earlier_runs`` counts the stored runs started before ``session_start``."""
    facts = store_facts(store, since)
    if facts:  # a store that has recorded no run yet says less than this session does
        summary.slos = compute_slos(facts)
        summary.llm_calls = sum(f.llm_calls for f in facts)
        if session_start is not None:
            summary.earlier_runs = sum(
                1 for f in facts if datetime.fromisoformat(f.started_at) < session_start
            )
        # since the store's own first run in the window, not the window's start: a store
        # created today said "since 2026-10-29" (issue 39)
        first = _first_start(facts)
        start = first if since is None or (first is not None and first > since) else since
        summary.slo_scope = f"store, {len(facts)} run(s)" + (
            f" since {start.date().isoformat()}" if start else ""
        )
    add_store_proposals(summary, store)
    summary.store = store.location
    return summary


def select_slos(summary: RunSummary, mode: SloMode, *, llm_configured: bool = False) -> RunSummary:
    """Keep the SLOs worth showing (:func:`~pytest_pacts.reports.slo.shown`): the store
    has history when it holds runs of earlier sessions."""
    summary.slos = shown(
        summary.slos,
        mode,
        history=summary.earlier_runs > 0,
        llm_in_use=llm_configured or summary.llm_calls > 0,
    )
    return summary


def index_entries(entries: Sequence[Mapping[str, object]]) -> list[dict[str, object]]:
    keys = ("nodeid", "req_id", "verdict", "rca_class", "healed", "heal_count", "record",
            "summary", "log")  # fmt: skip
    return [{k: e.get(k) for k in keys} for e in entries]
