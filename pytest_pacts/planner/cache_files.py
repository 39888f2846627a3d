"""The files of the planner's caches (``readers/cache.py``: documents read before;
``plan_cache.py``: plans built before): read whole or not at all, written whole, sealed when
asked, pruned by age and count. No model, no reader: the plan cache serves a collection
from here without importing either.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from pathlib import Path

from pytest_pacts.planner.readers.limits import MIB

#: An entry larger than this is neither read nor written (a 1,000-requirement workbook is
#: about 4 MB as a document entry).
MAX_ENTRY_BYTES = 64 * MIB
#: The most entries kept in one cache directory.
MAX_ENTRIES = 256
#: Entries not used for this many days are deleted.
MAX_AGE_DAYS = 30

TMP_PREFIX = ".tmp-"
_DAY = 24 * 3600.0


def seal(data: bytes, key: bytes) -> bytes:
    """``data`` encrypted (and decrypted) with ``key``: XOR with SHAKE-256's output for the
    key, a stream cipher whose key is used for one entry only (it is drawn from the file's
    bytes, and a changed file is another entry)."""
    stream = hashlib.shake_256(key).digest(len(data))
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")


def read_entry(entry: Path) -> bytes | None:
    """The bytes of ``entry``, or ``None`` when it is missing, unreadable or over
    :data:`MAX_ENTRY_BYTES`. An entry last used over a day ago is marked as used now (so
    pruning keeps it; warm reads rarely write)."""
    try:
        with entry.open("rb") as stream:
            used = os.fstat(stream.fileno()).st_mtime
            content = stream.read(MAX_ENTRY_BYTES + 1)
    except OSError:
        return None
    if len(content) > MAX_ENTRY_BYTES:
        return None
    if time.time() - used > _DAY:
        with contextlib.suppress(OSError):
            os.utime(entry)
    return content


def write_entry(entry: Path, content: bytes, suffixes: tuple[str, ...]) -> None:
    """``content`` written to a temporary file and renamed to ``entry`` (a reader never sees
    half of one), then the directory pruned of entries ending with one of ``suffixes``. A
    directory that cannot be written is no error: the entry is just not kept."""
    if len(content) > MAX_ENTRY_BYTES:
        return
    import tempfile  # only when writing (a warm collection writes nothing)

    directory = entry.parent
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, suffix=suffixes[0], dir=directory)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(content)
        os.replace(tmp, entry)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return
    prune(directory, suffixes)


def prune(directory: Path, suffixes: tuple[str, ...], now: float | None = None) -> None:
    """Delete entries not used for :data:`MAX_AGE_DAYS` days, then the least recently used
    beyond :data:`MAX_ENTRIES` (and temporary files left by a writer that died)."""
    now = time.time() if now is None else now
    entries: list[tuple[float, Path]] = []
    try:
        names = list(directory.iterdir())
    except OSError:
        return
    for path in names:
        if not path.name.endswith(suffixes):
            continue
        try:
            used = path.stat().st_mtime
        except OSError:
            continue
        temporary = path.name.startswith(TMP_PREFIX)
        if now - used > (_DAY if temporary else MAX_AGE_DAYS * _DAY):
            with contextlib.suppress(OSError):
                path.unlink()
        elif not temporary:
            entries.append((used, path))
    entries.sort(reverse=True)
    for _, path in entries[MAX_ENTRIES:]:
        with contextlib.suppress(OSError):
            path.unlink()
