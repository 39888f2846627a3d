"""Find first: a locator for every step before it acts.

A step's locator comes from, in order: the locator already in use this run (discovered
earlier or healed), the cached POM the pytest layer handed in, or discovery right before
first use. Discovery resolves *all* pending steps of the current page state in one
``discover`` call (one scan per frame): the pending steps from the current one up to the
next page change (a ``goto``, or a step expected to navigate), since later steps live on
another page. Fresh results are handed to ``on_discovered`` so the next run (and the next
collection) knows them.

Only the current step waits for its element to appear. A later step's result is kept only
when it is verified *and* actionable now; anything else is discovered again right before
that step runs, on the page state it will actually meet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.discovery import (
    Discoverer,
    UnrenderableLocator,
    check_locator,
    suggest_names,
    to_playwright,
)
from pytest_pacts.discovery.planning import binds_ahead, may_leave_page, same_page
from pytest_pacts.discovery.render import kept_locator
from pytest_pacts.engine.contracts import StepState
from pytest_pacts.engine.env import EnvMonitor, classify_error
from pytest_pacts.engine.surfaces import special_surface
from pytest_pacts.engine.waiting import now_ms, settled, wait_for_change
from pytest_pacts.models import Action, ExpectationKind, Plan, Step, Target
from pytest_pacts.models.locator import DiscoveryResult, Locator, Opener
from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.runtime.bridge import keep_token, may_keep

# A step that nothing on the page matches (or whose region the page does not mention)
# waits for the page to have stayed unchanged this long (no request started or ended, no
# navigation, no DOM change), not only to look settled at one instant, before it gives up:
# a single-page app fetches a list's rows a moment after its frame, with quiet gaps between
# the requests.
QUIET_MS = 1_000.0
# The click on a control that opens a hidden element's menu or tab: it passed the gate a
# moment before, so it is not waited on for long.
OPEN_TIMEOUT_MS = 5_000.0

# An opener of this relation is pointed at, not clicked: the repeated item (a card, a row)
# that draws the step's control only while the pointer is on it (CSS Selectors' ``:hover``).
HOVER = "hover"

OnDiscovered = Callable[[int, DiscoveryResult], None]
# Told each control a step opens to show its hidden element, before the click (benchmarks
# check it; nothing in the engine depends on it).
OnOpen = Callable[[Step, PWLocator], None]


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
        for index, result in cache.items():
            if 0 <= index < len(plan.steps) and result.locator is not None:
                self._adopt(index, result, "cache")

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
        return state

    def forget(self, index: int) -> None:
        self.states.pop(index, None)
        self.sources.pop(index, None)

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
        return self.discoverer.discover(self.page, targets, at_turn=True)

    # long because: the find loop: cache, discovery, waiting on DOM changes, with its deadline in
    # one place
    def locate(self, index: int, timeout_ms: float, settle_ms: float) -> Located:
        """The step's element, waiting (on DOM changes) up to ``timeout_ms`` for it to
        appear; a page that is settled and still has no match fails after ``settle_ms``."""
        state = self.states.get(index)
        if state is not None and state.locator is not None and self._bound_elsewhere(index):
            self.forget(index)  # bound ahead of its turn on another page: discover it here
            state = None
        if state is not None and state.locator is not None:
            if state.discovery is not None and state.discovery.batch_url is not None:
                # bound ahead, now at its turn on that page: the page's own element, as if
                # found now; kept so without the mark, for a run that reaches the page by
                # another address (a newer version's ``/imports`` for ``/import``)
                state.discovery = state.discovery.model_copy(update={"batch_url": None})
                self._report(index, state.discovery)
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
        while True:
            pending = self._pending(index) if last is None else [index]
            try:
                results = self._discover(pending)
            except PlaywrightError as exc:
                text = str(exc)
                if ("context was destroyed" in text or "navigat" in text) and now_ms() < deadline:
                    continue
                return Located(None, classify_error(exc, "discovering the element", index), "")
            last = results[index]
            # Later steps are kept only up to a click that may load another page (a link, a
            # submit button): the steps after it belong to that page.
            leaving = may_leave_page(self.plan.steps[index], last)
            for i in pending:
                result = results.get(i)
                if i == index or result is None:
                    continue
                if result.ok and not leaving and binds_ahead(result, self.plan.steps[i].action):
                    result = result.model_copy(update={"batch_url": self._url()})
                    self._report(i, result)
                    self._adopt(i, result, "discovery")
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
                done, blocked = open_hidden(
                    self.page, self.plan.steps[index], last.unresolved.openers, self.on_open
                )
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
                and settled(self.page, self.monitor, now - changed_at)
            ):
                break
            if wait_for_change(self.page):
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


def open_hidden(
    page: Page, step: Step, openers: Sequence[Opener], on_open: OnOpen | None = None
) -> tuple[list[str], str | None]:
    """Click the controls that show a step's hidden element (a closed menu, a tab panel,
    docs/user-guide.md "Menus, tabs and disclosures"), outermost first, each checked by the
    gate first (re-checked on the page's changes for up to ``OPEN_TIMEOUT_MS``: a tab
    still moving into place), clicked only as the element that check passed (kept, as a
    step's own action is: engine/checked.py), and waited on for the page's answer. Answers
    the notes saying what was opened, and why the next one could not be clicked (``None``:
    all were)."""
    notes: list[str] = []
    what = step.target.element if step.target else "the element"
    for opener in openers:
        hover = opener.relation == HOVER
        try:
            control, refused = _checked_opener(
                page, opener, Action.HOVER if hover else Action.CLICK
            )
            if control is None:
                return notes, refused
            if on_open is not None:
                on_open(step, control)
            if hover:
                control.hover(timeout=OPEN_TIMEOUT_MS)
            else:
                control.click(timeout=OPEN_TIMEOUT_MS)
        except (PlaywrightError, UnrenderableLocator) as exc:
            verb = "pointed at" if hover else "clicked"
            return notes, f"{opener.description} could not be {verb}: {str(exc).splitlines()[0]}"
        if hover:
            # a style under the pointer applies at once (a script drawing it on a mouse event
            # changes the DOM, which the step's discovery loop waits on)
            notes.append(
                f'"{what}" was hidden: pointed at {opener.description} first, which shows it '
                f"(hover, {opener.locator.describe()})"
            )
            continue
        wait_for_change(page)
        notes.append(
            f'"{what}" was hidden: opened {opener.description} first ({opener.relation}, '
            f"{opener.locator.describe()})"
        )
    return notes, None


def _checked_opener(
    page: Page, opener: Opener, action: Action
) -> tuple[PWLocator | None, str | None]:
    """The opener as the element the gate passed (re-checked on the page's changes for up
    to ``OPEN_TIMEOUT_MS``), never one the action would resolve anew (engine/checked.py);
    or ``None`` and why it fails its check."""
    deadline = now_ms() + OPEN_TIMEOUT_MS
    while True:
        keep = keep_token()
        gate = check_locator(page, opener.locator, action, keep=keep)
        if gate.failed is None:
            break
        if now_ms() >= deadline:
            return None, f"{opener.description} fails the {gate.failed.name} check: " + (
                gate.failed.reason
            )
        wait_for_change(page, cap_ms=250.0)
    if may_keep(page.context):
        return kept_locator(page, opener.locator, keep), None
    return to_playwright(page, opener.locator), None


def shown_inside(page: Page, found: Locator, opener: Opener) -> bool:
    """Is the element ``found`` after pointing at ``opener`` (a ``hover`` opener: the item
    that holds a control drawn only under the pointer) inside that item? Only then is it the
    control the hover showed; anything else is not acted on (never hover one thing and click
    another)."""
    try:
        item = to_playwright(page, opener.locator).element_handle(timeout=OPEN_TIMEOUT_MS)
    except (PlaywrightError, UnrenderableLocator):
        return False
    try:
        inside = to_playwright(page, found).evaluate(
            "(el, item) => item !== el && item.contains(el)", item, timeout=OPEN_TIMEOUT_MS
        )
    except (PlaywrightError, UnrenderableLocator):
        return False
    finally:
        item.dispose()
    return bool(inside)


def discovery_failure(step: Step, result: DiscoveryResult | None, waited_ms: float) -> Failure:
    target = step.target.key if step.target else "?"
    if result is None or result.unresolved is None:
        message = f'no element for "{target}" was found'
        return Failure(type=FailureType.NOT_UNIQUE, message=message, step_index=step.index)
    unresolved = result.unresolved
    evidence = [unresolved.message, f"searched for {waited_ms:.0f} ms"]
    evidence += [f"rejected {r.locator.describe()}: {r.reason}" for r in result.rejected]
    if unresolved.reason == "ambiguous":
        message = f'"{target}" is ambiguous: {unresolved.message}'
    elif unresolved.candidates:  # a match too weak for the evidence rule
        message = f"no element matches well enough: {unresolved.message}"
    elif not unresolved.message.startswith("no element matches"):
        # explained by the scan: only a heading says the words, or the element is hidden
        # and no control evidently opens it
        message = unresolved.message
    else:
        message = f'no element matches "{target}" for {step.action.value} (count=0)'
    return Failure(
        type=FailureType.NOT_UNIQUE,
        message=message,
        step_index=step.index,
        evidence=tuple(evidence),
        gate=result.gate,
        candidates=unresolved.candidates,
    )


def region_not_found(step: Step, failure: Failure, wide_count: int) -> Failure:
    """A step whose region is on no container and in no text of the page: that is the
    headline (issue 39: it said "did you mean" the element's own name, the region only in the
    evidence); how many elements the name alone matches says why the region was needed."""
    assert step.target is not None and step.target.region is not None
    element, region = step.target.element, step.target.region
    message = (
        f'the region "{region}" is not on this page (no container, heading or text by that '
        f'name), so "{element}@{region}" was not found for {step.action.value}'
    )
    if wide_count > 1:
        message += (
            f'; "{element}" alone matches {wide_count} elements, so the region is needed to '
            "say which: name the region as the page shows it (a card's or section's heading)"
        )
    else:
        message += f'; nor does "{element}" match anything elsewhere on the page'
        shown = [e for e in failure.evidence if e.startswith("closest visible names")]
        if shown:
            message += f" ({shown[0]})"
    return failure.model_copy(update={"message": message})


def not_found(step: Step, failure: Failure, suggestions: list[str]) -> Failure:
    """``not_found`` for a step that matched nothing when first discovered, naming the
    closest visible names ("did you mean 'Shopping Cart'?")."""
    target = step.target.key if step.target else "?"
    message = f'no element on the page matches "{target}" for {step.action.value}'
    if failure.candidates or not failure.message.startswith("no element matches"):
        # one matched too weakly for the evidence rule, or the scan said why none did
        message = failure.message
    evidence = list(failure.evidence)
    if suggestions:
        shown = " or ".join(f"{s!r}" for s in suggestions)
        message += f"; did you mean {shown}?"
        evidence.append("closest visible names: " + ", ".join(f"{s!r}" for s in suggestions))
    return failure.model_copy(
        update={"type": FailureType.NOT_FOUND, "message": message, "evidence": tuple(evidence)}
    )
