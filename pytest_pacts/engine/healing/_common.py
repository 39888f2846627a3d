"""Small helpers the rungs share: the step's action, locator JSON, fingerprint agreement."""

from __future__ import annotations

import contextlib
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from playwright.sync_api import ElementHandle, Frame, Page
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.discovery import UnrenderableLocator, to_playwright
from pytest_pacts.discovery.chain import apply
from pytest_pacts.discovery.payloads import (
    ProbeRanking,
    ProbeResult,
    ResolveAllResult,
    SameElement,
    ScoreResult,
    checked,
)
from pytest_pacts.discovery.render import frame_calls, region_calls
from pytest_pacts.engine.contracts import HealContext, Resolved
from pytest_pacts.engine.gate import (
    NO_ENABLED,
    SEEN_BY_WAIT,
    blocking_point,
    heal_blocking_point,
    takes_disabled,
)
from pytest_pacts.engine.healing.relocate import call_on_locator, candidate_gate, gate_json
from pytest_pacts.engine.healing.scoring import (
    WEIGHTS,
    Scope,
    Scored,
    fingerprint_json,
    rank_page,
    region_scope,
)
from pytest_pacts.models.locator import Fingerprint, GateSnapshot, Locator
from pytest_pacts.models.recipe import JsonObject
from pytest_pacts.models.requirement import Action
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.healing import count_matches, sent_in_frame, sent_on_elements

JSON = dict[str, object]


def action_of(ctx: HealContext) -> str:
    return ctx.state.step.action.value


def element_key(ctx: HealContext) -> str:
    target = ctx.state.step.target
    return target.key if target is not None else f"step {ctx.state.step.index + 1}"


def locator_json(locator: Locator) -> JsonObject:
    """A locator as stored in healing memory and recipes: its set fields only."""
    return cast(JsonObject, locator.model_dump(mode="json", exclude_none=True))


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def frame_of(page: Page, path: tuple[str, ...]) -> Frame | None:
    """The frame a discovery frame path names (``iframe#pay`` > ...), or ``None``."""
    frame = page.main_frame
    for selector in path:
        try:
            handle = bounded.call(frame, "finding a frame", frame.query_selector, selector)
            child = handle.content_frame() if handle is not None else None
        except PlaywrightError:
            return None
        if child is None:
            return None
        frame = child
    return frame


def resolve(
    page: Page,
    locator: Locator,
    fp: Fingerprint | None,
    memo: dict[tuple[str, str], Resolved] | None = None,
) -> Resolved:
    """One round trip: count, fresh fingerprint and similarity of ``locator``'s element.

    ``memo`` (``HealContext.resolved``) keeps the answers of one rung: its candidate checks
    ask about the same locators again on a page that has not changed in between."""
    key = resolved_key(locator, fp)
    if memo is not None and key in memo:
        return memo[key]
    found = _resolve(page, locator, fp)
    if memo is not None:
        memo[key] = found
    return found


def resolved_key(locator: Locator, fp: Fingerprint | None) -> tuple[str, str]:
    """The key of :func:`resolve`'s answers in ``HealContext.resolved``."""
    return locator.model_dump_json(), fp.model_dump_json() if fp else ""


def matches_none(ctx: HealContext, locators: list[Locator]) -> None:
    """Count in one round trip what any of the top-frame ``locators`` matches (Playwright's
    ``or_``); when that is nothing, each is kept in ``ctx.resolved`` as matching nothing, so
    the rung does not ask about them one by one. Nothing is kept otherwise."""
    rendered = []
    for locator in dict.fromkeys(locators):
        if locator.frame_path:
            continue
        try:
            rendered.append((locator, to_playwright(ctx.page, locator)))
        except UnrenderableLocator:
            continue  # resolve() answers "0 elements" for it anyway
    if len(rendered) < 2:
        return
    union = rendered[0][1]
    for _locator, target in rendered[1:]:
        union = union.or_(target)
    try:
        count = count_matches(ctx.page, "counting the candidates", union)
    except PlaywrightError:
        return
    if count == 0:
        for locator, _target in rendered:
            ctx.resolved[resolved_key(locator, ctx.state.fingerprint)] = Resolved(0)


_estimate_ids = itertools.count(1)

Element = tuple[str, int]
"""An element the in-page estimate singled out: (registry id, index), for ``probe``'s
``expect`` and ``isSame``."""


@dataclass(frozen=True)
class Estimate:
    """What :func:`estimate_all` found for one locator: as :func:`resolve` answers, and for
    exactly one element, that element in the page's registry."""

    found: Resolved
    element: Element | None = None


def estimable(locator: Locator) -> bool:
    """Whether the page can resolve ``locator`` itself (:func:`estimate_all`): top frame, no
    region, exact values."""
    return not locator.frame_path and locator.region is None and locator.exact


def estimate_all(ctx: HealContext, locators: list[Locator]) -> dict[Locator, Estimate]:
    """Several locators resolved in the page in one round trip, as discovery estimates
    uniqueness (its strategies' own matching, over every element of the document), with
    each singled-out element's fingerprint and similarity. Only locators
    :func:`estimable` accepts are sent; one whose strategy the page cannot render is left
    out of the answer, as is every locator when the call fails. An estimate chooses; the
    locator a rung goes on to use is resolved by Playwright (:func:`probe` with ``expect``)."""
    return send_estimates(ctx, locators).result()


@dataclass
class SentEstimates:
    """:func:`estimate_all` sent ahead (:func:`send_estimates`): read with :meth:`result`."""

    wanted: list[Locator]
    heal_id: str = ""
    sent: bounded.Sent[Any] | None = None

    def result(self) -> dict[Locator, Estimate]:
        if self.sent is None:
            return {}
        try:
            raw = checked(
                self.sent.result(), ResolveAllResult, "the in-page healing 'resolveAll' call"
            )
        except PlaywrightError:
            return {}
        out: dict[Locator, Estimate] = {}
        for loc, answer in zip(self.wanted, raw["results"], strict=True):
            if not answer["supported"]:
                continue
            index = answer.get("index")
            if answer.get("count") != 1 or index is None:
                out[loc] = Estimate(Resolved(answer.get("count", 0)))
                continue
            out[loc] = Estimate(_resolved_of(raw["elements"][index], loc), (self.heal_id, index))
        return out

    def drop(self) -> None:
        if self.sent is not None:
            self.sent.drop()


def send_estimates(ctx: HealContext, locators: list[Locator]) -> SentEstimates:
    """:func:`estimate_all`'s question sent now, its answer read later."""
    wanted = [loc for loc in dict.fromkeys(locators) if estimable(loc)]
    if not wanted:
        return SentEstimates(wanted)
    fp = ctx.state.fingerprint
    heal_id = f"e{next(_estimate_ids)}"
    specs = [
        {k: v for k, v in locator_json(loc).items() if k not in ("confidence", "in_shadow")}
        for loc in wanted
    ]
    arg = {
        "heal_id": heal_id,
        "specs": specs,
        "fp": fingerprint_json(fp) if fp else None,
        "weights": dict(WEIGHTS),
    }
    return SentEstimates(wanted, heal_id, sent_in_frame(ctx.page.main_frame, "resolveAll", arg))


def singles_out(ctx: HealContext, locators: list[Locator], element: Element) -> bool:
    """Whether Playwright finds exactly ``element`` for the union of ``locators`` (one round
    trip): none of them matches another element, and at least one matches it."""
    return singled_out(send_singles_out(ctx, locators, element))


def send_singles_out(
    ctx: HealContext, locators: list[Locator], element: Element
) -> bounded.Sent[Any] | None:
    """:func:`singles_out`'s question sent ahead (read it with :func:`singled_out`): the
    calls made meanwhile overlap its round trip. ``None``: a locator cannot be rendered."""
    union: PWLocator | None = None
    for locator in locators:
        try:
            target = to_playwright(ctx.page, locator)
        except UnrenderableLocator:
            return None
        union = target if union is None else union.or_(target)
    if union is None:
        return None
    # the bridge needs the frame that holds the elements: the page's, when none has a frame path
    frame = None if any(loc.frame_path for loc in locators) else ctx.page.main_frame
    arg = {"heal_id": element[0], "index": element[1]}
    return sent_on_elements(union, "isSame", arg, frame)


def singled_out(sent: bounded.Sent[Any] | None) -> bool:
    """The answer of :func:`send_singles_out`."""
    if sent is None:
        return False
    try:
        raw = checked(sent.result(), SameElement, "the in-page healing 'isSame' call")
    except PlaywrightError:
        return False
    return raw["same"]


def _resolve(page: Page, locator: Locator, fp: Fingerprint | None) -> Resolved:
    arg = {"fp": fingerprint_json(fp) if fp else None, "weights": dict(WEIGHTS)}
    try:
        raw = checked(
            call_on_locator(page, locator, "scoreOf", arg),
            ScoreResult,
            "the in-page healing 'scoreOf' call",
        )
    except (PlaywrightError, UnrenderableLocator):
        return Resolved(0)
    return _resolved_of(raw, locator)


def _resolved_of(raw: ScoreResult, locator: Locator) -> Resolved:
    if raw["fingerprint"] is None:
        return Resolved(raw["count"])
    fresh = Fingerprint.model_validate({**raw["fingerprint"], "frame_path": locator.frame_path})
    return Resolved(
        1,
        raw["score"],
        fresh,
        raw.get("description", ""),
        raw.get("anchor"),
        dict(raw.get("parts") or {}),
    )


def agreement(
    ctx: HealContext, locator: Locator, found: Resolved
) -> tuple[str | None, float | None, bool]:
    """Check a locator found by intent (an alternate, re-discovery, memory) against the
    recorded fingerprint: returns why it must not be used although it is unique and
    actionable (another element in the step's region matches the fingerprint better by at
    least the margin), or ``None``; the runner-up score (the best *other* element's
    similarity) for the evidence; and whether the conflict is only the fingerprint's ranking
    (which :func:`exact_name` may overrule; being outside the step's region never is).

    Principle 3: when the intent and the element's own attributes point at
    different elements, guessing is worse than failing.
    """
    fp = ctx.state.fingerprint
    if fp is None or found.score is None:
        return None, None, False
    scope = region_scope(ctx.page, ctx.state)
    try:
        if scope is not None and scope.containers and not _inside(ctx, locator, scope):
            return _outside(found, scope)
        ranking = rank_page(ctx.page, fp, action_of(ctx), limit=2, scope=scope)
    finally:
        for handle in scope.containers if scope else ():
            handle.dispose()
    best = ranking.best
    if best is None:
        return None, None, False
    second = ranking.runner_up
    same = _is_ranked(ctx, locator, best)
    return _weigh(
        ctx, found, scope, same, (best.score, best.description), second.score if second else None
    )


def _outside(found: Resolved, scope: Scope) -> tuple[str, None, bool]:
    return f"{found.description} is outside the step's region {scope.text!r}", None, False


def _weigh(
    ctx: HealContext,
    found: Resolved,
    scope: Scope | None,
    same: bool,
    best: tuple[float, str],
    second: float | None,
) -> tuple[str | None, float | None, bool]:
    """:func:`agreement`'s verdict once the ranking is known: ``best`` is the best-ranked
    element's (score, description), ``same`` whether it is the candidate's element,
    ``second`` the runner-up's score."""
    assert found.score is not None
    target = ctx.state.step.target
    # the exact-name rule may overrule the ranking only where the region was checked: the
    # step names none, or its containers still resolve and hold the element
    placed = target is None or target.region is None or bool(scope and scope.containers)
    best_score, best_description = best
    if same:
        return None, second, False
    if ctx.options.evidence.lead(best_score, found.score) < ctx.options.evidence.margin:
        return None, best_score, False
    return (
        (
            f"{found.description} matches the recorded fingerprint at {found.score:.2f}, but "
            f"{best_description} matches it at {best_score:.2f}: intent and fingerprint disagree"
        ),
        best_score,
        placed,
    )


def probed_agreement(
    ctx: HealContext, found: Resolved, scope: Scope | None, ranking: ProbeRanking
) -> tuple[str | None, float | None, bool]:
    """:func:`agreement` from what :func:`probe` read in the top frame: no round trip more,
    unless the page has other frames (each same-origin one is ranked too, as before)."""
    fp = ctx.state.fingerprint
    if fp is None or found.score is None:
        return None, None, False
    if scope is not None and scope.containers and not ranking["inside"]:
        return _outside(found, scope)
    # (score, description, the candidate's own element?) best first; the top frame's first
    # on a tie, as rank_page's stable sort over the frames in order puts them
    ranked = [
        (float(c["score"]), str(c["description"]), i == 0 and ranking["same"])
        for i, c in enumerate(ranking["candidates"])
    ]
    in_frames = scope is None or not scope.containers  # the containers are in the top frame
    if in_frames and ctx.page.main_frame.child_frames:
        others = rank_page(ctx.page, fp, action_of(ctx), limit=2, scope=scope, top_frame=False)
        ranked += [(s.score, s.description, False) for s in others.ranked]
        ranked.sort(key=lambda r: -r[0])
    if not ranked:
        return None, None, False
    best = ranked[0]
    second = ranked[1][0] if len(ranked) > 1 else None
    return _weigh(ctx, found, scope, best[2], (best[0], best[1]), second)


# The kinds of control an action can use interchangeably: a link and a button are both
# clicked (Django 5 turned "Log out" from a link into a POST form's button).
_KIND_OF_ROLE = {
    **dict.fromkeys(("button", "link", "menuitem", "tab"), "press"),
    **dict.fromkeys(("textbox", "searchbox", "combobox", "spinbutton"), "text"),
    **dict.fromkeys(("checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"), "check"),
}


def _norm(text: str | None) -> str:
    return " ".join(_WORDS.findall((text or "").lower()))


def exact_name(
    ctx: HealContext, locator: Locator, found: Resolved, best: float | None = None
) -> str | None:
    """Why an element found by intent is the recorded one although the fingerprint ranks
    another element higher, or ``None``: it is a control of the recorded kind (link and button
    alike) whose accessible name is exactly the recorded one and the step's words, and the only
    visible control of that kind with that name on its page. A tag change (``<a>`` to
    ``<button>``) costs the type, role, href, ancestors and position of the fingerprint; the
    name a person reads is what stayed. Rivals are refused before this is asked.

    ``best``: the score of the element the fingerprint ranks first; see
    :func:`_title_it_carried` for the one case that reads it."""
    fp, new, target = ctx.state.fingerprint, found.fingerprint, ctx.state.step.target
    if fp is None or new is None or target is None:
        return None
    if new.role == "heading":
        return _title_it_carried(ctx, locator, found, best)
    kind = _KIND_OF_ROLE.get(fp.role or "")
    if kind is None or _KIND_OF_ROLE.get(new.role or "") != kind:
        return None
    name = _norm(new.accessible_name)
    if not name or name != _norm(fp.accessible_name) or name != _norm(target.element):
        return None
    frame = frame_of(ctx.page, locator.frame_path)
    if frame is None:
        return None
    if _controls_named(frame, kind, (new.accessible_name or "",), "counting look-alikes") != 1:
        return None
    return (
        f'its exact name "{new.accessible_name}" is the recorded one and the step\'s, on the '
        f"only {kind} control so named ({fp.role} → {new.role})"
    )


def _controls_named(frame: Frame, kind: str, names: tuple[str, ...], what: str) -> int | None:
    """How many elements of ``frame`` are controls of ``kind`` (:data:`_KIND_OF_ROLE`)
    named exactly one of ``names``, in one round trip (a union of role locators); ``None``
    when the page could not be asked."""
    union: PWLocator | None = None
    for role in (r for r, k in _KIND_OF_ROLE.items() if k == kind):
        for name in dict.fromkeys(n for n in names if n):
            one = frame.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]
            union = one if union is None else union.or_(one)
    if union is None:
        return 0
    try:
        return count_matches(frame, what, union)
    except PlaywrightError:
        return None


# Below this, the element the recorded fingerprint ranks first resembles the recorded one no
# more than any element of the page does (a good relocation scores above heal_threshold).
WEAK_MATCH = 0.5


def _title_it_carried(
    ctx: HealContext, locator: Locator, found: Resolved, best: float | None
) -> str | None:
    """A button or link that became the title it carried: a collapsible section's header
    ("Parameters (3)", a button that opened the table under it) is now a plain heading over
    a table that is always open. Clicking the heading is what a person reading the step
    does, and the step's expectation still decides whether the step's purpose holds. Taken
    only when all of these hold, else ``None``:

    - the recorded element was a press control (button, link, menu item, tab) and the step
      clicks;
    - the heading's name is exactly the recorded name, and the step's words begin it
      ("Parameters" of "Parameters (3)");
    - the locator is one of the recorded alternates: it singled out the control on the page
      it was recorded on, so no other element carried that text there (a heading that stood
      beside the button then is another element, and its text alternate was not kept);
    - nothing on the page resembles the recorded element (the fingerprint's favourite
      scores below :data:`WEAK_MATCH`): a control that was only reworded is found elsewhere;
    - no control on the page carries the name or the step's words exactly.
    """
    fp, new, target = ctx.state.fingerprint, found.fingerprint, ctx.state.step.target
    assert fp is not None and new is not None and target is not None
    if _KIND_OF_ROLE.get(fp.role or "") != "press" or action_of(ctx) != "click":
        return None
    if locator not in ctx.state.alternates or best is None or best >= WEAK_MATCH:
        return None
    name, words = _norm(new.accessible_name), _norm(target.element)
    if not name or name != _norm(fp.accessible_name):
        return None
    if not words or (name != words and not name.startswith(words + " ")):
        return None
    frame = frame_of(ctx.page, locator.frame_path)
    names = (new.accessible_name or "", target.element)
    if frame is None or _controls_named(frame, "press", names, "counting controls so named") != 0:
        return None
    return (
        f'the recorded {fp.role} "{fp.accessible_name}" is now a heading of exactly that name, '
        f"no control carries it, and nothing on the page resembles the recorded element "
        f"(best {best:.2f})"
    )


def _inside(ctx: HealContext, locator: Locator, scope: Scope) -> bool:
    if locator.frame_path != scope.frame_path:
        return False
    arg = {"regions": list(scope.containers)}
    try:
        answer = call_on_locator(ctx.page, locator, "inside", arg)
        return checked(answer, bool, "the in-page healing 'inside' call")
    except (PlaywrightError, UnrenderableLocator):
        return False


_WORDS = re.compile(r"[^\W_]+")


def rival(recorded: Fingerprint | None, candidate: Fingerprint | None) -> str | None:
    """Why ``candidate`` must not replace the recorded element: it is one of the elements
    the step's words also matched at discovery, a different element on the page back then
    (``Fingerprint.rivals``), or it has the recorded name but sits in another landmark (the
    gate's identity check, ``identityChange`` in runtime/js/actionability.js: a header's
    "Settings" is not the footer's). ``None`` when it is not."""
    if recorded is None or candidate is None:
        return None
    name = " ".join(candidate.accessible_name.split()).lower()
    if name and name in recorded.rivals:
        return (
            f'"{candidate.accessible_name}" was already on the page as another element when the '
            "step was verified: a look-alike of the recorded element, not the element"
        )
    was, now = landmark(recorded.ancestor_path), landmark(candidate.ancestor_path)
    same_name = name and name == " ".join(recorded.accessible_name.split()).lower()
    if same_name and was and now and was != now:
        return (
            f'"{candidate.accessible_name}" sits in <{now}>, the recorded element in '
            f"<{was}>: the same name in another part of the page is another element"
        )
    return None


_LANDMARKS = frozenset({"header", "footer", "nav", "main", "aside"})


def landmark(ancestors: Sequence[str]) -> str | None:
    """The nearest landmark tag (ARIA's landmark regions by their HTML elements) among a
    fingerprint's ancestors (``tag#id``/``tag.class``, nearest first)."""
    for step in ancestors[:6]:
        tag = re.split(r"[#.\[:]", step, maxsplit=1)[0].lower()
        if tag in _LANDMARKS:
            return tag
    return None


def names_intent(element: str, fp: Fingerprint | None) -> bool:
    """Does the element's own name (accessible name, text, label, placeholder, test id)
    contain the step's words, in order? "Checkout" names "Proceed to checkout"; "I accept
    the terms" does not name "Send me the newsletter"."""
    if fp is None:
        return False
    wanted = [w.lower() for w in _WORDS.findall(element)]
    if not wanted:
        return False
    for value in (fp.accessible_name, fp.text, fp.label, fp.placeholder, *fp.test_ids.values()):
        words = [w.lower() for w in _WORDS.findall(value or "")]
        if "".join(words) == "".join(wanted):
            return True
        for i in range(len(words) - len(wanted) + 1):
            if words[i : i + len(wanted)] == wanted:
                return True
    return False


def _is_ranked(ctx: HealContext, locator: Locator, scored: Scored) -> bool:
    arg = {"heal_id": scored.heal_id, "index": scored.index}
    try:
        raw = checked(
            call_on_locator(ctx.page, locator, "isSame", arg),
            SameElement,
            "the in-page healing 'isSame' call",
        )
    except (PlaywrightError, UnrenderableLocator):
        return False
    return raw["same"]


def wait_budget_ms(ctx: HealContext) -> float:
    """How long a rung may wait for one thing on the page (a box to stop moving, a banner to
    go): the settle timeout, at least a second, never more than the step's timeout."""
    return min(ctx.options.step_timeout_ms, max(ctx.options.settle_timeout_ms, 1_000.0))


def gate_evidence(
    ctx: HealContext, locator: Locator, *, repair: bool = False
) -> tuple[bool, str, JSON]:
    """The five-point gate on ``locator``: ok, the reason in words, and the evidence.

    Measured by :func:`candidate_gate`: "stable" is left to the step's gate before the
    action, and a candidate that fails only because its box is still moving (a menu sliding
    in) is waited for and checked again, so the choice, and the proposal it opens, does not
    depend on timing. A candidate disabled now is not refused
    (:func:`~pytest_pacts.engine.gate.heal_blocking_point`, which says when it is); a
    ``repair`` of the step's own locator passes only when all the points the action needs
    pass.
    """
    try:
        gate = candidate_gate(ctx.page, locator, action_of(ctx), wait_ms=wait_budget_ms(ctx))
    except (PlaywrightError, UnrenderableLocator) as exc:
        return False, first_line(exc), {}
    return gate_answer(ctx, gate, repair=repair)


def gate_answer(
    ctx: HealContext, gate: GateSnapshot, *, repair: bool = False
) -> tuple[bool, str, JSON]:
    """:func:`gate_evidence`'s answer for a gate already measured."""
    evidence: JSON = {"gate_result": gate_json(gate)}
    if gate.box is not None:
        evidence["bounding_box"] = gate.box.model_dump(mode="json")
    # the executor's rule for which points an action needs (hover and focus do not need an
    # enabled element), so a candidate is judged exactly as the retried step will be
    action = Action(action_of(ctx))
    failed = (
        blocking_point(gate, action)
        if repair
        else heal_blocking_point(gate, action, ctx.failure.type)
    )
    if failed is not None:
        return False, failed.reason, evidence
    if blocking_point(gate, action) is not None:
        return True, "passes the gate but is disabled now: the step waits for it", evidence
    return True, "passes the gate", evidence


_probe_ids = itertools.count(1)


@dataclass
class Probing:
    """What one loop over candidate locators (:func:`~.intent.try_locators`) reads once:
    the step's region as a :class:`Scope` and the containers of the candidates' own
    regions. :meth:`close` lets go of their element handles."""

    ctx: HealContext
    _scope: tuple[Scope | None] | None = None
    _containers: dict[tuple[tuple[str, ...], str], list[ElementHandle]] = field(
        default_factory=dict
    )

    def usable(self, locator: Locator) -> bool:
        """Whether :func:`probe` can check ``locator``: it lives in the top frame (the page's
        other frames, when it has any, are ranked as :func:`agreement` ranks them)."""
        return not locator.frame_path

    def gone(self, locator: Locator) -> None:
        """``locator``'s region was just found on no element: it is not looked up again."""
        assert locator.region is not None
        self._containers[(locator.frame_path, locator.region.model_dump_json())] = []

    def scope(self) -> Scope | None:
        if self._scope is None:
            self._scope = (region_scope(self.ctx.page, self.ctx.state, self.containers),)
        return self._scope[0]

    def containers(self, locator: Locator) -> list[ElementHandle]:
        """The elements ``locator``'s region resolves to now (the gate's "scoped" point)."""
        assert locator.region is not None
        key = (locator.frame_path, locator.region.model_dump_json())
        if key not in self._containers:
            region = apply(self.ctx.page, frame_calls(locator) + region_calls(locator.region))
            self._containers[key] = bounded.call(
                region, "finding the step's region", region.element_handles
            )
        return self._containers[key]

    def close(self) -> None:
        scope = self._scope[0] if self._scope is not None else None
        handles = [*(scope.containers if scope else ())]
        handles += itertools.chain.from_iterable(self._containers.values())
        self._scope = None
        self._containers.clear()
        # the scope's containers come from the same lookup: each handle once
        for handle in {id(h): h for h in handles}.values():
            with contextlib.suppress(PlaywrightError):  # the page navigated: gone already
                handle.dispose()


@dataclass(frozen=True)
class Probe:
    """One candidate locator checked in one round trip (:func:`probe`): what it resolves to,
    :func:`gate_evidence`'s answer (``None`` when it was not gated: not one element, or
    replaced while its box moved) and, when it passed, the page's ranking."""

    found: Resolved
    gate: tuple[bool, str, JSON] | None = None
    ranking: ProbeRanking | None = None
    other: bool = False  # not the element ``expect`` named
    below: bool = False  # its similarity is not above ``min_score``: not gated


def probe(
    ctx: HealContext,
    locator: Locator,
    probing: Probing,
    gated: GateSnapshot | None = None,
    expect: Element | None = None,
    min_score: float | None = None,
) -> Probe:
    """:func:`resolve`, :func:`gate_evidence` and the ranking :func:`agreement` needs, for a
    locator :meth:`Probing.usable` accepts, in one ``evaluate_all`` on its matches: the
    gate's two animation frames (and the wait for a moving box) happen inside that call.
    The answer is also kept in ``ctx.resolved``, as :func:`resolve` keeps its own.

    ``gated``: the gate this rung's discovery measured on the element it verified this
    locator resolves to; used instead of measuring again when it passes for the step's
    action on an unscoped locator (one that failed, or a moving box, is measured again).

    ``expect``: the element an in-page estimate (:func:`estimate_all`) chose for this
    locator; when Playwright resolves it to another one, nothing more is measured and the
    answer says so (``other``). ``min_score``: a candidate whose similarity to the recorded
    fingerprint is not above it is answered ``below`` without measuring the gate (for a
    rung that refuses such a candidate whatever its gate)."""
    fp = ctx.state.fingerprint
    action = Action(action_of(ctx))
    if gated is not None and (
        locator.region is not None
        or gated.count != 1
        or heal_blocking_point(gated, action, ctx.failure.type)
    ):
        gated = None
    try:
        regions = probing.containers(locator) if locator.region is not None else []
        scope = probing.scope()
        rank: JSON = {"heal_id": f"p{next(_probe_ids)}", "action": action.value, "limit": 2}
        if scope is not None:
            rank["regions"] = list(scope.containers)
            rank["region_text"] = scope.text
        arg: JSON = {
            "fp": fingerprint_json(fp) if fp else None,
            "weights": dict(WEIGHTS),
            "gate": None
            if gated is not None
            else {
                "action": action.value,
                "regions": regions,
                "in_shadow": locator.in_shadow,
                "observes": action.observes,
                "seen_by_wait": sorted(SEEN_BY_WAIT),
                # a candidate disabled now is not refused (heal_blocking_point)
                "no_enabled": action in NO_ENABLED or takes_disabled(ctx.failure.type),
                "timeout_ms": wait_budget_ms(ctx),
            },
            "rank": rank,
        }
        if expect is not None:
            arg["expect"] = {"heal_id": expect[0], "index": expect[1]}
        if min_score is not None and fp is not None:
            arg["min_score"] = min_score
        raw = checked(
            call_on_locator(ctx.page, locator, "probe", arg),
            ProbeResult,
            "the in-page healing 'probe' call",
        )
    except (PlaywrightError, UnrenderableLocator):
        return Probe(Resolved(0))
    found = _resolved_of(raw, locator)
    ctx.resolved[resolved_key(locator, fp)] = found
    if raw.get("other"):
        return Probe(found, other=True)
    if raw.get("below"):
        return Probe(found, below=True)
    if gated is not None and found.count == 1:
        return Probe(found, gate_answer(ctx, gated), raw.get("ranking"))
    if "gate" not in raw:
        return Probe(found)
    gate = gate_answer(ctx, GateSnapshot.model_validate(raw["gate"]))
    return Probe(found, gate, raw.get("ranking"))
