"""Cell values cannot break or inject code into generated tests.

Every generated module is parsed with ``ast`` and then *run* against a recording fake page:
the hostile values must arrive as data, intact, and none of them may execute.
"""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pytest_pacts.generator import GenerationError, Locators, render_test, write_test
from pytest_pacts.models import Plan
from pytest_pacts.models.locator import Locator, Region, RegionMatch, Strategy
from pytest_pacts.planner import LoaderOptions, load_file

PWNED = "PWNED"
HOSTILE = [
    "it's \"quoted\" and 'single'",
    "line one\nline two\r\nline three",
    '""" + __import__("os").system("touch PWNED") + """',
    "{% if True %}jinja{% endif %} {%raw%} {# c #}",
    "'); __import__('os').system('touch PWNED'); ('",
    "\\'; open('PWNED', 'w') #",
    "\n# comment\nimport os; os.system('touch PWNED')",
    "\u2028__import__('os').system('touch PWNED')\u2029",
]


class Recorder:
    """Stands in for Playwright's page, locators and ``expect``: records every call."""

    url = "http://app.test/"

    def __init__(self, log: list[tuple[str, tuple[Any, ...]]], path: str = "page") -> None:
        self._log = log
        self._path = path

    def __getattr__(self, name: str) -> Recorder:
        return Recorder(self._log, f"{self._path}.{name}")

    def __call__(self, *args: Any, **kwargs: Any) -> Recorder:
        self._log.append((self._path, args + tuple(kwargs.values())))
        return Recorder(self._log, self._path + "()")


def _plan(tmp_path: Path) -> Plan:
    steps = [
        {"element": f"Field {i} {v}", "action": "fill", "value": v, "expected": f"value:{v}"}
        for i, v in enumerate(HOSTILE)
    ]
    steps += [
        {"element": "Go", "region": HOSTILE[2], "action": "click",
         "expected": f"text_visible:{HOSTILE[4]}"},
        {"action": "goto", "value": "/x?q=" + HOSTILE[0], "expected": f"url_contains:{HOSTILE[5]}"},
        {"element": "Key", "action": "press", "value": "Enter",
         "expected": f"navigates_to:{HOSTILE[2]}"},
    ]  # fmt: skip
    doc = {
        "req_id": "REQ-INJ-001",
        "title": HOSTILE[6],
        "url": "/start?x=" + HOSTILE[3],
        "vars": {"note": HOSTILE[1]},
        "steps": steps,
    }
    path = tmp_path / "hostile.req.json"
    path.write_text(json.dumps(doc))
    return load_file(path, LoaderOptions(env={})).plans[0]


def _locators(plan: Plan) -> Locators:
    out: dict[int, Locator] = {}
    for step in plan.steps:
        text = HOSTILE[step.index % len(HOSTILE)]
        region = Region(description=text, matched_by=RegionMatch.TEXT, css="form", has_text=text)
        out[step.index] = Locator(
            strategy=Strategy.LABEL, confidence=0.92, label=text, region=region
        )
    return Locators(steps=out)


def _run(source: str) -> list[tuple[str, tuple[Any, ...]]]:
    namespace: dict[str, Any] = {"__name__": "generated"}
    exec(compile(source, "generated.py", "exec"), namespace)  # the point of the test
    log: list[tuple[str, tuple[Any, ...]]] = []
    namespace["expect"] = Recorder(log, "expect")
    test = next(v for k, v in namespace.items() if k.startswith("test_"))
    test(Recorder(log))
    return log


def test_hostile_cells_are_data_not_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    plan = _plan(tmp_path)
    source = render_test(plan, _locators(plan))
    tree = ast.parse(source)
    called = {
        n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
    }
    assert not called & {"system", "__import__", "open", "eval", "exec"}
    # every comment stays one line: nothing after a '#' reaches the next line
    for line in source.splitlines():
        assert not line.lstrip().startswith(("import os;", "__import__"))
    log = _run(source)
    assert not (tmp_path / PWNED).exists()
    seen = [a for _, args in log for a in args if isinstance(a, str)]
    for value in HOSTILE:
        assert value in seen, f"{value!r} did not arrive intact"
    assert ("page.goto", ("/start?x=" + HOSTILE[3],)) in log


def test_templates_in_values_are_errors_not_code(tmp_path: Path) -> None:
    plan = _plan(tmp_path)
    bad = plan.steps[0].model_copy(update={"value": "{{ __import__('os').system('x') }}"})
    broken = plan.model_copy(update={"steps": (bad, *plan.steps[1:])})
    with pytest.raises(GenerationError):
        render_test(broken, _locators(plan))


def test_secrets_come_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    canary = "canary-7f3a9c1e-secret"
    monkeypatch.setenv("PACTS_CANARY", canary)
    doc = {
        "req_id": "REQ-SECRET-001",
        "url": "/",
        "vars": {"password": "hunter2-literal", "user": "ada"},
        "steps": [
            "Username | fill | {{vars.user}}",
            "Password | fill | {{vars.password}}",
            "Token | fill | {{env.PACTS_CANARY}}",
            "Other | fill | pre-{{env.PACTS_OTHER:fallback}}-post",
        ],
    }
    path = tmp_path / "secret.req.json"
    path.write_text(json.dumps(doc))
    plan = load_file(path, LoaderOptions(env=dict(os.environ))).plans[0]
    result = write_test(plan, _locators(plan), tmp_path / "out")
    text = result.path.read_text()
    assert canary not in text and "hunter2-literal" not in text
    assert 'os.environ["PACTS_CANARY"]' in text
    assert 'os.environ["PACTS_VAR_PASSWORD"]' in text
    assert '"pre-" + os.environ.get("PACTS_OTHER", "fallback") + "-post"' in text
    assert '"ada"' in text
    monkeypatch.setenv("PACTS_VAR_PASSWORD", "from-env")
    calls = _run(text)
    seen = [a for _, args in calls for a in args]
    assert canary in seen and "from-env" in seen and "pre-fallback-post" in seen


def test_rewritten_only_when_the_plan_hash_changes(tmp_path: Path) -> None:
    plan = _plan(tmp_path)
    out = tmp_path / "generated"
    first = write_test(plan, _locators(plan), out)
    assert (first.written, first.reason) == (True, "new")
    assert (out / "conftest.py").is_file()
    again = write_test(plan, _locators(plan), out)
    assert (again.written, again.reason) == (False, "unchanged")
    changed = plan.model_copy(update={"plan_hash": "sha256:" + "0" * 64})
    assert write_test(changed, _locators(plan), out).reason == "plan hash changed"
    assert write_test(changed, _locators(plan), out, force=True).reason == "forced"
    assert "sha256:" + "0" * 64 in first.path.read_text()


def test_missing_locator_names_the_step(tmp_path: Path) -> None:
    plan = _plan(tmp_path)
    with pytest.raises(GenerationError, match=r"hostile.req.json:.*step 1 .*no verified locator"):
        render_test(plan, Locators())
