"""Every pytest-pacts setting, as a command-line option *and* an ini key.

Precedence: command line > ini > default. The settings are the fields of
:class:`~pytest_pacts.settings.PactsSettings` (:data:`~pytest_pacts.settings.SETTINGS`), so
docs/reference.md and ``--help`` cannot drift apart: add a field there and it exists in
both places.

The table is read once, when pytest configures (:func:`configure`): every other module
reads the frozen :class:`~pytest_pacts.settings.PactsSettings` (:func:`settings`), never the
pytest configuration.
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_pacts.settings import SETTINGS, PactsSettings, Setting

__all__ = ["SETTINGS", "Setting", "add_options", "configure", "get", "settings"]

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
            lines = s.default if isinstance(s.default, list) else []
            parser.addini(s.name, s.help, type="linelist", default=lines)
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
