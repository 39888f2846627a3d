"""The naive baseline, for the benchmark only (bench/bench_discovery.py): one round trip
per strategy per step, first match wins, as a naive locator finder works. Not used by the
engine: it cannot tell ambiguity from a match and is what
:func:`~pytest_pacts.discovery.discover` replaces.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from typing import Literal, TypeVar

from playwright.sync_api import Locator as PWLocator
from playwright.sync_api import Page

from pytest_pacts.discovery.strategies import css_string
from pytest_pacts.models.requirement import Action, Target

K = TypeVar("K", bound=Hashable)

_Role = Literal[
    "textbox", "searchbox", "combobox", "checkbox", "radio", "switch", "listbox", "button",
    "link", "tab", "menuitem",
]  # fmt: skip
_ROLES: dict[str, tuple[_Role, ...]] = {
    "fill": ("textbox", "searchbox", "combobox"),
    "type": ("textbox", "searchbox"),
    "check": ("checkbox", "radio", "switch"),
    "uncheck": ("checkbox", "radio", "switch"),
    "select": ("combobox", "listbox"),
}
_CLICK_ROLES: tuple[_Role, ...] = ("button", "link", "tab", "menuitem", "checkbox")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _probes(base: Page | PWLocator, name: str, action: Action) -> list[PWLocator]:
    # Building a Playwright locator costs nothing; each ``count()`` below is a round trip.
    test_ids = [
        base.locator(f"[{a}={css_string(_slug(name))}]")
        for a in ("data-testid", "data-test", "data-qa")
    ]
    roles = [base.get_by_role(r, name=name) for r in _ROLES.get(action.value, _CLICK_ROLES)]
    return [
        *test_ids,
        base.get_by_label(name),
        base.get_by_placeholder(name),
        *roles,
        base.get_by_title(name),
        base.get_by_alt_text(name),
        base.get_by_text(name),
    ]


def naive_discover(
    page: Page, targets: Sequence[tuple[K, Target, Action]]
) -> dict[K, PWLocator | None]:
    """For each step, probe strategy after strategy with ``count()``; gate the first hit with
    Playwright's own ``is_visible``/``is_enabled``/``bounding_box`` calls."""
    out: dict[K, PWLocator | None] = {}
    for key, target, action in targets:
        base: Page | PWLocator = page
        if target.region:
            containers = page.locator("form, section, article, li, tr, fieldset, div")
            base = containers.filter(has_text=target.region).last
        found: PWLocator | None = None
        for locator in _probes(base, target.element, Action(action)):
            if locator.count() >= 1:  # first match wins
                found = locator.first
                break
        if found is not None:
            found.is_visible()
            found.is_enabled()
            found.bounding_box()
            found.bounding_box()
        out[key] = found
    return out
