"""A combobox's popup: the person's choice while it is expanded (WAI-ARIA combobox pattern).

The WAI-ARIA Authoring Practices' combobox pattern (https://www.w3.org/WAI/ARIA/apg/patterns/
combobox/) describes a text field (``role=combobox``, ARIA 1.2; or, ARIA 1.1, an element of
``role=combobox`` holding the textbox, which has ``aria-autocomplete``) that controls a popup
(``aria-controls``, or ``aria-owns``), most often a ``listbox`` of ``option`` elements, and says
it is shown with ``aria-expanded="true"``. While the popup is expanded, DOM focus stays in the
combobox and what the person picks is an option of that popup. A search box's suggestions are
fetched after the typing, so the popup appears a moment after a ``fill``.

WAI-ARIA's menu button and select-only combobox patterns (https://www.w3.org/WAI/ARIA/apg/
patterns/menu-button/) are the same choice opened by a click: a control (a ``button``, often
a ``div`` with ``role=button``) shows the popup it names by ``aria-controls``/``aria-owns``
with ``aria-expanded="true"``, and focus stays on it or moves into the popup (its first item,
or a search box of its own). Ghost's posts filters (Ember Power Select) are both: on 5.80.0
focus stays on the expanded trigger, on 5.130.6 it is in the list's search box.

Two rules come from it, both reading only the page's ARIA attributes through Playwright (no
in-page script of the engine's own):

- :func:`wait_popup_settled`: the step after a ``fill``/``type`` into a combobox waits (within
  its timeout) until the popup has options or the page stayed quiet without it, before anything
  is discovered or used.
- :func:`choose_in_popup`: while the focused combobox's popup is expanded (or an expanded
  control's popup, the control or its popup holding the focus), being one of its options is
  evidence: what the step's words name outside it scores x
  ``OUTSIDE_POPUP_FACTOR`` (below), and the evidence rule's threshold and
  margin decide between an option named by the words (its whole name, else its first words)
  and the page behind (a recorded locator included). Below the rule the step is refused
  before acting: nothing is guessed.
"""

from __future__ import annotations

import re
from typing import Literal

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.engine.contracts import StepState
from pytest_pacts.engine.env import EnvMonitor
from pytest_pacts.engine.finder import Located
from pytest_pacts.engine.waiting import now_ms, settled, wait_for_change
from pytest_pacts.models import Action, Step
from pytest_pacts.models.evidence import Evidence, EvidenceRule
from pytest_pacts.models.locator import (
    CONFIDENCE,
    LOOSE_FACTOR,
    DiscoveryResult,
    Locator,
    Strategy,
)
from pytest_pacts.models.outcome import Failure, FailureType
from pytest_pacts.runtime import bounded, playwright_private

# The combobox keyboard focus is in: the ARIA 1.2 field itself, or the ARIA 1.1 container of
# the focused textbox.
FOCUSED_COMBOBOX = (
    "[role=combobox]:focus-within, [aria-autocomplete]:not([aria-autocomplete=none]):focus"
)
# the combobox element and the ones inside it that may carry its state and its popup's id
_STATE_PARTS = "[aria-expanded], [aria-controls], [aria-owns]"
# a control showing the popup it names (WAI-ARIA: ``aria-expanded`` with ``aria-controls`` or
# ``aria-owns``), and how many of them are read
_EXPANDED_OPENER = "[aria-expanded=true][aria-controls], [aria-expanded=true][aria-owns]"
_MAX_OPENERS = 4
OUTSIDE_POPUP_FACTOR = 0.87
"""While the focused combobox's popup is expanded (WAI-ARIA combobox pattern: the person's
choice is an option of it, focus staying in the field), a control outside the popup that the
step's words name scores x0.87 against the popup's options (``engine/popup.py``). Being in
the popup outweighs the element behind of the same name (0.95 against 0.83: a lead of 0.12),
not a looser fit (an option beginning with the words, 0.90, against a control outside named
by exactly them, 0.83: 0.07, under the margin, refused). Any factor above 0.845 keeps that
refusal, any at or under 0.894 the lead; docs/discovery.md, "The evidence rule"."""
# a popup with more options than this is not read option by option
MAX_OPTIONS = 50
# the page stayed unchanged this long after the typing with no popup shown: none is coming
QUIET_MS = 1_000.0
_CALL_MS = 2_000.0


def _attr(element: PWLocator, name: str) -> str:
    return element.get_attribute(name, timeout=_CALL_MS) or ""


def _by_id(value: str) -> str:
    return '[id="{}"]'.format(value.replace("\\", "\\\\").replace('"', '\\"'))


def expanded_popup(page: Page) -> tuple[str | None, bool]:
    """A CSS selector of the popup the person is choosing in (``None`` when there is none),
    and whether a combobox has focus at all.

    The popup is the one the focused combobox controls while it is expanded (the combobox
    pattern), else the one an expanded control (``aria-expanded="true"``) names by
    ``aria-controls``/``aria-owns`` while that control has the focus or the popup holds it
    (WAI-ARIA's menu button and select-only combobox patterns: focus stays on the control or
    moves into its popup, a search box of its own included). A page with neither costs one
    round trip."""
    combos = page.locator(FOCUSED_COMBOBOX)
    openers = page.locator(_EXPANDED_OPENER)
    if bounded.call(page, "reading the focused combobox", combos.or_(openers).count) == 0:
        return None, False
    focused = combos.count() > 0
    # an ARIA 1.1 container and its field both match: either may carry the state
    parts: list[PWLocator] = []
    for combo in combos.all()[:2]:
        parts.extend((combo, *combo.locator(_STATE_PARTS).all()[:4]))
    if any(_attr(part, "aria-expanded") == "true" for part in parts):
        for value in _popup_ids(parts):
            if page.locator(_by_id(value)).count() > 0:
                return _by_id(value), focused
    for opener in openers.all()[:_MAX_OPENERS]:
        has_focus = opener.and_(page.locator(":focus")).count() > 0
        for value in _popup_ids([opener]):
            popup = _by_id(value)
            if page.locator(popup).count() > 0 and (
                has_focus or page.locator(f"{popup}:focus-within").count() > 0
            ):
                return popup, focused
    return None, focused


def _popup_ids(parts: list[PWLocator]) -> list[str]:
    """The ids the parts name by ``aria-controls`` and ``aria-owns``, each once."""
    ids: list[str] = []
    for part in parts:
        for name in ("aria-controls", "aria-owns"):
            ids.extend(i for i in _attr(part, name).split() if i not in ids)
    return ids


def wait_popup_settled(page: Page, monitor: EnvMonitor, timeout_ms: float) -> bool:
    """After a ``fill``/``type`` into a combobox (the field still focused): wait until its popup
    is expanded with an option, or the page stayed quiet for :data:`QUIET_MS` without one,
    at most ``timeout_ms``. True when it waited on a combobox at all."""
    start = now_ms()
    changed_at = start
    waited = False
    while True:
        try:
            popup, focused = expanded_popup(page)
            if not focused:
                return waited
            waited = True
            if popup is not None and page.locator(popup).get_by_role("option").count() > 0:
                return True
        except PlaywrightError:
            return waited
        now = now_ms()
        if now - start >= timeout_ms:
            return True
        if now - changed_at >= QUIET_MS and settled(page, monitor):
            return True
        if wait_for_change(page, cap_ms=min(250.0, max(1.0, timeout_ms - (now - start)))):
            changed_at = now_ms()


def _words_pattern(words: str, whole: bool) -> re.Pattern[str]:
    spaced = r"\s+".join(re.escape(w) for w in words.split())
    tail = r"\s*$" if whole else r"(\s|$)"
    return re.compile(r"^\s*" + spaced + tail, re.IGNORECASE)


# the roles a click step's words name outside a listbox: a control named exactly by them
_CLICKED_ROLES: tuple[Literal["button", "link", "menuitem", "tab"], ...] = (
    "button",
    "link",
    "menuitem",
    "tab",
)


def _named_outside(page: Page, words: str) -> bool:
    """A control outside any popup (not an ``option``) whose accessible name is the words."""
    exact = _words_pattern(words, True)
    return any(page.get_by_role(role, name=exact).count() > 0 for role in _CLICKED_ROLES)


def _scores(fits: tuple[int, int], outside: bool) -> tuple[float, float | None, bool]:
    """The evidence rule's figures for the popup's best option: its score, its runner-up's,
    and whether the best is an option at all. ``fits``: how many options the step's words
    name wholly, and how many by their first words only; ``outside``: a control outside the
    popup is named wholly by them. An option scores as a name (role and name) does, x the
    loose factor when it fits by its first words; what is outside the popup x
    :data:`OUTSIDE_POPUP_FACTOR`. As in the scan, the runner-up is the best other element
    at the level that decides (the whole name, else the first words); an element outside
    named wholly while the options fit by their first words only is held against the best
    option as the focused element is (docs/discovery.md, "The evidence rule")."""
    whole, first = fits
    name = CONFIDENCE[Strategy.ROLE_NAME]
    behind = name * OUTSIDE_POPUP_FACTOR if outside else None
    if whole:
        mine, others = name, whole - 1
    else:
        mine, others = name * LOOSE_FACTOR, first - 1
    rivals = [mine] * others + ([behind] if behind is not None else [])
    best_other = max(rivals) if rivals else None
    if best_other is not None and best_other > mine:
        return best_other, mine, False
    return mine, best_other, True


# long because: one rule read in order: the step, the popup, its options' fit, the verdict
def can_choose(step: Step) -> bool:
    """Whether :func:`choose_in_popup` looks at the page for ``step``: a click named by
    words alone (no region, place or picture)."""
    target = step.target
    return (
        step.action is Action.CLICK
        and target is not None
        and not target.region
        and not target.ordinal
        and target.image is None
        and bool(target.element.strip())
    )


def none_expanded_sent(page: Page) -> bounded.Sent[bool]:
    """Whether the page has no focused combobox and no expanded opener (the first read of
    :func:`expanded_popup`, so of :func:`choose_in_popup`), sent ahead
    (``runtime.bounded.send_async``): the step's gate check sent after it overlaps its round
    trip. When it answers false, or fails, :func:`choose_in_popup` is asked as before."""
    found = page.locator(FOCUSED_COMBOBOX).or_(page.locator(_EXPANDED_OPENER))
    inner = playwright_private.impl(found)
    make = None if inner is None else (lambda: inner.count())
    return bounded.send_async(
        found, "reading the focused combobox", make, found.count, then=lambda n: n == 0
    )


# long because: the popup's options read, scored and refused by the evidence rule in one place
def choose_in_popup(page: Page, step: Step, evidence: EvidenceRule) -> Locator | Failure | None:
    """The option of the focused combobox's expanded popup that the step's words name, as a
    locator (or a refusal by the evidence rule); ``None`` when no such popup shows one, and
    the step is found as usual.

    An option fits when its accessible name is the step's words (letter case aside), or else
    begins with them as whole words (a suggestion showing a package's name, then its
    description and version). Being an option of the expanded popup is evidence: what the
    words name outside it (a button, link, menu item or tab named wholly by them) scores
    x :data:`OUTSIDE_POPUP_FACTOR`, and the evidence rule's threshold and margin decide
    (:func:`_scores`): several options of the deciding level score alike (refused), and an
    option fitting by its first words only is refused against a control outside named
    wholly (0.90 against 0.83)."""
    target = step.target
    if not can_choose(step):
        return None
    assert target is not None
    words = target.element.strip()
    try:
        popup, _ = expanded_popup(page)
        if popup is None:
            return None
        css = f'{popup} [role="option"]'
        options = page.locator(css)
        total = min(options.count(), MAX_OPTIONS)
        fits = []
        for whole in (True, False):
            named = page.get_by_role("option", name=_words_pattern(words, whole))
            fits.append([k for k in range(total) if options.nth(k).and_(named).count() > 0])
        if not fits[1]:
            return None
        outside = _named_outside(page, words)
    except PlaywrightError:
        return None
    best, runner_up, is_option = _scores((len(fits[0]), len(fits[1])), outside)
    verdict = evidence.verdict(best, runner_up)
    if verdict is Evidence.ACCEPTED:
        return (
            Locator(strategy=Strategy.CSS, confidence=best, css=css, nth=(fits[0] or fits[1])[0])
            if is_option
            else None
        )
    several = len(fits[0]) > 1 or (not fits[0] and len(fits[1]) > 1)
    why = (
        f"{len(fits[0]) if fits[0] else len(fits[1])} options of the expanded list in use "
        "(the focused control's, or the one holding the focus) fit as well"
        if several
        else "an option of the expanded list in use (the focused control's, or the one "
        "holding the focus) begins with these words, and a control outside the list is "
        "named exactly so"
    )
    fix = (
        "Name the option by more of its words, or its place (Element[2])"
        if several
        else "Name the option by all of its words, or the other control by its region"
    )
    return Failure(
        type=FailureType.AMBIGUOUS if verdict is Evidence.CLOSE else FailureType.NOT_FOUND,
        step_index=step.index,
        message=f'"{words}": {why} ({evidence.explain(best, runner_up)}); nothing was acted '
        f"on. {fix}",
    )


def in_popup(step: Step, locator: Locator) -> Located:
    """The option :func:`choose_in_popup` chose, as a step's element found now: not cached
    (the next run opens the popup again) and not checked against a recorded fingerprint."""
    assert step.target is not None
    note = (
        f'"{step.target.element}" is an option of the expanded list in use, the focused '
        "control's or the one holding the focus (WAI-ARIA combobox and menu button "
        "patterns): taken ahead of the page behind it"
    )
    result = DiscoveryResult(
        element=step.target.element, action=step.action.value, locator=locator, notes=(note,)
    )
    return Located(StepState(step=step, discovery=result, locator=locator), None, "popup")
