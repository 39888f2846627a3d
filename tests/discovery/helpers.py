"""Helpers shared by the discovery tests."""

from __future__ import annotations

from playwright.sync_api import Page

from pytest_pacts.discovery import discover, to_playwright
from pytest_pacts.models import Action, Target
from pytest_pacts.models.locator import DiscoveryResult


def find(
    page: Page, element: str, action: str = "click", region: str | None = None
) -> DiscoveryResult:
    """Discover one step on the page as it is."""
    target = Target(element=element, region=region)
    return discover(page, [("step", target, Action(action))])["step"]


def chosen_id(page: Page, result: DiscoveryResult) -> str:
    """The ``id`` of the element the accepted locator resolves to through Playwright."""
    assert result.locator is not None, result.unresolved
    value = to_playwright(page, result.locator).evaluate("e => e.id")
    assert isinstance(value, str)
    return value
