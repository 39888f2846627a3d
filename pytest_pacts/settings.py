"""Every pytest-pacts setting as one typed, frozen object, read once per session.

The pytest layer builds a :class:`PactsSettings` from the settings table
(``pytest_plugin/options.py``: command line > ini > default) when pytest configures, and
passes plain values from it down; nothing else reads the pytest configuration. The
application layer (``application.py``) builds a run's services from it, so the CLI and the
web dashboard can build the same run from the same object. Nothing here imports pytest.

Each field is one setting of the table without its ``pacts_`` prefix, with the table's
default (``tests/pytest_plugin/test_settings.py`` checks they stay one list).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pytest_pacts.models.evidence import DEFAULT_MARGIN, DEFAULT_THRESHOLD

if TYPE_CHECKING:
    from pytest_pacts.planner.readers.limits import ReadLimits

__all__ = [
    "AcceptHeals",
    "DialogAnswer",
    "DiscoverMode",
    "PactsSettings",
    "ResultsMode",
    "SloMode",
    "TraceMode",
]

DiscoverMode = Literal["auto", "always", "off"]
DialogAnswer = Literal["accept", "dismiss"]
AcceptHeals = Literal["none", "minor", "all"]
ResultsMode = Literal["on", "off"]
SloMode = Literal["auto", "always", "off"]
TraceMode = Literal["on", "off"]

#: ``pacts_report_dir`` values that turn the report folders off.
REPORTS_OFF = frozenset({"off", "none", "false", "0"})


@dataclass(frozen=True)
class PactsSettings:
    """The effective value of every ``pacts_*`` setting of a session (see
    docs/reference.md for what each one means), plus the project's base URL."""

    files: tuple[str, ...] = ("*.req.json", "*.req.yaml", "*.req.yml", "*.req.xlsx")
    blocks_files: tuple[str, ...] = ()
    secret_vars: tuple[str, ...] = ()
    markers: tuple[str, ...] = ()
    max_file_mb: float = 20.0
    max_uncompressed_mb: float = 50.0
    max_compression_ratio: float = 200.0
    max_rows: int = 100_000
    max_cell_chars: int = 32_767
    max_nesting: int = 64
    max_yaml_nodes: int = 1_000_000
    store: str | None = None
    discover: DiscoverMode = "auto"
    discovery_ttl: int = 3600
    step_timeout: float = 10.0
    max_heal_rounds: int = 3
    heal_threshold: float = DEFAULT_THRESHOLD
    heal_margin: float = DEFAULT_MARGIN
    strict_heal: bool = False
    interactive: bool = False
    extension_budget: int = 0
    dialogs: DialogAnswer = "accept"
    max_response_kb: float = 1024.0
    session: str | None = None
    accept_heals: AcceptHeals = "none"
    dry_run: bool = False
    browser_path: str | None = None
    report_dir: str = ".pacts/reports"
    report_keep: int = 20
    results: ResultsMode = "on"
    slos: SloMode = "auto"
    generate: bool = False
    generate_dir: str = "generated_tests"
    trace: TraceMode = "on"
    trace_slower: float = 3.0
    trace_slow_floor_ms: float = 300.0
    trace_move_px: float = 100.0
    trace_max_kb: int = 1024
    trace_keep: int = 20
    auth_file: str = "pacts-auth.yaml"
    auth_dir: str = ".pacts/auth"
    # not a pacts_* setting: pytest-playwright's --base-url / base_url ini key (a project's
    # ``base_url`` fixture override is only known once fixtures exist)
    base_url: str | None = None

    @property
    def session_id(self) -> str:
        """Runs of one requirement against one deployment conflict while in flight."""
        return self.session or self.base_url or "default"

    @property
    def max_file_bytes(self) -> int:
        """The largest requirement file read (0 or less: the default)."""
        from pytest_pacts.planner.readers.limits import MIB

        return int((self.max_file_mb or PactsSettings.max_file_mb) * MIB)

    def read_limits(self) -> ReadLimits:
        """What reading one requirement file may cost (docs/reference.md)."""
        from pytest_pacts.planner.readers.limits import MIB, ReadLimits

        return ReadLimits(
            max_uncompressed_bytes=int(self.max_uncompressed_mb * MIB),
            max_compression_ratio=self.max_compression_ratio,
            max_rows=self.max_rows,
            max_cell_chars=self.max_cell_chars,
            max_depth=self.max_nesting,
            max_nodes=self.max_yaml_nodes,
        )

    def report_root(self, rootpath: Path) -> Path | None:
        """The folder holding one folder per run, or ``None`` when reports are off."""
        if self.report_dir.lower() in REPORTS_OFF:
            return None
        return rootpath / self.report_dir
