"""Act only on the element the gate checked, in the document it was checked in.

The gate checks an element, then the action runs. In between, the page may replace its
document by itself: HTML's navigation replaces a browsing context's active ``Document``
with a new one ("navigate", "update document for history step application"), and a script
may start one at any moment (a timer, ``form.requestSubmit()``). Playwright resolves a
locator again at every action, and retries an action whose element was detached in the
new document ("Locators are strict ... resolved at the moment of the action",
Playwright's docs, "Locators"); an ``ElementHandle`` does not, it fails once its node is
gone. So an action on the plain locator lands on whatever it matches in a document no
check has seen: on sqladmin 0.21 the search box submits itself one second after the last
key (``keyup`` → a timeout → a scripted click that loads ``?search=...``), and under load
"Search | click" was checked in the page the fill left and clicked in the page the search
loaded (docs/real-apps.md, "the search box searches by itself"). Any other element of the
same name there would have been clicked as well.

The executor therefore acts through ``discovery.render.kept_locator``: a locator that
matches the element the passing check kept, in its own document, and throws at once
anywhere else (``runtime.bridge.kept_selector``: no round trip of its own, where taking an
``ElementHandle`` costs one per action). When the action finds that element gone before it
did anything (``actions.CheckedElementGone``), the step does not act: it lets the page settle,
checks the step's element again on the page now there (its locator, against the element
the first check passed: its kind, its names, the landmark around it, as a cached locator is
checked; a fresh discovery only when there is no fingerprint to check) and acts only if
that check passes, at most :data:`MAX_RECHECKS` times within what is left of the step's one
timeout. Otherwise the step fails before acting, saying the page navigated by itself
between the check and the action. A main-frame navigation already in flight when the step is
about to act (the page is leaving the checked document) is waited for first, so the action
does not race its commit. Mixed into :class:`~pytest_pacts.engine.executor.StepRunner`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.discovery import to_playwright
from pytest_pacts.discovery.render import elements_frame, kept_locator
from pytest_pacts.engine.actions import CheckedElementGone, PointerMissed, perform
from pytest_pacts.engine.attempt import Attempt
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.engine.expectations import Subject
from pytest_pacts.engine.finder import Finder, Located
from pytest_pacts.engine.gate import GateOutcome
from pytest_pacts.engine.observing import tell_observer
from pytest_pacts.engine.waiting import READY_CAP_MS, epoch_ms, now_ms, wait_until_ready
from pytest_pacts.models import Step
from pytest_pacts.models.evidence import CALIBRATED
from pytest_pacts.models.locator import BoundingBox, Fingerprint
from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.runtime.bridge import may_keep

# How many times a step checks its element again after the page replaced the checked one
# before the action: a page that keeps replacing itself fails the step.
MAX_RECHECKS = 2

# The gate has already waited for the element; the action itself is not cut short by a
# tight step timeout (a click on a busy CI machine can take a second to dispatch).
MIN_ACTION_MS = 2_000.0

# How often a navigation an action set off is looked at while it loads (``_navigation_set_off``).
NAVIGATION_POLL_MS = 50.0

LocateAndGate = Callable[..., tuple[Located, GateOutcome | None]]


class CheckedActions:
    """The step runner's actions on the checked element (its attributes, declared here)."""

    page: Page
    options: EngineOptions
    monitor: EnvMonitor
    observer: Callable[[Step, PWLocator], None] | None
    finder: Finder
    _wait_ms: float | None
    _attempt_start: float
    # StepRunner's: find the step's element and gate it (``same_as``: the identity to check)
    _locate_and_gate: LocateAndGate
    _keep_token: Callable[[Step], str]

    # long because: the act / check-again loop, bounded by the step's one timeout
    def _act_checked(
        self,
        step: Step,
        located: Located,
        gate: GateOutcome | None,
        keep: str,
        value: str | None,
        attempt: Attempt,
    ) -> tuple[Subject | None, Failure | None]:
        """Act on the element ``gate`` passed (kept under ``keep``); see the module doc.
        Returns the subject of the step's expectation and the action's failure."""
        checked_on = self._page_url()
        same_as = _fingerprint(located)
        rechecks = 0
        subject: Subject | None = None
        while True:
            assert located.state is not None and located.state.locator is not None
            locator = located.state.locator
            element = to_playwright(self.page, locator)
            frame = elements_frame(self.page, locator)
            acting = (
                kept_locator(self.page, locator, keep) if may_keep(self.page.context) else element
            )
            subject = Subject(element, keep, frame)
            if self._navigation_in_flight():
                self._let_navigation_land(attempt)
            tell_observer(self.observer, step, acting)
            self.monitor.acted_at = epoch_ms()
            navigations = self.monitor.navigations
            try:
                failure = perform(
                    self.page, acting, step.action, value, step_index=step.index,
                    timeout_ms=max(self.options.step_timeout_ms, MIN_ACTION_MS),
                    reach=gate.snapshot.reach if gate and gate.snapshot else None,
                    frame=frame, keep=keep, used=attempt.dropdown, fallback=element,
                    words=gate.snapshot.text if gate and gate.snapshot else None,
                )  # fmt: skip
            except CheckedElementGone as gone:
                left = self._time_left()
                why = (
                    str(gone)
                    if isinstance(gone, PointerMissed)
                    else self._replaced(step, checked_on)
                )
                if rechecks >= MAX_RECHECKS or left <= 0:
                    return subject, _not_acted(step, why, str(gone), rechecks)
                # the place the stopped click aimed at, and how sure the pick was
                stopped = (
                    (locator.confidence, gate.snapshot.box if gate and gate.snapshot else None)
                    if isinstance(gone, PointerMissed)
                    else None
                )
                rechecks += 1
                cap = min(READY_CAP_MS, left / 2)
                wait_until_ready(self.page, self.monitor, cap, seen_changing=True)
                keep = self._keep_token(step)
                if same_as is None:  # nothing to tell the element by: discovery decides
                    self.finder.forget(step.index)
                outer, self._wait_ms = self._wait_ms, max(0.0, self._time_left())
                try:
                    located, gate = self._locate_and_gate(step, keep, same_as=same_as)
                finally:
                    self._wait_ms = outer
                if gate is not None:
                    attempt.gate = gate.snapshot
                    attempt.gate_checks += gate.checks
                failure = located.failure or (gate.failure if gate is not None else None)
                if failure is not None or located.state is None:
                    assert failure is not None
                    return subject, _explained(failure, why, located.source)
                if stopped is not None and _stopped_in_place(stopped, gate):
                    return subject, _not_retried(step, why, stopped[0])
                attempt.notes.append(f"{why}: checked again there before acting")
                checked_on = self._page_url()
                continue
            return subject, self._navigation_set_off(failure, navigations)

    def _navigation_in_flight(self) -> bool:
        """A main-frame navigation started less than the readiness cap ago is in flight (an
        older one is one the page or the browser keeps open, as ``EnvMonitor.busy`` rules:
        it is not waited on before every action)."""
        if not self.monitor.pending:
            return False
        since = time.monotonic() - READY_CAP_MS / 1000.0
        return any(self.monitor.inflight.get(r, 0.0) > since for r in self.monitor.pending)

    def _let_navigation_land(self, attempt: Attempt) -> None:
        """A main-frame navigation is in flight while the step is about to act: the page is
        leaving the document its element was checked in. Let it land (bounded, as readiness
        is) rather than race its commit; the kept locator then finds whether the checked
        element is still there."""
        cap = min(READY_CAP_MS, max(self._time_left(), 1.0) / 2)
        ready = wait_until_ready(self.page, self.monitor, cap)
        if not ready.ready:
            attempt.notes.append(
                f"a navigation the step did not start was still in flight after {cap:.0f} ms; "
                "acted on the element as checked"
            )

    def _navigation_set_off(self, failure: Failure | None, before: int) -> Failure | None:
        """An action that timed out while the navigation it set off was loading was done.

        Playwright's click waits, inside its own timeout, for a navigation it starts to
        commit (Playwright's docs, ``Locator.click``: "waits for initiated navigations to
        either succeed or fail"), so a link to a page slower to answer than the step timeout
        failed as a timed-out click, and the step as ``slow_page``, before the page had had
        its navigation timeout. A main-frame navigation requested since the action and still
        in flight is the action's answer: it gets what is left of the navigation timeout
        (counted from the action), and the step goes on to its expectation once it lands;
        still loading then, the step is ``env_fault`` ``slow_page`` with that timeout."""
        if (
            failure is None
            or failure.type is not FailureType.TIMEOUT
            or self.monitor.navigations == before
            or not self.monitor.pending
        ):
            return failure
        timeout = self.options.navigation_timeout_ms or self.options.step_timeout_ms
        deadline = self.monitor.acted_at + timeout
        # the driver's timer, not a page call: the document being left may not answer while
        # the next one is on its way; the monitor's listeners see the navigation end
        while self.monitor.pending and (left := deadline - epoch_ms()) > 0:
            try:
                self.page.wait_for_timeout(min(left, NAVIGATION_POLL_MS))
            except PlaywrightError:
                return failure  # the page closed: the environment's events say why
        pending = self.monitor.pending_url()
        if pending is None:
            return None
        return Failure(
            type=FailureType.ENV_FAULT,
            message=f"{pending} did not finish loading within {timeout:.0f} ms",
            step_index=failure.step_index,
            cause="slow_page",
            evidence=(f"navigation to {pending} in flight", f"symptom: {failure.message}"),
        )

    def _time_left(self) -> float:
        """What is left of this attempt's share of the step timeout, in ms."""
        budget = self.options.step_timeout_ms if self._wait_ms is None else self._wait_ms
        return budget - (now_ms() - self._attempt_start)

    def _replaced(self, step: Step, checked_on: str) -> str:
        """Why the checked element is gone, in words."""
        now = self._page_url()
        what = step.action.value
        if now != checked_on:
            return (
                f"the page navigated by itself between the check and the {what} "
                f"(checked on {checked_on}, then the page was {now})"
            )
        return (
            f"the page replaced the checked element between the check and the {what} "
            f"(a new document or a re-render at {now})"
        )

    def _page_url(self) -> str:
        try:
            return self.page.url
        except PlaywrightError:
            return ""


def _fingerprint(located: Located) -> Fingerprint | None:
    state = located.state
    return state.fingerprint if state is not None else None


def _explained(failure: Failure, why: str, source: str) -> Failure:
    """The check on the new page failed: nothing was acted on, and the failure says why the
    step was checked again."""
    message = failure.message
    if source != "cache":  # the gate's words for an identity check, made here on any locator
        message = message.replace("the cached locator ", "the step's locator ", 1)
    return failure.model_copy(
        update={
            "message": f"{why}; on the page now there: {message}",
            "evidence": (why, *failure.evidence),
        }
    )


def _stopped_in_place(stopped: tuple[float, BoundingBox | None], gate: GateOutcome | None) -> bool:
    """The guard stopped a click on a pick scored under the calibrated band (``CALIBRATED``)
    and the element, checked again, is where the stopped click aimed (its box in its
    document, to the pixel): nothing moved it, so what took the click is what a person
    reaches there, and the pick's evidence is too weak to try that element another way (a
    show/hide checkbox under its eye icon, then clicked through its label: Kedro-Viz 12.5.0,
    a pick by its form ``name`` at 0.80). An element the page moved (a block drawn above a
    list: doccano's sidebar) is clicked where it now is, as before."""
    confidence, box = stopped
    if confidence >= CALIBRATED or box is None:
        return False
    now = gate.snapshot.box if gate is not None and gate.snapshot is not None else None
    if now is None:
        return False
    return all(
        abs(a - b) < 1.0
        for a, b in (
            (box.x, now.x), (box.y, now.y), (box.width, now.width), (box.height, now.height)
        )
    )  # fmt: skip


def _not_retried(step: Step, why: str, confidence: float) -> Failure:
    """A stopped click on a weak pick, not tried again (:func:`_stopped_in_place`): two
    elements at one point, the pick and what took its click, and no clear evidence for the
    pick: ``ambiguous``, which is not healed (a heal's repair rung would dismiss, by a click,
    the very element that took it)."""
    return Failure(
        type=FailureType.AMBIGUOUS,
        message=(
            f"{why}; checked again, the element is where the click aimed (nothing moved it), "
            f"and its pick scored {confidence:.2f}, under {CALIBRATED:.2f}: not clicked "
            "another way; nothing was acted on. Name the element by the words it shows, or "
            "give a region"
        ),
        step_index=step.index,
        evidence=(why, f"pick {confidence:.2f} < {CALIBRATED:.2f}, same place when checked again"),
    )


def _not_acted(step: Step, why: str, detail: str, rechecks: int) -> Failure:
    """The checked element kept being replaced (or the step's time ran out): not acted on."""
    again = f", {rechecks} time(s) after checking it again" if rechecks else ""
    return Failure(
        type=FailureType.DETACHED,
        message=f"{why}{again}; nothing was acted on",
        step_index=step.index,
        evidence=(why, detail),
    )
