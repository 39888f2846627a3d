"""Small helpers the rungs share: the step's action and element, a locator as stored,
an error's first line, a frame by its discovery path, how long a rung may wait.
"""

from __future__ import annotations

from typing import cast

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Page

from pytest_pacts.engine.contracts import HealContext
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.recipe import JsonObject
from pytest_pacts.runtime import bounded

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


def wait_budget_ms(ctx: HealContext) -> float:
    """How long a rung may wait for one thing on the page (a box to stop moving, a banner to
    go): the settle timeout, at least a second, never more than the step's timeout."""
    return min(ctx.options.step_timeout_ms, max(ctx.options.settle_timeout_ms, 1_000.0))
