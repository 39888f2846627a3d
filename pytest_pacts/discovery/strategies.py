"""The strategy table: order, confidence and rendering of each discovery strategy.

Matching happens in the page (``js/scan.js`` holds one entry per strategy: the keys an
element offers, how a key is compared with the requirement's words, and how Playwright's
rendered locator would match, for the in-page uniqueness estimate). This module holds the
Python half: which strategies run and in which order, their confidences, and how a
:class:`~pytest_pacts.models.locator.Locator` of that strategy renders to Playwright calls.
A strategy is one ``@renders`` function here plus one entry in ``scan.js``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import get_args

from playwright.sync_api import Page

from pytest_pacts.discovery.chain import Call
from pytest_pacts.errors import PactsError
from pytest_pacts.models.glyphs import name_pattern
from pytest_pacts.models.locator import (
    CONFIDENCE,
    INERT_FACTOR,
    LOOSE_FACTOR,
    MARKUP_ONLY_FACTOR,
    NAMED_IDENTIFIER_FACTOR,
    OTHER_CASE_FACTOR,
    UNFOCUSED_FACTOR,
    Locator,
    Strategy,
)

# Read from Playwright's own signature so the set follows the installed version.
ARIA_ROLES: frozenset[str] = frozenset(
    get_args(inspect.signature(Page.get_by_role).parameters["role"].annotation)
)
"""The roles Playwright's ``get_by_role`` accepts."""


class UnrenderableLocator(ValueError, PactsError):
    """A locator whose fields cannot be expressed as Playwright calls."""


Renderer = Callable[[Locator], tuple[Call, ...]]


@dataclass(frozen=True)
class StrategyInfo:
    """One row of the strategy table."""

    strategy: Strategy
    confidence: float
    render: Renderer


_TABLE: dict[Strategy, StrategyInfo] = {}


def renders(strategy: Strategy) -> Callable[[Renderer], Renderer]:
    """Register the renderer of ``strategy`` (its confidence comes from ``CONFIDENCE``)."""

    def register(func: Renderer) -> Renderer:
        _TABLE[strategy] = StrategyInfo(strategy, CONFIDENCE[strategy], func)
        return func

    return register


def table() -> list[StrategyInfo]:
    """Registered strategies, best first (the enum's order; docs/discovery.md)."""
    return [_TABLE[s] for s in Strategy if s in _TABLE]


def scoring() -> dict[str, object]:
    """What the in-page scan scores an element with (``js/resolve.js``): each strategy's
    confidence and the factors of ``models/locator.py``, written there once."""
    return {
        "confidence": {s.strategy.value: s.confidence for s in table()},
        "loose": LOOSE_FACTOR,
        "named_identifier": NAMED_IDENTIFIER_FACTOR,
        "markup_only": MARKUP_ONLY_FACTOR,
        "unfocused": UNFOCUSED_FACTOR,
        "other_case": OTHER_CASE_FACTOR,
        "inert": INERT_FACTOR,
    }


def info(strategy: Strategy) -> StrategyInfo:
    return _TABLE[strategy]


def css_string(value: str) -> str:
    """A double-quoted CSS string (attribute selectors), escaped per CSS syntax."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\a ")
    return f'"{escaped}"'


def _need(value: str | None, what: str, loc: Locator) -> str:
    if value is None:
        raise UnrenderableLocator(f"{loc.strategy.value} locator without {what}")
    return value


def role_call(role: str | None, name: str | None = None, exact: bool = True) -> Call:
    if role not in ARIA_ROLES:
        raise UnrenderableLocator(f"Playwright has no role {role!r}")
    if name is None:
        return Call("get_by_role", (role,))
    return Call("get_by_role", (role,), (("name", name), ("exact", exact)))


@renders(Strategy.TEST_ID)
def _test_id(loc: Locator) -> tuple[Call, ...]:
    value = _need(loc.test_id, "test_id", loc)
    attribute = loc.test_id_attribute or "data-testid"
    # get_by_test_id reads Playwright's configured attribute (data-testid by default);
    # data-test and data-qa are addressed directly so no global setting is needed.
    if attribute == "data-testid":
        return (Call("get_by_test_id", (value,)),)
    return (Call("locator", (f"[{attribute}={css_string(value)}]",)),)


@renders(Strategy.LABEL)
def _label(loc: Locator) -> tuple[Call, ...]:
    return (Call("get_by_label", (_need(loc.label, "label", loc),), (("exact", loc.exact),)),)


@renders(Strategy.PLACEHOLDER)
def _placeholder(loc: Locator) -> tuple[Call, ...]:
    value = _need(loc.placeholder, "placeholder", loc)
    return (Call("get_by_placeholder", (value,), (("exact", loc.exact),)),)


@renders(Strategy.ROLE_NAME)
def _role_name(loc: Locator) -> tuple[Call, ...]:
    name = _need(loc.name, "name", loc)
    if loc.glyphs:  # the words with any icon glyphs around them (models/glyphs.py)
        if loc.role not in ARIA_ROLES:
            raise UnrenderableLocator(f"Playwright has no role {loc.role!r}")
        return (Call("get_by_role", (loc.role,), (("name", name_pattern(name)),)),)
    return (role_call(loc.role, name, loc.exact),)


@renders(Strategy.ARIA)
def _aria(loc: Locator) -> tuple[Call, ...]:
    exact = (("exact", loc.exact),)
    if loc.aria_label is not None:  # get_by_label also matches aria-label
        return (Call("get_by_label", (loc.aria_label,), exact),)
    if loc.title is not None and loc.css is not None:  # where Bootstrap's tooltip keeps it
        return (Call("locator", (loc.css,)),)
    if loc.title is not None:
        return (Call("get_by_title", (loc.title,), exact),)
    return (Call("get_by_alt_text", (_need(loc.alt, "aria_label, title or alt", loc),), exact),)


@renders(Strategy.TEXT)
def _text(loc: Locator) -> tuple[Call, ...]:
    text = _need(loc.text, "text", loc)
    if loc.glyphs:  # the words with any icon glyphs around them (models/glyphs.py)
        return (Call("get_by_text", (name_pattern(text),)),)
    return (Call("get_by_text", (text,), (("exact", loc.exact),)),)


@renders(Strategy.RELATIONAL)
def _relational(loc: Locator) -> tuple[Call, ...]:
    if loc.region is None:
        raise UnrenderableLocator("relational locator without a region")
    if loc.role is not None:
        return (role_call(loc.role),)
    return (Call("locator", (_need(loc.css, "role or css", loc),)),)


@renders(Strategy.SHADOW)
def _shadow(loc: Locator) -> tuple[Call, ...]:
    # Playwright's CSS pierces open shadow roots, so host >> inner reaches inside.
    host = _need(loc.host, "host", loc)
    return (Call("locator", (host,)), Call("locator", (_need(loc.css, "css", loc),)))


@renders(Strategy.CSS)
def _css(loc: Locator) -> tuple[Call, ...]:
    return (Call("locator", (_need(loc.css, "css", loc),)),)
