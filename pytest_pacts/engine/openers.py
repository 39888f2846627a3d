"""Showing a step's hidden element: the controls that open its menu, tab or disclosure,
each checked by the gate and clicked (or pointed at) in turn (docs/user-guide.md "Menus,
tabs and disclosures")."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.discovery import UnrenderableLocator, check_locator, to_playwright
from pytest_pacts.discovery.render import kept_locator
from pytest_pacts.engine.waiting import now_ms, wait_for_change
from pytest_pacts.models import Action, Step
from pytest_pacts.models.locator import Locator, Opener
from pytest_pacts.runtime.bridge import keep_token, may_keep

# The click on a control that opens a hidden element's menu or tab: it passed the gate a
# moment before, so it is not waited on for long.
OPEN_TIMEOUT_MS = 5_000.0

# An opener of this relation is pointed at, not clicked: the repeated item (a card, a row)
# that draws the step's control only while the pointer is on it (CSS Selectors' ``:hover``).
HOVER = "hover"

# Told each control a step opens to show its hidden element, before the click (benchmarks
# check it; nothing in the engine depends on it).
OnOpen = Callable[[Step, PWLocator], None]


def open_hidden(
    page: Page, step: Step, openers: Sequence[Opener], on_open: OnOpen | None = None
) -> tuple[list[str], str | None]:
    """Click the controls that show a step's hidden element (a closed menu, a tab panel,
    docs/user-guide.md "Menus, tabs and disclosures"), outermost first, each checked by the
    gate first (re-checked on the page's changes for up to ``OPEN_TIMEOUT_MS``: a tab
    still moving into place), clicked only as the element that check passed (kept, as a
    step's own action is: engine/checked.py), and waited on for the page's answer. Answers
    the notes saying what was opened, and why the next one could not be clicked (``None``:
    all were, or the rest were not needed).

    An opener is used only while the element it is to show is still hidden: its check
    also looks at that element (``Opener.shows``), in the same round trip, and one on show
    by then (a menu the pointer opened at the step before, still fading in when discovery
    looked: CSS Transitions) is not opened again; the openers stop there, and no notes
    and no refusal say nothing was opened: the caller looks again and acts on the element
    through the gate, without the opener."""
    notes: list[str] = []
    what = step.target.element if step.target else "the element"
    for opener in openers:
        hover = opener.relation == HOVER
        try:
            control, refused = _checked_opener(
                page, opener, Action.HOVER if hover else Action.CLICK
            )
            if control is None:
                return notes, refused
            if on_open is not None:
                on_open(step, control)
            if hover:
                control.hover(timeout=OPEN_TIMEOUT_MS)
            else:
                control.click(timeout=OPEN_TIMEOUT_MS)
        except (PlaywrightError, UnrenderableLocator) as exc:
            verb = "pointed at" if hover else "clicked"
            return notes, f"{opener.description} could not be {verb}: {str(exc).splitlines()[0]}"
        if hover:
            # a style under the pointer applies at once (a script drawing it on a mouse event
            # changes the DOM, which the step's discovery loop waits on)
            notes.append(
                f'"{what}" was hidden: pointed at {opener.description} first, which shows it '
                f"(hover, {opener.locator.describe()})"
            )
            continue
        wait_for_change(page)
        notes.append(
            f'"{what}" was hidden: opened {opener.description} first ({opener.relation}, '
            f"{opener.locator.describe()})"
        )
    return notes, None


def _checked_opener(
    page: Page, opener: Opener, action: Action
) -> tuple[PWLocator | None, str | None]:
    """The opener as the element the gate passed (re-checked on the page's changes for up
    to ``OPEN_TIMEOUT_MS``), never one the action would resolve anew (engine/checked.py);
    or ``None`` and why it fails its check; or ``None, None`` when the element it is to
    show is on show already (it is not used)."""
    deadline = now_ms() + OPEN_TIMEOUT_MS
    while True:
        keep = keep_token()
        gate = check_locator(page, opener.locator, action, keep=keep, shows=opener.shows)
        if gate.shown:
            return None, None
        if gate.failed is None:
            break
        if now_ms() >= deadline:
            return None, f"{opener.description} fails the {gate.failed.name} check: " + (
                gate.failed.reason
            )
        wait_for_change(page, cap_ms=250.0)
    if may_keep(page.context):
        return kept_locator(page, opener.locator, keep), None
    return to_playwright(page, opener.locator), None


def shown_inside(page: Page, found: Locator, opener: Opener) -> bool:
    """Is the element ``found`` after pointing at ``opener`` (a ``hover`` opener: the item
    that holds a control drawn only under the pointer) inside that item? Only then is it the
    control the hover showed; anything else is not acted on (never hover one thing and click
    another)."""
    try:
        item = to_playwright(page, opener.locator).element_handle(timeout=OPEN_TIMEOUT_MS)
    except (PlaywrightError, UnrenderableLocator):
        return False
    try:
        inside = to_playwright(page, found).evaluate(
            "(el, item) => item !== el && item.contains(el)", item, timeout=OPEN_TIMEOUT_MS
        )
    except (PlaywrightError, UnrenderableLocator):
        return False
    finally:
        item.dispose()
    return bool(inside)
