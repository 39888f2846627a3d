"""Rendering a structured locator to Playwright and to Python source for generated tests.

Order of a rendered chain: frame path (``frame_locator`` per iframe, from the top page),
then the region (container locator plus its ``has``/``has_text`` filter), then the
strategy's own call(s). Playwright's CSS and ``get_by_*`` engines pierce open shadow roots,
so shadow-DOM elements need no extra step.
"""

from __future__ import annotations

import re

from playwright.sync_api import Frame, Page
from playwright.sync_api import Locator as PWLocator

from pytest_pacts.discovery import strategies
from pytest_pacts.discovery.chain import Call, Root, apply, to_source
from pytest_pacts.models.glyphs import pattern_name
from pytest_pacts.models.locator import Locator, Region
from pytest_pacts.runtime import playwright_private
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


# What Playwright reads in a ``locator()`` string beside CSS: a chain (``>>``), an engine
# prefix (``text=``, ``xpath=``, ``internal:...=``), XPath (``//``, ``..``), quoted text,
# and its own pseudo-classes (``:has-text()``, ``:visible``, ``:near()``...) or its own
# evaluation of standard ones that take selectors (``:is()``, ``:has()``, ``:scope``...).
_NOT_PLAIN_CSS = re.compile(
    r">>|^\s*(?:[\w+:*-]+=|//|\.\.|[(\"'])|:(?:has|is|where|not|scope|text|visible|"
    r"nth-match|light|left-of|right-of|above|below|near)\b"
)


# Playwright's engines that discovery's in-page strategies (js/scan.js, ``same``) reproduce
# for an exact value, as compared on the real-app pairs (docs/benchmarks.md)
_NAMED = {"get_by_label": "label"}
_BY_ATTRIBUTE = {
    "get_by_placeholder": "placeholder",
    "get_by_title": "title",
    "get_by_alt_text": "alt",
}


def _page_part(call: Call) -> dict[str, object] | None:
    """One rendered call as :func:`page_query` resolves it in the page, or ``None``."""
    kwargs = dict(call.kwargs)
    value = call.args[0] if call.args else None
    if not isinstance(value, str):
        return None
    attribute = playwright_private.test_id_attribute()
    if call.method == "get_by_test_id" and not kwargs and attribute is not None:
        return {"attr": attribute, "value": value}
    # Playwright's getByPlaceholder, getByTitle and getByAltText are one engine
    # (``getByAttributeTextSelector``): exact, the attribute as it is
    if call.method in _BY_ATTRIBUTE and kwargs == {"exact": True}:
        return {"attr": _BY_ATTRIBUTE[call.method], "value": value}
    if call.method == "locator" and not kwargs and not _NOT_PLAIN_CSS.search(value):
        return {"css": value}
    name = kwargs.get("name")
    if call.method == "get_by_role" and isinstance(name, str) and kwargs.get("exact") is True:
        return {"named": "role_name", "spec": {"role": value, "name": name}}
    words = pattern_name(name)
    if call.method == "get_by_role" and words is not None and len(kwargs) == 1:
        return {"named": "role_name", "spec": {"role": value, "name": words, "glyphs": True}}
    if call.method in _NAMED and kwargs == {"exact": True}:
        named = _NAMED[call.method]
        return {"named": named, "spec": {named: value}}
    return None


def page_query(locator: Locator) -> dict[str, object] | None:
    """``locator`` as the document itself resolves it as Playwright does
    (``runtime.healing.find_check_and_rank``), or ``None``. Taken: plain CSS
    (``locator(css)``); a test id or an exact placeholder, title or alt text (the elements
    whose attribute is exactly that value); a role and exact name, or an exact label (as
    discovery's strategies compute them); each maybe with ``nth``, or, but CSS, inside a
    region's container found by plain CSS or by role and name, maybe holding a heading or a
    text. Every other locator (text, a loose name, a region's innermost container, a frame,
    a shadow host, a selector with Playwright's extensions) goes through Playwright. The page
    still answers "not here" when it has an open shadow root, which Playwright's engines
    pierce (docs/api.md, "relocate_element")."""
    if locator.frame_path or locator.in_shadow:
        return None
    try:
        calls = calls_for(locator)
    except strategies.UnrenderableLocator:
        return None
    nth = calls[-1].args[0] if calls and calls[-1].method == "nth" else None
    if nth is not None:
        calls = calls[:-1]
    within: dict[str, object] | None = None
    if locator.region is not None:
        region = locator.region
        filters = (region.heading is not None) + (region.has_text is not None)
        if nth is not None or region.innermost or not (region.css or region.name):
            return None
        if len(calls) != 2 + filters:
            return None
        within = _page_part(calls[0])
        if within is None:
            return None
        if region.heading is not None:
            within["has"] = {
                "named": "role_name",
                "spec": {"role": "heading", "name": region.heading},
            }
        if region.has_text is not None:
            within["has_text"] = region.has_text  # lax: case and white space aside, a part
        calls = calls[-1:]
    if len(calls) != 1:
        return None
    part = _page_part(calls[0])
    if part is None or (within is not None and "css" in part):
        return None
    return {"css": None, "attr": None, "value": None, "named": None, "spec": None, **part,
            "within": within, "nth": nth}  # fmt: skip
