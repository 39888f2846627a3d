"""A sample requirement run for real: engine, reports, --pacts-generate, canary secret.

Then the generated test runs on its own with plain pytest (no pacts plugin) against the
same demo app (docs/reports.md "Generator").
"""

from __future__ import annotations

import inspect
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CANARY = "pacts-canary-4b1d9e77"


def _engine_ready() -> str | None:
    try:
        from pytest_pacts.engine.api import run_requirement
        from pytest_pacts.pytest_plugin import execution  # noqa: F401
    except ImportError as exc:
        return f"the engine is not importable yet ({exc})"
    if "RunRecord" not in str(inspect.signature(run_requirement).return_annotation):
        return "engine.api.run_requirement does not return a RunRecord yet"
    return None


REQUIREMENTS = {
    "requirements": [
        {
            "req_id": "REQ-E2E-LOGIN",
            "title": "Log in with the password from the environment",
            "url": "/",
            "steps": [
                "Username@LoginForm | fill | standard_user | field_populated",
                "Password@LoginForm | fill | {{env.PACTS_DEMO_PASSWORD}} | field_populated",
                "Login@LoginForm | click | | navigates_to:Products",
            ],
        },
        {
            "req_id": "REQ-E2E-CANARY",
            "title": "A secret typed into a field that then fails its expectation",
            "url": "/",
            "steps": ["Username@LoginForm | fill | {{env.PACTS_CANARY}} | value:someone else"],
        },
    ]
}


def test_sample_requirement_end_to_end(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    reason = _engine_ready()
    if reason:
        pytest.skip(reason)
    root = pytester.path
    shutil.copyfile(REPO / "conftest_templates" / "conftest.py", root / "conftest.py")
    (root / "e2e.req.json").write_text(json.dumps(REQUIREMENTS))
    (root / "pytest.ini").write_text(
        "[pytest]\njunit_family = xunit1\npacts_report_dir = out\npacts_generate_dir = gen\n"
        "pacts_step_timeout = 3\npacts_max_heal_rounds = 1\n"
    )
    monkeypatch.setenv("PACTS_CANARY", CANARY)
    monkeypatch.setenv("PACTS_DEMO_PASSWORD", "secret_sauce")
    result = pytester.runpytest_subprocess(
        "--pacts-generate",
        "--junitxml=junit.xml", "--html=report.html", "--self-contained-html",
    )  # fmt: skip
    result.assert_outcomes(passed=1, failed=1)
    cases = {c.get("name"): c for c in ET.parse(root / "junit.xml").iter("testcase")}
    props = {p.get("name"): p.get("value") for p in cases["REQ-E2E-LOGIN"].iter("property")}
    assert props["pacts_verdict"] == "pass"
    record = json.loads(Path(str(props["pacts_record"])).read_text())
    assert [s["status"] for s in record["steps"]] == ["success"] * 3
    assert all(s["strategy"] for s in record["steps"])
    failed = {p.get("name"): p.get("value") for p in cases["REQ-E2E-CANARY"].iter("property")}
    assert failed["pacts_verdict"] == "fail"
    # the canary appears in nothing this run wrote
    written = [root / "junit.xml", root / "report.html", *(root / "out").rglob("*"),
               *(root / "gen").rglob("*")]  # fmt: skip
    for path in written:
        if path.is_file():
            assert CANARY.encode() not in path.read_bytes(), f"canary leaked into {path}"
    assert CANARY not in result.stdout.str()
    generated = root / "gen" / "test_req_e2e_login.py"
    assert generated.is_file() and not (root / "gen" / "test_req_e2e_canary.py").exists()
    assert 'os.environ["PACTS_DEMO_PASSWORD"]' in generated.read_text()
    shutil.copyfile(REPO / "generated_tests" / "conftest.py", root / "gen" / "conftest.py")
    plain = pytester.runpytest_subprocess("-p", "no:pacts", "-p", "no:cacheprovider", "gen")
    plain.assert_outcomes(passed=1)
