"""One session's reports, whoever runs it: the entries of its requirements and what is
written from them (docs/reports.md).

Per requirement, :meth:`RunReport.record_entry` writes its artifacts (``verdict_<req_id>.json``,
the step log, ``summary.md``) and answers a :class:`ReportEntry`: the JSON-friendly facts the
session's end needs. Under xdist the entry is made on the worker that ran the test and
travels to the controller on the test's report; the controller :meth:`~RunReport.add`\\ s it,
and at the end :meth:`~RunReport.finish` writes the results workbooks, the run index,
``regressions.md`` and ``LATEST``, and prunes old run folders.

Nothing here imports pytest: ``pytest_plugin/reporting.py`` is the thin adapter (hooks in,
entries on reports, warnings out), as pytest's ``junitxml.py`` is over its ``LogXML``.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from pytest_pacts.settings import PactsSettings

if TYPE_CHECKING:
    from pytest_pacts.models import Plan
    from pytest_pacts.models.outcome import RunRecord
    from pytest_pacts.reports import summary as run_summary
    from pytest_pacts.reports.proposals import ProposalView
    from pytest_pacts.reports.redact import Redactor
    from pytest_pacts.reports.results import Written
    from pytest_pacts.store import Store

__all__ = ["ProposalRef", "Recorded", "ReportEntry", "RunReport", "html_parts"]

MAX_IMAGE_BYTES = 5 * 1024 * 1024
MAX_REGRESSION_PICTURES = 12  # regressions of one test shown with their pictures
SLO_WINDOW = timedelta(days=30)


class ProposalRef(TypedDict):
    """A heal proposal a run made, as the summary counts it."""

    id: str
    track: str | None
    promotion_required: bool


class ReportEntry(TypedDict, total=False):
    """What one requirement's test hands to the session's end (JSON-friendly: it travels
    from an xdist worker to the controller on the test's report). ``verdict`` is ``None``
    for a requirement that left no record (its test errored before running it)."""

    nodeid: str
    req_id: str
    verdict: str | None
    rca_class: str
    healed: bool
    heal_count: int
    heal_rounds: int
    llm_calls: int
    plan_hash: str
    started_at: str
    proposals: list[ProposalRef]
    # the requirement's artifacts (reports/artifacts.py), when the report folder is on
    record: str
    log: str
    summary: str
    # its trace comparison with the last passing run (reports/regressions.py)
    baseline: str
    regressions: list[dict[str, object]]
    generated: str | None  # the plain test --pacts-generate wrote
    result: dict[str, object] | None  # its rows in the results workbook (reports/results.py)


@dataclass(frozen=True)
class Recorded:
    """What :meth:`RunReport.record_entry` made of one requirement's record: its entry,
    its JUnit properties (redacted) and the views of its heal proposals."""

    entry: ReportEntry
    properties: list[tuple[str, str]]
    views: list[ProposalView]


@dataclass
class RunReport:
    """The reports of one session (one per process; every xdist worker shares the
    controller's ``run_id``). ``open_store`` answers a read connection to the store when
    one exists (reports never create one)."""

    settings: PactsSettings
    rootpath: Path
    run_id: str  # names the run's folder and its trace bundles
    open_store: Callable[[], Store | None] = lambda: None
    entries: list[ReportEntry] = field(default_factory=list)
    unrecorded: list[ReportEntry] = field(default_factory=list)  # no record: errored early
    results: Written | None = None
    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    _store: Store | None = None
    _store_tried: bool = False

    @property
    def run_dir(self) -> Path | None:
        """``<report dir>/<run id>``, or ``None`` when reports are off."""
        root = self.settings.report_root(self.rootpath)
        return None if root is None else root / self.run_id

    @property
    def results_on(self) -> bool:
        return self.run_dir is not None and self.settings.results != "off"

    def store(self) -> Store | None:
        if not self._store_tried:
            self._store_tried = True
            self._store = self.open_store()
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    # -- per requirement (on the process that ran it) -------------------------------------
    def unrecorded_entry(self, nodeid: str, plan: Plan, path: Path) -> ReportEntry:
        """The entry of a requirement whose test left no record (it errored before running)."""
        from pytest_pacts.reports.redact import Redactor

        return {
            "nodeid": nodeid,
            "req_id": plan.req_id,
            "verdict": None,
            "result": self._result(nodeid, path, plan, None, Redactor()),
        }

    def record_entry(
        self,
        nodeid: str,
        path: Path,
        record: RunRecord,
        plan: Plan | None,
        redactor: Redactor,
        generated: str | None = None,
    ) -> Recorded:
        """Write the requirement's artifacts and answer its entry; raises ``OSError`` when
        the disk refuses (the caller warns: a full disk must not change a verdict)."""
        from pytest_pacts.reports import artifacts, junit
        from pytest_pacts.reports.proposals import proposal_views

        views = proposal_views(record, self.store() if record.proposals else None)
        paths: dict[str, Path] = {}
        if self.run_dir is not None:
            paths = artifacts.write_requirement_artifacts(
                self.run_dir, nodeid, record, views, redactor
            )
        record_path = str(paths["record"]) if "record" in paths else None
        properties = [
            (name, redactor.text(value))
            for name, value in junit.junit_properties(record, views, record_path)
        ]
        entry = _facts(nodeid, record, views)
        if "record" in paths:
            entry["record"] = str(paths["record"])
        if "log" in paths:
            entry["log"] = str(paths["log"])
        if "summary" in paths:
            entry["summary"] = str(paths["summary"])
        if record.baseline is not None:
            from pytest_pacts.reports.regressions import regression_json

            entry["baseline"] = record.baseline
            entry["regressions"] = [
                {k: redactor.text(v) if isinstance(v, str) else v for k, v in found.items()}
                for found in map(regression_json, record.regressions)
            ]
        if plan is not None and self.settings.generate:
            entry["generated"] = generated
        if plan is not None:
            entry["result"] = self._result(nodeid, path, plan, record, redactor)
        return Recorded(entry, properties, views)

    def _result(
        self, nodeid: str, path: Path, plan: Plan, record: RunRecord | None, redactor: Redactor
    ) -> dict[str, object] | None:
        """What the results workbook says about this requirement (built here, written by
        the controller at the session's end)."""
        if not self.results_on:
            return None
        from pytest_pacts.reports import result_rows

        return result_rows.requirement_result(
            plan, record, nodeid=nodeid, path=path, redact=redactor.text
        ).as_json()

    # -- the session's end (the controller) -----------------------------------------------
    def add(self, entry: ReportEntry) -> None:
        """An entry of the session, from this process or a worker."""
        (self.entries if entry.get("verdict") is not None else self.unrecorded).append(entry)

    @property
    def has_entries(self) -> bool:
        return bool(self.entries or self.unrecorded)

    def summary(self) -> run_summary.RunSummary:
        from pytest_pacts.reports import summary as run_summary

        result = run_summary.from_entries(self.entries, len(self.unrecorded))
        store = self.store()
        if store is not None:
            since = datetime.now(UTC) - SLO_WINDOW
            result = run_summary.with_store_history(result, store, since, self.started)
        run_summary.select_slos(
            result, self.settings.slos, llm_configured=self.settings.extension_budget > 0
        )
        if self.entries and self.run_dir is not None:
            result.report_dir = str(self.run_dir)
        if self.results is not None:
            result.results = [str(p) for p in self.results.paths]
        return result

    def finish(self) -> list[str]:
        """Write what the session leaves behind: the results workbooks, the run index,
        ``regressions.md``, ``LATEST``; prune old run folders. Answers the problems, for the
        caller to warn about."""
        run_dir = self.run_dir
        if not self.entries or run_dir is None:
            return []
        from pytest_pacts.reports import artifacts
        from pytest_pacts.reports import summary as run_summary

        problems: list[str] = []
        if self.results_on:
            self.results = self._write_results(run_dir)
            problems.extend(self.results.problems)
        result = self.summary()
        index = {
            "run_id": self.run_id,
            "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "summary": result.as_json(),
            "requirements": run_summary.index_entries(self.entries),
        }
        try:
            artifacts.write_index(run_dir, index, result.markdown(f"Run {self.run_id}"))
            if self.settings.trace == "on":
                from pytest_pacts.reports.regressions import run_markdown

                text = run_markdown(self.run_id, self.entries, run_dir)
                artifacts.write_text(run_dir / "regressions.md", text)
            artifacts.write_text(run_dir.parent / "LATEST", self.run_id + "\n")
            if self.settings.report_keep > 0:
                artifacts.prune_runs(run_dir.parent, self.settings.report_keep)
        except OSError as exc:
            problems.append(f"could not write the run index: {exc}")
        return problems

    def _write_results(self, run_dir: Path) -> Written:
        """The results workbooks and CSVs of the session, the sheets read back under the
        session's limits."""
        from pytest_pacts.planner.readers.limits import ReadLimits, max_file_bytes
        from pytest_pacts.reports import result_rows, results

        found = [
            result_rows.RequirementResult.from_json(data)
            for entry in [*self.entries, *self.unrecorded]
            if isinstance(data := entry.get("result"), dict)
        ]
        return results.write_results(
            run_dir / "results",
            found,
            run_id=self.run_id,
            limits=ReadLimits.of(self.settings),
            max_file_bytes=max_file_bytes(self.settings),
        )


def _facts(nodeid: str, record: RunRecord, views: Sequence[ProposalView]) -> ReportEntry:
    """The facts of a requirement's run the summary and the index count."""
    return {
        "nodeid": nodeid,
        "req_id": record.req_id,
        "verdict": record.verdict,
        "rca_class": record.rca.rca_class.value,
        "healed": record.healed,
        "heal_count": record.heal_count,
        "heal_rounds": record.heal_rounds,
        "llm_calls": record.llm_calls,
        "plan_hash": record.plan_hash,
        "started_at": record.started_at,
        "proposals": [
            {"id": v.id, "track": v.track, "promotion_required": v.promotion_required}
            for v in views
        ],
    }


def html_parts(
    record: RunRecord, views: Sequence[ProposalView], redactor: Redactor
) -> tuple[list[str], list[tuple[str, str]]]:
    """What the HTML report shows of one requirement: its HTML fragments (the step table,
    the regressions box with their pictures inlined) and its pictures, as ``(name, base64
    PNG)`` (the run's screenshots, each heal's before and after), each once."""
    from pytest_pacts.reports import html

    fragments = [redactor.text(html.requirement_html(record, list(views)))]
    if record.regressions:
        from pytest_pacts.reports.regressions import html_box

        pictures: dict[str, str] = {}
        for r in record.regressions[:MAX_REGRESSION_PICTURES]:
            for path in (r.screenshot_before, r.screenshot_after):
                data = read_image(path) if path else None
                if path and data is not None:
                    pictures[path] = "data:image/jpeg;base64," + data
        fragments.append(redactor.text(html_box(record, pictures)))
    images: list[tuple[str, str]] = []
    for key, path in sorted(record.artifacts.items()):
        if "screenshot" in key and path.lower().endswith(".png"):
            images.append((key.replace("_", " "), path))
    for step in record.steps:
        for heal in step.heals:
            for label, shot in (
                ("before heal", heal.screenshot_before),
                ("after heal", heal.screenshot_after),
            ):
                if shot:
                    images.append((f"step {step.index + 1} {label} (round {heal.round})", shot))
    seen: set[str] = set()
    pngs: list[tuple[str, str]] = []
    for name, path in images:
        if path in seen:
            continue
        seen.add(path)
        data = read_image(path)
        if data is not None:
            pngs.append((name, data))
    return fragments, pngs


def read_image(path: str) -> str | None:
    """``path``'s bytes in base64, or ``None`` when missing or over 5 MiB."""
    try:
        p = Path(path)
        if not p.is_file() or p.stat().st_size > MAX_IMAGE_BYTES:
            return None
        return base64.b64encode(p.read_bytes()).decode("ascii")
    except OSError:
        return None
