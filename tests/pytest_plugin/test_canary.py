"""SPEC.md §17: a canary secret run through the whole sample suite appears in no artifact.

Every file the run writes is read back (JUnit, self-contained HTML, verdict JSON, JSONL step
logs, summaries, generated tests, screenshots) and the store is dumped as SQL; stdout and
stderr are checked too. The canary reaches the app through ``{{env.PACTS_CANARY}}`` and
through a var whose name marks it secret, in a passing step and in a failing one (whose
failure text quotes the step).
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CANARY = "cnry-5d1e0c2a"
LITERAL = "cnry-literal-9f3b"
CANARY_REQ = """
vars:
  api_token: "LITERAL"
requirements:
  - req_id: REQ-CANARY-OK
    url: /widgets.html
    steps:
      - "Email@Newsletter | fill | {{env.PACTS_CANARY}} | field_populated"
      - "Email@Newsletter | fill | {{vars.api_token}} | field_populated"
  - req_id: REQ-CANARY-FAIL
    url: /
    steps:
      - "Username@LoginForm | fill | {{env.PACTS_CANARY}} | value:someone else"
""".replace("LITERAL", LITERAL)


def test_canary_secret_appears_in_no_artifact(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "sample_requirements", pytester.path, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".pacts"))  # fmt: skip
    (pytester.path / "canary.req.yaml").write_text(CANARY_REQ)
    monkeypatch.setenv("PACTS_CANARY", CANARY)
    result = pytester.runpytest_subprocess(
        ".", "-v", "-p", "no:cacheprovider", "--junitxml=out/junit.xml",
        "--html=out/report.html", "--self-contained-html", "--pacts-generate",
        "--pacts-generate-dir=out/generated",
    )  # fmt: skip
    result.assert_outcomes(passed=7, failed=1)
    written = [p for p in pytester.path.rglob("*") if p.is_file()]
    sources = {pytester.path / "canary.req.yaml"}
    checked = 0
    for path in written:
        if path in sources or path.suffix in (".db-wal", ".db-shm"):
            continue
        if path.suffix == ".db":
            with sqlite3.connect(path) as db:
                data = "\n".join(db.iterdump()).encode()
        else:
            data = path.read_bytes()
        checked += 1
        for secret in (CANARY, LITERAL):
            assert secret.encode() not in data, f"{secret} leaked into {path}"
    assert checked >= 20  # junit, html, store, verdicts, logs, summaries, generated tests
    for stream in (result.stdout.str(), result.stderr.str()):
        assert CANARY not in stream and LITERAL not in stream
    # the failing step's text is still useful: the step and the masked value
    assert "REQ-CANARY-FAIL" in result.stdout.str()
