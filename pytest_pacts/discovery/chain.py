"""A locator as a chain of Playwright calls, applied to a page or printed as Python source.

Rendering for execution and for generated code goes through the same
chain, so the generated test can never drift from what discovery verified.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from playwright.sync_api import Frame, Page
from playwright.sync_api import Locator as PWLocator

Root = Page | Frame
"""What a chain is applied to: a page (or one frame of it, for frame-local work)."""

Value = str | bool | int | re.Pattern[str] | tuple["Call", ...]
"""A call argument: a literal (a pattern: ``name=`` of a role whose name has icon glyphs), or a
sub-chain applied to the same root (``filter(has=…)``)."""


@dataclass(frozen=True)
class Call:
    """One method call such as ``get_by_role("button", name="Login", exact=True)``."""

    method: str
    args: tuple[str | int | re.Pattern[str], ...] = ()
    kwargs: tuple[tuple[str, Value], ...] = ()


def py_literal(value: str | bool | int | re.Pattern[str]) -> str:
    """A safe Python literal; strings double-quoted when that needs no escaping of quotes.

    ``repr`` is the only escaping used, so quotes, backslashes, newlines and any Unicode in
    a sheet cell come out as a literal that parses back to the same string; a pattern is
    ``re.compile(r"...")`` when a raw string reads back the same, else its ``repr``.
    """
    if isinstance(value, re.Pattern):
        p = value.pattern
        plain = (
            p.isprintable() and '"' not in p and not p.endswith("\\") and not value.flags & ~re.U
        )
        return f're.compile(r"{p}")' if plain else repr(value)
    text = repr(value)
    if isinstance(value, str) and text.startswith("'") and "'" not in value and '"' not in value:
        text = '"' + text[1:-1] + '"'
    return text


def apply(root: Root, calls: Sequence[Call]) -> PWLocator:
    """Apply ``calls`` to ``root`` and return the resulting Playwright locator."""
    current: object = root
    for call in calls:
        kwargs = {
            name: apply(root, value) if isinstance(value, tuple) else value
            for name, value in call.kwargs
        }
        current = getattr(current, call.method)(*call.args, **kwargs)
    if not isinstance(current, PWLocator):
        raise TypeError(f"a locator chain must end in a Locator, not {type(current).__name__}")
    return current


def to_source(calls: Sequence[Call], root: str = "page") -> str:
    """The chain as Python source, e.g. ``page.get_by_label("Username", exact=True)``."""
    out = root
    for call in calls:
        parts = [py_literal(a) for a in call.args]
        for name, value in call.kwargs:
            shown = to_source(value, root) if isinstance(value, tuple) else py_literal(value)
            parts.append(f"{name}={shown}")
        out += f".{call.method}({', '.join(parts)})"
    return out
