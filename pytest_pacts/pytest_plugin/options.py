"""Every pytest-pacts setting, as a command-line option *and* an ini key.

Precedence: command line > ini > default. One table, so docs/reference.md and ``--help``
cannot drift apart: add a setting here (and its field to
:class:`~pytest_pacts.settings.PactsSettings`) and it exists in both places.

The table is read once, when pytest configures (:func:`configure`): every other module
reads the frozen :class:`~pytest_pacts.settings.PactsSettings` (:func:`settings`), never the
pytest configuration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import pytest

from pytest_pacts.models.evidence import DEFAULT_MARGIN, DEFAULT_THRESHOLD
from pytest_pacts.settings import PactsSettings

Kind = Literal["string", "linelist", "bool", "int", "float", "choice"]


@dataclass(frozen=True)
class Setting:
    name: str  # ini key; the option is --pacts-<name with _ as -> minus the pacts_ prefix
    kind: Kind
    default: str | list[str] | bool | int | float | None
    help: str
    choices: tuple[str, ...] = ()

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def dest(self) -> str:
        return self.name


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "pacts_files",
        "linelist",
        ["*.req.json", "*.req.yaml", "*.req.yml", "*.req.xlsx"],
        "Glob patterns of requirement files to collect anywhere. Besides these, every "
        ".xlsx under the paths pytest starts from (those given on the command line, else "
        "testpaths, else the rootdir; never the report folder), and any .json/.yaml/.xlsx "
        "file given by name, is collected.",
    ),
    Setting(
        "pacts_blocks_files",
        "linelist",
        [],
        "Shared blocks files (JSON/YAML/XLSX with a blocks section), relative to the rootdir.",
    ),
    Setting(
        "pacts_secret_vars",
        "linelist",
        [],
        "Var names whose values are secret (besides names containing password, token, "
        "secret, key...). Secrets print as ***.",
    ),
    Setting(
        "pacts_markers",
        "linelist",
        [],
        "Requirement tags to register as markers (for --strict-markers / strict = true).",
    ),
    Setting(
        "pacts_max_file_mb",
        "float",
        20.0,
        "Largest requirement file read, in MB; larger ones are a collection error.",
    ),
    Setting(
        "pacts_max_uncompressed_mb",
        "float",
        50.0,
        "Largest size an .xlsx workbook may inflate to, in MiB, checked on the archive's "
        "directory before anything is inflated.",
    ),
    Setting(
        "pacts_max_compression_ratio",
        "float",
        200.0,
        "Largest inflation ratio of one .xlsx part over 1 MiB (a zip bomb inflates thousands "
        "of times).",
    ),
    Setting(
        "pacts_max_rows",
        "int",
        100_000,
        "Most rows read from one sheet; rows are streamed and a longer sheet is a collection "
        "error.",
    ),
    Setting(
        "pacts_max_cell_chars",
        "int",
        32_767,
        "Longest text of one spreadsheet cell (Excel's own limit).",
    ),
    Setting(
        "pacts_max_nesting",
        "int",
        64,
        "Deepest nesting of JSON/YAML values.",
    ),
    Setting(
        "pacts_max_yaml_nodes",
        "int",
        1_000_000,
        "Most values of a YAML document once its aliases are expanded (refuses alias bombs).",
    ),
    Setting(
        "pacts_store",
        "string",
        None,
        "Where pytest-pacts keeps verified locators, heal history and audit events: a SQLite "
        "path or a postgresql:// DSN (default: .pacts/pacts.db in the rootdir; env "
        "PACTS_STORE).",
    ),
    Setting(
        "pacts_discover",
        "choice",
        "auto",
        "Find-first discovery before the first test, in the tests' browser and contexts: auto "
        "(requirements without a valid cached plan), always (every selected requirement), "
        "off. --collect-only never discovers.",
        choices=("auto", "always", "off"),
    ),
    Setting(
        "pacts_discovery_ttl",
        "int",
        3600,
        "Seconds a live discovery result stays valid in the POM cache.",
    ),
    Setting(
        "pacts_step_timeout",
        "float",
        10.0,
        "Seconds one step may take, its expected outcome's auto-waiting included.",
    ),
    Setting("pacts_max_heal_rounds", "int", 3, "Healing rounds per step (MAX_HEAL_ROUNDS)."),
    Setting(
        "pacts_heal_threshold",
        "float",
        DEFAULT_THRESHOLD,
        "Score a discovered or relocated element must reach to be used (the evidence rule).",
    ),
    Setting(
        "pacts_heal_margin",
        "float",
        DEFAULT_MARGIN,
        "How far the best candidate must lead the runner-up (the evidence rule).",
    ),
    Setting(
        "pacts_strict_heal",
        "bool",
        False,
        "Fail requirements that passed only thanks to a heal (heals stay recorded).",
    ),
    Setting(
        "pacts_interactive",
        "bool",
        False,
        "On a terminal, ask GO / NOT GO before using a heal the rules declined (needs -s).",
    ),
    Setting(
        "pacts_extension_budget",
        "int",
        0,
        "Calls per run to external healers (the pytest_pacts_heal_candidates hook); 0 = off.",
    ),
    Setting(
        "pacts_dialogs",
        "choice",
        "accept",
        "What a native alert/confirm/prompt raised during a step gets: accept (a person "
        "clicks OK; a prompt gets its default value) or dismiss. Its text goes into the "
        "step's notes.",
        choices=("accept", "dismiss"),
    ),
    Setting(
        "pacts_max_response_kb",
        "float",
        1024.0,
        "Largest JSON response body a step reads (extract from response:, a response: "
        "outcome), in KiB; a larger one is reported as too large and never read whole.",
    ),
    Setting(
        "pacts_session",
        "string",
        None,
        "Session name for SESSION_CONFLICT: two runs of one requirement in one session "
        "cannot be in flight at once (default: the --base-url).",
    ),
    Setting(
        "pacts_accept_heals",
        "choice",
        "none",
        "Persist heal proposals as new recipe versions at the end of each healed run: none "
        "(review them with `pacts heals`), minor (selector and action updates), all.",
        choices=("none", "minor", "all"),
    ),
    Setting(
        "pacts_dry_run",
        "bool",
        False,
        "Run items without a browser: resolve every value at its moment of use and pass "
        "(discovery before the tests still follows --pacts-discover).",
    ),
    Setting(
        "pacts_browser_path",
        "string",
        None,
        "Chromium executable to use when Playwright's own browsers are not installed "
        "(default: detect /usr/bin/chromium and friends, for a headless run "
        "/usr/bin/chromium-headless-shell first; env PACTS_BROWSER_PATH).",
    ),
    Setting(
        "pacts_report_dir",
        "string",
        ".pacts/reports",
        "Folder (relative to the rootdir) for per-requirement artifacts: each run writes "
        "<dir>/<run id>/ with verdict JSON, step logs, summaries and index.json/index.md. "
        "'off' writes none.",
    ),
    Setting(
        "pacts_report_keep",
        "int",
        20,
        "Run folders kept under pacts_report_dir; older ones are deleted at session end "
        "(0 keeps all).",
    ),
    Setting(
        "pacts_results",
        "choice",
        "on",
        "Results back to the sheet: at session end, <report dir>/<run id>/results/ gets a "
        "copy of each requirement .xlsx with Verdict, Step result, Root cause, Heal and "
        "Duration columns beside the rows (the original is never written), and a CSV per "
        "JSON/YAML file. 'off' writes none.",
        choices=("on", "off"),
    ),
    Setting(
        "pacts_slos",
        "choice",
        "auto",
        "SLOs in the terminal summary, the HTML report and index.md: auto (only once the "
        "store holds earlier sessions' runs, and only the SLOs with at least 20 qualifying "
        "runs: LLM calls/run only where runs made LLM calls), always, off.",
        choices=("auto", "always", "off"),
    ),
    Setting(
        "pacts_generate",
        "bool",
        False,
        "Write generated_tests/test_<req_id>.py (plain pytest-playwright) for every "
        "requirement that passed, rewritten only when its plan hash changes.",
    ),
    Setting(
        "pacts_generate_dir",
        "string",
        "generated_tests",
        "Folder (relative to the rootdir) that --pacts-generate writes into.",
    ),
    Setting(
        "pacts_trace",
        "choice",
        "on",
        "Trace bundles: every passing run keeps, per requirement, each step's URL, the "
        "element's text and box, a small picture, a DOM hash, the requests with their status "
        "and the duration; the next runs are compared with the last passing one and what "
        "changed is flagged as a regression, even when the test passes. 'off' records none.",
        choices=("on", "off"),
    ),
    Setting(
        "pacts_trace_slower",
        "float",
        3.0,
        "A step more than this many times slower than in the last passing run is a regression.",
    ),
    Setting(
        "pacts_trace_slow_floor_ms",
        "float",
        300.0,
        "Steps are compared with at least this many milliseconds, so a tiny step is not "
        "flagged on noise (a 20 ms step must take over slower x this to be flagged).",
    ),
    Setting(
        "pacts_trace_move_px",
        "float",
        100.0,
        "An element whose centre moved more than this many CSS pixels is a regression.",
    ),
    Setting(
        "pacts_trace_max_kb",
        "int",
        1024,
        "Most kilobytes of step pictures one trace bundle keeps; later steps keep none.",
    ),
    Setting(
        "pacts_trace_keep",
        "int",
        20,
        "Trace bundles kept per requirement in the store (only the newest keeps its "
        "pictures); 0 keeps all.",
    ),
    Setting(
        "pacts_auth_file",
        "string",
        "pacts-auth.yaml",
        "The auth profiles file (relative to the rootdir): each profile's login flow, "
        "accounts, verify check and max_age. A requirement with 'auth: <profile>' starts "
        "with that profile's saved session; the login runs once per run.",
    ),
    Setting(
        "pacts_auth_dir",
        "string",
        ".pacts/auth",
        "Private folder (relative to the rootdir; 0700, files 0600) for the saved sessions "
        "of auth profiles, never inside a report folder; `pacts auth clear` empties it.",
    ),
)

_BY_NAME = {s.name: s for s in SETTINGS}


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("pacts", "pytest-pacts: requirement sheets as self-healing tests")
    for s in SETTINGS:
        help_text = f"{s.help} [ini: {s.name}]"
        if s.kind == "linelist":
            group.addoption(
                s.flag,
                dest=s.dest,
                action="append",
                default=None,
                metavar="VALUE",
                help=help_text + " (repeatable)",
            )
            parser.addini(s.name, s.help, type="linelist", default=list(s.default or []))  # type: ignore[arg-type]
        elif s.kind == "bool":
            group.addoption(
                s.flag, dest=s.dest, action="store_const", const=True, default=None, help=help_text
            )
            parser.addini(s.name, s.help, type="bool", default=bool(s.default))
        else:
            group.addoption(
                s.flag,
                dest=s.dest,
                default=None,
                metavar=s.name.upper()[6:],
                choices=list(s.choices) or None,
                help=help_text,
            )
            parser.addini(
                s.name, s.help, type="string", default="" if s.default is None else str(s.default)
            )


def get(config: pytest.Config, name: str) -> str | list[str] | bool | int | float | None:
    """The effective value of a setting: command line, else ini, else default."""
    s = _BY_NAME[name]
    cli = config.getoption(s.dest, default=None)
    if cli is not None:
        value: object = cli
    else:
        value = config.getini(s.name)
        if value in ("", None, []) and s.default not in ("", None, []):
            value = s.default
    if s.kind == "linelist":
        return (
            [str(v) for v in value] if isinstance(value, list) else ([str(value)] if value else [])
        )
    if s.kind == "bool":
        return bool(value) if not isinstance(value, str) else value.lower() in ("1", "true", "yes")
    if value in ("", None):
        return None
    try:
        if s.kind == "int":
            return int(str(value))
        if s.kind == "float":
            return float(str(value))
    except ValueError:
        raise pytest.UsageError(f"{s.flag} / {s.name} must be a number, got {value!r}") from None
    if s.choices and str(value) not in s.choices:
        raise pytest.UsageError(
            f"{s.flag} / {s.name} must be one of {', '.join(s.choices)}, got {value!r}"
        )
    return str(value)


SETTINGS_KEY = pytest.StashKey[PactsSettings]()


def read_settings(config: pytest.Config) -> PactsSettings:
    """Every setting of the table, read from ``config`` now; a bad value is one clean usage
    error (``--pacts-step-timeout=abc``) rather than a failure in every item."""
    values: dict[str, Any] = {}
    for s in SETTINGS:
        value: object = get(config, s.name)
        if value is None or value == "":
            value = s.default
        values[s.name.removeprefix("pacts_")] = tuple(value) if isinstance(value, list) else value
    return PactsSettings(**values, base_url=configured_base_url(config))


def configure(config: pytest.Config) -> PactsSettings:
    """Read the settings once (``pytest_configure``) and keep them on ``config``."""
    config.stash[SETTINGS_KEY] = read_settings(config)
    return config.stash[SETTINGS_KEY]


def settings(config: pytest.Config) -> PactsSettings:
    """This session's settings, as :func:`configure` read them (read now when the plugin's
    ``pytest_configure`` has not run, e.g. a module registered on its own)."""
    found = config.stash.get(SETTINGS_KEY, None)
    return found if found is not None else configure(config)


def configured_base_url(config: pytest.Config) -> str | None:
    """The project's base URL as pytest-playwright reads it: ``--base-url`` (or
    ``PYTEST_BASE_URL``), else the ``base_url`` ini key (``pytest.ini``, ``pyproject.toml``).
    A ``base_url`` fixture override is only known once fixtures exist: the run reads the
    fixture itself (``execution.requirement_test``)."""
    value = config.getoption("base_url", default=None)
    if not value:
        try:
            value = config.getini("base_url")
        except ValueError:  # no plugin registered the ini key (pytest-playwright not loaded)
            value = None
    return str(value) if value else None
