"""What the gate checks a recorded locator's element against: the identity check's
arguments (``identityChange``, runtime/js/actionability.js; docs/engine.md, "A cached
locator is not trusted blindly")."""

from __future__ import annotations

from pytest_pacts.engine.finder import Located
from pytest_pacts.models import Step
from pytest_pacts.models.locator import Fingerprint, Locator, Strategy


def identity_of(step: Step, fingerprint: Fingerprint) -> dict[str, object]:
    """What the gate checks a *recorded* locator's element against (same round trip): the
    recorded fingerprint and the step's words. A locator recorded on one version of the app
    can resolve on the next to another element (``#submit`` was "Save", is now "Delete");
    it must not be trusted blindly."""
    fields = {"tag", "role", "type", "accessible_name", "label", "text", "placeholder", "alt"}
    # its context: its landmark (the same name elsewhere is another element) and, for an
    # element with no name, the words around it (identityChange, runtime/js/actionability.js)
    fields |= {"title", "ancestor_path", "neighbour_text"}
    return {
        "fp": fingerprint.model_dump(mode="json", include=fields),
        "words": step.target.element if step.target is not None else "",
    }


def located_identity(step: Step, located: Located) -> dict[str, object] | None:
    """:func:`identity_of` for a cached locator, and for one discovered in this run that is
    the element's place in the page (``DiscoveryResult.positional``, its CSS path): that
    names whatever the page puts there next, and a page still drawing may put another element
    there between discovery and the gate (doccano 1.6.2's sidebar: "Members" found as the
    third entry before a button was drawn above the entries, then the path named "Labels").
    Other locators discovered or healed in this run name the element by what it is, and were
    just verified against the page, so they are not checked again.

    A locator that is the step's own words rendered (:func:`by_steps_region`) is checked
    without the words recorded around the element: its region is its context."""
    state = located.state
    if state is None or state.fingerprint is None:
        return None
    positional = (
        located.source == "discovery"
        and state.discovery is not None
        and state.discovery.positional
        and state.locator == state.discovery.locator
    )
    if located.source != "cache" and not positional:
        return None
    identity = identity_of(step, state.fingerprint)
    if state.locator is not None and by_steps_region(step, state.locator):
        fp = identity["fp"]
        assert isinstance(fp, dict)
        fp.pop("neighbour_text", None)
    return identity


def by_steps_region(step: Step, locator: Locator) -> bool:
    """Is ``locator`` the step's ``Element@Region`` as discovery renders a control with no
    name of its own: a role inside the container the step's region words name
    (``relational checkbox in "Opening hours"``)? Its one match is then the region's only
    control of that role, what discovery would pick at the step's turn: the words around the
    control (a row's number, changedetection.io's ``<span>2</span>`` beside its box, which
    changes as rows are added or sorted; a time the row prints, jotter-app's "02:43 PM") are
    not its context, the region is, and the locator itself checks that."""
    target = step.target
    region = locator.region
    if target is None or not target.region or region is None or locator.role is None:
        return False
    same = " ".join(region.description.split()).lower() == " ".join(target.region.split()).lower()
    return same and locator.strategy is Strategy.RELATIONAL
