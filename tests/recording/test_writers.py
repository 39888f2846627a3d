"""The three formats ``pacts record`` writes load through the planner as they are written
(docs/user-guide.md, "Record a sheet"): the same steps, the notes kept where the format
has room for them, secret values never written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openpyxl import load_workbook

from pytest_pacts.planner.loader import LoaderOptions, load_file
from pytest_pacts.recording.model import RecordedStep, Recording, env_name, is_secret
from pytest_pacts.recording.service import write_checked


def _recording() -> Recording:
    return Recording(
        url="http://127.0.0.1:1/",
        title="Sign in",
        auth=None,
        steps=[
            RecordedStep("fill", "Username", "ada"),
            RecordedStep("fill", "Password", "{{env.PASSWORD}}"),
            RecordedStep("fill", "Search", "a | b"),  # a pipe: written as an object
            RecordedStep("click", "Delete", note='"Delete" matches 2 elements'),
            RecordedStep("click", "Login", expected="navigates_to:Products"),
        ],
        env={"PASSWORD": 'typed into "Password"'},
        secrets={"PASSWORD": "hunter2"},
    )


@pytest.mark.parametrize("name", ["signin.req.yaml", "signin.req.json", "signin.xlsx"])
def test_each_format_loads_with_the_recorded_steps(tmp_path: Path, name: str) -> None:
    out = write_checked(_recording(), tmp_path / name, source="pacts record").path
    plan = load_file(out, LoaderOptions(env={"PASSWORD": "x"})).plans[0]
    assert [(str(s.target) if s.target else None, s.action.value, s.value) for s in plan.steps] == [
        ("Username", "fill", "ada"),
        ("Password", "fill", "{{env.PASSWORD}}"),
        ("Search", "fill", "a | b"),
        ("Delete", "click", None),
        ("Login", "click", None),
    ]
    assert plan.requirement.url == "http://127.0.0.1:1/"
    data = out.read_bytes()
    assert b"hunter2" not in data
    if name.endswith(".yaml"):
        text = out.read_text()
        assert '  # not verified: "Delete" matches 2 elements\n  - Delete | click\n' in text
        assert "#   PASSWORD: typed into" in text
    elif name.endswith(".json"):
        steps = json.loads(data)["requirements"][0]["steps"]
        assert steps[3] == {
            "action": "click",
            "element": "Delete",
            "note": 'not verified: "Delete" matches 2 elements',
        }
    else:
        book = load_workbook(out)
        rows = list(book["Requirements"].iter_rows(values_only=True))
        assert rows[0][-1] == "Recorder note"
        assert rows[4][-1] == 'not verified: "Delete" matches 2 elements'
        about = [r[0] for r in book["Recording"].iter_rows(values_only=True)]
        assert any("PASSWORD" in str(line) for line in about)


def test_secret_fields_and_their_variables() -> None:
    assert is_secret(True)
    assert is_secret(False, "API key")
    assert is_secret(False, None, "one-time-code otp")
    assert not is_secret(False, "Username", "email")
    assert env_name("Password@Login", {}, "a") == "PASSWORD"
    assert env_name("Password@Login", {"PASSWORD": "a"}, "b") == "PASSWORD_2"
    assert env_name("Password@Login", {"PASSWORD": "a"}, "a") == "PASSWORD"
    assert env_name("2FA code", {}, "a") == "SECRET_2FA_CODE"
