"""File-name stems for ids (req_id, node ids), shared by reports, artifacts and the CLI."""

from __future__ import annotations

import hashlib
import re

_CANONICAL_ID = re.compile(r"^[A-Z0-9]+(?:-[A-Z0-9]+)*$")
_NOT_WORD = re.compile(r"[^A-Za-z0-9]+")


def file_stem(text: str) -> str:
    """A file-name stem for an id, distinct for distinct ids, also on case-insensitive file
    systems: ``REQ-LOGIN-001`` -> ``req_login_001``; an id that this mapping would not keep
    apart from another (lower case, dots, underscores, other characters: ``REQ-A.1``,
    ``REQ-A_1``, ``REQ-a-1``) gets ``__`` and a hash of the exact id, which a canonical id
    can never produce (it has no ``__``)."""
    stem = _NOT_WORD.sub("_", text).strip("_").lower() or "requirement"
    if _CANONICAL_ID.match(text):
        return stem
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    return f"{stem}__{digest}"


def render_source(
    path: str,
    sheet: str | None = None,
    row: int | None = None,
    line: int | None = None,
    column: str | None = None,
) -> str:
    """Where something was written, as errors name it: ``path:sheet:row:col`` for sheets,
    ``path:line:col`` for text files (``SourceRef.render``, and the plain plans collection
    reads from the plan cache without the models)."""
    parts = [path]
    if sheet is not None:
        parts.append(sheet)
        if row is not None:
            parts.append(str(row))
    elif line is not None:
        parts.append(str(line))
    if column is not None and (row is not None or line is not None):
        parts.append(column)
    return ":".join(parts)


def zero_based_line(sheet: str | None, row: int | None, line: int | None) -> int:
    """The line pytest's ``reportinfo`` wants (0-based); sheet rows count as lines."""
    n = row if sheet is not None else line
    return max((n or 1) - 1, 0)
