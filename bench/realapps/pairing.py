"""How an element-level pair asks its question: pure logic for ``bench_peers.py``.

Three things the saved pages and the recorded cases say differently from the flow and its
truth file, each put back here the same way for every tool:

- **The ordinal.** A flow step may pick one of identical elements by an ordinal
  (``Enter code to paste.[2]``); a case written before cases carried it is given it back
  from the flow (``flow_ordinals``), so a tool that reads the step's words is asked what the
  flow asks (``step_words``), not the same words without the ``[2]``.
- **An element and what is inside it.** A truth selector may name an element and its
  descendants (``X, X *``: a click on the button's label span is a click on the button).
  The pair's truth element is the outermost one; ``selector_parts`` gives the parts to try
  for a selector that finds exactly it (``X``), which the page check picks.
- **Addresses.** A saved MHTML page writes every ``href``, ``action`` and ``src`` as an
  absolute address, so a truth selector on the attribute as the app writes it
  (``a[href="/plant/"]``) finds nothing there; ``absolute_urls`` rewrites such an attribute
  test to the absolute form the page holds, resolved against the page's base address, as the
  browser resolves the attribute itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import urljoin

# the attributes a saved page rewrites as absolute addresses (Chromium's MHTML serializer)
URL_ATTRIBUTES = ("href", "action", "src", "formaction")
_ATTRIBUTE = re.compile(
    r"\[\s*(?P<name>" + "|".join(URL_ATTRIBUTES) + r")\s*(?P<op>\^=|=)\s*"
    r"""(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\]\s"']+))"""
    r"\s*(?P<flag>[iIsS])?\s*\]"
    # a quoted string outside an attribute test (``:has-text("...")``) is passed over whole
    r"""|(?P<text>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
)


def absolute_urls(selector: str, base: str) -> str:
    """``a[href="/plant/"]`` on a page at ``http://h:1/x/`` → ``a[href="http://h:1/plant/"]``.

    An exact (``=``) or prefix (``^=``) test of an address attribute is resolved against
    ``base``; a suffix (``$=``) or substring (``*=``) test still holds on the absolute form
    and is kept, and so is a value that is already absolute. Other attributes are untouched.
    """

    def resolve(match: re.Match[str]) -> str:
        if match.group("text") is not None:
            return match.group("text")
        value = match.group("dq")
        if value is None:
            value = match.group("sq") if match.group("sq") is not None else match.group("bare")
        value = urljoin(base, value)
        flag = f" {match.group('flag')}" if match.group("flag") else ""
        quoted = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'[{match.group("name")}{match.group("op")}"{quoted}"{flag}]'

    return _ATTRIBUTE.sub(resolve, selector)


def split_selector_list(selector: str) -> list[str]:
    """The parts of a selector list (``A, B *`` → ``["A", "B *"]``), split at the commas
    outside quotes, brackets and parentheses. A chained selector (``A >> B``) is one part:
    a comma inside a chain does not make a list of elements."""
    parts, depth, quote, start = [], 0, "", 0
    escaped = False
    for i, ch in enumerate(selector):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch == ">" and selector[i : i + 2] == ">>" and depth == 0:
            return [selector.strip()]
        elif ch == "," and depth == 0:
            parts.append(selector[start:i].strip())
            start = i + 1
    parts.append(selector[start:].strip())
    return [p for p in parts if p]


def selector_parts(selector: str) -> list[str]:
    """The parts to try, in order, for a selector that finds only the outermost element of a
    truth that names an element and what is inside it. ``X, X *`` → ``["X", "X *"]``; a part
    that names the descendants of another part (``X *``, ``X span``) is tried after the
    parts it descends from; a single selector is its own only part."""
    head, chained, last = selector.rpartition(" >> ")
    if chained and "=" not in last.split("(", 1)[0]:
        # a chain whose last selector is CSS (``iframe >> internal:control=enter-frame >> X,
        # X *``: an element and what is inside it, in a frame) lists its elements there, as
        # Playwright reads it; each part keeps the chain before it
        return [head + chained + part for part in selector_parts(last)]
    parts = split_selector_list(selector)
    if len(parts) < 2:
        return parts

    def descends(part: str) -> bool:
        return any(part != other and part.startswith(other + " ") for other in parts)

    return sorted(parts, key=descends)  # stable: the written order otherwise


def step_words(element: str, region: str | None, ordinal: int | None) -> str:
    """The step's target as the flow writes it: ``Element[N]@Region`` (a name that itself
    ends in brackets keeps them escaped, as ``Target.key`` writes it; a name holding an
    ``@`` with no region ends in ``@``, as the flows write ``@bakery/order-form@``: without
    it the step syntax reads the part after the last ``@`` as a region)."""
    if ordinal:
        element = f"{element}[{ordinal}]"
    elif element.endswith("]") and "[" in element:
        at = element.rindex("[")
        element = f"{element[:at]}\\{element[at:]}"
    if region:
        return f"{element}@{region}"
    return f"{element}@" if "@" in element else element


def flow_ordinals(flows: Path, env: Mapping[str, str]) -> dict[tuple[str, int], int]:
    """``(req_id, step number) → ordinal`` for every step of ``flows`` with one (the step
    number 1-based, as ``run_corpus.py`` writes it in a case)."""
    from pytest_pacts.planner.loader import LoaderOptions, load_file

    loaded = load_file(flows, LoaderOptions(env=dict(env), check_env=False))
    found: dict[tuple[str, int], int] = {}
    for plan in loaded.plans:
        for step in plan.steps:
            if step.target is not None and step.target.ordinal:
                found[(plan.req_id, step.index + 1)] = step.target.ordinal
    return found


def give_ordinals(
    cases: Iterable[dict[str, object]], ordinals: Mapping[tuple[str, int], int]
) -> None:
    """Fill ``ordinal`` in cases written without it (before cases carried it) from the
    flow's steps; a case that has it keeps its own."""
    for case in cases:
        if "ordinal" not in case:
            key = (str(case["req_id"]), int(str(case["step"])))
            case["ordinal"] = ordinals.get(key)


def current_truths(
    cases: Iterable[dict[str, object]], truth: Mapping[str, Mapping[int, Mapping[str, object]]]
) -> None:
    """Each case's truth as the truth file says it now (a truth corrected after the run that
    saved the page counts); a case whose step and version the file does not list keeps its own."""
    for case in cases:
        by_version = truth.get(str(case["req_id"]), {}).get(int(str(case["step"])), {})
        if str(case["version"]) in by_version:
            case["truth"] = by_version[str(case["version"])]
