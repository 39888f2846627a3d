"""A hidden checkbox or radio acted on through its own ``<label>`` (the gate's reach "label").

A CSS switch hides its ``<input type=checkbox>`` (a 0×0 box, a clip, ``display: none``) and
draws the control with the label's pseudo-elements (Halfmoon's ``custom-switch``, An Otter
Wiki's "Remember me"). A person clicks the label, and the browser runs the control's
activation behaviour for it (HTML, the ``label`` element: a label's activation behaviour is
its labeled control's). The gate passes such a control only when one of its own labels is
shown, receives the hit test, holds no other control and names no other element
(``drawingLabel`` in ``runtime/js/actionability.js``). The control stays the step's element
(its score, its other gate points, its state); only the pointer goes to the label.

This is what Playwright's own ``check()`` does on a label: it reads the checked state of the
label's control ("follow-label"), returns when it is already the one asked for, refuses to
uncheck a radio, clicks the label, and fails when the control's state is not the one asked
for afterwards ("Clicking the checkbox did not change its state"). Here the same steps run
on the control the gate passed, the click on the label under the engine's pointer guard
(``pointer_guard``: the click's events must reach a label of that control), and the state is
read back: a step never passes without the control in the state it asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.engine.select_step import Read
from pytest_pacts.models import Action
from pytest_pacts.models.outcome import Failure, FailureType

# The label the gate's rule takes (``drawingLabel``, less the hit test: the pointer guard
# checks where the click lands): a label of this control only, shown, with no other control
# in it and named by no other element.
_LABEL = """(el) => [...(el.labels || [])].find((l) => l.control === el
  && l.getClientRects().length > 0 && getComputedStyle(l).visibility === 'visible'
  && ![...l.querySelectorAll('a[href], button, input, select, textarea')].some((e) => e !== el)
  && !(l.id && [...el.ownerDocument.querySelectorAll('[aria-labelledby]')].some((e) => e !== el
    && e.getAttribute('aria-labelledby').split(/\\s+/).includes(l.id)))) || null"""

_STATE = """([el]) => !el ? null : {checked: !!el.checked, radio: el.type === 'radio',
  label: (el.labels && el.labels[0] ? el.labels[0].innerText : '').trim().slice(0, 60)}"""


def by_label(
    el: PWLocator,
    read: Read,
    action: Action,
    timeout_ms: float,
    step_index: int,
    guarded: Callable[[Callable[[], None]], None],
) -> Failure | None:
    """Do ``action`` (click, check or uncheck) on the hidden control ``el`` by a click on its
    label, run by ``guarded`` (the pointer guard; it raises when the click's events reached
    another element); ``None`` when the control ends in the state the step asked for."""
    before = read(_STATE)
    if before is None:
        raise ValueError(f"{action.value}: the control is no longer in the page")
    kind = "radio button" if before["radio"] else "checkbox"
    if action is not Action.CLICK:
        want = action is Action.CHECK
        if before["checked"] is want:
            return None  # as Playwright: already so, nothing to click
        if before["radio"] and not want:
            raise ValueError(
                "uncheck: a radio button is unchecked only by choosing another of its group"
            )
    handle = el.evaluate_handle(_LABEL)
    try:
        label = handle.as_element()
        if label is None:
            return Failure(
                type=FailureType.NOT_VISIBLE,
                message=f"{action.value}: the {kind} is hidden and its label is no longer "
                "shown, so it was not acted on",
                step_index=step_index,
            )
        guarded(lambda: label.click(force=True, timeout=timeout_ms))
    finally:
        handle.dispose()
    try:
        after = read(_STATE)
    except PlaywrightError as exc:  # as Playwright's check: a state it cannot read back fails
        return Failure(
            type=FailureType.EXPECTATION_FAILED,
            message=f'{action.value} through its label "{before["label"]}": the page replaced '
            f"the {kind} after the click, so its state could not be read back",
            step_index=step_index,
            evidence=(str(exc).splitlines()[0] if str(exc) else type(exc).__name__,),
        )
    return _verdict(action, before, bool(after and after["checked"]), step_index)


def _verdict(action: Action, before: Any, now: bool, step_index: int) -> Failure | None:
    """``None`` when the control's state ``now`` is what ``action`` asked (check: checked,
    uncheck: unchecked, click: a radio checked, a checkbox toggled from ``before``)."""
    kind = "radio button" if before["radio"] else "checkbox"
    if action is Action.CLICK:
        ok = now if before["radio"] else now is not before["checked"]
        wanted = "checked" if before["radio"] else ("unchecked" if before["checked"] else "checked")
    else:
        ok = now is (action is Action.CHECK)
        wanted = "checked" if action is Action.CHECK else "unchecked"
    if ok:
        return None
    return Failure(
        type=FailureType.EXPECTATION_FAILED,
        message=f'{action.value} through its label "{before["label"]}": the {kind} is still '
        f"{'checked' if now else 'unchecked'} (the step asked for it {wanted})",
        step_index=step_index,
        evidence=(f"the {kind} is hidden and drawn by its label; the label was clicked",),
    )
