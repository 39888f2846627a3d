"""A repair rung for region drift: the container the step names is gone (SPEC.md §6 rung 2).

``Username@LoginForm`` was verified inside ``#login_form``; the next release renames the form
(``#auth-form``), so every locator scoped to it matches nothing, although the element itself
did not change. When the failing locator's region no longer resolves, the locator and its
alternates are retried *without* the region, and the element is re-discovered by name alone.
A candidate must then be unique on the whole page (a stricter test than unique within a
region), pass the five-point gate and agree with the recorded fingerprint
(:func:`~pytest_pacts.engine.healing.intent.try_locators`); otherwise the rung declines.
"""

from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery import Discoverer, UnrenderableLocator
from pytest_pacts.discovery.chain import apply
from pytest_pacts.discovery.render import frame_calls, region_calls
from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing._common import first_line
from pytest_pacts.engine.healing.intent import try_locators
from pytest_pacts.models import Target
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.outcome import FailureType, HealRung

# an unscoped candidate is a little less certain than the scoped one it replaces
UNSCOPED_FACTOR = 0.95


def _region_gone(ctx: HealContext, locator: Locator) -> bool:
    """True when no container on the page matches the locator's region any more."""
    if locator.region is None:
        return False
    try:
        root = ctx.page
        calls = (*frame_calls(locator), *region_calls(locator.region))
        return apply(root, calls).count() == 0
    except (PlaywrightError, UnrenderableLocator):
        return False


class RegionDriftRung:
    """Retry without a vanished region; accept only what is unique page-wide."""

    name = HealRung.REPAIR

    def __init__(self, discoverer: Discoverer | None = None) -> None:
        self.discoverer = discoverer or Discoverer()

    def attempt(self, ctx: HealContext) -> RungResult | None:
        state = ctx.state
        current = state.locator
        if (
            current is None
            or current.region is None
            or ctx.failure.type is not FailureType.NOT_UNIQUE
            or not _region_gone(ctx, current)
        ):
            return None
        region = current.region.description
        known = [current, *state.alternates]
        if state.discovery is not None:
            known.extend(state.discovery.alternates)
        options = [
            (
                loc.model_copy(update={"region": None}),
                loc.confidence * UNSCOPED_FACTOR,
                {"region_gone": region, "how": "same locator without the region"},
            )
            for loc in dict.fromkeys(known)
            if loc.region is not None
        ]
        step = state.step
        if step.target is not None:
            try:
                found = self.discoverer.discover(
                    ctx.page, [(0, Target(element=step.target.element), step.action)]
                )[0]
            except PlaywrightError as exc:
                found = None
                note = first_line(exc)
            else:
                note = ""
            if found is not None and found.locator is not None:
                options.extend(
                    (
                        loc,
                        loc.confidence * UNSCOPED_FACTOR,
                        {"region_gone": region, "how": "re-discovered by name"},
                    )
                    for loc in (found.locator, *found.alternates)
                )
            elif note:
                return RungResult(
                    self.name, False, f"region {region!r} is gone and re-discovery failed: {note}"
                )
        what = f"locator without the vanished region {region!r}"
        notes: list[str] = []
        for option in options:
            result = try_locators(ctx, self.name, [option], what)
            if result is None:
                continue
            if not result.accepted:
                notes.append(result.reason)
                continue
            # Without its region a candidate has less context; it must also look like the
            # recorded element on its own (a renamed field's label can move to a neighbour).
            score = result.evidence.get("fingerprint_score")
            if not isinstance(score, float) or score <= ctx.options.heal_threshold:
                shown = f"{score:.2f}" if isinstance(score, float) else "unknown"
                notes.append(
                    f"{option[0].describe()}: matches the recorded element only at "
                    f"{shown} (needs > {ctx.options.heal_threshold:.2f})"
                )
                continue
            return result
        return RungResult(
            self.name,
            False,
            f"region {region!r} is gone and nothing that is "
            "unique without it matches the recorded element: " + "; ".join(notes),
        )
