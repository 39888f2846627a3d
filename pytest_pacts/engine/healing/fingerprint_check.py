"""Whether a locator found by intent (an alternate, re-discovery, memory) agrees with the
recorded fingerprint: :func:`agreement` ranks the page, :func:`probed_agreement` reads the
ranking :func:`~.probing.probe` brought back. Principle 3: when the intent and the element's
own attributes point at different elements, guessing is worse than failing.
"""

from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery import UnrenderableLocator
from pytest_pacts.discovery.payloads import (
    ProbeRanking,
    SameElement,
    checked,
)
from pytest_pacts.engine.contracts import HealContext, Resolved
from pytest_pacts.engine.healing.basics import action_of
from pytest_pacts.engine.healing.relocate import call_on_locator
from pytest_pacts.engine.healing.scoring import (
    Scope,
    Scored,
    rank_page,
    region_scope,
)
from pytest_pacts.models.locator import Locator
from pytest_pacts.runtime import bounded


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
        bounded.release(scope.containers if scope else ())
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
    if not ctx.options.evidence.clears_margin(best_score, found.score):
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


def _inside(ctx: HealContext, locator: Locator, scope: Scope) -> bool:
    if locator.frame_path != scope.frame_path:
        return False
    arg = {"regions": list(scope.containers)}
    try:
        answer = call_on_locator(ctx.page, locator, "inside", arg)
        return checked(answer, bool, "the in-page healing 'inside' call")
    except (PlaywrightError, UnrenderableLocator):
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
