"""Every call into a page is bounded: a page whose main thread hangs fails the call, not the run.

Playwright's ``evaluate`` family has no timeout, and a renderer busy in ``while (true) {}``
never answers: the call would wait forever and the whole test session with it. :func:`call`
runs one Playwright call (or a few, as one unit) with a deadline kept by a timer on
Playwright's own event loop, which runs while the sync call waits. The happy path costs no
round trip: the timer is armed before the call and cancelled after it.

When the deadline passes, the page's browser context is closed (the only way to unblock a
call waiting on a hung renderer); the pending call then fails and :func:`call` raises
:class:`PageUnresponsive` saying which call waited how long. A Playwright timeout inside a
bounded call (a click that never got its answer) is followed by one probe from a second
channel (a CDP ``Runtime.evaluate("1")``, Chromium only) bounded by :data:`MARGIN_MS`: a page
that cannot answer it is unresponsive, not merely slow.

The deadline of a call is the budget set by :func:`budget` (the engine sets the step timeout)
plus :data:`MARGIN_MS`, whatever shorter cap the call has of its own: a page that is only slow
keeps the patience the step promised. A call whose answer came with its deadline (both due
in the same turn of the loop, the test process starved of CPU) keeps its page open.

A read whose answer is needed only after other calls can be sent ahead (:func:`send`): its
round trip overlaps theirs (Playwright's event loop runs it while they wait), and
:meth:`Sent.result` waits for the answer under the same deadline as :func:`call`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import Callable, Coroutine, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, JSHandle, Page
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from pytest_pacts.errors import PactsError
from pytest_pacts.runtime import playwright_private
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS

T = TypeVar("T")

MESSAGE = "the page stopped responding: its main thread is busy"
MARGIN_MS = 2_000.0  # added to the budget; also the probe's bound after a Playwright timeout
# between a passed deadline and the page's tear-down: an answer that came with the deadline,
# or a call sent only when the starved process ran again (one round trip through Playwright's
# driver, which on a loaded machine can take a few hundred ms: docs/engine.md)
GRACE_S = 0.5
DEFAULT_BUDGET_MS = DEFAULT_STEP_TIMEOUT_MS  # a call gets a step's patience

_budget: ContextVar[float] = ContextVar("pacts_page_call_budget", default=DEFAULT_BUDGET_MS)


@dataclass(frozen=True)
class Hang:
    """Evidence of an unresponsive page: the call that waited and for how long."""

    call: str
    waited_ms: float

    @property
    def evidence(self) -> str:
        return f"{self.call} got no answer within {self.waited_ms / 1000:.1f} s"


class PageUnresponsive(PlaywrightError, PactsError):
    """A bounded call passed its deadline; the page's context was closed (a Playwright
    ``Error``, so every handler of browser errors still catches it)."""

    def __init__(self, hang: Hang) -> None:
        super().__init__(f"{MESSAGE} ({hang.evidence})")
        self.hang = hang


# the page -> the hang that tore it down (EnvMonitor reads it when the page closes)
_hangs: weakref.WeakKeyDictionary[Any, Hang] = weakref.WeakKeyDictionary()
# the page -> "is a navigation in flight?" (the engine's EnvMonitor knows)
_navigation: weakref.WeakKeyDictionary[Any, Callable[[], bool]] = weakref.WeakKeyDictionary()


def hang_of(page: Page) -> Hang | None:
    """The hang that closed ``page``, if a deadline closed it."""
    return _hangs.get(_key(page))


@contextlib.contextmanager
def budget(timeout_ms: float) -> Iterator[None]:
    """Calls inside get ``timeout_ms`` + :data:`MARGIN_MS` each (the engine's step timeout)."""
    token = _budget.set(max(float(timeout_ms), 0.0))
    try:
        yield
    finally:
        _budget.reset(token)


def _key(page: Page) -> Any:
    return playwright_private.identity(page)


def page_of(target: Page | Frame | PWLocator) -> Page:
    """The page a frame or locator belongs to (no round trip)."""
    if isinstance(target, Page):
        return target
    return target.page


def call(
    target: Page | Frame | PWLocator,
    what: str,
    fn: Callable[..., T],
    *args: Any,
    timeout_ms: float | None = None,
    probe: bool = True,
) -> T:
    """``fn(*args)`` (Playwright calls on ``target``'s page) within the budget (or
    ``timeout_ms`` when longer) + :data:`MARGIN_MS`; raises :class:`PageUnresponsive` when
    the page hangs.

    A shorter ``timeout_ms`` does not shorten the deadline: the only way to stop waiting on
    a page is to close it, and a page that is only slow (a document still loading on a
    loaded machine, a navigation the server answers late) keeps the patience the step
    promised. A call with a cap of its own caps its wait in the page."""
    page = page_of(target)
    loop = playwright_private.event_loop(page)
    if loop is None:
        return fn(*args)
    limit = max(_budget.get(), timeout_ms or 0.0) + MARGIN_MS
    watch = _Watch(page, what, time.monotonic())
    timer = loop.call_later(limit / 1000, _fire, watch)
    try:
        return fn(*args)
    except PlaywrightError as exc:
        if watch.hang is not None:
            raise PageUnresponsive(watch.hang) from exc
        if probe and isinstance(exc, PlaywrightTimeout):
            watch.answered = True
            timer.cancel()
            _probe(page, what, watch.started)
        raise
    finally:
        watch.answered = True
        timer.cancel()


class Sent(Generic[T]):
    """A page call sent ahead (:func:`send`): its answer, or its error, from :meth:`result`."""

    def __init__(
        self,
        target: PWLocator | Frame,
        what: str,
        task: asyncio.Task[T] | None,
        now: Callable[[], T],
        again: tuple[object, Callable[[], T]] | None = None,
        then: Callable[[Any], T] | None = None,
    ) -> None:
        self._target, self._what, self._task, self._now = target, what, task, now
        self._again, self._then = again, then

    def result(self) -> T:
        """The answer (passed through ``then``); waits for it within the deadline of
        :func:`call`. A call that could not be sent ahead (no event loop to run it on) is
        made now, and so is the ``again`` call when the answer is its marker."""
        task = self._task
        if task is None:
            value = call(self._target, self._what, self._now)
        elif task.done():
            value = call(self._target, self._what, task.result)
        else:
            page = page_of(self._target)
            value = call(self._target, self._what, lambda: playwright_private.run(page, task))
        if self._again is not None and value == self._again[0]:
            value = call(self._target, self._what, self._again[1])
        return value if self._then is None else self._then(value)

    def drop(self) -> None:
        """The answer is not needed any more."""
        if self._task is not None:
            self._task.cancel()


def _retrieved(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()  # a dropped call's error is not "never retrieved"


def send(
    target: PWLocator | Frame,
    what: str,
    expression: str,
    arg: object = None,
    again: tuple[object, Callable[[], Any]] | None = None,
    then: Callable[[Any], Any] | None = None,
) -> Sent[Any]:
    """``target.evaluate_all(expression, arg)`` (a locator) or ``target.evaluate(expression,
    arg)`` (a frame) sent now, answered by :meth:`Sent.result` later: the calls made in
    between overlap its round trip. ``arg`` is plain data (no handles). ``again``:
    ``(marker, call)``, the call to make instead when the answer is the marker (the in-page
    code was not installed yet); ``then``: applied to the answer (decoding it)."""
    impl = playwright_private.impl(target)

    def now() -> Any:
        if isinstance(target, PWLocator):
            return target.evaluate_all(expression, arg)
        return target.evaluate(expression, arg)

    def make() -> Coroutine[Any, Any, Any]:
        assert impl is not None
        if isinstance(target, PWLocator):
            return cast(Coroutine[Any, Any, Any], impl.evaluate_all(expression, arg))
        return cast(Coroutine[Any, Any, Any], impl.evaluate(expression, arg))

    return send_async(target, what, make if impl is not None else None, now, again, then)


def send_async(
    target: PWLocator | Frame,
    what: str,
    make: Callable[[], Coroutine[Any, Any, T]] | None,
    now: Callable[[], T],
    again: tuple[object, Callable[[], T]] | None = None,
    then: Callable[[Any], Any] | None = None,
) -> Sent[Any]:
    """:func:`send` of any call on Playwright's own (async) objects: ``make()`` starts it on
    Playwright's event loop now; ``now`` makes it the sync way when there is no loop to run
    it on (or no ``make``)."""
    loop = playwright_private.event_loop(page_of(target))
    if make is None or loop is None:
        return Sent(target, what, None, now, again, then)
    task: asyncio.Task[Any] = loop.create_task(make())
    task.add_done_callback(_retrieved)
    return Sent(target, what, task, now, again, then)


def release(handles: Iterable[JSHandle]) -> None:
    """Let go of element handles (each once) without waiting for Playwright's answer: each
    ``dispose`` is started on Playwright's event loop and goes out with the next call made
    on it (or when the page closes). Nothing depends on its answer: a handle whose page
    navigated or closed is gone already, and its error is not raised. Where there is no
    loop to start it on, disposed the ordinary way, as before."""
    for handle in {id(h): h for h in handles}.values():
        inner = playwright_private.impl(handle)
        loop = playwright_private.event_loop(handle)
        if inner is None or loop is None:
            with contextlib.suppress(PlaywrightError):
                handle.dispose()
            continue
        task: asyncio.Task[Any] = loop.create_task(inner.dispose())
        task.add_done_callback(_retrieved)


@dataclass
class _Watch:
    """One bounded call's deadline: what it waits for, since when, and how it ended."""

    page: Page
    what: str
    started: float  # time.monotonic()
    answered: bool = False  # the call returned or raised: its page is not torn down
    hang: Hang | None = None  # set when the deadline closed the page's context


def _fire(watch: _Watch) -> None:
    """On Playwright's loop, when a call's deadline passes: tear its page down after
    :data:`GRACE_S`, unless the call got its answer meanwhile. An answer that came in the
    same turn of the loop as the deadline (the test process itself starved of CPU, then
    both were due at once) is an answer, not a hang."""
    asyncio.get_running_loop().call_later(GRACE_S, _tear_down_unless_answered, watch)


def _tear_down_unless_answered(watch: _Watch) -> None:
    if watch.answered:
        return
    hang = Hang(watch.what, (time.monotonic() - watch.started) * 1000)
    watch.hang = hang
    _hangs[_key(watch.page)] = hang
    impl = playwright_private.impl(watch.page)
    if impl is not None:
        asyncio.get_running_loop().create_task(playwright_private.close_page(impl, MESSAGE))


def watch_navigation(page: Page, navigating: Callable[[], bool] | None) -> None:
    """Tell the probe how to see a navigation in flight on ``page`` (``None`` forgets it):
    Chromium holds a session's messages until a pending navigation commits, so a probe
    unanswered then says "slow server", not "hung page"."""
    if navigating is None:
        _navigation.pop(_key(page), None)
    else:
        _navigation[_key(page)] = navigating


def _probe(page: Page, what: str, started: float) -> None:
    """After a Playwright timeout: can the page still run a line of JavaScript? Asked over
    a CDP session of its own; skipped while a navigation is in flight."""
    navigating = _navigation.get(_key(page), lambda: False)
    if navigating():
        return
    watch = _Watch(page, what, started)
    sessions: list[Any] = []

    def fire() -> None:
        if navigating() and sessions:  # a navigation started meanwhile: just stop asking
            asyncio.get_running_loop().create_task(_detach(sessions[0]))
        else:
            _fire(watch)

    loop = playwright_private.event_loop(page)
    if loop is None:
        return
    timer = loop.call_later(MARGIN_MS / 1000, fire)
    try:
        session = page.context.new_cdp_session(page)
        sessions.append(session)
        session.send("Runtime.evaluate", {"expression": "1", "returnByValue": True})
        session.detach()
    except PlaywrightError as exc:  # not Chromium, the page is gone, or it hangs
        if watch.hang is not None:
            raise PageUnresponsive(watch.hang) from exc
    finally:
        watch.answered = True
        timer.cancel()


async def _detach(session: Any) -> None:
    impl = playwright_private.impl(session)
    with contextlib.suppress(Exception):
        if impl is not None:
            await impl.detach()
