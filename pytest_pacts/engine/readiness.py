"""Readiness before the first action on a new page (document or route): wait until the
page is ready by what can be observed, once per page. Mixed into
:class:`~pytest_pacts.engine.executor.StepRunner`.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Page

from pytest_pacts.engine.attempt import Attempt
from pytest_pacts.engine.contracts import EngineOptions
from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.engine.gate import GateOutcome
from pytest_pacts.engine.routes import wait_for_view
from pytest_pacts.engine.waiting import (
    READY_CAP_MS,
    Readiness,
    wait_until_ready,
)


@dataclass(frozen=True)
class FramesLeft:
    """Readiness whose two quiet frames the next gate check watches: the page's document
    and request count when its requests were done, and what is left of the cap."""

    documents: int
    requests: int
    cap_ms: float


class PageReadiness:
    """The step runner's readiness (its attributes, declared here for it)."""

    page: Page
    options: EngineOptions
    monitor: EnvMonitor
    _ready_document: int | None
    _frames_left: FramesLeft | None
    _routes_seen: int = 0  # ``EnvMonitor.routes`` when its view was last waited for

    def _await_ready(
        self, attempt: Attempt, *, by_check: bool = False, looked_at: bool = True
    ) -> None:
        """Before the first action on a new page (document or route): wait until the page
        is ready by what can be observed (``waiting.wait_until_ready``), so a handler the app
        binds late does not miss the action. Once per page: later steps act at once.

        ``by_check``: the step's gate check comes next; once the page's requests are done, its
        two quiet frames are left to that check (``run_gate``'s ``settle``), which watches them
        in its own round trip, over the frames "stable" takes anyway for a pointer action,
        rather than in a call of their own first (``_seen_quiet``).

        ``looked_at=False``: nothing will look at the page before the action (a key pressed
        on the page, with no element to find and check). A page that looked quiet to the
        monitor right after ``load`` may have begun fetching in its load handler without the
        request having been reported yet; a step with an element learns of it in its
        discovery's or check's round trip, and so must this one: its two quiet frames are
        watched in the page rather than taken on the monitor's word."""
        document = self.monitor.documents
        if document == self._ready_document:
            return
        cap = min(READY_CAP_MS, self.options.step_timeout_ms / 2)
        if self.monitor.routes != self._routes_seen:
            # the route moved within the document: its view first (engine/routes.py)
            self._routes_seen = self.monitor.routes
            if wait_for_view(self.page, self.monitor.routed_at, cap) is False:
                attempt.notes.append(
                    f"the view of {self.monitor.url} was not drawn within {cap:.0f} ms of "
                    "its URL change (a DOM change since, no transition running); acted anyway"
                )
        ready = wait_until_ready(
            self.page, self.monitor, cap, frames=not by_check, seen_changing=not looked_at
        )
        self._ready_document = self.monitor.documents
        if ready.frames_left:
            self._frames_left = FramesLeft(
                self.monitor.documents, self.monitor.requests, max(cap - ready.waited_ms, 1.0)
            )
            return
        self._note_unready(attempt, ready, cap)

    @staticmethod
    def _note_unready(attempt: Attempt, ready: Readiness, cap: float) -> None:
        if not ready.ready:
            attempt.notes.append(
                f"the page did not settle within {cap:.0f} ms ({ready.open_requests} request(s) "
                "still open); acted anyway"
            )

    def _seen_quiet(self, left: FramesLeft, gate: GateOutcome) -> bool:
        """Readiness's own rule, as far as the gate's check and the monitor observed it: the
        check saw the page settled (no DOM change for two animation frames, loaded), and the
        page is still the same document and has started no request since its requests were
        done."""
        return (
            gate.settled is True
            and self.monitor.documents == left.documents
            and self.monitor.requests == left.requests
            and not self.monitor.navigating
            and not self.monitor.open_requests()
        )
