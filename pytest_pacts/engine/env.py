"""Environment faults: telling a dead server, an HTTP error or a crash from a drifted page.

Environment faults: browser crash, server down, HTTP 500 and slow pages are ``env_fault``
with evidence, never ``selector_drift``. :class:`EnvMonitor` listens to the page
for the whole run (document responses, failed document requests, crashes, closing), so a
step that fails *because* the environment broke is classified by what actually happened, not
by the symptom the executor saw (a locator that no longer matches on an error page).
"""

from __future__ import annotations

import contextlib
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Page, Request, Response, WebSocket

from pytest_pacts.engine.errors import REFUSED
from pytest_pacts.engine.routes import route_of
from pytest_pacts.models.outcome import Failure, FailureCause, FailureType
from pytest_pacts.runtime import bounded, playwright_private
from pytest_pacts.runtime.scripts import init_script

# The requests a page's readiness waits for: what can bind handlers or render content (a
# frame's document, a script or module, the data a script fetches). Images, fonts, styles
# and the favicon bind nothing; event streams and sockets stay open by design.
_READINESS_KINDS = frozenset({"document", "script", "fetch", "xhr"})


# The in-page API (runtime/scripts.py), installed in every document from its first moment (an
# init script of the page), with its change watch (``runtime/js/watch.js``): the DOM changes
# and the animation frames drawn since the last one, watched without a gap. A gate check of
# an element that is gone, or a new page's readiness, on a page that has drawn two frames
# since its last change is settled without waiting; and the first gate check on a new page
# does not send the API along.
PAGE_SCRIPT = init_script()
# pages that have the init script (added once per page, whatever number of runs use it)
_watched: weakref.WeakSet[object] = weakref.WeakSet()


# the monitor listening to each page (the last one attached), for :func:`navigations_of`;
# held weakly both ways (a monitor holds its page)
_listening: weakref.WeakKeyDictionary[object, weakref.ref[EnvMonitor]] = weakref.WeakKeyDictionary()


def navigations_of(page: Page) -> int | None:
    """How many main-frame navigations the monitor listening to ``page`` has seen requested
    (``EnvMonitor.navigations``); ``None`` when no monitor listens to it."""
    held = _listening.get(playwright_private.identity(page))
    monitor = held() if held is not None else None
    return monitor.navigations if monitor is not None else None


def watch_changes(page: Page) -> bool:
    """Add :data:`PAGE_SCRIPT` to ``page``'s documents from its next navigation on; whether
    it was added now."""
    key = playwright_private.identity(page)
    if key in _watched:
        return False
    with contextlib.suppress(PlaywrightError):
        page.add_init_script(PAGE_SCRIPT)
        _watched.add(key)
    return key in _watched


# A fetch or XHR answer whose body is at most this long is the page's as soon as its headers
# arrive (see ``EnvMonitor._on_response``); a longer or unknown-length body is waited for.
SMALL_BODY_BYTES = 256 * 1024
# ... and a request so answered that has not finished this long after its headers is one
# whose body the page does not read. Readiness decides sooner, by watching the page draw two
# animation frames after the headers (``EnvMonitor.drop_unread``); this bounds the other
# readers of the open requests.
ANSWERED_GRACE_S = 1.0


def _answered(response: Response) -> bool:
    """A fetch/XHR response the page has all of once its headers arrived: no body
    expected, or a small one of known length."""
    try:
        if response.request.resource_type not in ("fetch", "xhr"):
            return False
        if response.status in (204, 304) or 100 <= response.status < 200:
            return True
        length = response.headers.get("content-length", "")
    except PlaywrightError:
        return False
    return length.isdigit() and int(length) <= SMALL_BODY_BYTES


@dataclass(frozen=True)
class EnvEvent:
    cause: FailureCause
    message: str
    http_status: int | None = None


@dataclass
class EnvMonitor:
    """Records environment events on ``page`` as they happen (listeners are synchronous).

    ``listen=False``: no listener at all (each one Playwright subscribes to costs a round
    trip to attach and one to detach): a monitor for a short read of a page that is already
    loaded (``relocate_element``), which sees no request, navigation or crash and so is
    never ``busy``; the page's own change watch still tells whether it is settled."""

    page: Page
    events: list[EnvEvent] = field(default_factory=list)
    crashed: bool = False
    closed: bool = False
    # main-frame document requests in flight: a navigation is pending, the page is not settled
    pending: set[Request] = field(default_factory=set)
    # The page's open requests (any frame) of the kinds readiness waits for: documents,
    # scripts, fetch and XHR (``_READINESS_KINDS``), each with when it started
    # (``time.monotonic()`` seconds).
    inflight: dict[Request, float] = field(default_factory=dict)
    requests: int = 0  # such requests started since the monitor was attached
    documents: int = 0  # main-frame navigations committed (a new page, or an SPA route)
    loaded: int = 0  # ``documents`` when the last ``load`` event fired
    requests_at_load: int = 0  # ``requests`` when the last ``load`` event fired
    # when the page last did something observable from outside (a request of those kinds
    # started or ended, a main-frame navigation, a load), ``time.monotonic()`` seconds
    active_at: float = 0.0
    # fetch/XHR requests in ``inflight`` answered with a small body, and when
    answered: dict[Request, float] = field(default_factory=dict)
    # when the run last acted on the page (a click, a fill, a key; at first, when the monitor
    # was attached: whatever was done to the page before the run is an action too),
    # wall-clock milliseconds (``waiting.epoch_ms``): the page's quiet before that says
    # nothing about its answer to the action, which may still be on its way (a render
    # scheduled for the next frame)
    acted_at: float = field(default_factory=lambda: time.time() * 1000.0)
    listen: bool = True
    # main-frame navigation requests started, and those that failed ("url (reason)"): what
    # an action set off when its page outcome did not come (``pagesays.set_off``)
    navigations: int = 0
    navigations_failed: list[str] = field(default_factory=list)
    # when a WebSocket of the page opened, or last received or sent a message
    # (``time.monotonic()`` seconds; 0: none yet): what the page draws from them comes
    # after ``load`` and without a request (``drawing``)
    socket_at: float = 0.0
    # the main frame's URL, and how many times its route moved within the document (the
    # History API: a navigation with no request; ``routes.route_of``), the last one when
    # (``time.monotonic()`` seconds): the next step waits for its view (``routes``)
    url: str = ""
    routes: int = 0
    routed_at: float = 0.0
    _committed: int = 0  # ``navigations`` at the main frame's last navigation
    # the events listened to without a subscription of their own (``_followed``)
    _heard: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        watch_changes(self.page)
        if not self.listen:
            return
        self.url = self.page.url
        self.page.on("load", self._on_load)
        self.page.on("framenavigated", self._on_frame_navigated)
        self.page.on("crash", self._on_crash)
        self.page.on("close", self._on_close)
        self.page.on("request", self._on_request)
        # A request's later events come for every request whose ``request`` event came (and
        # for every navigation): asking the driver for them too would have it send each
        # request of the page, images and styles included, with its ``response`` and end
        # (``playwright_private.hear``).
        for event, handler in self._followed():
            if playwright_private.hear(self.page, event, handler):
                self._heard.append(event)
            else:
                page: Any = self.page  # ``Page.on`` is typed per event name
                page.on(event, handler)
        self.page.on("websocket", self._on_socket)
        bounded.watch_navigation(self.page, lambda: self.navigating)
        _listening[playwright_private.identity(self.page)] = weakref.ref(self)

    def _followed(self) -> tuple[tuple[str, Callable[..., None]], ...]:
        """The events of the requests the monitor heard of: their answer, end or failure."""
        return (
            ("response", self._on_response),
            ("requestfailed", self._on_request_failed),
            ("requestfinished", self._on_request_done),
        )

    def detach(self) -> None:
        if not self.listen:
            return
        bounded.watch_navigation(self.page, None)
        key = playwright_private.identity(self.page)
        held = _listening.get(key)
        if held is not None and held() is self:
            del _listening[key]
        for event, handler in self._followed():
            if event in self._heard:
                playwright_private.unhear(self.page, event, handler)
            else:
                with contextlib.suppress(PlaywrightError, ValueError, KeyError):
                    self.page.remove_listener(event, handler)
        for event, handler in (
            ("load", self._on_load),
            ("framenavigated", self._on_frame_navigated),
            ("crash", self._on_crash),
            ("close", self._on_close),
            ("request", self._on_request),
            ("websocket", self._on_socket),
        ):
            # the page may be gone already
            with contextlib.suppress(PlaywrightError, ValueError, KeyError):
                self.page.remove_listener(event, handler)

    def _on_crash(self, _page: Page) -> None:
        self.crashed = True
        self.events.append(EnvEvent("crash", "the page crashed (renderer process died)"))

    def _on_close(self, _page: Page) -> None:
        self.closed = True
        hang = bounded.hang_of(self.page)
        if hang is not None:  # closed by a bounded call's deadline
            self.events.append(
                EnvEvent("page_unresponsive", f"{bounded.MESSAGE} ({hang.evidence})")
            )
            return
        self.events.append(EnvEvent("crash", "the page was closed during the run"))

    def _is_navigation(self, request: Request) -> bool:
        try:
            return request.resource_type == "document" and request.frame == self.page.main_frame
        except PlaywrightError:  # a request of a frame that is gone
            return False

    def _on_request(self, request: Request) -> None:
        if self._is_navigation(request):
            self.pending.add(request)
            self.navigations += 1
        try:
            kind = request.resource_type
        except PlaywrightError:
            return
        if kind in _READINESS_KINDS:
            self.inflight[request] = self.active_at = time.monotonic()
            self.requests += 1

    def open_requests(self) -> dict[Request, float]:
        """``inflight`` without the answered requests whose body the page has not read
        within :data:`ANSWERED_GRACE_S` (they are dropped from it)."""
        cutoff = time.monotonic() - ANSWERED_GRACE_S
        for request, at in list(self.answered.items()):
            if at <= cutoff:
                del self.answered[request]
                self.inflight.pop(request, None)
        return self.inflight

    def only_answered(self) -> bool:
        """Requests are open, and each is an answered one (its small body arrived with its
        headers) that the page has not finished reading."""
        open_requests = self.open_requests()
        return bool(open_requests) and all(r in self.answered for r in open_requests)

    def drop_unread(self, before: float) -> int:
        """Stop waiting on the answered requests still open whose headers came at or before
        ``before`` (``time.monotonic()`` seconds): the caller watched the page draw two
        animation frames since, and a page that reads a body it already has finishes the
        request within them. How many were dropped."""
        unread = [r for r, at in self.answered.items() if at <= before]
        for request in unread:
            del self.answered[request]
            self.inflight.pop(request, None)
        return len(unread)

    def _on_request_done(self, request: Request) -> None:
        self.pending.discard(request)
        self.answered.pop(request, None)
        if self.inflight.pop(request, None) is not None:
            self.active_at = time.monotonic()

    def _on_load(self, _page: Page) -> None:
        self.loaded = self.documents
        self.requests_at_load = self.requests
        self.active_at = time.monotonic()

    def _on_frame_navigated(self, frame: Frame) -> None:
        if frame is self.page.main_frame:
            self.documents += 1
            self.active_at = time.monotonic()
            # no document request since the last one: the URL moved within the document
            if self.navigations == self._committed and route_of(frame.url) != route_of(self.url):
                self.routes += 1
                self.routed_at = self.active_at
            self._committed = self.navigations
            self.url = frame.url

    @property
    def quiet(self) -> bool:
        """Nothing observed that could still change the page: no navigation or request in
        flight, the current document has loaded, and it started no request since."""
        return (
            not self.pending
            and not self.open_requests()
            and self.loaded == self.documents
            and self.requests == self.requests_at_load
        )

    def _on_socket(self, socket: WebSocket) -> None:
        # a socket just opened is waited on as one that brought a message: its first ones
        # are on their way. Playwright reports a socket's frames to every client (no
        # subscription, no round trip).
        self.socket_at = time.monotonic()
        socket.on("framereceived", self._on_socket_message)
        socket.on("framesent", self._on_socket_message)

    def _on_socket_message(self, _payload: object) -> None:
        self.socket_at = time.monotonic()

    def drawing(self, patience_ms: float, quiet_ms: float | None, lag_ms: float = 0.0) -> bool:
        """The page may still be drawing what its WebSockets bring: one of them opened,
        received or sent a message less than ``patience_ms`` ago, *since the DOM last
        changed*, and the DOM changed less than ``patience_ms`` ago (``quiet_ms``: how long it
        has been unchanged; None, not known: then any message that recent holds it). A
        notebook served as an app (marimo) mounts its cells empty, goes quiet, and draws
        their outputs from the kernel's messages, with quiet gaps between them while its
        socket keeps receiving; no request is open meanwhile.

        A message the page has drawn holds nothing: when the DOM changed after the socket's
        last message, the page shows what the socket brought (a live feed that is drawn as
        it comes, OctoPrint's status every half second; a handshake followed by the page's
        own loading, Dagster's GraphQL socket), and a missing element is missing. Playwright
        reports a frame after the browser got it, up to ``lag_ms`` late (the caller's last
        round trip to the page): a message heard within that of the last change counts as
        drawn by it. The DOM's part also bounds it, as for requests (``gate.stalled``): a
        socket that streams for as long as the page lives, drawing nothing, holds nothing
        once the DOM has been unchanged for ``patience_ms``."""
        age_ms = (time.monotonic() - self.socket_at) * 1000.0
        if not self.socket_at or age_ms > patience_ms:
            return False
        if quiet_ms is None:
            return True
        return quiet_ms < patience_ms and age_ms + lag_ms < quiet_ms

    def busy(self, patience_ms: float) -> bool:
        """A navigation in flight, or a request the page may still be waiting on: one opened
        less than ``patience_ms`` ago. An older one is taken for a connection the page keeps
        open by design (a long-poll, a slow analytics call), which no waiting will finish."""
        if self.pending:
            return True
        since = time.monotonic() - patience_ms / 1000.0
        return any(started > since for started in self.open_requests().values())

    def pending_url(self) -> str | None:
        """The URL of a navigation still in flight, if any."""
        return next((r.url for r in self.pending), None)

    @property
    def navigating(self) -> bool:
        """True while a main-frame navigation request has not finished."""
        return bool(self.pending)

    def _on_response(self, response: Response) -> None:
        request = response.request
        if request in self.inflight and _answered(response):
            # a small body arrives with the headers: a page that reads it finishes the
            # request at once. Chromium never finishes a request whose body the page does
            # not read (a fire-and-forget call), which would otherwise hold every first
            # action on the page for the readiness cap: past ANSWERED_GRACE_S it is not
            # waited on (``open_requests``).
            self.answered[request] = time.monotonic()
        if not self._is_navigation(request):
            return
        if response.status >= 500:
            self.events.append(
                EnvEvent(
                    "http_error",
                    f"GET {response.url} answered HTTP {response.status} {response.status_text}",
                    response.status,
                )
            )

    def _on_request_failed(self, request: Request) -> None:
        self.pending.discard(request)
        self.answered.pop(request, None)
        if self.inflight.pop(request, None) is not None:
            self.active_at = time.monotonic()
        if not self._is_navigation(request):
            return
        self._committed = self.navigations  # a navigation that will not commit (a download)
        reason = request.failure or "failed"
        self.navigations_failed.append(f"{request.url} ({reason})")
        if REFUSED.search(reason):
            self.events.append(
                EnvEvent("connection_refused", f"GET {request.url} failed: {reason}")
            )

    def since(self, mark: int) -> list[EnvEvent]:
        """Events recorded after ``mark`` (a previous ``len(monitor.events)``)."""
        return self.events[mark:]

    def mark(self) -> int:
        return len(self.events)


def env_failure(event: EnvEvent, step_index: int | None, extra: tuple[str, ...] = ()) -> Failure:
    return Failure(
        type=FailureType.ENV_FAULT,
        message=event.message,
        step_index=step_index,
        cause=event.cause,
        http_status=event.http_status,
        evidence=(event.message, *extra),
    )


def closed_by_hang(failure: Failure, page: Page) -> Failure:
    """``failure`` found ``page`` closed (cause ``crash``) after a bounded call's deadline
    closed it (a call that takes a closed page as an answer may have been the one that
    waited): the hang is the cause, with the call that waited, and the closed page its
    symptom. Any other failure is returned as it is."""
    hang = bounded.hang_of(page)
    if failure.cause != "crash" or hang is None:
        return failure
    return Failure(
        type=FailureType.ENV_FAULT,
        message=f"{bounded.MESSAGE} ({hang.evidence})",
        step_index=failure.step_index,
        cause="page_unresponsive",
        evidence=(hang.evidence, f"symptom: {failure.message}"),
    )


def blame_environment(failure: Failure, mark: int, monitor: EnvMonitor, page: Page) -> Failure:
    """An environment event since ``mark`` (the monitor's mark at the step's start)
    explains its failure better than the symptom (a locator matching nothing on an
    error page is not selector drift)."""
    if failure.type is FailureType.ENV_FAULT:
        return closed_by_hang(failure, page)
    events = monitor.since(mark)
    symptom = f"symptom: {failure.message}"
    if events:
        return env_failure(events[-1], failure.step_index, (symptom,))
    if monitor.crashed or monitor.closed:
        return env_failure(monitor.events[-1], failure.step_index, (symptom,))
    pending = monitor.pending_url()
    if pending is not None:
        # the step timed out while the server was still answering a navigation
        return Failure(
            type=FailureType.ENV_FAULT,
            message=f"{pending} was still loading when the step timed out",
            step_index=failure.step_index,
            cause="slow_page",
            evidence=(f"navigation to {pending} in flight", symptom),
        )
    try:
        url = page.url
    except PlaywrightError:
        url = ""
    if url.startswith("chrome-error://"):
        return Failure(
            type=FailureType.ENV_FAULT,
            message="the browser shows its own error page: the server could not be reached",
            step_index=failure.step_index,
            cause="connection_refused",
            evidence=(f"page URL {url}", symptom),
        )
    return failure
