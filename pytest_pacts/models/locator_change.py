"""What a heal changed in a locator, in words: the element, its region's container, its
frame. Read by the heal proposals' views (``pacts heals``, the HTML report, the dashboard)
from the locators a proposal stores.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import ValidationError

from pytest_pacts.models.locator import Locator, Region


def _element_words(loc: Locator) -> str:
    """The element part of ``describe()``: no region, no frame."""
    return loc.model_copy(update={"region": None, "frame_path": ()}).describe()


def _region_words(region: Region | None) -> str:
    """The container a region is scoped through, in words."""
    if region is None:
        return "the whole page"
    base = (
        (f'{region.role} "{region.name}"' if region.role and region.name else region.role)
        or region.css
        or "a container"
    )
    if region.heading:
        base += f' with heading "{region.heading}"'
    if region.has_text:
        base += f' containing "{region.has_text}"'
    return base


def _element_key(loc: Locator) -> Locator:
    return loc.model_copy(update={"region": None, "frame_path": (), "confidence": 0.0})


def _region_key(region: Region | None) -> tuple[object, ...] | None:
    if region is None:
        return None
    return (region.css, region.role, region.name, region.heading, region.has_text)


def change_words(old: Locator | None, new: Locator | None) -> str:
    """What a heal changed, in words: the element, the region's container, the frame; the
    parts that read the same in ``describe()`` are named by what differs in them (two
    ``relational combobox in "Sort"`` locators whose regions are different containers)."""
    if new is None:
        return "no new locator"
    if old is None:
        return f"found: {new.describe()}"
    parts: list[str] = []
    if _element_key(old) != _element_key(new):
        parts.append(f"element: {_element_words(old)} -> {_element_words(new)}")
    if _region_key(old.region) != _region_key(new.region):
        name = new.region or old.region
        label = f' "{name.description}"' if name is not None else ""
        parts.append(
            f"region{label}: container {_region_words(old.region)} -> {_region_words(new.region)}"
        )
    if old.frame_path != new.frame_path:
        parts.append(
            "frame: "
            + (" > ".join(old.frame_path) or "the top document")
            + " -> "
            + (" > ".join(new.frame_path) or "the top document")
        )
    return "; ".join(parts) or "nothing in the locator (the element was confirmed again)"


def payload_change(old: object, new: object) -> str | None:
    """:func:`change_words` of two locators as a proposal's payload stores them (JSON
    objects); ``None`` when either is not a locator."""
    try:
        before = Locator.model_validate(dict(old)) if isinstance(old, Mapping) else None
        after = Locator.model_validate(dict(new)) if isinstance(new, Mapping) else None
    except ValidationError:
        return None
    if after is None:
        return None
    return change_words(before, after)
