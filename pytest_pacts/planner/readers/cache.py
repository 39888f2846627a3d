"""Documents read before, kept as JSON so an unchanged requirement file is not parsed again.

IDEs run ``pytest --collect-only`` all the time. Reading a workbook imports openpyxl (and
numpy, which openpyxl imports whenever it is installed), which costs more than the rest of
the plugin's collection; a warm collection of an unchanged ``.xlsx`` reads its
:class:`~pytest_pacts.planner.readers.base.Document` from here and imports neither.

- An entry is named by a hash of the file's bytes, the reader (the file's suffix), the
  :class:`~pytest_pacts.planner.readers.limits.ReadLimits`, :data:`FORMAT_VERSION` and the
  package version: a changed file, limit, reader or release is a different entry.
- Only what a reader returns is kept: the file's values as written and where each was
  written. Templates (``{{ env.X }}``, ``{{ secret.X }}``) are still text here; they are
  resolved later, by the loader, so no environment value ever reaches the cache. A file
  that writes a secret var's value itself (``vars: {api_token: "..."}``, a secret
  default) is kept only *sealed* (:func:`seal`): its entry is encrypted with a key drawn
  from the file's own bytes, which neither the entry nor its name gives, so the entry shows
  no secret to anyone without the file (who has the secret anyway), and the run writes no
  secret anywhere. A read that
  fails (:class:`~pytest_pacts.planner.readers.base.ReadFailure`) is never kept: it is
  reported afresh each time.
- The file's display path is not kept (it is given back on reading), so locations read from
  an entry render exactly as from a fresh read (``file:sheet:row:col``, ``file:line:col``).
- An entry is written to a temporary file and renamed into place, so a reader never sees
  half of one; an entry that cannot be read, is over :data:`MAX_ENTRY_BYTES` or has the
  wrong shape is ignored and written again; a directory that cannot be written is no error
  (the file is just read every time).
- After each write, entries not used for :data:`MAX_AGE_DAYS` days are deleted and at most
  :data:`MAX_ENTRIES` are kept (the least recently used go first). A hit marks its entry as
  used at most once a day, so warm collections rarely write at all.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from pytest_pacts._version import __version__
from pytest_pacts.models import SourceRef
from pytest_pacts.planner import cache_files
from pytest_pacts.planner.cache_files import MAX_AGE_DAYS as MAX_AGE_DAYS
from pytest_pacts.planner.cache_files import MAX_ENTRIES as MAX_ENTRIES
from pytest_pacts.planner.cache_files import MAX_ENTRY_BYTES as MAX_ENTRY_BYTES
from pytest_pacts.planner.cache_files import read_entry, write_entry
from pytest_pacts.planner.cache_files import seal as seal
from pytest_pacts.planner.readers.base import Document, JsonLike, PathKey, Pos
from pytest_pacts.planner.readers.limits import ReadLimits

#: Bump whenever a reader's output changes (values, positions or cell problems), so entries
#: written by the earlier readers are not used.
FORMAT_VERSION = 1
_SUFFIX = ".json"
_SEALED = ".sealed"  # an entry of a document that holds a secret (``seal``)

Reader = Callable[[Path, str, ReadLimits], Document]
#: Whether a document read may be kept (the loader refuses one that holds a secret).
Keep = Callable[[Document], bool]


def entry_key(content: bytes, suffix: str, limits: ReadLimits) -> str:
    """The name of the entry for a file's ``content`` read as ``suffix`` under ``limits``."""
    header = json.dumps(
        [FORMAT_VERSION, __version__, suffix.lower(), dataclasses.astuple(limits)]
    ).encode()
    digest = hashlib.sha256(header)
    digest.update(b"\0")
    digest.update(content)
    return digest.hexdigest()


def read_cached(
    reader: Reader,
    path: Path,
    display: str,
    limits: ReadLimits,
    cache_dir: Path,
    keep: Keep | None = None,
) -> Document:
    """``reader(path, display, limits)``, from ``cache_dir`` when this file was read before
    with the same limits (see the module documentation). A :class:`ReadFailure` is raised as
    the reader raises it, and nothing is written. A document ``keep`` refuses is neither
    written nor served from an entry written before (which is deleted): the file is read
    every time."""
    content = path.read_bytes()
    key = entry_key(content, path.suffix, limits)
    entry = cache_dir / f"{key}{_SUFFIX}"
    doc = _load(entry, display)
    if doc is not None:
        if keep is None or keep(doc):
            return doc
        with contextlib.suppress(OSError):
            entry.unlink()  # written before what it holds was known to be secret
    secret = seal_key(content, path.suffix, limits)
    sealed = cache_dir / f"{key}{_SEALED}"
    doc = _load(sealed, display, secret)
    if doc is not None:
        return doc
    doc = reader(path, display, limits)
    refused = keep is not None and not keep(doc)
    # The file may have changed while it was read: keep the document only under the
    # content it was read from.
    with contextlib.suppress(OSError):
        if entry_key(path.read_bytes(), path.suffix, limits) == key:
            if refused:
                _store(sealed, doc, display, secret)
            else:
                _store(entry, doc, display)
    return doc


def seal_key(content: bytes, suffix: str, limits: ReadLimits) -> bytes:
    """The key of a sealed entry for a file's ``content``: a hash of the file's bytes in
    another domain than :func:`entry_key` (the entry's name), so the entry and its name do
    not give it."""
    header = json.dumps(["sealed", FORMAT_VERSION, suffix.lower(), dataclasses.astuple(limits)])
    digest = hashlib.sha256(b"pytest-pacts document seal\0" + header.encode() + b"\0")
    digest.update(content)
    return digest.digest()


def _load(entry: Path, display: str, secret: bytes | None = None) -> Document | None:
    """The document of ``entry`` (sealed with ``secret`` when given), or ``None`` when
    there is none usable."""
    content = read_entry(entry)
    if content is None:
        return None
    if secret is not None:
        content = seal(content, secret)
    try:
        return _decode(json.loads(content), display)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return None


def _pos(value: object) -> Pos:
    if not isinstance(value, list) or len(value) != 4:
        raise ValueError("not a position")
    sheet, row, line, column = value
    if not (
        (sheet is None or isinstance(sheet, str))
        and (row is None or type(row) is int)
        and (line is None or type(line) is int)
        and (column is None or isinstance(column, str))
    ):
        raise ValueError("not a position")
    return (sheet, row, line, column)


def _key(value: object) -> PathKey:
    if not isinstance(value, list) or not all(
        isinstance(part, str) or type(part) is int for part in value
    ):
        raise ValueError("not a value's path")
    return tuple(value)


def _text_or_none(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError("not text")
    return value


def _decode(payload: object, display: str) -> Document | None:
    if not isinstance(payload, dict) or payload.get("format") != FORMAT_VERSION:
        return None
    positions: dict[PathKey, SourceRef | Pos] = {}
    for item in payload["positions"]:
        key, pos = item
        positions[_key(key)] = _pos(pos)
    problems: list[tuple[SourceRef, str, str | None]] = []
    for item in payload["cell_problems"]:
        pos, message, expected = item
        sheet, row, line, column = _pos(pos)
        if not isinstance(message, str):
            raise ValueError("not a message")
        problems.append(
            (
                SourceRef(path=display, sheet=sheet, row=row, line=line, column=column),
                message,
                _text_or_none(expected),
            )
        )
    data: JsonLike = payload["data"]
    return Document(display, data, positions, problems)


def _as_pos(value: SourceRef | Pos, display: str) -> Pos | None:
    if isinstance(value, SourceRef):
        if value.path != display:
            return None
        return (value.sheet, value.row, value.line, value.column)
    return value


def _encode(doc: Document, display: str) -> bytes | None:
    """``doc`` as an entry, or ``None`` when it would not read back as it is (a location in
    another file, a value JSON does not keep)."""
    if doc.path != display or not _plain_json(doc.data):
        return None
    positions: list[object] = []
    for key, value in doc.positions.items():
        pos = _as_pos(value, display)
        if pos is None:
            return None
        positions.append([list(key), list(pos)])
    problems: list[object] = []
    for source, message, expected in doc.cell_problems:
        pos = _as_pos(source, display)
        if pos is None:
            return None
        problems.append([list(pos), message, expected])
    payload = {
        "format": FORMAT_VERSION,
        "data": doc.data,
        "positions": positions,
        "cell_problems": problems,
    }
    try:
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        # UnicodeEncodeError (a ValueError) for a lone surrogate, e.g. JSON's "\ud800"
        return text.encode("utf-8")
    except (TypeError, ValueError, RecursionError):  # nesting deeper than json can write
        return None


def _plain_json(value: object) -> bool:
    """Does ``value`` read back from JSON as it is (text keys, no tuples, finite floats)?"""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if not all(type(key) is str for key in item):
                return False
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)
        elif not (item is None or type(item) in (str, int, float, bool)):
            return False
    return True


def _store(entry: Path, doc: Document, display: str, secret: bytes | None = None) -> None:
    content = _encode(doc, display)
    if content is None:
        return
    if secret is not None:
        content = seal(content, secret)
    write_entry(entry, content, (_SUFFIX, _SEALED))


def prune(directory: Path, now: float | None = None) -> None:
    """Delete entries not used for :data:`MAX_AGE_DAYS` days, then the least recently used
    beyond :data:`MAX_ENTRIES` (and temporary files left by a writer that died)."""
    cache_files.prune(directory, (_SUFFIX, _SEALED), now)
