"""The five-point actionability gate from Python: one round trip (docs/engine.md, "The gate").

The check itself is ``checkActionable`` in ``js/actionability.js``; discovery snapshots it
for every resolved element, the executor calls :func:`check_actionable` before every action.
"""

from __future__ import annotations

from collections.abc import Mapping

from playwright.sync_api import ElementHandle, Frame
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.discovery.chain import Root, apply
from pytest_pacts.discovery.render import elements_frame, frame_calls, region_calls, to_playwright
from pytest_pacts.models.locator import GateSnapshot, Locator
from pytest_pacts.models.requirement import Action
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.bridge import call_on_elements


# long because: mostly its docstring: the five points and every argument explained once
def check_actionable(
    target: PWLocator,
    action: Action | str,
    *,
    in_shadow: bool | None = None,
    region: PWLocator | None = None,
    identity: Mapping[str, object] | None = None,
    trace: bool = False,
    keep: str | None = None,
    since: float | None = None,
    still: bool = True,
    rule: Mapping[str, object] | None = None,
    frame: Frame | None = None,
    settle: bool = False,
    shows: str | None = None,
) -> GateSnapshot:
    """Run the five points on ``target`` in the page: unique, visible (and not covered),
    enabled (and editable for fill/type), stable (two boxes one animation frame apart), scoped.

    ``in_shadow`` (when not ``None``) and ``region`` (the element must sit inside one of the
    elements it resolves to) define "scoped". Never waits: the caller decides whether to
    retry, heal or fail on the returned snapshot. One round trip, plus one to resolve
    ``region`` when given.

    ``identity`` (``{"fp": fingerprint JSON, "words": the step's element}``) also checks, in
    the same round trip, that the one element found is still the one the fingerprint
    recorded (tag kind, accessible name, label, text, the step's words): when it is not,
    ``GateSnapshot.changed`` says why (a cached locator that now finds another element).
    ``trace`` also reads the element's visible text and hashes the document, in the same
    round trip (``GateSnapshot.text``, ``.dom_hash``: the step's trace). ``keep`` keeps the
    one element found in the page under that token, for
    :func:`~pytest_pacts.runtime.scripts.kept_element_function`.

    ``settled`` (was the page loaded and unchanged for two animation frames?) is read from
    the page's change watch without waiting when the caller says when it last acted on the
    page (``since``, wall-clock ms: a quiet spell that began after it counts); otherwise, and
    when the watch cannot tell, a failing check watches two frames itself. ``still=False``
    leaves "stable" to the gate right before the action (a heal candidate's check).
    ``rule``: which failing points the caller waits out and which it does not (the executor's
    gate passes its own, ``engine/gate.py``); without it a failing check always watches two
    frames. ``frame``: the frame that holds the elements, when known: the check then gets
    them through the bridge (``runtime/bridge.py``) rather than Playwright's selector code in
    the page.
    ``settle``: a check that passes also makes sure ``settled`` is observed, watching what is
    left of two animation frames (after those "stable" watched) when the page was not known
    quiet already: the executor's readiness for a new page's first action, in the check's own
    round trip.
    ``shows``: an opener's check (engine/openers.py) also says, at its end, whether the
    element at that CSS path, the hidden one the opener is to show, is on show already
    (``GateSnapshot.shown``), in the same round trip.
    """
    regions: list[ElementHandle] = (
        bounded.call(region, "finding the step's region", region.element_handles)
        if region is not None
        else []
    )
    try:
        raw = call_on_elements(
            target,
            "check",
            {
                "action": Action(action).value,
                "in_shadow": in_shadow,
                "regions": regions,
                "identity": dict(identity) if identity is not None else None,
                "trace": trace,
                "keep": keep,
                "since": since,
                "still": still,
                "rule": dict(rule) if rule is not None else None,
                "settle": settle,
                "shows": shows,
            },
            # element handles cannot be sent ahead (the bridge's call is); a handle in the
            # page's world has Playwright's selector code there anyway
            frame=frame if not regions else None,
        )
    finally:
        bounded.release(regions)  # no round trip waited for
    return GateSnapshot.model_validate(raw)


def check_locator(
    root: Root,
    locator: Locator,
    action: Action | str,
    *,
    still: bool = True,
    keep: str | None = None,
    shows: str | None = None,
) -> GateSnapshot:
    """:func:`check_actionable` for a discovered locator, scoped by its region and shadow flag
    (``keep``: keep the element a passing check finds, ``shows``: say whether that hidden
    element is on show, as there)."""
    region = None
    if locator.region is not None:
        region = apply(root, frame_calls(locator) + region_calls(locator.region))
    return check_actionable(
        to_playwright(root, locator),
        action,
        in_shadow=locator.in_shadow,
        region=region,
        still=still,
        keep=keep,
        frame=elements_frame(root, locator),
        shows=shows,
    )
