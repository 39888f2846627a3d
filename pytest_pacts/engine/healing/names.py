"""What an element's name says: a look-alike of the recorded element (:func:`rival`), the
step's words in its name (:func:`names_intent`), and the exact-name rule that may overrule
the fingerprint's ranking (:func:`exact_name`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.discovery import UnrenderableLocator
from pytest_pacts.discovery.chain import apply
from pytest_pacts.discovery.render import region_calls
from pytest_pacts.engine.contracts import HealContext, Resolved
from pytest_pacts.engine.healing.basics import frame_of
from pytest_pacts.models.glyphs import name_pattern
from pytest_pacts.models.locator import Fingerprint, Locator
from pytest_pacts.runtime.healing import count_matches

# The kinds of control an action can use interchangeably: a link and a button are both
# clicked (Django 5 turned "Log out" from a link into a POST form's button).
_KIND_OF_ROLE = {
    **dict.fromkeys(("button", "link", "menuitem", "tab"), "press"),
    **dict.fromkeys(("textbox", "searchbox", "combobox", "spinbutton"), "text"),
    **dict.fromkeys(("checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"), "check"),
}


def _norm(text: str | None) -> str:
    return " ".join(_WORDS.findall((text or "").lower()))


def exact_name(ctx: HealContext, locator: Locator, found: Resolved) -> str | None:
    """Why an element found by intent is the recorded one although the fingerprint ranks
    another element higher, or ``None``: it is a control of the recorded kind (link and button
    alike) whose accessible name is exactly the recorded one and the step's words, and the only
    visible control of that kind with that name on its page. A tag change (``<a>`` to
    ``<button>``) costs the type, role, href, ancestors and position of the fingerprint; the
    name a person reads is what stayed. Rivals are refused before this is asked. A heading is
    no such control: HTML gives it no activation behaviour, so a control that became the
    heading it carried is not healed onto it (``operable.inoperable``)."""
    fp, new, target = ctx.state.fingerprint, found.fingerprint, ctx.state.step.target
    if fp is None or new is None or target is None:
        return None
    kind = _KIND_OF_ROLE.get(fp.role or "")
    if kind is None or _KIND_OF_ROLE.get(new.role or "") != kind:
        return None
    name = _norm(new.accessible_name)
    if not name or name != _norm(fp.accessible_name) or name != _norm(target.element):
        return None
    frame = frame_of(ctx.page, locator.frame_path)
    if frame is None:
        return None
    # A step that names its region is counted there, as a person reads it: a list's
    # "Recheck", one per row, is the row's only one (issue 35, "role in region"); the
    # locator found by intent resolves inside that region by construction.
    within = locator.region if target.region is not None else None
    try:
        inside = apply(frame, region_calls(within)) if within is not None else None
    except UnrenderableLocator:
        return None
    names = (new.accessible_name or "",)
    if _controls_named(frame, kind, names, "counting look-alikes", inside) != 1:
        return None
    where = f' in the step\'s region "{target.region}"' if inside is not None else ""
    return (
        f'its exact name "{new.accessible_name}" is the recorded one and the step\'s, on the '
        f"only {kind} control so named{where} ({fp.role} → {new.role})"
    )


def _controls_named(
    frame: Frame, kind: str, names: tuple[str, ...], what: str, inside: PWLocator | None = None
) -> int | None:
    """How many elements of ``frame`` (of ``inside`` when given: a region's containers) are
    controls of ``kind`` (:data:`_KIND_OF_ROLE`) named exactly one of ``names`` (icon glyphs
    aside: ``models/glyphs.py``), in one round trip (a union of role locators); ``None`` when
    the page could not be asked."""
    root = frame if inside is None else inside
    union: PWLocator | None = None
    for role in (r for r, k in _KIND_OF_ROLE.items() if k == kind):
        for name in dict.fromkeys(n for n in names if n):
            one = root.get_by_role(role, name=name_pattern(name))  # type: ignore[arg-type]
            union = one if union is None else union.or_(one)
    if union is None:
        return 0
    try:
        return count_matches(frame, what, union)
    except PlaywrightError:
        return None


_WORDS = re.compile(r"[^\W_]+")


def rival(recorded: Fingerprint | None, candidate: Fingerprint | None) -> str | None:
    """Why ``candidate`` must not replace the recorded element: it is one of the elements
    the step's words also matched at discovery, a different element on the page back then
    (``Fingerprint.rivals``), it opens a popup where the recorded element acts or the
    reverse (``Fingerprint.popup``), or it has the recorded name but sits in another
    landmark (the gate's identity check, ``identityChange`` in runtime/js/actionability.js:
    a header's "Settings" is not the footer's). ``None`` when it is not."""
    if recorded is None or candidate is None:
        return None
    name = " ".join(candidate.accessible_name.split()).lower()
    if name and name in recorded.rivals:
        return (
            f'"{candidate.accessible_name}" was already on the page as another element when the '
            "step was verified: a look-alike of the recorded element, not the element"
        )
    if (
        recorded.popup is not None
        and candidate.popup is not None
        and recorded.popup != candidate.popup
    ):
        # ARIA: aria-haspopup marks a control that opens a menu, listbox or dialog; the
        # menu bar's "Run" menu is not the toolbar's "Run" button, whatever their names
        kinds = ("a control that acts", "an opener of a menu or popup")
        return (
            f'"{candidate.accessible_name}" is {kinds[candidate.popup]}, the recorded element '
            f"{kinds[recorded.popup]}: another kind of control, not the element"
        )
    was, now = landmark(recorded.ancestor_path), landmark(candidate.ancestor_path)
    same_name = name and name == " ".join(recorded.accessible_name.split()).lower()
    if same_name and was and now and was != now:
        return (
            f'"{candidate.accessible_name}" sits in <{now}>, the recorded element in '
            f"<{was}>: the same name in another part of the page is another element"
        )
    return None


_LANDMARKS = frozenset({"header", "footer", "nav", "main", "aside"})


def landmark(ancestors: Sequence[str]) -> str | None:
    """The nearest landmark tag (ARIA's landmark regions by their HTML elements) among a
    fingerprint's ancestors (``tag#id``/``tag.class``, nearest first)."""
    for step in ancestors[:6]:
        tag = re.split(r"[#.\[:]", step, maxsplit=1)[0].lower()
        if tag in _LANDMARKS:
            return tag
    return None


def names_intent(element: str, fp: Fingerprint | None) -> bool:
    """Does the element's own name (accessible name, text, label, placeholder, test id, or
    its tooltip) contain the step's words, in order? "Checkout" names "Proceed to checkout";
    "I accept the terms" does not name "Send me the newsletter". The ``title`` counts: it is
    the words the control carries for a person pointing at it, its accessible description
    when its name comes from elsewhere (HTML-AAM, "Accessible Description Computation": an
    ``<a title="Edit"><img alt="✏️"></a>`` is named "✏️" and described "Edit")."""
    if fp is None:
        return False
    wanted = [w.lower() for w in _WORDS.findall(element)]
    if not wanted:
        return False
    values = (fp.accessible_name, fp.text, fp.label, fp.placeholder, fp.title)
    for value in (*values, *fp.test_ids.values()):
        words = [w.lower() for w in _WORDS.findall(value or "")]
        if "".join(words) == "".join(wanted):
            return True
        for i in range(len(words) - len(wanted) + 1):
            if words[i : i + len(wanted)] == wanted:
                return True
    return False
