"""Report hooks: JUnit properties, pytest-html, artifacts, the terminal summary.

A thin adapter: it reads each requirement item's ``RunRecord`` (``item.stash[RUN_KEY]``)
and hands it to :mod:`pytest_pacts.reports`. Under xdist the per-test work (properties,
extras, artifact files) happens on the worker that ran the test; what the controller needs
travels on the call report as JSON-friendly attributes (``report.pacts``,
``report.extras``), and the controller alone writes the run index and prints the summary
(a worker's report reaches the controller only through ``report``).

Register with :func:`register` from ``pytest_configure`` (idempotent).
"""

from __future__ import annotations

import base64
import os
import secrets
import urllib.parse
from collections.abc import Generator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_pacts.models import Plan
from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.keys import GENERATED_KEY, RUN_KEY, SECRETS_KEY

# The report writers (and, through the heal proposals, governance) are imported by the hooks
# that write: collection (``--collect-only`` in an IDE) loads none of them.
if TYPE_CHECKING:
    from pytest_pacts.models.outcome import RunRecord
    from pytest_pacts.reports import results
    from pytest_pacts.reports import summary as run_summary
    from pytest_pacts.reports.proposals import ProposalView
    from pytest_pacts.reports.redact import Redactor
    from pytest_pacts.store import Store

PLUGIN_NAME = "pacts-reporting"
RUN_ID_KEY = "pacts_run_id"
MAX_IMAGE_BYTES = 5 * 1024 * 1024
MAX_REGRESSION_PICTURES = 12  # regressions of one test shown with their pictures
SLO_WINDOW = timedelta(days=30)


def register(config: pytest.Config) -> None:
    """Register the report hooks once per config (``plugin.py`` calls this)."""
    if not config.pluginmanager.has_plugin(PLUGIN_NAME):
        config.pluginmanager.register(Reporting(config), PLUGIN_NAME)


def run_folder(config: pytest.Config) -> Path | None:
    """This session's run folder (``<report dir>/<run id>``; the same on every xdist
    worker), or ``None`` when reports are off."""
    plugin = config.pluginmanager.get_plugin(PLUGIN_NAME)
    return plugin.run_dir if isinstance(plugin, Reporting) else None


def run_label(config: pytest.Config) -> str | None:
    """This session's run id (the name of its report folder; the same on every xdist
    worker), which names its trace bundles; ``None`` when the report hooks are not loaded."""
    plugin = config.pluginmanager.get_plugin(PLUGIN_NAME)
    return plugin.run_id if isinstance(plugin, Reporting) else None


def pytest_configure(config: pytest.Config) -> None:
    """So ``-p pytest_pacts.pytest_plugin.reporting`` (or registering this module) works."""
    register(config)


def _new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3)


def _plan(item: pytest.Item) -> Plan | None:
    plan = getattr(item, "plan", None)
    return plan if isinstance(plan, Plan) else None


class Reporting:
    """Stateful report plugin: one per pytest process."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.settings = options.settings(config)
        workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
        self.is_worker = workerinput is not None
        run_id = workerinput.get(RUN_ID_KEY) if workerinput else None
        self.run_id: str = str(run_id) if run_id else _new_run_id()
        self.entries: list[dict[str, object]] = []
        self.no_record = 0
        self.unrecorded: list[dict[str, object]] = []  # entries of items without a record
        self.results: results.Written | None = None
        self.started = datetime.now(UTC)
        self._store: Store | None = None
        self._store_tried = False

    # -- where things go ------------------------------------------------------------------
    @property
    def run_dir(self) -> Path | None:
        root = self.settings.report_root(self.config.rootpath)
        return None if root is None else root / self.run_id

    def store(self) -> Store | None:
        """A read connection to the store, when one exists (never creates one)."""
        if self._store_tried:
            return self._store
        self._store_tried = True
        from pytest_pacts.pytest_plugin.store_access import store_target

        target = store_target(self.config)
        local = target.removeprefix("sqlite:///")
        if "://" not in local and not Path(local).is_file():
            return None  # reports never create a store
        from pytest_pacts.store import StoreError, open_store

        try:
            self._store = open_store(target)
        except (StoreError, OSError, ValueError, ImportError):
            self._store = None
        return self._store

    # -- xdist ----------------------------------------------------------------------------
    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[RUN_ID_KEY] = self.run_id

    # -- per test -------------------------------------------------------------------------
    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if call.when == "teardown":
            self._redact_traces(item)
            try:
                self._keep_playwright_artifacts(item, report)
            except OSError as exc:
                item.warn(pytest.PytestWarning(f"pacts: could not keep the artifacts: {exc}"))
            # Items live as long as the session: a requirement's record (its steps, gate
            # snapshots, traces) is reported by now and must not be kept by its item, or a
            # worker grows by every requirement it ran (12 MiB per 100 in a 500-requirement
            # run). What the session end needs travelled on the call report (report.pacts).
            if RUN_KEY in item.stash:
                del item.stash[RUN_KEY]
            if GENERATED_KEY in item.stash:
                del item.stash[GENERATED_KEY]
            if SECRETS_KEY in item.stash:
                del item.stash[SECRETS_KEY]
        if call.when != "call":
            return report
        plan = _plan(item)
        record = item.stash.get(RUN_KEY, None)
        if record is None:
            if plan is not None:
                from pytest_pacts.reports.redact import Redactor

                report.pacts = {  # type: ignore[attr-defined]
                    "nodeid": item.nodeid,
                    "req_id": plan.req_id,
                    "verdict": None,
                    "result": self._result(item, plan, None, Redactor()),
                }
            return report
        try:
            self._report_record(item, report, record, plan)
        except OSError as exc:  # a full disk must not turn a verdict into an INTERNALERROR
            item.warn(pytest.PytestWarning(f"pacts: could not write reports: {exc}"))
        return report

    def _redact_traces(self, item: pytest.Item) -> None:
        """Mask the requirement's secrets in the test's Playwright traces (fill parameters,
        call logs, DOM snapshots with form values, network bodies). pytest-playwright moves
        the traces into the test's output folder just before the teardown report is made
        (its own report hook runs innermost), so they are all there by now."""
        funcargs: dict[str, object] = getattr(item, "funcargs", None) or {}
        folder = funcargs.get("output_path")
        plan = _plan(item)
        known = item.stash.get(SECRETS_KEY, set())
        if not isinstance(folder, str) or not Path(folder).is_dir():
            return
        if plan is None and not known and RUN_KEY not in item.stash:
            return  # not a pytest-pacts test: its traces are none of our business
        redactor = self._redactor(item, plan)
        for trace in sorted(Path(folder).glob("*.zip")):
            redactor.archive(trace)

    def _redactor(self, item: pytest.Item, plan: Plan | None) -> Redactor:
        """What masks ``item``'s secrets: the values its plan may type (environment values,
        defaults standing in for secrets, secret vars) and every secret its run knew
        (``SECRETS_KEY``: secret extracts, ``secret=True`` steps, the saved session)."""
        from pytest_pacts.reports.redact import Redactor, plan_secrets

        secret_vars = frozenset(self.settings.secret_vars)
        found = plan_secrets(plan, dict(os.environ), secret_vars) if plan is not None else []
        return Redactor([*found, *item.stash.get(SECRETS_KEY, set())])

    def _keep_playwright_artifacts(self, item: pytest.Item, report: pytest.TestReport) -> None:
        """Copy what pytest-playwright kept of a requirement's test (traces, screenshots,
        videos) into the run's own folder and point the HTML report's links and the
        ``playwright_*`` JUnit properties at the copies: pytest-playwright empties its
        ``--output`` folder when the next session starts, which broke old reports."""
        funcargs: dict[str, object] = getattr(item, "funcargs", None) or {}
        folder = funcargs.get("output_path")
        run_dir = self.run_dir
        if run_dir is None or not isinstance(folder, str) or not Path(folder).is_dir():
            return
        if _plan(item) is None and RUN_KEY not in item.stash:
            return  # not a pytest-pacts test: its artifacts are none of our business
        from pytest_pacts.reports import artifacts

        kept = artifacts.copy_tree(
            Path(folder), artifacts.requirement_dir(run_dir, item.nodeid) / "playwright"
        )
        if not kept:
            return
        invocation = item.config.invocation_params.dir
        links = {_html_link(self.config, old): _html_link(self.config, new) for old, new in kept}
        for extra in getattr(report, "extras", []):
            if isinstance(extra, dict) and extra.get("content") in links:
                extra["content"] = links[extra["content"]]
        paths = {str(old): new for old, new in kept}
        for i, (name, value) in enumerate(report.user_properties):
            if name.startswith("playwright_") and isinstance(value, str):
                new = paths.get(str(invocation / value)) or paths.get(value)
                if new is not None:
                    report.user_properties[i] = (name, _relative_to(new, invocation))

    def _report_record(
        self, item: pytest.Item, report: pytest.TestReport, record: RunRecord, plan: Plan | None
    ) -> None:
        from pytest_pacts.reports import artifacts, junit
        from pytest_pacts.reports.proposals import proposal_views

        views = proposal_views(record, self.store() if record.proposals else None)
        redactor = self._redactor(item, plan)
        paths: dict[str, Path] = {}
        if self.run_dir is not None:
            paths = artifacts.write_requirement_artifacts(
                self.run_dir, item.nodeid, record, views, redactor
            )
        record_path = str(paths["record"]) if "record" in paths else None
        for name, value in junit.junit_properties(record, views, record_path):
            item.user_properties.append((name, redactor.text(value)))
        entry: dict[str, object] = {
            "nodeid": item.nodeid,
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
        for key, path in paths.items():
            entry[key] = str(path)
        if record.baseline is not None:
            from pytest_pacts.reports.regressions import regression_json

            entry["baseline"] = record.baseline
            entry["regressions"] = [
                {k: redactor.text(v) if isinstance(v, str) else v for k, v in item.items()}
                for item in map(regression_json, record.regressions)
            ]
        if plan is not None and self.settings.generate:
            # written by the application layer when the run concluded (application.finish_run)
            entry["generated"] = item.stash.get(GENERATED_KEY, None)
        if plan is not None:
            entry["result"] = self._result(item, plan, record, redactor)
        report.pacts = entry  # type: ignore[attr-defined]
        if self.config.pluginmanager.hasplugin("html"):
            extras = self._html_extras(record, views, redactor)
            report.extras = [*getattr(report, "extras", []), *extras]  # type: ignore[attr-defined]

    def _result(
        self, item: pytest.Item, plan: Plan, record: RunRecord | None, redactor: Redactor
    ) -> dict[str, object] | None:
        """What the results workbook says about this item (built here, written by the
        controller at session end)."""
        if not self._results_on():
            return None
        from pytest_pacts.reports import results

        return results.requirement_result(
            plan, record, nodeid=item.nodeid, path=item.path, redact=redactor.text
        ).as_json()

    def _results_on(self) -> bool:
        return self.run_dir is not None and self.settings.results != "off"

    def _html_extras(
        self, record: RunRecord, views: list[ProposalView], redactor: Redactor
    ) -> list[dict[str, str | None]]:
        from pytest_html import extras as html_extras

        from pytest_pacts.reports import html

        out = [html_extras.html(redactor.text(html.requirement_html(record, views)))]
        if record.regressions:
            from pytest_pacts.reports.regressions import html_box

            pictures: dict[str, str] = {}
            for r in record.regressions[:MAX_REGRESSION_PICTURES]:
                for path in (r.screenshot_before, r.screenshot_after):
                    data = _read_image(path) if path else None
                    if path and data is not None:
                        pictures[path] = "data:image/jpeg;base64," + data
            out.append(html_extras.html(redactor.text(html_box(record, pictures))))
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
        for name, path in images:
            if path in seen:
                continue
            seen.add(path)
            data = _read_image(path)
            if data is not None:
                out.append(html_extras.png(data, name=name))
        return out

    # -- controller -----------------------------------------------------------------------
    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.is_worker:
            if report.when == "call":
                _release(report)
            return
        if report.when != "call":
            return
        entry = getattr(report, "pacts", None)
        if isinstance(entry, dict):
            if entry.get("verdict") is None:
                self.no_record += 1
                self.unrecorded.append(entry)
            else:
                self.entries.append(entry)

    def pytest_report_teststatus(
        self, report: pytest.TestReport, config: pytest.Config
    ) -> tuple[str, str, tuple[str, dict[str, bool]]] | None:
        """A ``partial`` verdict (steps with ``on_fail: skip`` were skipped) is its own
        outcome in pytest's terminal: ``P`` / ``PARTIAL`` and "1 partial" in the last line,
        not a plain "passed". The test still counts as passed for the exit code and JUnit."""
        entry = getattr(report, "pacts", None)
        partial = isinstance(entry, dict) and entry.get("verdict") == "partial"
        if report.when == "call" and report.passed and partial:
            return "partial", "P", ("PARTIAL", {"yellow": True})
        return None

    def summary(self) -> run_summary.RunSummary:
        from pytest_pacts.reports import summary as run_summary

        result = run_summary.from_entries(self.entries, self.no_record)
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

    def _write_results(self, run_dir: Path) -> results.Written:
        """The results workbooks and CSVs of the session (controller only)."""
        from pytest_pacts.pytest_plugin.validation import loader_options
        from pytest_pacts.reports import results

        found = []
        for entry in [*self.entries, *self.unrecorded]:
            data = entry.get("result")
            if isinstance(data, dict):
                found.append(results.RequirementResult.from_json(data))
        loader = loader_options(self.config)
        return results.write_results(
            run_dir / "results",
            found,
            run_id=self.run_id,
            limits=loader.limits,
            max_file_bytes=loader.max_file_bytes,
        )

    # tryfirst: pytest-html writes its report in its own (trylast) pytest_sessionfinish, and
    # its summary names the results files written here
    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.is_worker or not self.entries or self.run_dir is None:
            return
        from pytest_pacts.reports import artifacts
        from pytest_pacts.reports import summary as run_summary

        if self._results_on():
            self.results = self._write_results(self.run_dir)
            for problem in self.results.problems:
                session.config.issue_config_time_warning(
                    pytest.PytestWarning(f"pacts: {problem}"), 2
                )
        result = self.summary()
        index = {
            "run_id": self.run_id,
            "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "summary": result.as_json(),
            "requirements": run_summary.index_entries(self.entries),
        }
        try:
            artifacts.write_index(self.run_dir, index, result.markdown(f"Run {self.run_id}"))
            if self.settings.trace == "on":
                from pytest_pacts.reports.regressions import run_markdown

                text = run_markdown(self.run_id, self.entries, self.run_dir)
                artifacts.write_text(self.run_dir / "regressions.md", text)
            artifacts.write_text(self.run_dir.parent / "LATEST", self.run_id + "\n")
            if self.settings.report_keep > 0:
                artifacts.prune_runs(self.run_dir.parent, self.settings.report_keep)
        except OSError as exc:
            session.config.issue_config_time_warning(
                pytest.PytestWarning(f"pacts: could not write the run index: {exc}"), 2
            )

    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        if self.is_worker or not (self.entries or self.no_record):
            return
        terminalreporter.section("pytest-pacts")
        for line in self.summary().terminal_lines():
            terminalreporter.write_line(line)
        for problem in self.results.problems if self.results is not None else ():
            terminalreporter.write_line(f"results not written: {problem}", yellow=True)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    # -- pytest-html (optional) -----------------------------------------------------------
    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_table_header(self, cells: list[str]) -> None:
        from pytest_pacts.reports import html

        cells.insert(2, html.VERDICT_HEADER)

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_table_row(self, report: pytest.TestReport, cells: list[str]) -> None:
        from pytest_pacts.reports import html

        entry = getattr(report, "pacts", None)
        if isinstance(entry, dict):
            verdict = _opt_str(entry.get("verdict"))
            if verdict == "partial" and cells and 'class="col-result"' in cells[0]:
                # pytest-html words the result from the pytest outcome ("Passed"); a partial
                # run (steps skipped by on_fail) is not a plain pass (issue 39)
                cells[0] = html.PARTIAL_RESULT
            cells.insert(2, html.verdict_cell(verdict, bool(entry.get("healed"))))
        else:
            cells.insert(2, html.verdict_cell(None, False))

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_summary(
        self, prefix: list[str], summary: list[str], postfix: list[str], session: pytest.Session
    ) -> None:
        if self.entries or self.no_record:
            from pytest_pacts.reports import html

            prefix.append(html.summary_html(self.summary()))


def _opt_str(value: object) -> str | None:
    return None if value is None else str(value)


def _relative_to(path: Path, base: Path) -> str:
    return str(path.relative_to(base)) if path.is_relative_to(base) else str(path)


def _release(report: pytest.TestReport) -> None:
    """A worker's call report, once xdist sent it to the controller (its own
    ``pytest_runtest_logreport`` runs before this trylast one): the worker keeps the report
    for the session (pytest-playwright hangs it on the item as ``rep_call``) but needs none
    of what travelled on it for the controller: the requirement's HTML (about 12 KB), its
    results entry and the other extras. Kept, a worker grew by them with every requirement
    it ran."""
    report.__dict__.pop("pacts", None)
    if getattr(report, "extras", None):
        report.extras = []  # type: ignore[attr-defined]


def _html_link(config: pytest.Config, path: Path) -> str:
    """The link pytest-playwright puts into the HTML report for ``path``: relative to the
    report's folder (``--html`` resolved against the invocation directory, as pytest-html
    4 does), URL-quoted."""
    html_path = getattr(config.option, "htmlpath", None)
    if not html_path:
        return str(path)
    html_dir = Path(
        config.invocation_params.dir, Path(os.path.expandvars(html_path)).expanduser()
    ).parent
    try:
        relative = os.path.relpath(path, html_dir)
    except ValueError:  # another drive on Windows
        return path.as_uri()
    return urllib.parse.quote(Path(relative).as_posix())


def _read_image(path: str) -> str | None:
    try:
        p = Path(path)
        if not p.is_file() or p.stat().st_size > MAX_IMAGE_BYTES:
            return None
        return base64.b64encode(p.read_bytes()).decode("ascii")
    except OSError:
        return None
