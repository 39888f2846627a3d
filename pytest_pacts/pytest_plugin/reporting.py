"""Report hooks: JUnit properties, pytest-html, artifacts, the terminal summary.

A thin adapter over :class:`~pytest_pacts.reports.session.RunReport`, which builds each
requirement's :class:`~pytest_pacts.reports.session.ReportEntry` and writes every file (as
pytest's ``junitxml.py`` is over its ``LogXML``). It reads each requirement item's
``RunRecord`` (``item.stash[RUN_KEY]``). Under xdist the per-test work (properties, extras,
artifact files) happens on the worker that ran the test; the entry travels to the controller
on the call report (``report.pacts``, with ``report.extras``), and the controller alone
writes the run index and prints the summary.

Register with :func:`register` from ``pytest_configure`` (idempotent).
"""

from __future__ import annotations

import os
import secrets
import urllib.parse
from collections.abc import Generator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.items import RequirementItem
from pytest_pacts.pytest_plugin.keys import GENERATED_KEY, RUN_KEY, SECRETS_KEY
from pytest_pacts.pytest_plugin.workers import is_worker, worker_input

# The report writers (and, through the heal proposals, governance) are imported by the hooks
# that write: collection (``--collect-only`` in an IDE) loads none of them.
if TYPE_CHECKING:
    from pytest_pacts.models import Plan
    from pytest_pacts.models.outcome import RunRecord
    from pytest_pacts.reports.redact import Redactor
    from pytest_pacts.reports.session import ReportEntry, RunReport
    from pytest_pacts.store import Store

PLUGIN_NAME = "pacts-reporting"
RUN_ID_KEY = "pacts_run_id"


def register(config: pytest.Config) -> None:
    """Register the report hooks once per config (``plugin.py`` calls this)."""
    if not config.pluginmanager.has_plugin(PLUGIN_NAME):
        config.pluginmanager.register(Reporting(config), PLUGIN_NAME)


def _reporting(config: pytest.Config) -> Reporting | None:
    plugin = config.pluginmanager.get_plugin(PLUGIN_NAME)
    return plugin if isinstance(plugin, Reporting) else None


def run_folder(config: pytest.Config) -> Path | None:
    """This session's run folder (``<report dir>/<run id>``; the same on every xdist
    worker), or ``None`` when reports are off."""
    plugin = _reporting(config)
    return plugin.run_dir if plugin is not None else None


def run_label(config: pytest.Config) -> str | None:
    """This session's run id (the name of its report folder; the same on every xdist
    worker), which names its trace bundles; ``None`` when the report hooks are not loaded."""
    plugin = _reporting(config)
    return plugin.run_id if plugin is not None else None


def pytest_configure(config: pytest.Config) -> None:
    """So ``-p pytest_pacts.pytest_plugin.reporting`` (or registering this module) works."""
    register(config)


def _new_run_id() -> str:
    """A run's id: when it started, and a few random characters (two runs that start in
    the same second differ)."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3)


def _plan(item: pytest.Item) -> Plan | None:
    return item.plan if isinstance(item, RequirementItem) else None


def _entry(report: pytest.TestReport) -> ReportEntry | None:
    """The requirement's entry a call report carries (``None``: not a requirement's)."""
    entry = getattr(report, "pacts", None)
    # a dict from this process or, deserialised, from a worker: the shape RunReport made
    return cast("ReportEntry", entry) if isinstance(entry, dict) else None


def _open_store(config: pytest.Config) -> Store | None:
    """A read connection to the store, when one exists (reports never create one)."""
    from pytest_pacts.pytest_plugin.store_access import store_target

    target = store_target(config)
    local = target.removeprefix("sqlite:///")
    if "://" not in local and not Path(local).is_file():
        return None
    from pytest_pacts.store import StoreError, open_store

    try:
        return open_store(target)
    except (StoreError, OSError, ValueError, ImportError):
        return None


class Reporting:
    """Stateful report plugin: one per pytest process, over this session's
    :class:`~pytest_pacts.reports.session.RunReport`."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.settings = options.settings(config)
        self.is_worker = is_worker(config)
        given = (worker_input(config) or {}).get(RUN_ID_KEY)
        self.run_id = str(given) if given else _new_run_id()
        self._report: RunReport | None = None

    @property
    def report(self) -> RunReport:
        """This session's reports, made when first needed (collection imports no writer)."""
        if self._report is None:
            from pytest_pacts.reports.session import RunReport

            config = self.config
            self._report = RunReport(
                self.settings, config.rootpath, self.run_id, lambda: _open_store(config)
            )
        return self._report

    @property
    def run_dir(self) -> Path | None:
        """``<report dir>/<run id>``, or ``None`` when reports are off."""
        root = self.settings.report_root(self.config.rootpath)
        return None if root is None else root / self.run_id

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
                _attach(report, "pacts", self.report.unrecorded_entry(item.nodeid, plan, item.path))
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
        folder = _output_folder(item)
        plan = _plan(item)
        known = item.stash.get(SECRETS_KEY, set())
        if folder is None:
            return
        if plan is None and not known and RUN_KEY not in item.stash:
            return  # not a pytest-pacts test: its traces are none of our business
        redactor = self._redactor(item, plan)
        for trace in sorted(folder.glob("*.zip")):
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
        folder = _output_folder(item)
        run_dir = self.run_dir
        if run_dir is None or folder is None:
            return
        if _plan(item) is None and RUN_KEY not in item.stash:
            return  # not a pytest-pacts test: its artifacts are none of our business
        from pytest_pacts.reports import artifacts

        kept = artifacts.copy_tree(
            folder, artifacts.requirement_dir(run_dir, item.nodeid) / "playwright"
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
        redactor = self._redactor(item, plan)
        done = self.report.record_entry(
            item.nodeid,
            item.path,
            record,
            plan,
            redactor,
            # written by the application layer when the run concluded (finish_run)
            generated=item.stash.get(GENERATED_KEY, None),
        )
        item.user_properties.extend(done.properties)
        _attach(report, "pacts", done.entry)
        if self.config.pluginmanager.hasplugin("html"):
            from pytest_html import extras as html_extras

            from pytest_pacts.reports.session import html_parts

            fragments, pngs = html_parts(record, done.views, redactor)
            extras = [
                *(html_extras.html(text) for text in fragments),
                *(html_extras.png(data, name=name) for name, data in pngs),
            ]
            _attach(report, "extras", [*getattr(report, "extras", []), *extras])

    # -- controller -----------------------------------------------------------------------
    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.is_worker:
            if report.when == "call":
                _release(report)
            return
        entry = _entry(report)
        if report.when == "call" and entry is not None:
            self.report.add(entry)

    def pytest_report_teststatus(
        self, report: pytest.TestReport, config: pytest.Config
    ) -> tuple[str, str, tuple[str, dict[str, bool]]] | None:
        """A ``partial`` verdict (steps with ``on_fail: skip`` were skipped) is its own
        outcome in pytest's terminal: ``P`` / ``PARTIAL`` and "1 partial" in the last line,
        not a plain "passed". The test still counts as passed for the exit code and JUnit."""
        entry = _entry(report)
        partial = entry is not None and entry.get("verdict") == "partial"
        if report.when == "call" and report.passed and partial:
            return "partial", "P", ("PARTIAL", {"yellow": True})
        return None

    # tryfirst: pytest-html writes its report in its own (trylast) pytest_sessionfinish, and
    # its summary names the results files written here
    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.is_worker or self._report is None:  # no test reported: nothing to write
            return
        for problem in self._report.finish():
            session.config.issue_config_time_warning(pytest.PytestWarning(f"pacts: {problem}"), 2)

    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        if self.is_worker or self._report is None or not self._report.has_entries:
            return
        terminalreporter.section("pytest-pacts")
        for line in self.report.summary().terminal_lines():
            terminalreporter.write_line(line)
        written = self.report.results
        for problem in written.problems if written is not None else ():
            terminalreporter.write_line(f"results not written: {problem}", yellow=True)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self._report is not None:
            self._report.close()

    # -- pytest-html (optional) -----------------------------------------------------------
    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_table_header(self, cells: list[str]) -> None:
        from pytest_pacts.reports import html

        cells.insert(2, html.VERDICT_HEADER)

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_table_row(self, report: pytest.TestReport, cells: list[str]) -> None:
        from pytest_pacts.reports import html

        entry = _entry(report)
        if entry is not None:
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
        if self._report is not None and self._report.has_entries:
            from pytest_pacts.reports import html

            prefix.append(html.summary_html(self.report.summary()))


def _attach(report: pytest.TestReport, name: str, value: object) -> None:
    """Hang ``value`` on ``report`` as ``name``: a report's attributes are what xdist sends
    to the controller (pytest's ``_report_to_json`` serialises its ``__dict__``)."""
    vars(report)[name] = value


def _output_folder(item: pytest.Item) -> Path | None:
    """pytest-playwright's output folder of the test (its ``output_path`` fixture), when it
    exists."""
    funcargs: dict[str, object] = getattr(item, "funcargs", None) or {}
    folder = funcargs.get("output_path")
    return Path(folder) if isinstance(folder, str) and Path(folder).is_dir() else None


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
        _attach(report, "extras", [])


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
