"""Find first: a locator for every step before it acts.

A step's locator comes from, in order: the locator already in use this run (discovered
earlier or healed), the cached POM the pytest layer handed in, or discovery right before
first use. Discovery resolves *all* pending steps of the current page state in one
``discover`` call (one scan per frame): the pending steps from the current one up to the
next page change (a ``goto``, or a step expected to navigate), since later steps live on
another page. Fresh results are handed to ``on_discovered`` so the next run (and the next
collection) knows them; one found ahead of its turn only at that turn, once confirmed on the
page it acts on.

Only the current step waits for its element to appear. A later step's result is kept only
when it is verified *and* actionable now; anything else is discovered again right before
that step runs, on the page state it will actually meet. A kept one is a pick on that page
state only: when the page changed before its turn, it is discovered again then too
(engine/ahead.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.discovery import (
    Discoverer,
    suggest_names,
)
from pytest_pacts.discovery.planning import binds_ahead, may_leave_page, same_page
from pytest_pacts.discovery.step_values import values_of
from pytest_pacts.engine.ahead import AheadPicks
from pytest_pacts.engine.contracts import StepState
from pytest_pacts.engine.discovery_failures import discovery_failure, not_found, region_not_found
from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.engine.errors import classify_error
from pytest_pacts.engine.openers import HOVER, OnOpen, open_hidden, shown_inside
from pytest_pacts.engine.surfaces import special_surface
from pytest_pacts.engine.waiting import epoch_ms, now_ms, settled, wait_for_change
from pytest_pacts.models import Action, ExpectationKind, Plan, Step, Target
from pytest_pacts.models.locator import DiscoveryResult, Locator, Opener
from pytest_pacts.models.outcome import Failure, FailureType

# A step that nothing on the page matches (or whose region the page does not mention)
# waits for the page to have stayed unchanged this long (no request started or ended, no
# navigation, no DOM change), not only to look settled at one instant, before it gives up:
# a single-page app fetches a list's rows a moment after its frame, with quiet gaps between
# the requests.
QUIET_MS = 1_000.0
OnDiscovered = Callable[[int, DiscoveryResult], None]


@dataclass
class Located:
    state: StepState | None
    failure: Failure | None
    source: str  # "run", "cache", "discovery"


class Finder:
    def __init__(
        self,
        page: Page,
        plan: Plan,
        *,
        cache: Mapping[int, DiscoveryResult],
        on_discovered: OnDiscovered | None,
        monitor: EnvMonitor,
        discoverer: Discoverer | None = None,
    ) -> None:
        self.page = page
        self.plan = plan
        self.monitor = monitor
        self.discoverer = discoverer or Discoverer()
        self.on_discovered = on_discovered
        self.states: dict[int, StepState] = {}
        self.sources: dict[int, str] = {}
        self.discover_calls = 0
        self.on_open: OnOpen | None = None
        # picks made ahead of their turn, not yet confirmed at it (engine/ahead.py)
        self.ahead = AheadPicks()
        for index, result in cache.items():
            if 0 <= index < len(plan.steps) and result.locator is not None:
                self._adopt(index, result, "cache")
                if result.batch_url is not None:  # collection's, on the start page
                    self.ahead.bind(index, None)

    def _adopt(self, index: int, result: DiscoveryResult, source: str) -> StepState:
        state = StepState(
            step=self.plan.steps[index],
            discovery=result,
            locator=result.locator,
            alternates=result.alternates,
            fingerprint=result.fingerprint,
        )
        self.states[index] = state
        self.sources[index] = source
        self.ahead.drop(index)
        return state

    def forget(self, index: int) -> None:
        self.states.pop(index, None)
        self.sources.pop(index, None)
        self.ahead.drop(index)

    def picked_at(self, index: int) -> float | None:
        """When the page state the step's element was picked on ahead of its turn was read
        (``now_ms``); ``None``: not such a pick, or confirmed at its turn."""
        if self.sources.get(index) not in ("discovery", "cache"):
            return None
        return self.ahead.mark(index)

    def confirm(self, index: int) -> None:
        """A pick made ahead of its turn passed the gate at its turn, on a page unchanged
        since: the page's own element, as if found now; kept so without the page's mark,
        for a run that reaches the page by another address (a newer version's ``/imports``
        for ``/import``)."""
        picked = self.picked_at(index) is not None  # not one healed since
        self.ahead.drop(index)
        if not picked:
            return
        state = self.states.get(index)
        if state is not None and state.discovery is not None and state.discovery.batch_url:
            state.discovery = state.discovery.model_copy(update={"batch_url": None})
            self._report(index, state.discovery)

    def _pending(self, index: int) -> list[int]:
        """Steps from ``index`` on that share its page state and have no locator yet."""
        out: list[int] = []
        for step in self.plan.steps[index:]:
            if step.index != index and step.action is Action.GOTO:
                break
            image = step.target is not None and step.target.image is not None
            if step.target is not None and not image and step.index not in self.states:
                out.append(step.index)
            if step.expected is not None and step.expected.kind is ExpectationKind.NAVIGATES_TO:
                break
        return out

    def _discover(self, indexes: list[int]) -> dict[int, DiscoveryResult]:
        targets: list[tuple[int, Target, Action]] = []
        for i in indexes:
            target = self.plan.steps[i].target
            assert target is not None
            targets.append((i, target, self.plan.steps[i].action))
        self.discover_calls += 1
        values = values_of((i, self.plan.steps[i]) for i in indexes)
        return self.discoverer.discover(self.page, targets, at_turn=True, values=values)

    # long because: the find loop: cache, discovery, waiting on DOM changes, with its deadline in
    # one place
    def locate(self, index: int, timeout_ms: float, settle_ms: float) -> Located:
        """The step's element, waiting (on DOM changes) up to ``timeout_ms`` for it to
        appear; a page that is settled and still has no match fails after ``settle_ms``."""
        self.ahead.starting(index, now_ms())
        state = self.states.get(index)
        if state is not None and state.locator is not None and self._bound_elsewhere(index):
            self.forget(index)  # bound ahead of its turn on another page: discover it here
            state = None
        if state is not None and state.locator is not None:
            # bound ahead, now at its turn on that page: the gate's first check says whether
            # the page changed since (``picked_at``; confirmed or set aside there)
            return Located(state, None, self.sources[index])
        start = now_ms()
        deadline = start + timeout_ms
        last: DiscoveryResult | None = None
        # the page's last observed change: its last request, navigation or load (a DOM
        # change while waiting below moves it); a page quiet for QUIET_MS already is not
        # waited on again
        changed_at = min(start, self.monitor.active_at * 1000.0)
        opened: list[str] = []  # the menus, tabs or sections this step opened (its notes)
        blocked: str | None = None  # why a control that opens the element was not clicked
        pointed: Opener | None = None  # the item pointed at to show the element (hover)
        on_show = False  # an opener's check found the element on show already: looked again
        while True:
            pending = self._pending(index) if last is None else [index]
            looked = epoch_ms()  # a change after this makes what the scan saw stale
            try:
                results = self._discover(pending)
            except PlaywrightError as exc:
                text = str(exc)
                if ("context was destroyed" in text or "navigat" in text) and now_ms() < deadline:
                    continue
                return Located(None, classify_error(exc, "discovering the element", index), "")
            last = results[index]
            # the page state the later steps' picks stand for: the scan, and the verifying
            # of its picks, are done; a change after this is one of the page's own or
            # of the steps that act (engine/ahead.py)
            read_at = now_ms()
            # Later steps are kept only up to a click that may load another page (a link, a
            # submit button): the steps after it belong to that page.
            leaving = may_leave_page(self.plan.steps[index], last)
            for i in pending:
                result = results.get(i)
                if i == index or result is None:
                    continue
                if result.ok and not leaving and binds_ahead(result, self.plan.steps[i].action):
                    # handed to ``on_discovered`` at its turn, once confirmed there
                    result = result.model_copy(update={"batch_url": self._url()})
                    self._adopt(i, result, "discovery")
                    self.ahead.bind(i, read_at)
                leaving = leaving or may_leave_page(self.plan.steps[i], result)
            if last.locator is not None:
                if pointed is not None and not shown_inside(self.page, last.locator, pointed):
                    blocked = (
                        f"what was found after pointing at {pointed.description} is not inside "
                        "it, so it is not the element the pointer showed: nothing was acted on"
                    )
                    last = last.model_copy(update={"locator": None})
                    break
                if opened:
                    # found behind a control the step opened: not cached, since the next run
                    # meets it closed again and opens it again the same way
                    notes = (*opened, *last.notes)
                    last = last.model_copy(update={"notes": notes})
                    return Located(self._adopt(index, last, "discovery"), None, "discovery")
                self._report(index, last)
                return Located(self._adopt(index, last, "discovery"), None, "discovery")
            if last.unresolved is not None and last.unresolved.opener_choices:
                break  # several controls could open it: nothing is guessed
            if last.unresolved is not None and last.unresolved.openers and not opened:
                openers = last.unresolved.openers
                if on_show:  # found hidden again after that: opened as before, not looked at twice
                    openers = tuple(o.model_copy(update={"shows": None}) for o in openers)
                done, blocked = open_hidden(
                    self.page, self.plan.steps[index], openers, self.on_open
                )
                if not done and blocked is None:  # on show by the opener's check: not opened
                    on_show = True
                    if now_ms() < deadline:
                        continue  # found again, and acted on through the gate
                    break
                opened.extend(done)
                hovered = [o for o in last.unresolved.openers if o.relation == HOVER]
                pointed = hovered[-1] if hovered else None
                if blocked is not None:
                    break
                changed_at = now_ms()
                continue
            now = now_ms()
            if now >= deadline:
                break
            # A settled page that still has no single match (none, or several equally good
            # ones) will not grow one by waiting: fail now so healing starts. Unless hidden
            # elements match: a page shows them later (cards revealed after a timer), as
            # Playwright waits for visibility, the step waits up to its timeout.
            hidden = last.unresolved is not None and last.unresolved.hidden_matches > 0
            # Nothing matches, or the region is on no element (the rows of a list still
            # being fetched): the page must also have stayed unchanged for a while, not only
            # be settled at this instant (a gap between two requests looks settled).
            absent = last.unresolved is not None and (
                last.unresolved.reason == "none" or last.unresolved.region_missing
            )
            if (
                not hidden
                and now - start >= min(settle_ms, timeout_ms)
                and (not absent or now - changed_at >= min(QUIET_MS, timeout_ms))
                and settled(self.page, self.monitor, now - changed_at, looked)
            ):
                break
            if wait_for_change(self.page, since=looked):
                changed_at = now_ms()
        step = self.plan.steps[index]
        unresolved = last.unresolved if last is not None else None
        region_missing = unresolved is not None and unresolved.region_missing
        wide_count = 0
        if region_missing:
            wide = self._without_region(index)
            if wide is not None and wide.locator is not None:
                return Located(self._adopt(index, wide, "discovery"), None, "discovery")
            if wide is not None and wide.unresolved is not None:
                wide_count = len(wide.unresolved.candidates)
        failure = discovery_failure(step, last, now_ms() - start)
        if blocked is not None:
            failure = failure.model_copy(
                update={"message": f"{failure.message}; opening it failed: {blocked}"}
            )
        elif pointed is not None:
            failure = failure.model_copy(
                update={
                    "message": f"{failure.message}; pointing at {pointed.description} did not "
                    "show it either"
                }
            )
        if last is not None and last.unresolved is not None and last.unresolved.reason == "none":
            # Found neither in the cache nor earlier in this run nor on the page now: there is
            # nothing recorded to heal from (a first run; most often a misspelt Element cell).
            suggestions = self._suggestions(step)
            failure = not_found(step, failure, suggestions)
            if region_missing:
                # the region is the cause: the element's own name may well be right
                return Located(None, region_not_found(step, failure, wide_count), "")
            # a close visible name ("did you mean ...?") explains it better than a chart
            failure = special_surface(self.page, failure, step, misspelt=bool(suggestions))
        elif last is not None and last.unresolved is not None and last.unresolved.opener_choices:
            failure = failure.model_copy(
                update={"type": FailureType.AMBIGUOUS, "message": last.unresolved.message}
            )
        elif (
            last is not None
            and last.unresolved is not None
            and last.unresolved.reason == "ambiguous"
        ):
            # several elements fit and none clearly (the evidence rule), and nothing was
            # recorded to heal from: the requirement must say which, nothing is guessed
            failure = failure.model_copy(update={"type": FailureType.AMBIGUOUS})
        return Located(None, failure, "")

    def held_locator(self, index: int) -> Locator | None:
        """The locator :meth:`locate` will answer with at once, with no discovery; ``None``
        when it will discover."""
        state = self.states.get(index)
        if state is None or state.locator is None or self._bound_elsewhere(index):
            return None
        return state.locator

    def _bound_elsewhere(self, index: int) -> bool:
        """A cached result found ahead of its step (in one batch with an earlier step) on
        another page than the one the step now runs on: an earlier step navigated in
        between, so the binding is another page's element (the list page's "Price" sort link
        for the edit page's "Price" field). It is discovered afresh, neither trusted nor
        healed towards."""
        if self.sources.get(index) != "cache":
            return False
        state = self.states[index]
        url = state.discovery.batch_url if state.discovery is not None else None
        return url is not None and not same_page(url, self._url())

    def _url(self) -> str:
        try:
            return self.page.url
        except PlaywrightError:
            return ""

    def _without_region(self, index: int) -> DiscoveryResult | None:
        """The step's region matches no container and no text on the page (a scaffolded
        ``Username@LoginForm`` on a login page with no such form): when the element alone is
        unique page-wide, that is the element, with a warning on the step. Otherwise the
        page-wide result with no locator (nothing, or several: the region was needed to say
        which); ``None`` when the page could not be read."""
        step = self.plan.steps[index]
        assert step.target is not None
        wide_target = [(index, Target(element=step.target.element), step.action)]
        self.discover_calls += 1
        try:
            wide = self.discoverer.discover(self.page, wide_target, at_turn=True)[index]
        except PlaywrightError:
            return None
        if wide.locator is None:
            return wide
        note = (
            f'the region "{step.target.region}" matches no container and no text on this '
            f'page; "{step.target.element}" was found page-wide, where it is the only match: '
            "name the region as the page shows it, or drop it"
        )
        wide = wide.model_copy(update={"region": step.target.region, "notes": (note,)})
        self._report(index, wide)
        return wide

    def _suggestions(self, step: Step) -> list[str]:
        if step.target is None:
            return []
        return suggest_names(self.page, step.target.element, step.action)

    def _report(self, index: int, result: DiscoveryResult) -> None:
        if self.on_discovered is not None:
            self.on_discovered(index, result)

    def resolve(self, target: Target, action: Action) -> DiscoveryResult:
        """One discovery of an expectation's ``Element@Region`` (not cached: expectations
        describe what the page shows, they are checked fresh)."""
        self.discover_calls += 1
        return self.discoverer.discover(self.page, [(0, target, action)])[0]
