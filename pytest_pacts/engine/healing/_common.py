"""Small helpers the rungs share: the step's action, locator JSON, fingerprint agreement."""

from __future__ import annotations

import re
from typing import cast

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Page

from pytest_pacts.discovery import UnrenderableLocator, bounded, check_locator, to_playwright
from pytest_pacts.discovery.payloads import SameElement, ScoreResult, checked
from pytest_pacts.engine.contracts import HealContext, Resolved
from pytest_pacts.engine.gate import blocking_point
from pytest_pacts.engine.healing._js import call_on_elements
from pytest_pacts.engine.healing.relocate import gate_json
from pytest_pacts.engine.healing.scoring import (
    WEIGHTS,
    Scope,
    Scored,
    fingerprint_json,
    rank_page,
    region_scope,
)
from pytest_pacts.models.locator import Fingerprint, Locator
from pytest_pacts.models.recipe import JsonObject
from pytest_pacts.models.requirement import Action

JSON = dict[str, object]


def action_of(ctx: HealContext) -> str:
    return ctx.state.step.action.value


def element_key(ctx: HealContext) -> str:
    target = ctx.state.step.target
    return target.key if target is not None else f"step {ctx.state.step.index}"


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
    key = (locator.model_dump_json(), fp.model_dump_json() if fp else "")
    if memo is not None and key in memo:
        return memo[key]
    found = _resolve(page, locator, fp)
    if memo is not None:
        memo[key] = found
    return found


def _resolve(page: Page, locator: Locator, fp: Fingerprint | None) -> Resolved:
    arg = {"fp": fingerprint_json(fp) if fp else None, "weights": dict(WEIGHTS)}
    try:
        raw = checked(
            call_on_elements(to_playwright(page, locator), "scoreOf", arg),
            ScoreResult,
            "the in-page healing 'scoreOf' call",
        )
    except (PlaywrightError, UnrenderableLocator):
        return Resolved(0)
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
    target = ctx.state.step.target
    # the exact-name rule may overrule the ranking only where the region was checked: the
    # step names none, or its containers still resolve and hold the element
    placed = target is None or target.region is None or bool(scope and scope.containers)
    try:
        if scope is not None and scope.containers and not _inside(ctx, locator, scope):
            where = f"{found.description} is outside the step's region {scope.text!r}"
            return where, None, False
        ranking = rank_page(ctx.page, fp, action_of(ctx), limit=2, scope=scope)
    finally:
        for handle in scope.containers if scope else ():
            handle.dispose()
    best = ranking.best
    if best is None:
        return None, None, False
    same = _is_ranked(ctx, locator, best)
    if same:
        second = ranking.runner_up
        return None, second.score if second else None, False
    if best.score - found.score < ctx.options.heal_margin:
        return None, best.score, False
    return (
        (
            f"{found.description} matches the recorded fingerprint at {found.score:.2f}, but "
            f"{best.description} matches it at {best.score:.2f}: intent and fingerprint disagree"
        ),
        best.score,
        placed,
    )


# The kinds of control an action can use interchangeably: a link and a button are both
# clicked (Django 5 turned "Log out" from a link into a POST form's button).
_KIND_OF_ROLE = {
    **dict.fromkeys(("button", "link", "menuitem", "tab"), "press"),
    **dict.fromkeys(("textbox", "searchbox", "combobox", "spinbutton"), "text"),
    **dict.fromkeys(("checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"), "check"),
}


def _norm(text: str | None) -> str:
    return " ".join(_WORDS.findall((text or "").lower()))


def exact_name(ctx: HealContext, locator: Locator, found: Resolved) -> str | None:
    """Why an element found by intent is the recorded one although the fingerprint ranks
    another element higher, or ``None``: it is a control of the recorded kind (link and button
    alike) whose accessible name is exactly the recorded one and the step's words, and the only
    visible control of that kind with that name on its page. A tag change (``<a>`` to
    ``<button>``) costs the type, role, href, ancestors and position of the fingerprint; the
    name a person reads is what stayed. Rivals are refused before this is asked."""
    fp, new, target = ctx.state.fingerprint, found.fingerprint, ctx.state.step.target
    if fp is None or new is None or target is None:
        return None
    kind = _KIND_OF_ROLE.get(fp.role or "")
    if kind is None or _KIND_OF_ROLE.get(new.role or "") != kind:
        return None
    name = _norm(new.accessible_name)
    if not name or name != _norm(fp.accessible_name) or name != _norm(target.element):
        return None
    frame = frame_of(ctx.page, locator.frame_path)
    if frame is None:
        return None
    roles = [r for r, k in _KIND_OF_ROLE.items() if k == kind]
    same = 0
    try:
        for role in roles:
            named = frame.get_by_role(role, name=new.accessible_name, exact=True)  # type: ignore[arg-type]
            same += bounded.call(frame, "counting look-alikes", named.count)
    except PlaywrightError:
        return None
    if same != 1:
        return None
    return (
        f'its exact name "{new.accessible_name}" is the recorded one and the step\'s, on the '
        f"only {kind} control so named ({fp.role} → {new.role})"
    )


def _inside(ctx: HealContext, locator: Locator, scope: Scope) -> bool:
    if locator.frame_path != scope.frame_path:
        return False
    arg = {"regions": list(scope.containers)}
    try:
        answer = call_on_elements(to_playwright(ctx.page, locator), "inside", arg)
        return checked(answer, bool, "the in-page healing 'inside' call")
    except (PlaywrightError, UnrenderableLocator):
        return False


_WORDS = re.compile(r"[^\W_]+")


def rival(recorded: Fingerprint | None, candidate: Fingerprint | None) -> str | None:
    """Why ``candidate`` must not replace the recorded element: it is one of the elements
    the step's words also matched at discovery, a different element on the page back then
    (``Fingerprint.rivals``). ``None`` when it is not."""
    if recorded is None or candidate is None or not recorded.rivals:
        return None
    name = " ".join(candidate.accessible_name.split()).lower()
    if name and name in recorded.rivals:
        return (
            f'"{candidate.accessible_name}" was already on the page as another element when the '
            "step was verified: a look-alike of the recorded element, not the element"
        )
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
            call_on_elements(to_playwright(ctx.page, locator), "isSame", arg),
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


def gate_evidence(ctx: HealContext, locator: Locator) -> tuple[bool, str, JSON]:
    """The five-point gate on ``locator``: ok, the reason in words, and the evidence.

    A candidate that fails only because its box is still moving (a menu sliding in) is
    waited for and checked again: judging it mid-animation would pass over the best
    candidate for a lower one that happens to be checked once the animation is over, so
    the choice, and the proposal it opens, would depend on timing.
    """
    try:
        gate = check_locator(ctx.page, locator, action_of(ctx))
        point = blocking_point(gate, Action(action_of(ctx)))
        if point is not None and point.code == "unstable":
            arg = {"timeout_ms": wait_budget_ms(ctx)}
            call_on_elements(to_playwright(ctx.page, locator), "stable", arg)
            gate = check_locator(ctx.page, locator, action_of(ctx))
    except (PlaywrightError, UnrenderableLocator) as exc:
        return False, first_line(exc), {}
    evidence: JSON = {"gate_result": gate_json(gate)}
    if gate.box is not None:
        evidence["bounding_box"] = gate.box.model_dump(mode="json")
    # the executor's rule for which points an action needs (hover and focus do not need an
    # enabled element), so a candidate is judged exactly as the retried step will be
    failed = blocking_point(gate, Action(action_of(ctx)))
    return failed is None, ("passes the gate" if failed is None else failed.reason), evidence
