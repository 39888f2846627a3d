"""The ``pacts`` fixture: gated, healing steps in hand-written pytest-playwright tests.

Issue 5 item 7. The test drives navigation itself; each ``pacts.step(...)`` runs at once,
on the page as it is, through the same engine as a requirement item: find first, the
five-point gate, the action, the expectation with auto-wait, the healing ladder with the
abstain rule. Each call is a one-step plan run with
``Runtime(navigate=False)``; the steps of a test add up to one
:class:`~pytest_pacts.models.outcome.RunRecord` in ``item.stash[RUN_KEY]``, so JUnit
properties, pytest-html and the artifacts show the test like a requirement item, and the
pytest outcome follows the same rules (:func:`~pytest_pacts.pytest_plugin.execution.outcome`).

Registered by the plugin only when pytest-playwright is loaded (it needs ``page``).
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import pytest

from pytest_pacts.errors import PactsError, PactsStoreWarning
from pytest_pacts.planner.templating import MASK, Secret, reveal
from pytest_pacts.pytest_plugin import options
from pytest_pacts.pytest_plugin.execution import outcome, prepare
from pytest_pacts.pytest_plugin.keys import RUN_KEY, add_secrets
from pytest_pacts.settings import PactsSettings

# The engine, the application layer, the report writers and Playwright are imported when a
# step runs: the plugin registers this module at start-up, collection included.
if TYPE_CHECKING:
    from playwright.sync_api import Page

    from pytest_pacts.engine.api import Runtime
    from pytest_pacts.models import Plan, SourceRef, Step
    from pytest_pacts.models.outcome import RunRecord, StepRecord
    from pytest_pacts.reports.redact import Redactor

__all__ = ["PactsStepError", "PactsSteps", "PactsStoreWarning", "pacts"]

# a stable name per step, so the plan hash (and the cached locators) survive a new secret
_SECRET_ENV = "PACTS_STEP_SECRET_{n}"


class PactsStepError(ValueError, PactsError):
    """A ``pacts.step(...)`` call whose arguments are not a valid step (nothing ran)."""


class PactsSteps:
    """The ``pacts`` fixture's object: one per test, a growing list of gated steps."""

    def __init__(self, request: pytest.FixtureRequest, page: Page) -> None:
        self._config = request.config
        self._settings = options.settings(request.config)
        self._item = request.node
        self._page = page
        self.req_id = _req_id(request.node)
        self._steps: list[Step] = []
        self._runs: list[RunRecord] = []
        self._secrets: dict[str, Secret] = {}
        self._accepted: list[str] = []
        self._record: RunRecord | None = None
        self._first_url: str | None = None
        self._whole: Plan | None = None
        self._runtime: Runtime | None = None
        self._recorded = False

    @property
    def page(self) -> Page:
        """The page the steps run on (pytest-playwright's ``page``)."""
        return self._page

    @property
    def record(self) -> RunRecord | None:
        """The test's record so far (``None`` before the first step)."""
        return self._record

    @property
    def accepted(self) -> list[str]:
        """Notes on heal proposals ``--pacts-accept-heals`` accepted during this test."""
        return list(self._accepted)

    # long because: one pacts.step call: check, plan, run, record, in order
    def step(
        self,
        target: str | None,
        action: str,
        value: str | None = None,
        expected: str | None = None,
        *,
        secret: bool = False,
        on_fail: str = "abort",
    ) -> StepRecord:
        """Run one step now, e.g. ``pacts.step("Login@LoginForm", "click",
        expected="navigates_to:Products")``; the arguments use the sheet syntax.

        ``secret=True`` (or a :class:`~pytest_pacts.planner.templating.Secret` value) keeps
        the value out of every output: records, reports and failure texts show ``***``.
        A failing step fails the test with the failure text of a requirement item; a step
        with ``on_fail="skip"`` is recorded as skipped and the test goes on (verdict
        ``partial``). Bad arguments raise :class:`PactsStepError` before anything runs.
        Returns the step's record.
        """
        __tracebackhide__ = True
        # imported by the first step: the plugin registers this module at every start-up
        from pytest_pacts.planner.inline import inline_plan, inline_step
        from pytest_pacts.planner.steps import StepSyntaxError

        n = len(self._steps)
        source = self._caller(sys._getframe(1))
        secret = secret or isinstance(value, Secret)
        if value is not None and not isinstance(value, str):
            value = str(value)
        call = _call_text(target, action, value, expected, secret)
        secret_name = _SECRET_ENV.format(n=n + 1) if secret and value is not None else None
        if secret_name is not None and value is not None:
            self._secrets[secret_name] = Secret(reveal(value))
        env = {**os.environ, **{k: v.reveal() for k, v in self._secrets.items()}}
        try:
            step = inline_step(
                n, target, action, value, expected, on_fail, source,
                env=env, secret_name=secret_name,
            )  # fmt: skip
        except StepSyntaxError as exc:
            hint = f" (expected {exc.expected})" if exc.expected else ""
            raise PactsStepError(f"{call} at {source.render()}: {exc}{hint}") from None
        plan = inline_plan(
            f"{self.req_id}.step{n + 1}",
            _start_url(self._page.url, self._settings.base_url),
            (step,),
            source,
        )
        from pytest_pacts.application import finish_run
        from pytest_pacts.engine.api import run_requirement
        from pytest_pacts.engine.combine import combine_runs

        prepared = prepare(self._config, plan, navigate=False, env=env)
        # the store's run history gets one run per test (finish()), not one per step
        self._runtime = replace(prepared.runtime, record=False)
        try:
            run = run_requirement(plan, self._page, self._runtime)
        finally:
            add_secrets(self._item, {v.reveal() for v in self._secrets.values()})
            add_secrets(self._item, self._runtime.secrets)
        done = finish_run(prepared, run)
        run = done.record
        self._accepted.extend(done.accepted)
        self._steps.append(step)
        self._runs.append(run)
        self._first_url = self._first_url or plan.requirement.url
        whole = inline_plan(self.req_id, self._first_url, tuple(self._steps), self._test_source())
        self._whole = whole
        self._record = combine_runs(whole, self._runs)
        self._item.stash[RUN_KEY] = self._record
        if run.verdict == "fail":
            from pytest_pacts.reports.redact import Redactor

            self.finish()
            redactor = Redactor(v.reveal() for v in self._secrets.values())
            _fail_like_an_item(self._record, self._settings, self._accepted, redactor)
        return self._record.steps[-1]

    def finish(self) -> None:
        """Record the test's steps in the store as one run (once; the plugin calls it after
        the test body, and a failing step before it fails the test)."""
        if self._recorded or self._record is None or self._whole is None:
            return
        self._recorded = True
        runtime = self._runtime
        if runtime is None or runtime.store is None:
            return
        from pytest_pacts.engine.api import record_run

        # a store problem must not change the test's verdict, nor go unnoticed
        for problem in record_run(runtime.store, runtime.session_id, self._whole, self._record):
            warnings.warn(PactsStoreWarning(f"{self.req_id}: {problem}"), stacklevel=1)

    def __repr__(self) -> str:
        return f"<PactsSteps {self.req_id}: {len(self._steps)} step(s)>"

    # -- where things were written ---------------------------------------------------------

    def _caller(self, frame: FrameType) -> SourceRef:
        # where the call was written, for messages and records (like ``warnings``' stacklevel)
        from pytest_pacts.models import SourceRef

        return SourceRef(path=self._relative(frame.f_code.co_filename), line=frame.f_lineno)

    def _test_source(self) -> SourceRef:
        path, line, _name = self._item.location
        from pytest_pacts.models import SourceRef

        return SourceRef(path=path, line=(line + 1) if line is not None else None)

    def _relative(self, path: str) -> str:
        try:
            return Path(path).resolve().relative_to(self._config.rootpath).as_posix()
        except ValueError:
            return path


def _req_id(item: pytest.Item) -> str:
    """``<module>.<test name>``, safe for the store and file names."""
    stem = Path(item.location[0]).stem
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{stem}.{item.name}").strip("_")


def _start_url(page_url: str, base_url: str | None) -> str:
    """The page's URL relative to ``--base-url`` when under it, so the plan hash (and the
    cached locators) do not change with the port of a test server."""
    if base_url:
        base = base_url.rstrip("/")
        if page_url == base or page_url.startswith(base + "/"):
            return page_url[len(base) :] or "/"
    return page_url


def _call_text(
    target: str | None, action: str, value: str | None, expected: str | None, secret: bool
) -> str:
    args = [repr(target), repr(action)]
    if value is not None:
        args.append(repr(MASK) if secret else repr(value))
    if expected is not None:
        args.append(f"expected={expected!r}")
    return f"pacts.step({', '.join(args)})"


_STEPS_KEY = pytest.StashKey[PactsSteps]()


@pytest.fixture
def pacts(request: pytest.FixtureRequest, page: Page) -> PactsSteps:
    """Gated, self-healing steps on pytest-playwright's ``page`` (``docs/user-guide.md``,
    "Gated steps in hand-written tests")."""
    steps = PactsSteps(request, page)
    request.node.stash[_STEPS_KEY] = steps
    return steps


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """After a test body that passed: a healed run warns, or fails under
    ``--pacts-strict-heal``, as a requirement item does."""
    steps = item.stash.get(_STEPS_KEY, None)
    try:
        result = yield
    finally:
        if steps is not None:
            steps.finish()  # also when the body raised after some steps
            from pytest_pacts.pytest_plugin.execution import cover_shown_secrets

            cover_shown_secrets(item.config, steps.page, item)
    record = steps.record if steps is not None else None
    if steps is not None and record is not None:
        from pytest_pacts.reports.redact import Redactor

        where = (str(item.path), item.location[1] + 1 if item.location[1] is not None else 1)
        _fail_like_an_item(record, options.settings(item.config), steps.accepted, Redactor(), where)
    return result


def _fail_like_an_item(
    record: RunRecord,
    settings: PactsSettings,
    accepted: list[str],
    redactor: Redactor,
    where: tuple[str, int] | None = None,
) -> None:
    """:func:`outcome`, with its failure text as the whole report (no traceback); known
    secret values are masked once more (the records already show them as ``***``)."""
    __tracebackhide__ = True
    from pytest_pacts.engine.api import RequirementFailed

    try:
        outcome(record, settings, accepted, where=where)
    except RequirementFailed as exc:
        text = redactor.text(str(exc))
    else:
        return
    pytest.fail(text, pytrace=False)  # outside ``except``: no "during handling" chain
