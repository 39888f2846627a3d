"""The visible names closest to a step's element that matched nothing ("did you mean").

A first run whose Element cell is misspelt ("Shoping Cart") matches no element and has
nothing recorded to heal from; the closest names a person can see on elements the action
can use ("Shopping Cart") tell them what to write. One round trip, on the failure path only.
"""

from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from pytest_pacts.discovery.payloads import PayloadError, checked
from pytest_pacts.models.requirement import Action
from pytest_pacts.runtime.bridge import call_in_frame


def suggest_names(page: Page, element: str, action: Action | str, limit: int = 3) -> list[str]:
    """Up to ``limit`` visible names of action-compatible elements in the top frame closest
    to ``element``, best first (empty when none is close or the page cannot be read)."""
    arg = {"element": element, "action": Action(action).value, "limit": limit}
    try:
        found = call_in_frame(page.main_frame, "suggesting names", "suggest", arg)
    except PlaywrightError:
        return []
    try:
        return checked(found or [], list[str], "the in-page 'suggest' call")
    except PayloadError:
        return []  # suggestions are a courtesy: a page that broke them loses only them
