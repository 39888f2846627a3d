"""Every pytest-pacts setting, declared once, as one typed, frozen object read once per session.

Each field of :class:`PactsSettings` is one setting: its name (the ini key is ``pacts_<name>``,
the command-line flag ``--pacts-<name with - for _>``), its type (which says how a value is
read: ``tuple[str, ...]`` one per line, ``bool``, ``int``, ``float``, a ``Literal`` of the
choices, else a string), its default and its help. Everything else is derived from the
fields: :data:`SETTINGS` (the pytest options and ini keys of ``pytest_plugin/options.py``,
the table of docs/reference.md, ``scripts/gen_reference.py``), the engine's options
(``engine/contracts.py`` takes its defaults from here; ``application.engine_options``
builds them from a session's values) and the run settings of ``application/options.py``.
``tests/test_settings_declared_once.py`` fails when a default is written a second time.

The pytest layer builds a :class:`PactsSettings` when pytest configures (command line > ini
> default) and passes plain values from it down; nothing else reads the pytest
configuration. Nothing here imports pytest.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, TypeVar

from pytest_pacts.models.evidence import DEFAULT_MARGIN, DEFAULT_THRESHOLD

__all__ = [
    "DEFAULT_STEP_TIMEOUT_MS",
    "SETTINGS",
    "AcceptHeals",
    "DialogAnswer",
    "DiscoverMode",
    "PactsSettings",
    "ResultsMode",
    "Setting",
    "SloMode",
    "TraceMode",
    "base_url_of",
]

DiscoverMode = Literal["auto", "always", "off"]
DialogAnswer = Literal["accept", "dismiss"]
AcceptHeals = Literal["none", "minor", "all"]
ResultsMode = Literal["on", "off"]
SloMode = Literal["auto", "always", "off"]
TraceMode = Literal["on", "off"]

#: ``pacts_report_dir`` values that turn the report folders off.
REPORTS_OFF = frozenset({"off", "none", "false", "0"})

T = TypeVar("T")


def setting(default: T, help: str) -> T:
    """One setting's field: its default and its help (docs/reference.md shows both)."""
    found: T = field(default=default, metadata={"help": help})
    return found


@dataclass(frozen=True)
class PactsSettings:
    """The effective value of every ``pacts_*`` setting of a session (see
    docs/reference.md for what each one means), plus the project's base URL."""

    files: tuple[str, ...] = setting(
        ("*.req.json", "*.req.yaml", "*.req.yml", "*.req.xlsx"),
        "Glob patterns of requirement files to collect anywhere. Besides these, every .xlsx under"
        " the paths pytest starts from (those given on the command line, else testpaths, else the"
        " rootdir; never the report folder), and any .json/.yaml/.xlsx file given by name, is "
        "collected.",
    )
    blocks_files: tuple[str, ...] = setting(
        (), "Shared blocks files (JSON/YAML/XLSX with a blocks section), relative to the rootdir."
    )
    secret_vars: tuple[str, ...] = setting(
        (),
        "Var names whose values are secret (besides names containing password, token, secret, "
        "key...). Secrets print as ***.",
    )
    markers: tuple[str, ...] = setting(
        (), "Requirement tags to register as markers (for --strict-markers / strict = true)."
    )
    max_file_mb: float = setting(
        20.0, "Largest requirement file read, in MB; larger ones are a collection error."
    )
    max_uncompressed_mb: float = setting(
        50.0,
        "Largest size an .xlsx workbook may inflate to, in MiB, checked on the archive's "
        "directory before anything is inflated.",
    )
    max_compression_ratio: float = setting(
        200.0,
        "Largest inflation ratio of one .xlsx part over 1 MiB (a zip bomb inflates thousands of "
        "times).",
    )
    max_rows: int = setting(
        100_000,
        "Most rows read from one sheet; rows are streamed and a longer sheet is a collection "
        "error.",
    )
    max_cell_chars: int = setting(
        32_767, "Longest text of one spreadsheet cell (Excel's own limit)."
    )
    max_nesting: int = setting(64, "Deepest nesting of JSON/YAML values.")
    max_yaml_nodes: int = setting(
        1_000_000,
        "Most values of a YAML document once its aliases are expanded (refuses alias bombs).",
    )
    store: str | None = setting(
        None,
        "Where pytest-pacts keeps verified locators, heal history and audit events: a SQLite path"
        " or a postgresql:// DSN (default: .pacts/pacts.db in the rootdir; env PACTS_STORE).",
    )
    discover: DiscoverMode = setting(
        "auto",
        "Find-first discovery before the first test, in the tests' browser and contexts: auto "
        "(requirements without a valid cached plan), always (every selected requirement), off. "
        "--collect-only never discovers.",
    )
    discovery_ttl: int = setting(
        3600, "Seconds a live discovery result stays valid in the POM cache."
    )
    step_timeout: float = setting(
        10.0, "Seconds one step may take, its expected outcome's auto-waiting included."
    )
    max_heal_rounds: int = setting(3, "Healing rounds per step (MAX_HEAL_ROUNDS).")
    heal_threshold: float = setting(
        DEFAULT_THRESHOLD,
        "Score a discovered or relocated element must reach to be used (the evidence rule).",
    )
    heal_margin: float = setting(
        DEFAULT_MARGIN, "How far the best candidate must lead the runner-up (the evidence rule)."
    )
    strict_heal: bool = setting(
        False, "Fail requirements that passed only thanks to a heal (heals stay recorded)."
    )
    interactive: bool = setting(
        False, "On a terminal, ask GO / NOT GO before using a heal the rules declined (needs -s)."
    )
    extension_budget: int = setting(
        0, "Calls per run to external healers (the pytest_pacts_heal_candidates hook); 0 = off."
    )
    dialogs: DialogAnswer = setting(
        "accept",
        "What a native alert/confirm/prompt raised during a step gets: accept (a person clicks "
        "OK; a prompt gets its default value) or dismiss. Its text goes into the step's notes.",
    )
    max_response_kb: float = setting(
        1024.0,
        "Largest JSON response body a step reads (extract from response:, a response: outcome), "
        "in KiB; a larger one is reported as too large and never read whole.",
    )
    session: str | None = setting(
        None,
        "Session name for SESSION_CONFLICT: two runs of one requirement in one session cannot be "
        "in flight at once (default: the --base-url).",
    )
    accept_heals: AcceptHeals = setting(
        "none",
        "Persist heal proposals as new recipe versions at the end of each healed run: none "
        "(review them with `pacts heals`), minor (selector and action updates), all.",
    )
    dry_run: bool = setting(
        False,
        "Run items without a browser: resolve every value at its moment of use and pass "
        "(discovery before the tests still follows --pacts-discover).",
    )
    browser_path: str | None = setting(
        None,
        "Chromium executable to use when Playwright's own browsers are not installed (default: "
        "detect /usr/bin/chromium and friends, for a headless run /usr/bin/chromium-headless-"
        "shell first; env PACTS_BROWSER_PATH).",
    )
    report_dir: str = setting(
        ".pacts/reports",
        "Folder (relative to the rootdir) for per-requirement artifacts: each run writes "
        "<dir>/<run id>/ with verdict JSON, step logs, summaries and index.json/index.md. 'off' "
        "writes none.",
    )
    report_keep: int = setting(
        20,
        "Run folders kept under pacts_report_dir; older ones are deleted at session end (0 keeps "
        "all).",
    )
    results: ResultsMode = setting(
        "on",
        "Results back to the sheet: at session end, <report dir>/<run id>/results/ gets a copy of"
        " each requirement .xlsx with Verdict, Step result, Root cause, Heal and Duration columns"
        " beside the rows (the original is never written), and a CSV per JSON/YAML file. 'off' "
        "writes none.",
    )
    slos: SloMode = setting(
        "auto",
        "SLOs in the terminal summary, the HTML report and index.md: auto (only once the store "
        "holds earlier sessions' runs, and only the SLOs with at least 20 qualifying runs: LLM "
        "calls/run only where runs made LLM calls), always, off.",
    )
    generate: bool = setting(
        False,
        "Write generated_tests/test_<req_id>.py (plain pytest-playwright) for every requirement "
        "that passed, rewritten only when its plan hash changes.",
    )
    generate_dir: str = setting(
        "generated_tests", "Folder (relative to the rootdir) that --pacts-generate writes into."
    )
    trace: TraceMode = setting(
        "on",
        "Trace bundles: every passing run keeps, per requirement, each step's URL, the element's "
        "text and box, a small picture, a DOM hash, the requests with their status and the "
        "duration; the next runs are compared with the last passing one and what changed is "
        "flagged as a regression, even when the test passes. 'off' records none.",
    )
    trace_slower: float = setting(
        3.0, "A step more than this many times slower than in the last passing run is a regression."
    )
    trace_slow_floor_ms: float = setting(
        300.0,
        "Steps are compared with at least this many milliseconds, so a tiny step is not flagged "
        "on noise (a 20 ms step must take over slower x this to be flagged).",
    )
    trace_move_px: float = setting(
        100.0, "An element whose centre moved more than this many CSS pixels is a regression."
    )
    trace_max_kb: int = setting(
        1024, "Most kilobytes of step pictures one trace bundle keeps; later steps keep none."
    )
    trace_keep: int = setting(
        20,
        "Trace bundles kept per requirement in the store (only the newest keeps its pictures); 0 "
        "keeps all.",
    )
    auth_file: str = setting(
        "pacts-auth.yaml",
        "The auth profiles file (relative to the rootdir): each profile's login flow, accounts, "
        "verify check and max_age. A requirement with 'auth: <profile>' starts with that "
        "profile's saved session; the login runs once per run.",
    )
    auth_dir: str = setting(
        ".pacts/auth",
        "Private folder (relative to the rootdir; 0700, files 0600) for the saved sessions of "
        "auth profiles, never inside a report folder; `pacts auth clear` empties it.",
    )
    # not a pacts_* setting: pytest-playwright's --base-url / base_url ini key (a project's
    # ``base_url`` fixture override is only known once fixtures exist)
    base_url: str | None = None

    @property
    def session_id(self) -> str:
        """Runs of one requirement against one deployment conflict while in flight."""
        return self.session or self.base_url or "default"

    def report_root(self, rootpath: Path) -> Path | None:
        """The folder holding one folder per run, or ``None`` when reports are off."""
        if self.report_dir.lower() in REPORTS_OFF:
            return None
        return rootpath / self.report_dir


Kind = Literal["string", "linelist", "bool", "int", "float", "choice"]
Value = str | list[str] | bool | int | float | None


@dataclass(frozen=True)
class Setting:
    """One setting as the command line, the ini file and docs/reference.md show it, derived
    from its field of :class:`PactsSettings`."""

    name: str  # the ini key, ``pacts_<field>``
    kind: Kind
    default: Value
    help: str
    choices: tuple[str, ...] = ()

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def dest(self) -> str:
        return self.name


def _kind(hint: Any) -> tuple[Kind, tuple[str, ...]]:
    """How a value of the field's type is read, and its choices for a ``Literal``."""
    if typing.get_origin(hint) is Literal:
        return "choice", tuple(str(c) for c in typing.get_args(hint))
    if typing.get_origin(hint) is tuple:
        return "linelist", ()
    if typing.get_origin(hint) in (typing.Union, types.UnionType):  # ``str | None``
        (hint,) = (a for a in typing.get_args(hint) if a is not type(None))
    if hint is bool:
        return "bool", ()
    if hint is int:
        return "int", ()
    if hint is float:
        return "float", ()
    return "string", ()


def _declared() -> tuple[Setting, ...]:
    hints = typing.get_type_hints(PactsSettings)
    found: list[Setting] = []
    for f in fields(PactsSettings):
        if "help" not in f.metadata:  # base_url: pytest-playwright's, not a pacts_* setting
            continue
        kind, choices = _kind(hints[f.name])
        raw = f.default
        default: Value
        if isinstance(raw, tuple):
            default = [str(v) for v in raw]
        elif raw is None or isinstance(raw, str | bool | int | float):
            default = raw
        else:  # a setting's default is a plain value
            raise TypeError(f"pacts_{f.name}: {raw!r} is no setting's default")
        found.append(Setting(f"pacts_{f.name}", kind, default, f.metadata["help"], choices))
    return tuple(found)


#: Every ``pacts_*`` setting, in the order of the fields (docs/reference.md's table).
SETTINGS: tuple[Setting, ...] = _declared()

#: The step timeout, in the milliseconds the engine, discovery and the library entry points
#: count in (the default of ``pacts_step_timeout``).
DEFAULT_STEP_TIMEOUT_MS: float = PactsSettings.step_timeout * 1000


def base_url_of(*given: str | None) -> str | None:
    """The base URL a run uses: the first of ``given`` that is set, which callers pass in
    the order of precedence: a project's ``base_url`` fixture, then the configured one
    (``--base-url``, the ``base_url`` ini key, ``PactsSettings.base_url``), then the
    requirement file's own ``base_url``."""
    return next((url for url in given if url), None)
