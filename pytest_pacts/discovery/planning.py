"""Find first, before the tests: discover a plan's start-page steps before any test runs.

When to discover (docs/discovery.md): requirements whose plan is not cached are discovered on the
page reachable from their URL; steps on pages reached only after actions are discovered right
before first use during execution. Which steps are "on the start page" is decided conservatively:
the steps up to the first one that may leave the page (a goto, an expectation of navigation, a
click or key press without a same-page expectation, and, once discovered, a click on a link or a
submit button whatever its expectation). Caching a later page's element because a same-named
element happens to exist on the start page would risk acting on the wrong element.

The POM cache payload is :class:`PomEntry`, stored by requirement and plan hash (not host),
so the same requirement against another deployment reuses its verified locators.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from playwright.sync_api import Error, Page
from pydantic import BaseModel, ConfigDict, Field

from pytest_pacts.discovery.engine import Discoverer
from pytest_pacts.discovery.step_values import values_of
from pytest_pacts.models import Action, ExpectationKind, Plan, SourceRef, Step
from pytest_pacts.models.locator import CONFIDENCE, DiscoveryResult
from pytest_pacts.planner.urls import UrlError, resolve_url
from pytest_pacts.runtime import bounded
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS, base_url_of

POM_PAYLOAD_VERSION = 1
_MAY_LEAVE_PAGE = frozenset({Action.GOTO, Action.CLICK, Action.PRESS})
_NAVIGATION_EXPECTATIONS = frozenset({ExpectationKind.NAVIGATES_TO, ExpectationKind.URL_CONTAINS})
_SAME_PAGE_EXPECTATIONS = (
    frozenset(ExpectationKind) - _NAVIGATION_EXPECTATIONS - {ExpectationKind.TITLE_CONTAINS}
)


class PomEntry(BaseModel):
    """What the POM cache holds for one (requirement, plan hash): verified step locators."""

    model_config = ConfigDict(frozen=True)

    version: int = POM_PAYLOAD_VERSION
    req_id: str
    plan_hash: str
    url: str
    discovered_at: str
    steps: dict[int, DiscoveryResult] = Field(default_factory=dict)

    def merged(self, index: int, result: DiscoveryResult) -> PomEntry:
        """A copy with one more step (execution discovers later pages and adds them)."""
        return self.model_copy(update={"steps": {**self.steps, index: result}})


def kept(plan: Plan, index: int, result: DiscoveryResult) -> DiscoveryResult:
    """``result`` as the store may keep it: the element of a step that extracts a secret
    (``extract | token; secret``) shows that secret as its text, so its fingerprint keeps
    neither its text nor its neighbours' (docs/reports.md, "What the secret guarantee covers")."""
    step = plan.steps[index] if 0 <= index < len(plan.steps) else None
    capture = step.capture if step is not None else None
    if capture is None or not capture.secret or result.fingerprint is None:
        return result
    bare = result.fingerprint.model_copy(update={"text": "", "neighbour_text": ()})
    return result.model_copy(update={"fingerprint": bare})


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def binds_ahead(result: DiscoveryResult, action: Action | None = None) -> bool:
    """May a step found ahead of its turn (in one batch with an earlier step) keep this
    result? Only an exact match: a loose one ("Create" among the words of the sidebar's
    ``create-experiment-button``) is often another element than the one the step will mean
    once the earlier steps have run (the dialog's own "Create" button they open). The step
    is then discovered when it runs. Never a key's (``action`` ``press``): where the focus
    is at its turn is evidence for it (docs/discovery.md, "A key goes to the focus")."""
    if action is Action.PRESS:
        return False
    loc = result.locator
    exact = loc is not None and loc.confidence >= CONFIDENCE[loc.strategy] - 1e-9
    # nor a locator by the element's place: words no locator pins down are no exact match
    return exact and not result.positional


def may_leave_page(step: Step, result: DiscoveryResult | None) -> bool:
    """Can this step load another page whatever its expectation says? A click on a link (an
    ``href`` that is not ``#...`` or ``javascript:``, or a ``role=link``) or on a submit
    button (``<button>`` without another type, ``<input type=submit|image>``) may: an
    "Edit Record" link checked by ``text_visible:Edit Record #2`` opens the edit page. A
    click whose element is not known yet may too. Later steps are then not bound on this
    page: a same-named element here (the list page's "Price" sort link) is not theirs."""
    if step.action is not Action.CLICK:
        return False
    fp = result.fingerprint if result is not None else None
    if fp is None:
        return True
    tag, kind = fp.tag.lower(), (fp.type or "").lower()
    if tag == "a" and fp.href is not None:
        href = fp.href.strip().lower()
        return not href.startswith(("#", "javascript:"))
    if fp.role == "link":
        return True
    if tag == "button":
        return kind in ("", "submit")
    return tag == "input" and kind in ("submit", "image")


def same_page(url: str, other: str) -> bool:
    """Do two URLs show the same page (path, and a route fragment ``#/...``), whatever the
    host and query? A list sorted by ``?sort=2`` is the same page; ``/edit/`` is not."""
    a, b = urlsplit(url), urlsplit(other)

    def route(fragment: str) -> str:
        return fragment if fragment.startswith(("/", "!/")) else ""

    return (a.path.rstrip("/"), route(a.fragment)) == (b.path.rstrip("/"), route(b.fragment))


def start_page_steps(plan: Plan) -> list[Step]:
    """The steps that act on the start page, up to the first that may leave it."""
    steps: list[Step] = []
    for step in plan.steps:
        if step.action is Action.GOTO:
            break
        # A wait that names an element is left to run time: what it waits for usually
        # appears only after the steps before it, so the start page rarely shows it yet.
        # An image target is found by its picture when it runs: nothing to discover.
        if step.target is not None and not step.action.observes and step.target.image is None:
            steps.append(step)
        # A click or key press with a same-page expectation ("text_visible:Saved",
        # "checked") stays on the page; without one it may navigate.
        stays = step.expected is not None and step.expected.kind in _SAME_PAGE_EXPECTATIONS
        leaves = (step.action in _MAY_LEAVE_PAGE and not stays) or (
            step.expected is not None and step.expected.kind in _NAVIGATION_EXPECTATIONS
        )
        if leaves:
            break
    return steps


@dataclass(frozen=True)
class DiscoveryProblem:
    """Something a person should know about a requirement's discovery, with its row."""

    req_id: str
    source: SourceRef
    message: str
    kind: str = "page"  # "page": the page could not be used; "step": one step unresolved

    def __str__(self) -> str:
        return f"{self.source.render()}: {self.req_id}: {self.message}"


@dataclass
class PlanDiscovery:
    """The outcome of discovering one plan's start page."""

    plan: Plan
    url: str | None
    results: dict[int, DiscoveryResult] = field(default_factory=dict)
    problems: list[DiscoveryProblem] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def cacheable(self) -> dict[int, DiscoveryResult]:
        """Results with a verified locator (even if not actionable yet: a button that is
        disabled until the form is valid is still the right element; the gate waits)."""
        return {i: r for i, r in self.results.items() if r.locator is not None}

    def entry(self) -> PomEntry:
        return PomEntry(
            req_id=self.plan.req_id,
            plan_hash=self.plan.plan_hash,
            url=self.url or "",
            discovered_at=now_iso(),
            steps={i: kept(self.plan, i, r) for i, r in self.cacheable.items()},
        )


def _describe_unresolved(step: Step, result: DiscoveryResult) -> str:
    assert result.unresolved is not None
    text = f"step {step.index + 1} ({step.describe()}): {result.unresolved.message}"
    if result.unresolved.candidates:
        top = "; ".join(
            f"{c.description} ({c.score:.2f})" for c in result.unresolved.candidates[:3]
        )
        text += f"; candidates: {top}"
    if result.unresolved.reason == "ambiguous" and "region" not in text:
        text += "; add a region (Element@Region) to say which one"
    return text


def without_page(plan: Plan, base_url: str | None) -> PlanDiscovery | None:
    """What discovering ``plan`` comes to when no page is needed for it: no step to discover
    on its start page, or a start URL that cannot be opened (relative, with no base URL).
    ``None`` when its start page must be loaded. Asked before a browser is launched or a
    context made: a plan that needs no page never costs one."""
    try:
        url: str | None = resolve_url(
            plan.requirement.url, base_url_of(base_url, plan.requirement.base_url)
        )
    except UrlError:
        url = None
    out = PlanDiscovery(plan=plan, url=url)
    if not start_page_steps(plan):
        return out
    if url is not None:
        return None
    out.problems.append(
        DiscoveryProblem(
            plan.req_id,
            plan.requirement.source,
            f"the url {plan.requirement.url!r} is relative and no --base-url is set; "
            "discovery waits until the test runs",
        )
    )
    return out


# long because: the start page's load, scan and verification in order, each failure said where it
# happens
def discover_plan(
    page: Page,
    plan: Plan,
    base_url: str | None,
    *,
    discoverer: Discoverer | None = None,
    timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS,
    settle_ms: float = 3_000,
) -> PlanDiscovery:
    """Load the plan's start page and discover its start-page steps in one scan per frame.

    Never raises for page problems: unreachable URLs, HTTP errors and pages that never
    settle become :class:`DiscoveryProblem` entries naming the requirement's row.
    """
    started = time.perf_counter()
    done = without_page(plan, base_url)
    if done is not None:
        return done
    url = resolve_url(plan.requirement.url, base_url_of(base_url, plan.requirement.base_url))
    out = PlanDiscovery(plan=plan, url=url)
    where = plan.requirement.source

    def problem(message: str, source: SourceRef = where) -> None:
        out.problems.append(DiscoveryProblem(plan.req_id, source, message))

    steps = start_page_steps(plan)
    try:
        response = page.goto(url, wait_until="load", timeout=timeout_ms)
    except Error as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        problem(f"could not load {url}: {first}")
        out.seconds = time.perf_counter() - started
        return out
    if response is not None and response.status >= 400:
        problem(f"{url} answered HTTP {response.status}; nothing was discovered on it")
        out.seconds = time.perf_counter() - started
        return out
    try:
        page.wait_for_load_state("networkidle", timeout=min(settle_ms, timeout_ms))
    except Error:
        problem(
            f"{url} did not settle within {min(settle_ms, timeout_ms) / 1000:.0f} s "
            "(network still busy); "
            "discovered on the page as it was"
        )
    targets = [(step.index, step.target, step.action) for step in steps if step.target is not None]
    try:
        with bounded.budget(timeout_ms):
            # the first step acts first on the page as loaded (its focus is evidence for a key)
            turn = int(steps[0].target is not None)
            values = values_of((step.index, step) for step in steps)
            found = (discoverer or Discoverer()).discover(
                page, targets, at_turn=turn, values=values
            )
    except Error as exc:
        if isinstance(exc, bounded.PageUnresponsive) or bounded.MESSAGE in str(exc):
            why = exc.hang.evidence if isinstance(exc, bounded.PageUnresponsive) else url
            problem(f"discovery gave up: the page stopped responding ({why}; {url})")
        else:
            problem(f"discovery failed on {url}: {str(exc).splitlines()[0]}")
        out.seconds = time.perf_counter() - started
        return out
    except Exception as exc:  # a bug of ours must not stop the run: say it, carry on
        problem(
            f"discovery failed on {url} with an internal error "
            f"({type(exc).__name__}: {exc}); the steps will be discovered when they run"
        )
        out.seconds = time.perf_counter() - started
        return out
    head = steps[0].index
    for step in steps:
        result = found.get(step.index)
        if result is None:
            continue
        index = step.index
        if index != head:  # found ahead of its turn, on the start page
            result = result.model_copy(update={"batch_url": page.url})
        if index == head or result.locator is None or binds_ahead(result, step.action):
            out.results[index] = result
        if result.locator is None and result.unresolved is not None:
            out.problems.append(
                DiscoveryProblem(
                    plan.req_id, step.source, _describe_unresolved(step, result), kind="step"
                )
            )
        if may_leave_page(step, result):
            break  # the steps after it are discovered when they run, on their own page
    out.seconds = time.perf_counter() - started
    return out
