"""One requirement run: the state machine's handlers and the records they produce.

``Run`` owns the per-run state (step pointer, attempts, heals, records) and provides one
handler per :class:`~pytest_pacts.engine.machine.Stage`; ``machine.route`` decides between
them. The pytest layer never sees this module: it calls ``api.run_requirement``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from datetime import UTC, datetime

from playwright.sync_api import Dialog, Page

from pytest_pacts.discovery import UnrenderableLocator, to_code, to_playwright
from pytest_pacts.engine.artifacts import Shots, measured_box
from pytest_pacts.engine.attempt import Attempt
from pytest_pacts.engine.confirming import Confirmations, kept_pictures, taken_into
from pytest_pacts.engine.contracts import (
    EngineOptions,
    HealContext,
    Healer,
    RungResult,
    StepState,
)
from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.engine.executor import StepRunner
from pytest_pacts.engine.finder import Finder
from pytest_pacts.engine.machine import Machine, Move, Outcome, Signal, Stage
from pytest_pacts.engine.network import ResponseLog
from pytest_pacts.engine.observing import ActionObserver
from pytest_pacts.engine.step_records import StepProgress, first_line, not_run, without_pictures
from pytest_pacts.engine.surfaces import matched_nothing, special_surface
from pytest_pacts.engine.tracing import Tracer
from pytest_pacts.engine.verdict import build_verdict
from pytest_pacts.engine.waiting import READY_CAP_MS, mark_page, unchanged_since
from pytest_pacts.models import Action, OnFail, Plan
from pytest_pacts.models.outcome import (
    Failure,
    FailureType,
    HealRung,
    RunRecord,
    StepRecord,
    StepStatus,
)
from pytest_pacts.planner.templating import (
    MASK,
    Resolver,
    Secret,
    TemplateError,
    mask_defaults,
)
from pytest_pacts.planner.urls import UrlError, resolve_url


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


class Run:
    # long because: the run's state, one attribute a line
    def __init__(
        self,
        plan: Plan,
        page: Page,
        *,
        options: EngineOptions,
        resolver: Resolver,
        finder: Finder,
        monitor: EnvMonitor,
        base_url: str | None,
        healer: Healer | None,
        shots: Shots,
        navigate: bool = True,
        observer: ActionObserver | None = None,
        on_step: Callable[[StepRecord], None] | None = None,
        tracer: Tracer | None = None,
        responses: ResponseLog | None = None,
    ) -> None:
        self.plan = plan
        self.on_step = on_step  # told each step's record as soon as the step is finished
        self.tracer = tracer  # each finished step's trace (engine/tracing.py)
        self.page = page
        self.options = options
        self.finder = finder
        self.monitor = monitor
        self.healer = healer
        self.confirmations = Confirmations()  # heals' writes, made off the step's path
        self.shots = shots
        self.base_url = base_url
        self.navigate = navigate
        # a relative ``goto`` later in the plan is relative to the base URL, else to the
        # requirement's own URL (absolute: a relative one with no base URL fails to start)
        goto_base = base_url or plan.requirement.url
        self.runner = StepRunner(
            page, finder, resolver, options, monitor, goto_base, observer=observer,
            tracer=tracer, responses=responses, heals=healer is not None,
        )  # fmt: skip
        self.index = 0
        self.progress: dict[int, StepProgress] = {}
        self.records: dict[int, StepRecord] = {}
        self.start_failure: Failure | None = None
        self.start_url = plan.requirement.url
        self.started_at = datetime.now(UTC)
        self.t0 = time.monotonic()
        self.record: RunRecord | None = None
        self.machine = Machine(
            {
                Stage.PLANNER: self._planner,
                Stage.DISCOVERY: self._discovery,
                Stage.EXECUTOR: self._executor,
                Stage.HEALER: self._healer,
                Stage.VERDICT: self._verdict,
            },
            self._move,
        )

    def execute(self) -> RunRecord:
        self.page.on("dialog", self._dialog)
        try:
            self.machine.run()
        finally:
            with contextlib.suppress(Exception):  # a closed or crashed page has no listeners
                self.page.remove_listener("dialog", self._dialog)
        assert self.record is not None
        return self.record

    def _dialog(self, dialog: Dialog) -> None:
        """A native ``alert``/``confirm``/``prompt`` raised during a step. Playwright
        dismisses one that nothing handles, so a "Delete | click" whose page asks "Are you
        sure?" would delete nothing; a person clicks OK. Accepted by default (a prompt with
        its default value), dismissed with ``EngineOptions.dialogs == "dismiss"``; either way
        its text goes into the step's notes."""
        accept = self.options.dialogs != "dismiss"
        kind, message = dialog.type, " ".join(dialog.message.split())
        try:
            if accept:
                dialog.accept(dialog.default_value if kind == "prompt" else None)
            else:
                dialog.dismiss()
            done = "accepted" if accept else "dismissed"
        except Exception as exc:  # already handled, or the page went away
            done = f"not answered ({first_line(exc)})"
        if kind == "prompt" and accept:
            done += f" with {dialog.default_value!r}"
        prog = self.progress.get(self.index)
        if prog is not None:
            prog.attempt.notes.append(f'the page showed a {kind} dialog "{message}": {done}')

    # -- pipeline stages ---------------------------------------------------------------------

    def _planner(self) -> Signal:
        # The plan is validated at collection; values resolve at the moment of
        # use. What is left to check here is that the start URL can be resolved.
        try:
            self.start_url = resolve_url(self.plan.requirement.url, self.base_url)
        except UrlError as exc:
            self.start_failure = Failure(
                type=FailureType.NAVIGATION_ERROR, message=str(exc), cause="configuration"
            )
            return Signal(Outcome.FAILED, FailureType.NAVIGATION_ERROR)
        return Signal(Outcome.OK)

    def _discovery(self) -> Signal:
        """Open the requirement's URL; its page's steps are discovered together right
        before the first of them runs (``Finder.locate``). Without ``navigate`` the steps run
        on the page as the caller left it."""
        if not self.navigate:
            return Signal(Outcome.OK)
        failure = self.runner.navigate(self.start_url, None)
        if failure is not None:
            self.start_failure = failure
            return Signal(Outcome.FAILED, failure.type)
        return Signal(Outcome.OK)

    # -- executor ⇄ healer -------------------------------------------------------------------

    def _signal(self, outcome: Outcome, prog: StepProgress) -> Signal:
        step = self.plan.steps[self.index] if self.plan.steps else None
        return Signal(
            outcome,
            prog.failure.type if prog.failure else FailureType.NONE,
            last_step=self.index >= len(self.plan.steps) - 1,
            heal_rounds_used=self.options.max_heal_rounds if prog.exhausted else prog.heal_rounds,
            max_heal_rounds=self.options.max_heal_rounds,
            healer=self.healer is not None,
            has_target=step is not None and step.target is not None,
            skip_on_fail=step is not None and step.on_fail is OnFail.SKIP,
        )

    def _executor(self) -> Signal:
        if not self.plan.steps:
            return Signal(Outcome.OK, last_step=True)
        step = self.plan.steps[self.index]
        prog = self.progress.setdefault(self.index, StepProgress())
        prog.attempt = Attempt()
        # a retry after a heal waits only for what the step's timeout has left (``StepRunner.run``)
        left = self._wait_left(prog) if prog.heal_rounds else None
        started = time.monotonic()
        prog.failure = self.runner.run(step, prog.attempt, wait_ms=left)
        prog.waited_ms += (time.monotonic() - started) * 1000
        if prog.pending is not None:
            self._report_heal(prog)
        try:
            if prog.failure is None:
                self._finish_step("healed" if prog.healed else "passed")
        finally:
            self.confirmations.start()  # the heal's writes, once the step's record is made
            self.shots.release()  # its pictures drawn and written, off the step's path too
        return self._signal(Outcome.OK if prog.failure is None else Outcome.FAILED, prog)

    # long because: one heal round: ladder, evidence and the step's retry, in the order the record
    # shows
    def _healer(self) -> Signal:
        assert self.healer is not None
        prog = self.progress[self.index]
        state = self.finder.states.get(self.index)
        assert prog.failure is not None
        prog.heal_rounds += 1
        if state is None:  # nothing was found at all: give the ladder the bare step
            state = StepState(step=self.plan.steps[self.index])
            self.finder.states[self.index] = state
            self.finder.sources[self.index] = "heal"
        try:
            value = self.runner.value_of(self.plan.steps[self.index])
        except ValueError:
            value = None
        # For a locator that matches no element or several (selector drift), every rung only
        # reads the page: the page after the round is the page before it. Such a round is
        # shown by one picture, asked for now and taken while the ladder works
        # (engine/artifacts.py): kept with the healed element highlighted when the round
        # heals, as the plain "before" picture when it does not. The "before" picture is
        # taken up front, at once, when a rung may change the page (revealing a hidden or
        # covered element) and when a person is asked (the human checkpoint shows it).
        shot = f"step{self.index + 1}-heal{prog.heal_rounds}"
        read_only = prog.failure.type is FailureType.NOT_UNIQUE and not self.options.interactive
        before = None if read_only else self.shots.take(f"{shot}-before")
        early = self.shots.early() if read_only else None
        ctx = HealContext(
            page=self.page,
            plan=self.plan,
            state=state,
            failure=prog.failure,
            round=prog.heal_rounds,
            options=self.options,
            attempts=list(prog.heals),
            value=value,
            screenshot_before=before,
            busy=lambda: self.monitor.busy(READY_CAP_MS),
            wait_left_ms=self._wait_left(prog),
            on_open=self.finder.on_open,
        )
        old = state.locator
        self._take_confirmations()  # what this round's memory rung reads, written first
        started = time.monotonic()
        mark = mark_page(self.monitor)
        try:
            attempt, result = self.healer.heal(ctx)
        except Exception as exc:  # the ladder is another component: never let it raise
            note = f"the healer raised {type(exc).__name__}: {first_line(exc)}"
            prog.failure = prog.failure.model_copy(
                update={"evidence": (*prog.failure.evidence, note)}
            )
            return self._signal(Outcome.ABSTAINED, prog)
        # a repair's wait for the element's state is the step's waiting too
        prog.waited_ms += sum(
            _number(r.evidence.get("waited_ms"))
            for r in ctx.round_results
            if r.rung is HealRung.REPAIR
        )
        applied = result is not None and result.accepted and (result.locator or result.repaired)
        # The rungs only read the page: on a page that did not change meanwhile, another
        # round would read the same page and abstain the same way. Asked before a picture
        # is taken at once: Playwright's screenshot changes the DOM for a moment (it hides
        # the caret with a style element).
        last = prog.heal_rounds >= self.options.max_heal_rounds
        if not (applied or last) and read_only and unchanged_since(self.page, self.monitor, mark):
            prog.exhausted = True
            note = (
                f"no further heal round: the page did not change during round "
                f"{prog.heal_rounds}, so another would give the same answer"
            )
            prog.failure = prog.failure.model_copy(
                update={"evidence": (*prog.failure.evidence, note)}
            )
        if read_only and not (applied and result is not None and result.locator):
            before = self.shots.keep(early, f"{shot}-before")
        update: dict[str, object] = {"screenshot_before": before, "accepted": bool(applied)}
        if not attempt.duration_ms:
            update["duration_ms"] = (time.monotonic() - started) * 1000
        if applied and result is not None:
            prog.notes.extend(result.notes)
            if result.locator is not None:
                self._apply(result, old)
                try:
                    outline = to_playwright(self.page, result.locator)
                except UnrenderableLocator:
                    outline = None  # the retry's gate will say why; the shot stays plain
                if read_only:
                    box = measured_box(result.locator.frame_path, result.evidence)
                    after = self.shots.keep(early, f"{shot}-after", outline=outline, box=box)
                else:
                    after = self.shots.take(f"{shot}-after", outline=outline)
                update["screenshot_after"] = after
            prog.healed = True
            prog.pending = (ctx, len(prog.heals), result)
        prog.heals.append(attempt.model_copy(update=update))
        return self._signal(Outcome.HEALED if applied else Outcome.ABSTAINED, prog)

    def _wait_left(self, prog: StepProgress) -> float:
        """What the step's timeout has left for waiting on its element's state."""
        return max(0.0, self.options.step_timeout_ms - prog.waited_ms)

    def _report_heal(self, prog: StepProgress) -> None:
        """Tell the ladder how the retry with its heal went (``Healer.confirm``/``reject``):
        memory and proposals are written only on a successful, gated action.
        A failed expectation after a successful action still confirms the element."""
        assert self.healer is not None and prog.pending is not None
        ctx, at, result = prog.pending
        prog.pending = None
        acted = prog.failure is None or prog.attempt.expectation_ok is False
        try:
            if acted:
                later = getattr(self.healer, "confirm_later", None)
                if later is not None:  # the heal adopted now, its writes off the step's path
                    self.confirmations.send(self.index, at, later(ctx, prog.heals[at], result))
                else:
                    confirmed = self.healer.confirm(ctx, prog.heals[at], result)
                    prog.heals[at] = kept_pictures(confirmed, prog.heals[at])
            else:
                self.healer.reject(ctx, prog.heals[at], result)
        except Exception as exc:  # the ladder is another component: never let it raise
            note = f"the healer's {'confirm' if acted else 'reject'} raised {first_line(exc)}"
            self._said(self.index, note)

    def _take_confirmations(self) -> None:
        """The heals' writes sent so far, waited for (bounded) and put into their steps'
        heals and records (engine/confirming.py)."""
        if self.confirmations.pending:
            jobs = self.confirmations.take()
            taken_into(jobs, lambda i: self.progress[i].heals, self.records, self._said)

    def _said(self, index: int, note: str) -> None:
        """A note on step ``index``'s failure, if it has one (and in its record if finished)."""
        prog = self.progress[index]
        if prog.failure is None:
            return
        prog.failure = prog.failure.model_copy(update={"evidence": (*prog.failure.evidence, note)})
        record = self.records.get(index)
        if record is not None and record.failure is not None:
            self.records[index] = record.model_copy(update={"failure": prog.failure})

    def _apply(self, result: RungResult, old: object) -> None:
        """Use the healed locator for this step and for every later step that used the same
        old locator for the same element (a heal is used for the rest of the run)."""
        step = self.plan.steps[self.index]
        for i, state in list(self.finder.states.items()):
            same = i == self.index or (
                i > self.index and state.locator == old and state.step.target == step.target
            )
            if same:
                state.locator = result.locator
                if result.fingerprint is not None:
                    state.fingerprint = result.fingerprint
                self.finder.sources[i] = "heal"

    def _move(self, move: Move) -> None:
        if move is Move.SKIP:
            self._finish_step("skipped")
        if move in (Move.NEXT, Move.SKIP):
            self.index += 1

    # -- records -------------------------------------------------------------------------------

    # long because: a step's record assembled from its attempts, field by field
    def _finish_step(self, status: StepStatus) -> None:
        step = self.plan.steps[self.index]
        prog = self.progress.get(self.index, StepProgress())
        state = self.finder.states.get(self.index)
        locator = state.locator if state else None
        if (
            status in ("failed", "skipped")
            and prog.failure is not None
            and prog.failure.type is FailureType.NOT_UNIQUE
            and matched_nothing(prog.failure)
        ):
            # a recorded locator that finds nothing, healing included: a special surface
            # where the element was explains it better than drift (the target is now drawn
            # on a canvas, ...); one elsewhere on the page does not
            # (a box in a frame's own document says nothing of where it is on the page)
            fingerprint = state.fingerprint if state else None
            in_frame = locator is not None and bool(locator.frame_path)
            was_at = fingerprint.bounding_box if fingerprint and not in_frame else None
            prog.failure = special_surface(self.page, prog.failure, step, was_at=was_at)
        if self._typed_secret_shows(self.index):
            self.shots.secret_typed()
        if MASK in prog.attempt.extracted.values():
            self.shots.secret_shown()  # a secret extract: the page shows the secret
        if status in ("failed", "skipped") and prog.failure is not None:
            path = self.shots.take(f"step{self.index + 1}-{status}")
            if path:
                prog.failure = prog.failure.model_copy(
                    update={"evidence": (*prog.failure.evidence, f"screenshot: {path}")}
                )
        image = prog.attempt.image
        if image is not None and prog.attempt.image_png is not None:
            shot = self.shots.save(f"step{self.index + 1}-image-match", prog.attempt.image_png)
            image = image.model_copy(update={"screenshot": shot})
        try:
            code = to_code(locator) if locator is not None else None
        except Exception:  # an unrenderable locator has no code; the record still stands
            code = None
        self.records[self.index] = StepRecord(
            index=step.index,
            action=step.action.value,
            description=mask_defaults(step.describe(), self.plan.secret_vars),
            source=step.source.render(),
            element_key=step.target.key if step.target else None,
            value=prog.attempt.value_shown,
            locator=locator,
            code=code,
            gate=prog.attempt.gate,
            expectation=str(step.expected) if step.expected else None,
            expectation_ok=prog.attempt.expectation_ok,
            status=status,
            failure=prog.failure if status in ("failed", "skipped") else None,
            heals=tuple(prog.heals),
            duration_ms=(time.monotonic() - prog.started) * 1000,
            block=step.block,
            image_match=image,
            notes=tuple(dict.fromkeys([*prog.notes, *prog.attempt.notes])),
            extracted=dict(prog.attempt.extracted),
            dropdown=prog.attempt.dropdown[-1] if prog.attempt.dropdown else None,
        )
        if self.tracer is not None:
            self._trace(step.index, prog)
        if self.on_step is not None:
            self.on_step(self.records[self.index])

    def _trace(self, index: int, prog: StepProgress) -> None:
        """Add the step's trace to its record (after its duration was measured: tracing is
        not counted in the step's time)."""
        assert self.tracer is not None
        trace = self.tracer.step_done(
            index,
            prog.attempt.gate,
            self.monitor.documents,
            secret_shown=self._typed_secret_shows(index),
        )
        self.records[index] = self.records[index].model_copy(update={"trace": trace})

    def _typed_secret_shows(self, index: int) -> bool:
        """Step ``index`` types a secret into a field that shows its value (anything but a
        password input)."""
        step = self.plan.steps[index]
        if step.action not in (Action.FILL, Action.TYPE, Action.SELECT) or step.value is None:
            return False
        try:
            value = self.runner.value_of(step)
        except TemplateError:
            return False
        state = self.finder.states.get(index)
        fingerprint = state.fingerprint if state is not None else None
        password = fingerprint is not None and fingerprint.type == "password"
        return isinstance(value, Secret) and not password

    def _verdict(self) -> Signal:
        if self.start_failure is None and self.plan.steps and self.index < len(self.plan.steps):
            prog = self.progress.get(self.index)
            if prog is not None and prog.failure is not None and self.index not in self.records:
                self._finish_step("failed")
        self._take_confirmations()  # the report names each heal's proposal
        steps = [self.records.get(i) or not_run(self.plan, i) for i in range(len(self.plan.steps))]
        lost = self.shots.finish()  # the heal pictures taken in the background
        if lost:
            steps = [without_pictures(step, lost) for step in steps]
        self.record = build_verdict(
            self.plan,
            steps,
            start_failure=self.start_failure,
            started_at=self.started_at,
            duration_ms=(time.monotonic() - self.t0) * 1000,
            url=self.start_url,
            artifacts=self.shots.taken,
            start_screenshot=self.shots.take("start-failed") if self.start_failure else None,
        )
        return Signal(Outcome.OK)
