"""Rendering a structured locator to Playwright and to Python source for generated tests.

Order of a rendered chain: frame path (``frame_locator`` per iframe, from the top page),
then the region (container locator plus its ``has``/``has_text`` filter), then the
strategy's own call(s). Playwright's CSS and ``get_by_*`` engines pierce open shadow roots,
so shadow-DOM elements need no extra step.
"""

from __future__ import annotations

from playwright.sync_api import Frame, Page
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.discovery import strategies
from pytest_pacts.discovery.chain import Call, Root, apply, to_source
from pytest_pacts.models.locator import Locator, Region
from pytest_pacts.runtime.bridge import kept_selector


def region_calls(region: Region) -> tuple[Call, ...]:
    """The container of a region as calls (see :class:`~pytest_pacts.models.locator.Region`)."""
    if region.css is not None:
        calls = [Call("locator", (region.css,))]
    elif region.role is not None:
        calls = [strategies.role_call(region.role, region.name or "", True)]
    else:
        raise strategies.UnrenderableLocator(f"region {region.description!r} has no css or role")
    if region.heading is not None:
        heading = (strategies.role_call("heading", region.heading, True),)
        calls.append(Call("filter", (), (("has", heading),)))
    if region.has_text is not None:
        calls.append(Call("filter", (), (("has_text", region.has_text),)))
    if region.innermost:
        if region.css is None or region.has_text is None:
            raise strategies.UnrenderableLocator(
                f"region {region.description!r}: innermost needs css and has_text"
            )
        text = (("has_text", region.has_text),)
        inner = (Call("locator", (region.css,)), Call("filter", (), text))
        calls.append(Call("filter", (), (("has_not", inner),)))
    return tuple(calls)


def frame_calls(locator: Locator) -> tuple[Call, ...]:
    """``frame_locator`` calls from the top page down to the locator's frame."""
    return tuple(Call("frame_locator", (selector,)) for selector in locator.frame_path)


def calls_for(locator: Locator) -> tuple[Call, ...]:
    """The full chain for ``locator``; raises ``UnrenderableLocator`` when it has none."""
    calls = list(frame_calls(locator))
    if locator.region is not None:
        calls.extend(region_calls(locator.region))
    calls.extend(strategies.info(locator.strategy).render(locator))
    if locator.nth is not None:
        calls.append(Call("nth", (locator.nth,)))
    return tuple(calls)


def elements_frame(root: Root, locator: Locator) -> Frame | None:
    """The frame that holds ``locator``'s elements when it is ``root`` itself (no frame
    path); ``None`` for an element inside an iframe (found through its frame locators)."""
    if locator.frame_path:
        return None
    return root.main_frame if isinstance(root, Page) else root


def to_playwright(root: Root, locator: Locator) -> PWLocator:
    """A Playwright locator for ``locator``, relative to the page (or frame) ``root``.

    The frame path is followed from ``root``: pass the page for locators discovered on it.
    """
    return apply(root, calls_for(locator))


def kept_locator(root: Root, locator: Locator, token: str) -> PWLocator:
    """The element a gate check of ``locator`` kept under ``token``, through ``locator``'s
    frames: a Playwright locator that resolves to that element in the document it was
    checked in, or fails at once (``runtime.bridge.kept_selector``). What the executor acts
    on, so an action never lands on an element no check has seen."""
    return apply(root, (*frame_calls(locator), Call("locator", (kept_selector(token),))))


def to_code(locator: Locator, page: str = "page") -> str:
    """Python source for generated tests, e.g. ``page.get_by_role("button", name="Login",
    exact=True)``. Every value is a ``repr`` literal, so any cell text is safe."""
    return to_source(calls_for(locator), page)
