"""Bounds on what reading one requirement file may cost, checked before and while parsing.

A few hundred bytes of YAML aliases or a small ``.xlsx`` whose XML inflates to gigabytes can
take a machine down if a reader trusts the size on disk. Each reader checks the bounds that
apply to it and fails with one located :class:`~pytest_pacts.planner.readers.base.ReadFailure`
(never a ``MemoryError`` or ``RecursionError``), so one hostile file is one collection error
and the other files still collect. The defaults are far above any real requirement file:
a workbook of 1,000 requirements is about 1 MB uncompressed and a few thousand rows.
The settings are documented in ``docs/reference.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024


@dataclass(frozen=True)
class ReadLimits:
    """``max_uncompressed_bytes`` and ``max_compression_ratio`` bound an ``.xlsx`` archive
    (checked on its directory before anything is inflated; the ratio only for members over
    1 MiB); ``max_rows`` a sheet (rows are streamed and counted); ``max_cell_chars`` one
    cell (Excel's own limit is 32,767); ``max_depth`` JSON/YAML nesting; ``max_nodes`` the
    values of a YAML document once its aliases are expanded."""

    max_uncompressed_bytes: int = 50 * MIB
    max_compression_ratio: float = 200.0
    max_rows: int = 100_000
    max_cell_chars: int = 32_767
    max_depth: int = 64
    max_nodes: int = 1_000_000
