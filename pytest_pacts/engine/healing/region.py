"""A repair rung for region drift: the container the step names is gone (SPEC.md §6 rung 2).

``Username@LoginForm`` was verified inside ``#login_form``; the next release renames the form
(``#auth-form``), so every locator scoped to it matches nothing, although the element itself
did not change. When the failing locator's region no longer resolves, the rung looks for the
element without the region:

1. **Agreement** (the multi-locator rule): the recorded locators (the failing one and its
   alternates) are tried without the region; when at least two *independent* ones (different
   attribute sources: test id, name, placeholder, id/class) single out the same element, that
   element is the one.
2. Otherwise each candidate alone (including re-discovery by name) must also match the
   recorded fingerprint above the heal threshold: a single source without its region is weak
   evidence (a renamed field's label can move to its neighbour).

Every candidate is unique on the whole page, passes the five-point gate and agrees with the
fingerprint ranking (:func:`~pytest_pacts.engine.healing.intent.try_locators`); otherwise the
rung declines and the step fails with the reasons.
"""

from __future__ import annotations

from collections.abc import Mapping

from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery import Discoverer, UnrenderableLocator
from pytest_pacts.discovery.chain import apply
from pytest_pacts.discovery.render import frame_calls, region_calls
from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing._common import first_line, resolve
from pytest_pacts.engine.healing.intent import try_locators
from pytest_pacts.models import Target
from pytest_pacts.models.locator import Locator, Strategy
from pytest_pacts.models.outcome import FailureType, HealRung

# an unscoped candidate is a little less certain than the scoped one it replaces
UNSCOPED_FACTOR = 0.95

# Locators that read the same attribute are one piece of evidence, not several: a field's
# label gives both its label locator and its role+name locator.
_SOURCE = {
    Strategy.TEST_ID: "test id",
    Strategy.LABEL: "name",
    Strategy.ROLE_NAME: "name",
    Strategy.ARIA: "name",
    Strategy.TEXT: "name",
    Strategy.PLACEHOLDER: "placeholder",
    Strategy.CSS: "id/class",
}

Option = tuple[Locator, float, Mapping[str, object]]


def _region_gone(ctx: HealContext, locator: Locator) -> bool:
    """True when no container on the page matches the locator's region any more."""
    if locator.region is None:
        return False
    try:
        calls = (*frame_calls(locator), *region_calls(locator.region))
        return apply(ctx.page, calls).count() == 0
    except (PlaywrightError, UnrenderableLocator):
        return False


class RegionDriftRung:
    """Find the element again without a vanished region; accept only on strong evidence."""

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
        what = f"locator without the vanished region {region!r}"
        known = [current, *state.alternates]
        if state.discovery is not None:
            known.extend(state.discovery.alternates)

        agreed = self._agreed(ctx, known)
        if agreed is not None:
            locator, sources = agreed
            extra = {"region_gone": region, "agreeing_sources": ", ".join(sources)}
            option: Option = (locator, locator.confidence * UNSCOPED_FACTOR, extra)
            result = try_locators(ctx, self.name, [option], what)
            if result is not None and result.accepted:
                return result

        notes: list[str] = []
        for option in self._single_options(ctx, known, region, notes):
            result = try_locators(ctx, self.name, [option], what)
            if result is None:
                continue
            if not result.accepted:
                notes.append(result.reason)
                continue
            score = result.evidence.get("fingerprint_score")
            if not isinstance(score, float) or score <= ctx.options.heal_threshold:
                shown = f"{score:.2f}" if isinstance(score, float) else "unknown"
                notes.append(
                    f"{option[0].describe()}: matches the recorded element only at {shown} "
                    f"(needs > {ctx.options.heal_threshold:.2f}, or two independent locators "
                    "agreeing)"
                )
                continue
            return result
        return RungResult(
            self.name,
            False,
            f"region {region!r} is gone and nothing unique without it is clearly the recorded "
            "element: " + ("; ".join(notes) or "no candidate"),
        )

    def _single_options(
        self, ctx: HealContext, known: list[Locator], region: str, notes: list[str]
    ) -> list[Option]:
        options: list[Option] = [
            (loc.model_copy(update={"region": None}), loc.confidence * UNSCOPED_FACTOR,
             {"region_gone": region, "how": "same locator without the region"})
            for loc in dict.fromkeys(known)
            if loc.region is not None
        ]  # fmt: skip
        step = ctx.state.step
        if step.target is None:
            return options
        try:
            found = self.discoverer.discover(
                ctx.page, [(0, Target(element=step.target.element), step.action)]
            )[0]
        except PlaywrightError as exc:
            notes.append(f"re-discovery without the region failed: {first_line(exc)}")
            return options
        if found.locator is not None:
            options.extend(
                (loc, loc.confidence * UNSCOPED_FACTOR,
                 {"region_gone": region, "how": "re-discovered by name"})
                for loc in (found.locator, *found.alternates)
            )  # fmt: skip
        return options

    @staticmethod
    def _agreed(ctx: HealContext, known: list[Locator]) -> tuple[Locator, list[str]] | None:
        """A locator whose element at least two independent recorded locators still single
        out once the vanished region is dropped, and the sources that agree."""
        groups: dict[str, tuple[Locator, set[str]]] = {}
        for loc in dict.fromkeys(known):
            source = _SOURCE.get(loc.strategy)
            if loc.region is None or source is None:
                continue
            unscoped = loc.model_copy(update={"region": None})
            found = resolve(ctx.page, unscoped, ctx.state.fingerprint)
            if found.count != 1 or found.fingerprint is None:
                continue
            key = found.fingerprint.model_dump_json()
            first, sources = groups.get(key, (unscoped, set()))
            groups[key] = (first, sources | {source})
        best = max(groups.values(), key=lambda group: len(group[1]), default=None)
        if best is None or len(best[1]) < 2:
            return None
        return best[0], sorted(best[1])
