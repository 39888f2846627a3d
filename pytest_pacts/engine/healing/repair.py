"""Rung 2: failure-specific repair of the page, then the same locator again.

- not_visible / obscured: reveal. Scroll into view; if a layer covers the element and it is
  clearly a cookie/consent banner or a dialog, click its accept/close button (generic
  words, no site-specific selectors; a button inside an alert/status/log message in the
  layer closes that message, not the layer, and is never used); else wait for the element to
  become visible. A layer that holds form fields or shows the step's words is the app's own
  content (an edit dialog), never dismissed; and only a pointer action (click, hover, check,
  uncheck) has a covering layer in its way at all.
- not_unique (several matches): reprobe within the region the step names;
- unstable: wait until the box is the same on two consecutive animation frames;
- disabled: wait for enablement;
- timeout: an adaptive, longer wait (doubling per round, capped at 3× the step timeout).

A repair is reported only when the gate passes afterwards: measured, never assumed.
"""

from __future__ import annotations

import contextlib
import itertools
import time

from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery import Discoverer, UnrenderableLocator, to_playwright
from pytest_pacts.discovery.payloads import OverlayResult, checked
from pytest_pacts.discovery.render import elements_frame
from pytest_pacts.discovery.step_values import values_of
from pytest_pacts.engine.contracts import HealContext, RungResult
from pytest_pacts.engine.healing.basics import first_line, frame_of, wait_budget_ms
from pytest_pacts.engine.healing.intent import try_locators
from pytest_pacts.engine.healing.probing import gate_evidence
from pytest_pacts.engine.healing.relocate import call_on_locator
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.outcome import FailureType, HealRung
from pytest_pacts.models.requirement import Action
from pytest_pacts.runtime import bounded
from pytest_pacts.runtime.healing import call_on_elements, count_matches, handle_in_frame

JSON = dict[str, object]
_ids = itertools.count(1)
_POINTER = frozenset({Action.CLICK, Action.HOVER, Action.CHECK, Action.UNCHECK})


class RepairRung:
    name = HealRung.REPAIR

    def __init__(self, discoverer: Discoverer | None = None) -> None:
        self.discoverer = discoverer or Discoverer(measure_still=False)

    def attempt(self, ctx: HealContext) -> RungResult | None:
        locator = ctx.state.locator
        if locator is None:
            return None
        kind = ctx.failure.type
        start = time.perf_counter()
        try:
            if kind in (FailureType.NOT_VISIBLE, FailureType.OBSCURED):
                done = self._reveal(ctx, locator)
            elif kind is FailureType.NOT_UNIQUE:
                return self._reprobe(ctx, locator)
            elif kind is FailureType.UNSTABLE:
                done = self._stabilise(ctx, locator)
            elif kind is FailureType.DISABLED:
                done = self._enable(ctx, locator)
            elif kind is FailureType.TIMEOUT:
                done = self._wait_longer(ctx, locator)
            else:
                return None
        except (PlaywrightError, UnrenderableLocator) as exc:
            done = f"repair failed: {first_line(exc)}"
        waited_ms = round((time.perf_counter() - start) * 1000, 1)
        ok, why, evidence = gate_evidence(ctx, locator, repair=True)
        evidence["waited_ms"] = waited_ms
        if ok:
            return RungResult(
                self.name, True, f"{done}; the gate passes now", repaired=True, evidence=evidence
            )
        return RungResult(self.name, False, f"{done}; still failing: {why}", evidence=evidence)

    def _timeout(self, ctx: HealContext) -> float:
        return wait_budget_ms(ctx)

    def _reveal(self, ctx: HealContext, locator: Locator) -> str:
        target = to_playwright(ctx.page, locator)
        if count_matches(ctx.page, "counting matches", target) != 1:
            return "nothing to reveal: the locator does not resolve to one element"
        heal_id = f"r{next(_ids)}"
        step = ctx.state.step
        words = step.target.element if step.target is not None else ""
        arg = {"heal_id": heal_id, "words": words}
        info = checked(
            call_on_elements(target, "overlayAt", arg, elements_frame(ctx.page, locator)),
            OverlayResult,
            "the in-page 'overlayAt' call",
        )
        if not info["covered"]:
            target.scroll_into_view_if_needed(timeout=self._timeout(ctx))
            try:
                target.wait_for(state="visible", timeout=self._timeout(ctx))
            except PlaywrightError:
                return "scrolled into view; waited, it did not become visible"
            return "scrolled into view and waited for visibility"
        cover = str(info.get("cover"))
        if info.get("own"):
            return f"covered by {cover}, the app's own content ({info['own']}): left alone"
        if step.action not in _POINTER:
            # fill, select, press and focus do not use the pointer: a layer over the element
            # (a code editor's rendered lines over its textarea) is not in their way
            action = step.action.value
            return f"covered by {cover}, but {action} does not use the pointer: left alone"
        if info.get("overlay") is None:
            return f"covered by {cover}, which is not a consent banner or dialog: left alone"
        if info.get("button") is None:
            return f"covered by the {info['overlay']} {cover}, which has no accept/close button"
        frame = frame_of(ctx.page, locator.frame_path)
        if frame is None:
            return "the element's frame went away"
        button = handle_in_frame(frame, "registered", {"heal_id": heal_id, "index": 0})
        layer = handle_in_frame(frame, "registered", {"heal_id": heal_id, "index": 1})
        element = button.as_element()
        if element is None:
            return "the overlay's button went away"
        element.click(timeout=self._timeout(ctx))
        layer_el = layer.as_element()
        if layer_el is not None:
            # it may only move aside rather than hide; the gate afterwards decides
            with contextlib.suppress(PlaywrightError):
                layer_el.wait_for_element_state("hidden", timeout=self._timeout(ctx))
        return f"dismissed the {info['overlay']} {cover} with {info['button']}"

    def _reprobe(self, ctx: HealContext, locator: Locator) -> RungResult | None:
        target = ctx.state.step.target
        if target is None or target.region is None or locator.region is not None:
            return None  # without a region to add, nothing to reprobe (and no round trip)
        count = count_matches(ctx.page, "counting matches", to_playwright(ctx.page, locator))
        if count < 2:
            return None  # zero matches is drift (later rungs)
        found = self.discoverer.under(ctx.options.evidence).discover(
            ctx.page,
            [(0, target, ctx.state.step.action)],
            at_turn=True,
            values=values_of([(0, ctx.state.step)]),
        )[0]
        scoped = [loc for loc in (found.locator, *found.alternates) if loc and loc.region]
        options = [(loc, loc.confidence, {"matched_before": count}) for loc in scoped]
        return try_locators(ctx, self.name, options, f"locator scoped to {target.region!r}")

    def _stabilise(self, ctx: HealContext, locator: Locator) -> str:
        arg = {"timeout_ms": self._timeout(ctx)}
        steady = checked(
            call_on_locator(ctx.page, locator, "stable", arg),
            bool,
            "the in-page 'stable' call",
        )
        return "waited for a stable box" if steady else "waited; the box kept moving"

    def _enable(self, ctx: HealContext, locator: Locator) -> str:
        """Wait for the element to be enabled, for what the step's timeout has left
        (``HealContext.wait_left_ms``): the step's gate has usually waited for it already,
        and a second whole timeout would only delay the same failure."""
        step_ms = ctx.options.step_timeout_ms
        left = step_ms if ctx.wait_left_ms is None else min(step_ms, ctx.wait_left_ms)
        if left <= 0:
            return f"not waited for enablement again: the step already waited its {step_ms:.0f} ms"
        found = to_playwright(ctx.page, locator)
        handle = bounded.call(
            ctx.page,
            "finding the element",
            lambda: found.element_handle(timeout=self._timeout(ctx)),
            timeout_ms=self._timeout(ctx),
        )
        try:
            handle.wait_for_element_state("enabled", timeout=left)
        except PlaywrightError:
            return f"waited {left:.0f} ms for enablement; it stayed disabled"
        finally:
            handle.dispose()
        return "waited for enablement"

    def _wait_longer(self, ctx: HealContext, locator: Locator) -> str:
        budget = min(
            ctx.options.step_timeout_ms * 2 ** (ctx.round - 1), 3 * ctx.options.step_timeout_ms
        )
        try:
            ctx.page.wait_for_load_state("load", timeout=budget)
            to_playwright(ctx.page, locator).wait_for(state="visible", timeout=budget)
        except PlaywrightError:
            return f"waited {budget / 1000:.1f} s longer; still not there"
        return f"waited up to {budget / 1000:.1f} s longer"
