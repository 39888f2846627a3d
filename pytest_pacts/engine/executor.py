"""One step, find first: locate → gate → act → expect.

:class:`StepRunner` runs one *attempt* of a step and returns a
:class:`~pytest_pacts.models.outcome.Failure` or ``None``; the state machine (``machine.py``,
driven by ``run.py``) decides whether to heal, retry, skip or stop. Nothing here raises:
Playwright errors are classified (``env.py``), and a failure that coincides with an
environment event (the server went away, a 5xx, a crash) is reported as that event.
"""

from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.discovery import to_playwright
from pytest_pacts.discovery.render import elements_frame
from pytest_pacts.engine import pagesays
from pytest_pacts.engine.actions import perform
from pytest_pacts.engine.attempt import Attempt
from pytest_pacts.engine.checked import CheckedActions
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.engine.env import (
    EnvMonitor,
    blame_environment,
    closed_by_hang,
    env_failure,
)
from pytest_pacts.engine.errors import classify_error
from pytest_pacts.engine.expectations import Checker, Subject
from pytest_pacts.engine.extract import ExtractSteps, unresolvable
from pytest_pacts.engine.finder import Finder, Located
from pytest_pacts.engine.gate import (
    HEAL_PATIENCE_MS,
    GateOutcome,
    first_check,
    run_gate,
    said_shared,
)
from pytest_pacts.engine.identity import identity_of, located_identity
from pytest_pacts.engine.imagestep import run_image_step
from pytest_pacts.engine.network import ResponseLog, mask_in
from pytest_pacts.engine.observing import ActionObserver, tell_observer
from pytest_pacts.engine.popup import (
    can_choose,
    choose_in_popup,
    in_popup,
    none_expanded_sent,
    wait_popup_settled,
)
from pytest_pacts.engine.readiness import FramesLeft, PageReadiness
from pytest_pacts.engine.tracing import Tracer
from pytest_pacts.engine.waiting import (
    epoch_ms,
    now_ms,
    wait_until_ready,
)
from pytest_pacts.models import Action, Expectation, Step
from pytest_pacts.models.locator import Fingerprint
from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.planner.templating import (
    Resolver,
    Secret,
    TemplateError,
    reveal,
)
from pytest_pacts.planner.urls import UrlError, resolve_url
from pytest_pacts.runtime.bounded import Sent
from pytest_pacts.runtime.bridge import keep_token


class StepRunner(ExtractSteps, PageReadiness, CheckedActions):
    def __init__(
        self,
        page: Page,
        finder: Finder,
        resolver: Resolver,
        options: EngineOptions,
        monitor: EnvMonitor,
        base_url: str | None,
        observer: ActionObserver | None = None,
        tracer: Tracer | None = None,
        responses: ResponseLog | None = None,
        heals: bool = False,
    ) -> None:
        self.page = page
        # a healer follows a failed step: a recorded locator's hidden or disabled element on
        # a settled page goes to it before the step timeout (``run_gate``'s ``patience_ms``)
        self.heals = heals
        self._wait_ms: float | None = None  # the current attempt's ``run(wait_ms=)``
        self._attempt_start = 0.0  # when the current attempt began (``now_ms``)
        self.observer = observer
        self.tracer = tracer  # the step traces (its gate reads the element's text too)
        self.finder = finder
        self.resolver = resolver
        # secret values this run typed: a page may echo them in a message a failure quotes
        self._typed_secrets: set[str] = set()
        self.options = options
        self.monitor = monitor
        self.base_url = base_url
        self.responses = responses
        self.checker = Checker(page, finder, responses, resolver.secret_vars)
        self._ready_document: int | None = None  # the document last found ready to act on
        # readiness whose quiet frames the next gate check watches (``_await_ready``)
        self._frames_left: FramesLeft | None = None
        self._marks: dict[int, int] = {}  # step index → the response log's mark at its start
        self._acted = 0  # the mark at the start of the last step that acted

    def value_of(self, step: Step) -> str | None:
        """The step's value resolved now (a Secret prints as ***). Raises TemplateError.
        An ``extract`` step's value names a var: it has no value to resolve."""
        if step.capture is not None:
            return None
        return self.resolver.resolve(step.value) if step.value is not None else None

    def _since(self, step: Step) -> int:
        """Where a step's responses start in the log: at its own start for a step that acts,
        at the start of the last step that acted for one that only observes (``wait``,
        ``extract``): what it looks for was set off by that action (or by the start page)."""
        if step.action.observes:
            return self._acted
        return self._marks.get(step.index, 0)

    def element(self, index: int) -> PWLocator | None:
        state = self.finder.states.get(index)
        if state is None or state.locator is None:
            return None
        return to_playwright(self.page, state.locator)

    def navigate(self, url: str, step_index: int | None) -> Failure | None:
        """``goto``: a response that is not OK, a refused connection or a page slower than
        the step timeout is an environment fault, with the evidence."""
        try:
            target = resolve_url(url, self.base_url)
        except UrlError as exc:
            return Failure(
                type=FailureType.NAVIGATION_ERROR,
                message=str(exc),
                step_index=step_index,
                cause="configuration",
            )
        timeout = self.options.navigation_timeout_ms or self.options.step_timeout_ms
        try:
            response = self.page.goto(target, timeout=timeout)
        except PlaywrightError as exc:
            failure = classify_error(exc, f"navigating to {target}", step_index)
            failure = closed_by_hang(failure, self.page)
            if failure.type is FailureType.TIMEOUT:
                return Failure(
                    type=FailureType.ENV_FAULT,
                    message=f"{target} did not finish loading within {timeout:.0f} ms",
                    step_index=step_index,
                    cause="slow_page",
                    evidence=failure.evidence,
                )
            if failure.type is not FailureType.ENV_FAULT:
                failure = failure.model_copy(update={"type": FailureType.NAVIGATION_ERROR})
            return failure
        if response is not None and response.status >= 400:
            return Failure(
                type=FailureType.ENV_FAULT,
                message=f"{target} answered HTTP {response.status} {response.status_text}",
                step_index=step_index,
                cause="http_error",
                http_status=response.status,
                evidence=(f"GET {response.url} → {response.status} {response.status_text}",),
            )
        return None

    def run(self, step: Step, attempt: Attempt, *, wait_ms: float | None = None) -> Failure | None:
        """One attempt of ``step``. ``wait_ms``: how long its gate may still wait for the
        element's state (``None``: the step timeout). A step retried after a heal gets what
        its earlier attempts left of the step timeout: a healed element that stays hidden or
        disabled fails the step within one step timeout, as one Playwright action would,
        not after a fresh timeout per attempt."""
        self._wait_ms = wait_ms
        self._attempt_start = now_ms()
        mark = self.monitor.mark()
        if self.responses is not None and step.index not in self._marks:
            self._marks[step.index] = self.responses.mark()
            if not step.action.observes:
                self._acted = self._marks[step.index]
        failure = self._run(step, attempt)
        if failure is None and self.monitor.since(mark):
            # The step looked fine, but the server failed a navigation under it (an error page
            # can even carry the URL that was asked for): no false pass.
            event = self.monitor.since(mark)[-1]
            failure = env_failure(event, step.index, ("the step's own checks had passed",))
        elif failure is not None:
            failure = blame_environment(failure, mark, self.monitor, self.page)
        secrets = [*self.resolver.secret_values(), *sorted(self._typed_secrets, key=len)[::-1]]
        if secrets:
            # a value a step stored as a secret is on the page: never in a failure text
            attempt.notes[:] = [mask_in(n, secrets) for n in attempt.notes]
            if failure is not None:
                failure = failure.model_copy(
                    update={
                        "message": mask_in(failure.message, secrets),
                        "evidence": tuple(mask_in(e, secrets) for e in failure.evidence),
                    }
                )
        return failure

    # long because: one attempt of a step: locate, gate, act, expect; the order is the contract
    def _run(self, step: Step, attempt: Attempt) -> Failure | None:
        opts = self.options
        try:
            value = self.value_of(step)
        except TemplateError as exc:
            return unresolvable(step, "the value", exc)
        attempt.value_shown = str(value) if value is not None else None
        if isinstance(value, Secret) and value.reveal():
            self._typed_secrets.add(value.reveal())
        url_before = self.page.url
        # what the page shows before the action: a failed outcome quotes only what is new
        # (sent now, the gate check's round trip overlaps it; read before the action)
        said = pagesays.watch_sent(self.page) if pagesays.quotes_page(step) else None
        said_before: frozenset[str] | None = None
        navigated_before = pagesays.navigation_mark(self.monitor)
        subject: Subject | None = None
        if step.action is Action.GOTO:
            failure = self.navigate(reveal(value or ""), step.index)
            if failure is not None:
                return failure
        elif step.capture is not None and step.capture.response is not None:
            failure = self._extract_response(step, step.capture, attempt)
            if failure is not None:
                return failure
        elif step.target is not None and step.target.image is not None:
            self._await_ready(attempt)
            said_before = pagesays.watched(said) if said is not None else None
            found = run_image_step(
                self.page,
                step,
                self.finder.plan.requirement.folder,
                self.monitor,
                timeout_ms=opts.step_timeout_ms,
                settle_ms=opts.settle_timeout_ms,
            )
            attempt.image, attempt.image_png = found.record, found.annotated
            if found.failure is not None:
                return found.failure
        elif step.target is not None:
            if step.action is not Action.WAIT:
                # A discovery first reads the whole page: it gets it quiet. So does an element
                # in an iframe: its check watches the iframe's document, not the page's.
                before = self.finder.plan.steps[step.index - 1] if step.index else None
                typed = before is not None and before.action in (Action.FILL, Action.TYPE)
                if typed and step.action is Action.CLICK:
                    # a choice in the list a combobox opens as it is typed into: the list
                    # comes after the typing (engine/popup.py)
                    wait_popup_settled(self.page, self.monitor, opts.step_timeout_ms)
                held = self.finder.held_locator(step.index)
                self._await_ready(attempt, by_check=held is not None and not held.frame_path)
            keep = self._keep_token(step)
            located, gate = self._locate_and_gate(step, keep, settle=self._frames_left is not None)
            if self._frames_left is not None:
                left, self._frames_left = self._frames_left, None
                if gate is not None and gate.failure is None and not self._seen_quiet(left, gate):
                    # Not seen settled: wait for the page as readiness does, then check the
                    # element again. Seen changing, its frames are watched even on a page
                    # that started no request since ``load``; not observed at all (no frames
                    # in a page whose scripts are disabled), readiness's own rule applies.
                    changing = gate.settled is False
                    ready = wait_until_ready(
                        self.page, self.monitor, left.cap_ms, seen_changing=changing
                    )
                    self._note_unready(attempt, ready, left.cap_ms)
                    located, gate = self._locate_and_gate(step, keep)
            if located.state is not None and located.state.discovery is not None:
                attempt.notes.extend(located.state.discovery.notes)
            attempt.gate = gate.snapshot if gate is not None else None
            attempt.gate_checks = gate.checks if gate is not None else 0
            if located.failure is not None or located.state is None:
                return located.failure
            if gate is not None and gate.failure is not None:
                return gate.failure
            assert located.state.locator is not None
            if step.capture is not None or step.action is Action.WAIT:
                element = to_playwright(self.page, located.state.locator)
                frame = elements_frame(self.page, located.state.locator)
                subject = Subject(element, keep, frame)
                tell_observer(self.observer, step, element)
            if step.capture is not None:
                assert subject is not None
                failure = self._extract_element(step, step.capture, subject, attempt)
                if failure is not None:
                    return failure
            elif step.action is not Action.WAIT:
                said_before = pagesays.watched(said) if said is not None else None
                # on the element the gate passed, in its document (engine/checked.py)
                subject, failure = self._act_checked(step, located, gate, keep, value, attempt)
                if failure is not None:
                    return failure
        elif step.action is Action.PRESS:
            # no element: no discovery or check looks at the page before the key goes, so the
            # page is looked at here (a loader that starts fetching in its load handler)
            self._await_ready(attempt, looked_at=False)
            said_before = pagesays.watched(said) if said is not None else None
            self.monitor.acted_at = epoch_ms()
            failure = perform(
                self.page, None, step.action, value, step_index=step.index,
                timeout_ms=opts.step_timeout_ms,
            )  # fmt: skip
            if failure is not None:
                return failure
        if step.expected is None:
            return None
        try:
            expected, secret = self._resolved(step.expected)
        except TemplateError as exc:
            return unresolvable(step, "the expected outcome", exc)
        failure = self.checker.check(
            expected,
            element=subject,
            url_before=url_before,
            step_index=step.index,
            timeout_ms=opts.step_timeout_ms,
            mask=isinstance(value, Secret),
            responses_since=self._since(step),
        )
        if failure is not None and said_before is not None:
            failure = pagesays.explain(failure, pagesays.messages(self.page, said_before))
            if expected.kind in pagesays.NEW_PAGE_OUTCOMES:
                # the page's own events are read in the top document: not for an element
                # inside an iframe (``Subject.frame`` is None there)
                top = subject is None or subject.frame is not None
                failure = pagesays.with_what_it_set_off(
                    self.page, self.monitor, failure, navigated_before, events=top
                )
        if failure is not None and secret:
            failure = failure.model_copy(
                update={
                    "message": mask_in(failure.message, secret),
                    "evidence": tuple(mask_in(e, secret) for e in failure.evidence),
                }
            )
        attempt.expectation_ok = failure is None
        return failure

    def _resolved(self, exp: Expectation) -> tuple[Expectation, list[str]]:
        """The expectation with its templates resolved now (``text_visible:{{vars.order_id}}``
        after an extract step), and the secret values it took in (to mask in its failure)."""
        update: dict[str, object] = {}
        secrets: list[str] = []
        for name, text in (("text", exp.text),):
            if text is not None and "{{" in text:
                value = self.resolver.resolve(text)
                if isinstance(value, Secret):
                    secrets.append(value.reveal())
                update[name] = reveal(value)
        if exp.response is not None and "{{" in exp.response.url:
            url = self.resolver.resolve(exp.response.url)
            if isinstance(url, Secret):
                secrets.append(url.reveal())
            update["response"] = exp.response.model_copy(update={"url": reveal(url)})
        return (exp.model_copy(update=update) if update else exp), secrets

    # long because: locate, gate, and one fresh discovery for a stale locator, in order
    def _locate_and_gate(
        self,
        step: Step,
        keep: str | None = None,
        *,
        settle: bool = False,
        same_as: Fingerprint | None = None,
    ) -> tuple[Located, GateOutcome | None]:
        """Find the step's element and gate it. A locator discovered earlier *in this run*
        for a page state that has changed since (a batch discovery ahead of its step) gets
        one fresh discovery before the step fails: its intent was verified, only the page
        moved on. So does one picked ahead of its turn (in this run's batch, or collection's)
        on a page that changed since, whatever its gate says (engine/ahead.py). Other cached
        and healed locators go straight to the verdict or the healer.
        ``same_as``: the element must also be this one (its kind, names and landmark), as a
        cached locator's is, with no fresh discovery (engine/checked.py: the page replaced
        the checked element)."""
        opts = self.options
        # A wait is for its element to appear: a quiet page without it yet is no reason to
        # give up early, so it gets the whole step timeout.
        settle_ms = opts.step_timeout_ms if step.action.observes else opts.settle_timeout_ms
        trace = self.tracer is not None
        for fresh in (False, True):
            # An expanded combobox's option the step names comes first (engine/popup.py). For
            # a locator held at once (no discovery), the page's answer that no combobox is
            # focused or opener expanded is sent ahead, and the gate's first check after it
            # overlaps its round trip; any other answer asks the popup as before.
            none_open = (
                none_expanded_sent(self.page)
                if not fresh and can_choose(step) and self.finder.held_locator(step.index)
                else None
            )
            chosen = (
                None if none_open is not None else choose_in_popup(self.page, step, opts.evidence)
            )
            if isinstance(chosen, Failure):
                return Located(None, chosen, ""), None
            located = (
                in_popup(step, chosen)
                if chosen is not None
                else self.finder.locate(step.index, opts.step_timeout_ms, settle_ms)
            )
            if located.failure is not None or located.state is None:
                return located, None
            assert located.state.locator is not None
            identity = self._identity(step, located, same_as)
            first = None
            if none_open is not None:
                first = first_check(
                    self.page, located.state.locator, step.action, monitor=self.monitor,
                    identity=identity, trace=trace, keep=keep, settle=settle,
                )  # fmt: skip
                if not _answered_true(none_open):
                    # a combobox or an opener is there: the step is located as before
                    # (this check's answer is not used)
                    none_open = first = None
                    chosen = choose_in_popup(self.page, step, opts.evidence)
                    if isinstance(chosen, Failure):
                        return Located(None, chosen, ""), None
                    if chosen is not None:
                        located = in_popup(step, chosen)
                        identity = self._identity(step, located, same_as)
            assert located.state is not None and located.state.locator is not None
            timeout_ms = opts.step_timeout_ms
            if self._wait_ms is not None:
                timeout_ms = max(0.0, min(timeout_ms, self._wait_ms))
            gate = run_gate(
                self.page,
                located.state.locator,
                step.action,
                step_index=step.index,
                timeout_ms=timeout_ms,
                settle_ms=settle_ms,
                monitor=self.monitor,
                identity=identity,
                trace=trace,
                keep=keep,
                settle=settle,
                first=first,
                picked_at=self.finder.picked_at(step.index) if same_as is None else None,
                patience_ms=(
                    max(HEAL_PATIENCE_MS, opts.settle_timeout_ms)
                    if self.heals and identity is not None and not step.action.observes
                    else None
                ),
            )
            if gate.failure is not None and timeout_ms < opts.step_timeout_ms:
                gate = said_shared(gate, opts.step_timeout_ms, timeout_ms)
            # not with ``same_as``: a fresh result is cached as found, maybe another element
            stale = gate.set_aside or (
                gate.failure is not None
                and gate.failure.type is FailureType.NOT_UNIQUE
                and located.source == "discovery"
                and same_as is None
            )
            if gate.failure is None:
                self.finder.confirm(step.index)
            if fresh or not stale:
                return located, gate
            self.finder.forget(step.index)
        raise AssertionError("unreachable")

    @staticmethod
    def _identity(
        step: Step, located: Located, same_as: Fingerprint | None
    ) -> dict[str, object] | None:
        """What the gate holds the located element to (``identity``)."""
        if same_as is not None:
            return identity_of(step, same_as)
        return located_identity(step, located)

    @staticmethod
    def _keep_token(step: Step) -> str:
        """The token under which the gate check that passes the element keeps it in the
        page (a number: the page hands it across JavaScript worlds as an event's ``detail``):
        the action resolves that very element (``discovery.render.kept_locator``), its reads
        (``actions.perform``) and a state expectation (``checked``, ``value``...:
        ``expectations.Subject``) ask it, in one round trip with no selector code in the
        page."""
        return keep_token()


def _answered_true(sent: Sent[bool]) -> bool:
    """A read sent ahead answered true (not false, and not an error)."""
    try:
        return sent.result() is True
    except PlaywrightError:
        return False
