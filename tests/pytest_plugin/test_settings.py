"""Settings read once: the table of ``pytest_plugin/options.py`` becomes one frozen
:class:`PactsSettings` when pytest configures, with the same precedence as before (command
line > ini > default; ``PACTS_STORE`` under ``pacts_store``; ``--base-url`` /
``PYTEST_BASE_URL`` over the ``base_url`` ini key)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from pytest_pacts import application
from pytest_pacts.pytest_plugin.options import SETTINGS
from pytest_pacts.settings import PactsSettings


def test_every_setting_of_the_table_is_a_field_with_its_default() -> None:
    fields = {f.name: f for f in dataclasses.fields(PactsSettings)}
    table = {s.name.removeprefix("pacts_"): s for s in SETTINGS}
    assert set(fields) - set(table) == {"base_url"}, "a field that is no setting of the table"
    assert set(table) <= set(fields), f"settings without a field: {set(table) - set(fields)}"
    defaults = PactsSettings()
    for name, setting in table.items():
        expected = tuple(setting.default) if isinstance(setting.default, list) else setting.default
        assert getattr(defaults, name) == expected, setting.name


# the test of the pytester project: what the plugin read, as JSON
_DUMP = """
import dataclasses, json
from pathlib import Path

from pytest_pacts import application
from pytest_pacts.pytest_plugin import options


def test_dump(pytestconfig):
    settings = options.settings(pytestconfig)
    assert settings is options.settings(pytestconfig)  # read once, kept on the config
    data = dataclasses.asdict(settings)
    data["store_target"] = application.store_target(settings, pytestconfig.rootpath)
    Path("settings.json").write_text(json.dumps(data))
"""


def _read(pytester: pytest.Pytester, *args: str) -> dict[str, object]:
    pytester.makepyfile(test_dump=_DUMP)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "test_dump.py", *args)
    result.assert_outcomes(passed=1)
    data = json.loads((pytester.path / "settings.json").read_text())
    assert isinstance(data, dict)
    return data


def test_defaults_when_nothing_is_configured(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PACTS_STORE", raising=False)
    monkeypatch.delenv("PYTEST_BASE_URL", raising=False)
    data = _read(pytester)
    expected = json.loads(json.dumps(dataclasses.asdict(PactsSettings())))
    assert {k: v for k, v in data.items() if k != "store_target"} == expected
    assert data["store_target"] == str(pytester.path / ".pacts" / "pacts.db")


def test_command_line_over_ini_over_default(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PACTS_STORE", raising=False)
    monkeypatch.delenv("PYTEST_BASE_URL", raising=False)
    pytester.makeini(
        "[pytest]\n"
        "pacts_step_timeout = 4.5\n"
        "pacts_max_heal_rounds = 5\n"
        "pacts_discover = off\n"
        "pacts_strict_heal = true\n"
        "pacts_secret_vars =\n    API_KEY\n    PIN\n"
        "pacts_report_dir = ini-reports\n"
        "pacts_store = ini.db\n"
        "base_url = http://ini.example\n"
    )
    data = _read(
        pytester,
        "--pacts-step-timeout=2",
        "--pacts-discover=always",
        "--pacts-secret-vars=OTP",
        "--pacts-accept-heals=minor",
        "--base-url=http://cli.example",
    )
    assert data["step_timeout"] == 2.0  # command line wins
    assert data["discover"] == "always"
    assert data["secret_vars"] == ["OTP"]
    assert data["accept_heals"] == "minor"
    assert data["base_url"] == "http://cli.example"
    assert data["max_heal_rounds"] == 5  # ini, nothing on the command line
    assert data["strict_heal"] is True
    assert data["report_dir"] == "ini-reports"
    assert data["store_target"] == "ini.db"
    assert data["heal_threshold"] == 0.75  # the table's default
    assert data["session"] is None
    # and what a run is built from: the application layer's settings of one run
    settings = PactsSettings(**{k: v for k, v in data.items() if k != "store_target"})  # type: ignore[arg-type]
    run = application.run_settings(settings)
    assert run.options.step_timeout_ms == 2000.0
    assert run.options.max_heal_rounds == 5
    assert run.session_id == "http://cli.example"  # no pacts_session: the base URL
    assert run.secret_vars == frozenset({"OTP"})


def test_environment_variables_keep_their_place(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``PACTS_STORE`` is used when ``pacts_store`` is not set, and ``PYTEST_BASE_URL`` is
    the ``--base-url`` default (over the ini key), as before the settings object."""
    monkeypatch.setenv("PACTS_STORE", str(Path("env.db")))
    monkeypatch.setenv("PYTEST_BASE_URL", "http://env.example")
    pytester.makeini("[pytest]\nbase_url = http://ini.example\n")
    data = _read(pytester)
    assert data["store_target"] == "env.db"
    assert data["store"] is None
    assert data["base_url"] == "http://env.example"
    data = _read(pytester, "--pacts-store=cli.db", "--base-url=http://cli.example")
    assert data["store_target"] == "cli.db"
    assert data["base_url"] == "http://cli.example"


def test_a_bad_value_is_one_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_dump=_DUMP)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--pacts-max-rows=many")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--pacts-max-rows / pacts_max_rows must be a number*"])


def test_the_settings_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        PactsSettings().step_timeout = 1.0  # type: ignore[misc]
