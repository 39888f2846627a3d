"""JSON and YAML requirement files, read with the line/column of every value.

Neither ``json`` nor PyYAML's safe loader keeps positions, and errors must name lines
(issue 2 item 9). JSON values are located with a small scanner that reuses
``json.JSONDecoder.raw_decode`` for scalars; YAML uses PyYAML's composed node tree (whose
marks carry positions) and a safe constructor, so tags like ``!!python/object`` are refused.
"""

from __future__ import annotations

import bisect
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.models import SourceRef
from pytest_pacts.planner.readers.base import (
    Document,
    JsonLike,
    PathKey,
    Pos,
    ReadFailure,
    text_loc,
)
from pytest_pacts.planner.readers.limits import ReadLimits

if TYPE_CHECKING:  # PyYAML is imported when a YAML file is read (a warm collection reads
    # documents from the cache, readers/cache.py)
    import yaml

_DECODER = json.JSONDecoder()
_WS = " \t\n\r"


class _JsonLocator:
    """Maps every value's path to its (line, column), both 1-based."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.newlines = [i for i, ch in enumerate(text) if ch == "\n"]
        self.positions: dict[PathKey, tuple[int, int]] = {}

    def where(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_left(self.newlines, index)
        start = self.newlines[line - 1] + 1 if line else 0
        return line + 1, index - start + 1

    def skip(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in _WS:
            i += 1
        return i

    def value(self, i: int, path: PathKey) -> int:
        i = self.skip(i)
        self.positions[path] = self.where(i)
        ch = self.text[i] if i < len(self.text) else ""
        if ch == "{":
            i = self.skip(i + 1)
            if self.text[i] == "}":
                return i + 1
            while True:
                i = self.skip(i)
                key, i = _DECODER.raw_decode(self.text, i)
                i = self.skip(i) + 1  # the colon
                i = self.skip(self.value(i, (*path, str(key))))
                if self.text[i] == "}":
                    return i + 1
                i += 1  # the comma
        if ch == "[":
            i = self.skip(i + 1)
            if self.text[i] == "]":
                return i + 1
            n = 0
            while True:
                i = self.skip(self.value(i, (*path, n)))
                n += 1
                if self.text[i] == "]":
                    return i + 1
                i += 1
        _, end = _DECODER.raw_decode(self.text, i)
        return int(end)


# a JSON string (skipped whole, so brackets inside it do not count) or a bracket
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _json_depth_check(text: str, display: str, limits: ReadLimits) -> None:
    """Refuse nesting deeper than the limit before parsing (the parser and the position
    scanner recurse once per level)."""
    depth = 0
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limits.max_depth:
                raise ReadFailure(
                    text_loc(display, text.count("\n", 0, match.start()) + 1),
                    f"values are nested more than {limits.max_depth} levels deep",
                    "a requirement file's usual shape (raise the ini key pacts_max_nesting "
                    "if this file is legitimate)",
                )
        elif token in "]}":
            depth -= 1


def read_json(path: Path, display: str, limits: ReadLimits | None = None) -> Document:
    limits = limits or ReadLimits()
    text = _read_text(path, display)
    _json_depth_check(text, display, limits)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReadFailure(
            text_loc(display, exc.lineno, exc.colno),
            f"not valid JSON: {exc.msg}",
            "a JSON object (see docs/requirements.schema.json)",
        ) from None
    locator = _JsonLocator(text)
    locator.value(0, ())
    return Document(
        display, data, {k: text_loc(display, ln, c) for k, (ln, c) in locator.positions.items()}
    )


def _walk_yaml(
    node: yaml.Node,
    path: PathKey,
    loader: yaml.SafeLoader,
    display: str,
    positions: dict[PathKey, SourceRef | Pos],
) -> JsonLike:
    """The value of ``node``, refusing duplicate keys (a silent overwrite would lose steps)
    and language-specific tags."""
    import yaml

    here = text_loc(display, node.start_mark.line + 1, node.start_mark.column + 1)
    positions[path] = here
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in (
        "tag:yaml.org,2002:map",
        "tag:yaml.org,2002:seq",
    ):
        raise ReadFailure(
            here,
            f"the YAML tag {node.tag!r} is not allowed",
            "plain mappings, lists and scalars (no language-specific tags)",
        )
    if isinstance(node, yaml.MappingNode):
        out: dict[str, JsonLike] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, (str, int, float, bool)):
                raise ReadFailure(here, "a mapping key must be plain text")
            skey = str(key)
            if skey in out:
                raise ReadFailure(
                    text_loc(display, key_node.start_mark.line + 1, key_node.start_mark.column + 1),
                    f"duplicate key {skey!r}",
                    "each key once per mapping",
                )
            out[skey] = _walk_yaml(value_node, (*path, skey), loader, display, positions)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [
            _walk_yaml(child, (*path, i), loader, display, positions)
            for i, child in enumerate(node.value)
        ]
    value = loader.construct_object(node, deep=True)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    # dates and other YAML types become text, as a person wrote them
    return str(node.value)


def _yaml_size_check(root: yaml.Node, display: str, limits: ReadLimits) -> None:
    """Refuse a document deeper than the nesting limit, or with more values than the node
    limit once aliases are expanded (a "billion laughs" file of a few hundred bytes names
    the same anchored list thousands of times). Each distinct node is measured once, so the
    check is linear in the file, not in its expansion."""
    import yaml

    sizes: dict[int, int] = {}
    # iterative post-order walk: a hostile file must not exhaust the Python stack either
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        if id(node) in sizes and not done:
            continue
        if depth > limits.max_depth:
            mark = node.start_mark
            raise ReadFailure(
                text_loc(display, mark.line + 1, mark.column + 1),
                f"values are nested more than {limits.max_depth} levels deep",
                "a requirement file's usual shape (raise the ini key pacts_max_nesting if this "
                "file is legitimate)",
            )
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        if not done:
            stack.append((node, depth, True))
            stack.extend((child, depth + 1, False) for child in children if id(child) not in sizes)
            continue
        total = 1 + sum(sizes.get(id(child), 1) for child in children)
        sizes[id(node)] = total
        if total > limits.max_nodes:
            mark = node.start_mark
            raise ReadFailure(
                text_loc(display, mark.line + 1, mark.column + 1),
                f"the YAML aliases expand to more than {limits.max_nodes:,} values",
                "anchors and aliases used for sharing a few values, not for repeating them "
                "(raise the ini key pacts_max_yaml_nodes if this file is legitimate)",
            )


def read_yaml(path: Path, display: str, limits: ReadLimits | None = None) -> Document:
    import yaml

    limits = limits or ReadLimits()
    text = _read_text(path, display)
    loader = yaml.SafeLoader(text)
    try:
        try:
            node = loader.get_single_node()
        except RecursionError:  # the composer recurses once per nesting level
            raise ReadFailure(
                text_loc(display, 1),
                f"values are nested more than {limits.max_depth} levels deep",
                "a requirement file's usual shape",
            ) from None
        if node is None:
            raise ReadFailure(
                text_loc(display, 1), "the file is empty", "a requirement or {requirements: [...]}"
            )
        _yaml_size_check(node, display, limits)
        positions: dict[PathKey, SourceRef | Pos] = {}
        data = _walk_yaml(node, (), loader, display, positions)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = text_loc(display, mark.line + 1, mark.column + 1) if mark else text_loc(display, 1)
        raise ReadFailure(
            where,
            f"not valid YAML: {exc.problem or exc}",
            "YAML mapping syntax (check indentation and quotes)",
        ) from None
    except yaml.YAMLError as exc:
        raise ReadFailure(text_loc(display, 1), f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()
    return Document(display, data, positions)


def _read_text(path: Path, display: str) -> str:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReadFailure(
            text_loc(display, raw[: exc.start].count(b"\n") + 1),
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x})",
            "a UTF-8 encoded file",
        ) from None
    if not text.strip():
        raise ReadFailure(
            text_loc(display, 1), "the file is empty", "a requirement or {requirements: [...]}"
        )
    return text
