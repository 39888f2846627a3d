"""A recorded control is never healed onto what no one can operate (:func:`inoperable`).

HTML gives activation behaviour to its interactive elements (``a`` with ``href``,
``button``, ``input``, ``select``, ``textarea``, ``summary``, a ``label`` for its control)
and to nothing else (an ``a`` without ``href``, its placeholder link, is taken as the link
scripts make of it: the mutation bench's links whose ``href`` was removed); WAI-ARIA makes
an element operable by a widget role (``button``, ``link``, ``checkbox``, ``tab``,
``menuitem``...), while ``generic`` and text are not. A
click on the words drawn inside a link or a button activates that ancestor (the event's
path reaches it), so text inside a control is the control's. A ``<span>`` with no control
around it does nothing when clicked: when the recorded element was a control, such an
element cannot be what the control became, whatever its words (MailDev 3.0.0's title
"MailDev", a link on 2.2.1).
"""

from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError

from pytest_pacts.discovery import UnrenderableLocator
from pytest_pacts.discovery.render import to_playwright
from pytest_pacts.engine.contracts import HealContext
from pytest_pacts.engine.healing.basics import action_of
from pytest_pacts.models.locator import Fingerprint, Locator
from pytest_pacts.runtime.healing import count_matches

# WAI-ARIA 1.2 widget roles (and the composite widgets' items a person operates)
_WIDGET_ROLES = frozenset(
    {
        "button", "link", "checkbox", "radio", "switch", "tab", "menuitem",
        "menuitemcheckbox", "menuitemradio", "option", "textbox", "searchbox", "combobox",
        "spinbutton", "slider", "scrollbar", "treeitem", "gridcell", "listbox",
    }
)  # fmt: skip
# An ``a`` without ``href`` is HTML's placeholder link, which scripts commonly make operable
# (AngularJS ``ng-click``, React ``onClick``): it counts as the link it stands for.
_CONTROL_TAGS = frozenset({"a", "button", "input", "select", "textarea", "summary", "option"})
# The element or one of its ancestors is a control (HTML interactive content with an
# activation behaviour, a label of a control, a widget role, an inline click handler).
_ROLES_XPATH = " or ".join(f"@role='{r}'" for r in sorted(_WIDGET_ROLES))
_CONTROL_XPATH = (
    "xpath=ancestor-or-self::*[self::a or self::button or self::input or self::select "
    "or self::textarea or self::summary or self::label or self::option or @onclick "
    f"or @contenteditable='true' or {_ROLES_XPATH}]"
)
# Actions that operate a control; a hover only points (a tooltip on plain text is shown too).
_OPERATING = frozenset({"click", "check", "uncheck", "select", "fill", "type", "press", "focus"})


def is_control(fp: Fingerprint) -> bool:
    """Is the fingerprinted element itself a control (by its role or tag)?"""
    return (fp.role or "") in _WIDGET_ROLES or fp.tag.lower() in _CONTROL_TAGS


def inoperable(ctx: HealContext, locator: Locator, new: Fingerprint | None) -> str | None:
    """Why the element ``locator`` finds (fingerprinted ``new``) must not replace the
    recorded control for the step's action, or ``None``: the recorded element was a control,
    the action operates it, and the element found is neither a control nor inside one (one
    round trip asks the page). No exception: a heading that carries the recorded control's
    words is no control either. An element inside a shadow root is not judged (the ancestor
    query stops at its root)."""
    fp = ctx.state.fingerprint
    if fp is None or new is None or not is_control(fp) or action_of(ctx) not in _OPERATING:
        return None
    if is_control(new) or new.in_shadow:
        return None
    try:
        inside = to_playwright(ctx.page, locator).locator(_CONTROL_XPATH)
        count = count_matches(ctx.page, "looking for a control around the element", inside)
    except (PlaywrightError, UnrenderableLocator):
        count = 0  # not known to be operable: not taken
    if count > 0:
        return None
    shown = new.accessible_name or new.text
    return (
        f'<{new.tag}> "{" ".join(shown.split())[:60]}" is neither a control nor inside one '
        f"(no activation behaviour, HTML; not operable, ARIA): it cannot be what the recorded "
        f"{fp.role or fp.tag} became"
    )
