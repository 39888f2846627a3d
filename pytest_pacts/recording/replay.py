"""Another tool's recording played once in Chromium (``pacts import``; docs/user-guide.md,
"Record a sheet"): each step's element found by the recording's own selectors, named by
our discovery through :meth:`Recorder.act <pytest_pacts.recording.recorder.Recorder.act>`
(the selectors are never written), and acted on."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from functools import partial
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.engine.actions import PLAIN_CALLS
from pytest_pacts.models import Action
from pytest_pacts.recording.imported import Finder, ImportedStep
from pytest_pacts.recording.model import Recording
from pytest_pacts.recording.recorder import Recorder
from pytest_pacts.runtime import bounded
from pytest_pacts.settings import DEFAULT_STEP_TIMEOUT_MS

FIND_MS = 5_000.0  # how long an imported step's element may take to appear

_SELECT_LABEL = """(el, value) => {
  const o = [...el.options].find((x) => x.value === value || x.label === value);
  return o ? o.label || o.text : value;
}"""


def replay(
    page: Page,
    steps: list[ImportedStep],
    recorder: Recorder,
    *,
    timeout_ms: float = DEFAULT_STEP_TIMEOUT_MS,
) -> Recording:
    """Play ``steps`` on ``page`` once, each element named by our discovery before it is
    acted on (:meth:`Recorder.act`); answers the recording, with the steps that could not
    be played listed in ``unmapped``. A step whose element is not found stops the replay
    (what follows would act on the wrong page)."""
    recording = recorder.recording
    with bounded.budget(timeout_ms):
        _replay(page, steps, recorder, recording, timeout_ms)
    recorder.stop()
    return recording


def _replay(
    page: Page,
    steps: list[ImportedStep],
    recorder: Recorder,
    recording: Recording,
    timeout_ms: float,
) -> None:
    for step in steps:
        if step.action == "goto":
            if not recording.url:
                recording.url = step.value or ""
                page.goto(recording.url, wait_until="load", timeout=timeout_ms)
                recorder.watch(page)
            else:
                url = step.value or ""
                recorder.act(page, Action.GOTO, None, url, partial(_goto, page, url, timeout_ms))
        elif not recording.url:
            recording.unmapped.append(f"{step.origin}: comes before any page was opened")
        elif step.action == "expect_text":
            recorder.expect_text(step.value or "")
        elif step.find is None:  # a key pressed on the page itself
            key = step.value or ""
            focused = bounded.call(
                page,
                "finding the focused element",
                page.evaluate_handle,
                "() => document.activeElement && document.activeElement !== document.body "
                "? document.activeElement : null",
            ).as_element()
            recorder.act(page, Action.PRESS, focused, key, partial(page.keyboard.press, key))
        elif not _on_element(page, step, step.find, recorder, timeout_ms):
            break


def _on_element(
    page: Page, step: ImportedStep, find: Finder, recorder: Recorder, timeout_ms: float
) -> bool:
    """Find the step's element by the recording's selectors and act on it through the
    recorder; answers whether the replay goes on (a step not found or failed stops it)."""
    recording = recorder.recording
    found = _find(page, find, timeout_ms)
    if isinstance(found, str):
        recording.unmapped.append(f"{step.origin}: {found}; the import stopped there")
        return False
    locator, handle = found
    action = Action(step.action)
    value = step.value
    if action is Action.FILL and _is_select(page, handle):
        action = Action.SELECT
        value = str(bounded.call(page, "reading the option", handle.evaluate, _SELECT_LABEL, value))
    try:
        recorder.act(page, action, handle, value, _performer(locator, action, value, timeout_ms))
    except PlaywrightError as exc:
        recording.unmapped.append(
            f"{step.origin}: the {action.value} failed ({str(exc).splitlines()[0]}); "
            "the import stopped there"
        )
        return False
    return True


def _goto(page: Page, url: str, timeout_ms: float) -> None:
    page.goto(url, wait_until="load", timeout=timeout_ms)


def _is_select(page: Page, handle: Any) -> bool:
    with suppress(PlaywrightError):
        return bool(
            bounded.call(
                page, "reading the tag", handle.evaluate, "(el) => el.tagName === 'SELECT'"
            )
        )
    return False


def _find(page: Page, finder: Finder, timeout_ms: float) -> tuple[PWLocator, Any] | str:
    """The first of the recording's selectors that finds exactly one element (waiting up
    to ``FIND_MS`` for the page to show it), or why none does."""
    try:
        options = finder(page)
    except (PlaywrightError, TypeError, ValueError) as exc:
        return f"its selector cannot be used ({str(exc).splitlines()[0]})"
    waited = 0.0
    counts: list[int] = []
    while True:
        counts = []
        for locator in options:
            try:
                count = bounded.call(page, "counting the matches", locator.count)
            except PlaywrightError:
                count = 0
            counts.append(count)
            if count == 1:
                handle = locator.element_handle(timeout=timeout_ms)
                if handle is not None:
                    return locator, handle
        if waited >= min(FIND_MS, timeout_ms):
            break
        page.wait_for_timeout(100)
        waited += 100
    if any(c > 1 for c in counts):
        return f"its selectors match {max(counts)} elements, not one"
    return "no selector of the recording finds its element on the page"


def _performer(
    locator: PWLocator, action: Action, value: str | None, timeout_ms: float
) -> Callable[[], None]:
    def perform() -> None:
        if action is Action.SELECT:
            locator.select_option(label=value, timeout=timeout_ms)
        elif action in PLAIN_CALLS:
            PLAIN_CALLS[action](locator, value or "", timeout_ms)

    return perform
