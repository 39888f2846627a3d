"""The five-point gate before every action, with retries for transient states.

The check itself is discovery's :func:`~pytest_pacts.discovery.check_locator` (one round
trip when the element is ready; the same code discovery snapshots, so both agree on
"actionable"). This module decides what to do with a failing point:

- *transient* states (not visible yet, disabled until the form is valid, animating,
  re-rendered) are re-checked until the step timeout: every check spends one or two
  animation frames measuring stability, so the loop polls on animation frames, never a
  fixed sleep. A *recorded* locator (one checked against its fingerprint) is different
  when healing can follow: on a settled page its hidden, disabled or detached element is
  handed to healing after ``patience_ms`` (:data:`HEAL_PATIENCE_MS`), so the ladder tries
  the recorded element's other locators before the step's whole timeout is spent waiting
  (a newer release that keeps the old element hidden and shows another one); the ladder's
  repair rung still waits the state out when nothing else is found;
- *structural* states (matches nothing, matches several, covered by another element, the
  wrong kind of element, outside its scope) are re-checked only until the page has settled
  (and at least ``settle_timeout_ms``, 0 by default): on a loaded, quiet page a locator
  that matches nothing will not start matching by waiting, so healing starts at once.
  "Settled" is observed, not guessed (``waiting.settled``): no navigation or request the
  page is waiting on, ``readyState`` complete, and no DOM change over the check's own two
  animation frames, so a settled page costs no round trip beyond the check itself. A page
  still loading, fetching or re-rendering keeps being re-checked up to the step timeout.

Which points an action needs follows Playwright's actionability table: ``hover`` and
``focus`` do not need an enabled element (hovering a disabled button to read its tooltip is
legitimate); every other action needs all five.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from time import monotonic

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.discovery import UnrenderableLocator, check_actionable, to_playwright
from pytest_pacts.discovery.render import elements_frame
from pytest_pacts.engine.ahead import changed_since, set_aside
from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.engine.errors import classify_error
from pytest_pacts.engine.waiting import (
    POLL_CAP_MS,
    READY_CAP_MS,
    now_ms,
    settled_after_check,
    wait_for_change,
)
from pytest_pacts.models.locator import GateCode, GatePoint, GateSnapshot, Locator
from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.models.requirement import Action

TRANSIENT: frozenset[GateCode] = frozenset({"not_visible", "disabled", "unstable", "detached"})

# How long a recorded locator's hidden, disabled or detached element is waited for on a
# settled page before healing gets to try (``run_gate``'s ``patience_ms``): as long as
# ``relocate_element`` gives the recorded locator. A moving element is always waited out
# (an animation ends by itself).
HEAL_PATIENCE_MS = 1_500.0
PATIENT: frozenset[GateCode] = TRANSIENT - {"unstable"}

GATE_FAILURE: dict[GateCode, FailureType] = {
    "none": FailureType.NOT_UNIQUE,  # zero matches: gate point 1, "exactly one"
    "not_unique": FailureType.NOT_UNIQUE,
    "not_visible": FailureType.NOT_VISIBLE,
    "obscured": FailureType.OBSCURED,
    "detached": FailureType.DETACHED,
    "disabled": FailureType.DISABLED,
    "not_editable": FailureType.DISABLED,  # point 3: "editable for fill/type"
    # One element, but not the one the step means (a button where a checkbox is needed, or
    # outside its region): the locator does not single out the intended element.
    "incompatible": FailureType.NOT_UNIQUE,
    "not_scoped": FailureType.NOT_UNIQUE,
    "unstable": FailureType.UNSTABLE,
}


def blocking_point(
    snapshot: GateSnapshot, action: Action, *, disabled_ok: bool = False
) -> GatePoint | None:
    """The first failing point this action needs, in gate order (``disabled_ok``: not the
    element being disabled, :func:`heal_blocking_point`)."""
    for point in snapshot.points:
        if point.ok or point.code == "skipped":
            continue
        if action.observes and point.code not in SEEN_BY_WAIT:
            continue  # a wait or extract acts on nothing: its element need be there and visible
        disabled = point.name == "enabled" and point.code == "disabled"
        if disabled and (disabled_ok or action in NO_ENABLED):
            continue
        return point
    return None


def heal_blocking_point(
    snapshot: GateSnapshot, action: Action, failure: FailureType | None = None
) -> GatePoint | None:
    """The point that stops a heal candidate: as :func:`blocking_point`, but an element
    disabled now is not refused. "Enabled" is a state the step's gate waits for, as it
    waits for "stable" (a form's submit button enabled once its fields are valid): a heal
    decides which element the step means; the retried step waits for it to be enabled and,
    when it stays disabled, fails as disabled, not as an element the page no longer has.
    Nothing is ever done to a disabled element. Once the step's ``failure`` is that its
    element stayed disabled, another locator of a disabled element changes nothing: refused
    (the repair rung's wait for enablement decides)."""
    return blocking_point(snapshot, action, disabled_ok=takes_disabled(failure))


def takes_disabled(failure: FailureType | None) -> bool:
    """Whether healing takes a candidate that is disabled now (:func:`heal_blocking_point`)."""
    return failure is not FailureType.DISABLED


NO_ENABLED = frozenset({Action.HOVER, Action.FOCUS})
SEEN_BY_WAIT: frozenset[GateCode] = frozenset({"none", "not_unique", "not_visible"})
# ``blocking_point``'s rule for the in-page check, which decides there whether to watch two
# frames before answering (a transient state, or a structural one on a page still changing);
# and ``requests_ms``: a request the page's scripts opened less than that long ago, still
# open, keeps the page from being settled, as :meth:`EnvMonitor.busy` counts them
IN_PAGE_RULE: dict[str, object] = {
    "transient": sorted(TRANSIENT),
    "seen_by_wait": sorted(SEEN_BY_WAIT),
    "no_enabled": sorted(a.value for a in NO_ENABLED),
    "requests_ms": READY_CAP_MS,
}


@dataclass(frozen=True)
class GateOutcome:
    snapshot: GateSnapshot | None
    failure: Failure | None
    checks: int
    # what the last check observed of the page being settled (``observed_settled``); ``None``
    # when not observed
    settled: bool | None = None
    # the locator was picked ahead of its turn and the page changed since
    # (``picked_at``): its failure says so, and the element is to be discovered afresh
    set_aside: bool = False


def gate_failure(
    snapshot: GateSnapshot, point: GatePoint, locator: Locator, step_index: int, waited_ms: float
) -> Failure:
    kind = GATE_FAILURE.get(point.code, FailureType.TIMEOUT)
    if point.code == "none":
        what = f"the locator {locator.describe()} matches no element (count=0)"
    elif point.code == "not_unique":
        what = f"the locator {locator.describe()} matches {snapshot.count} elements"
    else:
        what = f"{locator.describe()} fails the {point.name} check: {point.reason}"
    return Failure(
        type=kind,
        message=what,
        step_index=step_index,
        gate=snapshot,
        evidence=(f"gate {point.name}: {point.reason}", f"re-checked for {waited_ms:.0f} ms"),
    )


def observed_settled(snapshot: GateSnapshot, round_trip_ms: float) -> bool | None:
    """What a check observed about the page being settled, as far as it can be trusted.

    The elements a check is given are resolved at the start of its round trip, before its
    own watch over two animation frames begins: a DOM change in between (the last frame of
    a list still rendering) leaves them stale while the watch sees a quiet page. So a quiet
    watch counts only when the document has not changed for the whole round trip
    (``quiet_ms``, watched in the page without a gap). ``None``: not observed."""
    if snapshot.settled is None:
        return None
    if snapshot.quiet_ms is not None and snapshot.quiet_ms < round_trip_ms:
        return False
    return snapshot.settled


def stalled(snapshot: GateSnapshot, monitor: EnvMonitor) -> bool:
    """A page taken as settled though it has not finished loading: its DOM has not changed
    for :data:`~pytest_pacts.engine.waiting.READY_CAP_MS` (2.5 s) and it waits only on
    requests older than that, with no navigation in flight. Readiness gives a page no more
    (a page that polls never settles); a page whose parser waits on a third-party script
    that does not answer (a CDN's host whose lookup fails slowly without internet) stays
    "loading" for as long, with all of its content there. Without this rule the gate
    re-checked a locator that matches nothing on such a page for the step's whole timeout
    before healing (issue 40: the first heal of a run on a real shop took 10 s)."""
    return (
        snapshot.quiet_ms is not None
        and snapshot.quiet_ms >= READY_CAP_MS
        and not monitor.navigating
        and not monitor.busy(READY_CAP_MS)
    )


def _stalled_note(snapshot: GateSnapshot) -> str:
    return (
        f"the page's DOM has not changed for {snapshot.quiet_ms or 0:.0f} ms and it waits only "
        f"on requests older than {READY_CAP_MS:.0f} ms: taken as settled, though it has not "
        "finished loading"
    )


def _drawn_note(monitor: EnvMonitor, snapshot: GateSnapshot) -> str:
    """Why a page whose socket is live was taken as settled (``EnvMonitor.drawing``)."""
    age_ms = (monotonic() - monitor.socket_at) * 1000.0
    return (
        f"the page's socket last brought a message {age_ms:.0f} ms ago, its DOM last changed "
        f"{snapshot.quiet_ms or 0:.0f} ms ago, and no message was heard in the quiet since "
        "(beyond the check's round trip, as Playwright reports a frame late): what the socket "
        "brought is drawn, the page is settled"
    )


def _await_drawing(page: Page, monitor: EnvMonitor, observed: bool | None, deadline: float) -> None:
    """Before the next check of a page the check saw quiet that is still being drawn from
    its sockets (``EnvMonitor.drawing``): wait for its next DOM change, at most
    :data:`~pytest_pacts.engine.waiting.POLL_CAP_MS` (a message that changes nothing wakes
    nothing), rather than checking again at once. A page seen changing or fetching is not
    waited on here: the check itself watches its frames."""
    if observed and not monitor.busy(READY_CAP_MS):
        wait_for_change(page, max(1.0, min(POLL_CAP_MS, deadline - now_ms())))


def _check(
    page: Page,
    locator: Locator,
    action: Action,
    identity: Mapping[str, object] | None,
    trace: bool,
    keep: str | None,
    monitor: EnvMonitor,
    settle: bool,
) -> tuple[GateSnapshot, bool | None, float]:
    """One check of the gate's loop, what it observed of the page being settled, and its
    round trip in ms."""
    # The rendered chain already starts at the region's container (and the frame), so
    # whatever it matches is inside them: the region need not be resolved again (two round
    # trips saved); "scoped" still checks the shadow-root expectation.
    target = to_playwright(page, locator)
    sent = now_ms()
    snapshot = check_actionable(
        target, action, in_shadow=locator.in_shadow, identity=identity, trace=trace,
        keep=keep, since=monitor.acted_at, rule=IN_PAGE_RULE,
        frame=elements_frame(page, locator), settle=settle,
    )  # fmt: skip
    took_ms = now_ms() - sent
    return snapshot, observed_settled(snapshot, took_ms), took_ms


def first_check(
    page: Page,
    locator: Locator,
    action: Action,
    *,
    monitor: EnvMonitor,
    identity: Mapping[str, object] | None = None,
    trace: bool = False,
    keep: str | None = None,
    settle: bool = False,
) -> tuple[GateSnapshot, float] | None:
    """The first check :func:`run_gate` would make with these arguments, made now, and its
    round trip in ms: handed to it as ``first``. ``None`` when the check raised (the gate
    then checks again, and says why)."""
    try:
        snapshot, _observed, took_ms = _check(
            page, locator, action, identity, trace, keep, monitor, settle
        )
    except (UnrenderableLocator, PlaywrightError):
        return None
    return snapshot, took_ms


# long because: the gate's retry loop with its patience rules; a hot path where a call costs a round
# trip
def run_gate(
    page: Page,
    locator: Locator,
    action: Action,
    *,
    step_index: int,
    timeout_ms: float,
    settle_ms: float,
    monitor: EnvMonitor,
    identity: Mapping[str, object] | None = None,
    trace: bool = False,
    keep: str | None = None,
    settle: bool = False,
    patience_ms: float | None = None,
    first: tuple[GateSnapshot, float] | None = None,
    picked_at: float | None = None,
) -> GateOutcome:
    """Check ``locator`` until it passes, or fail with the gate's reason (see module doc).

    ``identity`` (a cached locator's fingerprint and the step's words) also checks, in the
    same round trip, that the element found is still the recorded one. A different element
    is a structural failure (``not_unique``, cause ``identity_changed``): never acted on,
    handed to healing. ``trace`` also reads the element's text and the document's hash
    (``engine/tracing.py``) in the same round trips. ``keep``: the token under which the
    page keeps the element that passed (``check_actionable``). ``settle``: each check also
    observes whether the page is settled, watching the frames it takes when the page was not
    known quiet (the executor's readiness; ``GateOutcome.settled``). ``patience_ms``: a
    hidden, disabled or detached element on a page seen settled fails after that long
    rather than at the step timeout (a recorded locator that healing may replace; module
    doc). ``first``: a check the caller has just made with the same arguments (its
    ``since`` at most the time the caller last acted on the page, as the loop's own), with
    its round trip in ms: used as this loop's first check, not sent again. ``picked_at``:
    the locator was picked ahead of its turn on the page as it was then (``now_ms``;
    engine/ahead.py): when the first check shows a DOM change since, nothing more is checked
    (``GateOutcome.set_aside``)."""
    start = now_ms()
    deadline = start + timeout_ms
    settle_after = start + min(settle_ms, timeout_ms)
    checks = 0
    last: GateSnapshot | None = None
    while True:
        checks += 1
        if first is not None:
            last, took_ms = first
            first = None
            observed = observed_settled(last, took_ms)
        else:
            try:
                last, observed, took_ms = _check(
                    page, locator, action, identity, trace, keep, monitor, settle
                )
            except UnrenderableLocator as exc:
                failure = Failure(
                    type=FailureType.NOT_UNIQUE,
                    message=f"the locator {locator.describe()} cannot be rendered: {exc}",
                    step_index=step_index,
                )
                return GateOutcome(None, failure, checks)
            except PlaywrightError as exc:
                text = str(exc)
                navigating = "context was destroyed" in text or "navigat" in text
                if navigating and now_ms() < deadline:
                    continue  # the page is being replaced under us: check the new one
                return GateOutcome(
                    last, classify_error(exc, "checking the element", step_index), checks
                )
        mark, picked_at = picked_at, None  # judged on the first check the page answers
        if mark is not None and changed_since(last, locator, mark, now_ms()):
            why = set_aside(step_index, locator, last)
            failure = Failure(type=FailureType.NOT_UNIQUE, message=why, step_index=step_index)
            return GateOutcome(last, failure, checks, set_aside=True)
        if last.changed is not None and last.count == 1:
            now = now_ms()
            quiet = settled_after_check(page, monitor, observed, last.quiet_ms, took_ms)
            stuck = not quiet and stalled(last, monitor)
            if now < deadline and (now < settle_after or not (quiet or stuck)):
                if not quiet:
                    _await_drawing(page, monitor, observed, deadline)
                continue  # a re-render in progress may still put the right element back
            failure = Failure(
                type=FailureType.NOT_UNIQUE,
                message=f"the cached locator {locator.describe()} now finds another element: "
                f"{last.changed}",
                step_index=step_index,
                cause="identity_changed",
                gate=last,
                evidence=(
                    f"identity: {last.changed}",
                    f"re-checked for {now - start:.0f} ms",
                    *((_stalled_note(last),) if stuck and now < deadline else ()),
                ),
            )
            return GateOutcome(last, failure, checks)
        point = blocking_point(last, action)
        if point is None:
            return GateOutcome(last, None, checks, observed)
        now = now_ms()
        patient = stuck = False
        if now < deadline:
            if point.code in TRANSIENT:
                patient = (
                    patience_ms is not None
                    and point.code in PATIENT
                    and now - start >= patience_ms
                    and settled_after_check(page, monitor, observed, last.quiet_ms, took_ms)
                )
                if not patient:
                    continue
            elif now < settle_after:
                continue
            elif not settled_after_check(page, monitor, observed, last.quiet_ms, took_ms):
                stuck = stalled(last, monitor)
                if not stuck:
                    _await_drawing(page, monitor, observed, deadline)
                    continue
        failure = gate_failure(last, point, locator, step_index, now - start)
        if not stuck and now < deadline and monitor.drawing(READY_CAP_MS, None):
            failure = failure.model_copy(
                update={"evidence": (*failure.evidence, _drawn_note(monitor, last))}
            )
        if stuck:
            failure = failure.model_copy(
                update={"evidence": (*failure.evidence, _stalled_note(last))}
            )
        if patient:
            failure = failure.model_copy(
                update={
                    "evidence": (
                        *failure.evidence,
                        f"the page is settled: handed to healing after {now - start:.0f} ms, "
                        "before the step timeout",
                    )
                }
            )
        return GateOutcome(last, failure, checks)


def said_shared(gate: GateOutcome, step_timeout_ms: float, left_ms: float) -> GateOutcome:
    """A gate failure on a retry says it had only what the step's earlier attempts left."""
    assert gate.failure is not None
    shared = (
        f"the step's attempts share one {step_timeout_ms:.0f} ms timeout: "
        f"this retry had the {left_ms:.0f} ms the earlier ones left"
    )
    failure = gate.failure.model_copy(update={"evidence": (*gate.failure.evidence, shared)})
    return replace(gate, failure=failure)
