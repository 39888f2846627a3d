"""Bounds on what reading one requirement file may cost, checked before and while parsing.

A few hundred bytes of YAML aliases or a small ``.xlsx`` whose XML inflates to gigabytes can
take a machine down if a reader trusts the size on disk. Each reader checks the bounds that
apply to it and fails with one located :class:`~pytest_pacts.planner.readers.base.ReadFailure`
(never a ``MemoryError`` or ``RecursionError``), so one hostile file is one collection error
and the other files still collect. The defaults are far above any real requirement file:
a workbook of 1,000 requirements is about 1 MB uncompressed and a few thousand rows.
The defaults are the settings' own (``settings.py``, documented in ``docs/reference.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_pacts.settings import PactsSettings

MIB = 1024 * 1024


@dataclass(frozen=True)
class ReadLimits:
    """``max_uncompressed_bytes`` and ``max_compression_ratio`` bound an ``.xlsx`` archive
    (checked on its directory before anything is inflated; the ratio only for members over
    1 MiB); ``max_rows`` a sheet (rows are streamed and counted); ``max_cell_chars`` one
    cell (Excel's own limit is 32,767); ``max_depth`` JSON/YAML nesting; ``max_nodes`` the
    values of a YAML document once its aliases are expanded."""

    max_uncompressed_bytes: int = int(PactsSettings.max_uncompressed_mb * MIB)
    max_compression_ratio: float = PactsSettings.max_compression_ratio
    max_rows: int = PactsSettings.max_rows
    max_cell_chars: int = PactsSettings.max_cell_chars
    max_depth: int = PactsSettings.max_nesting
    max_nodes: int = PactsSettings.max_yaml_nodes

    @classmethod
    def of(cls, settings: PactsSettings) -> ReadLimits:
        """What reading one requirement file may cost under a session's settings."""
        return cls(
            max_uncompressed_bytes=int(settings.max_uncompressed_mb * MIB),
            max_compression_ratio=settings.max_compression_ratio,
            max_rows=settings.max_rows,
            max_cell_chars=settings.max_cell_chars,
            max_depth=settings.max_nesting,
            max_nodes=settings.max_yaml_nodes,
        )


def max_file_bytes(settings: PactsSettings) -> int:
    """The largest requirement file read under a session's settings (0 or less: the
    default)."""
    return int((settings.max_file_mb or PactsSettings.max_file_mb) * MIB)
