"""Artifact files of one requirement, read back."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_pacts.models.text import file_stem
from pytest_pacts.reports.artifacts import prune_runs, write_requirement_artifacts
from pytest_pacts.reports.proposals import proposal_views
from pytest_pacts.reports.redact import Redactor
from tests.reports.helpers import NEW, record


def test_files_of_one_requirement(tmp_path: Path) -> None:
    rec = record("REQ-A/1", heal=NEW, proposal_id="7", track="contract", message="tok secret-42")
    views = proposal_views(rec, None)
    paths = write_requirement_artifacts(
        tmp_path, "dir/a.xlsx::REQ-A/1", rec, views, Redactor(["secret-42"])
    )
    folder = tmp_path / file_stem("dir/a.xlsx::REQ-A/1")  # distinct per node id
    assert folder.name.startswith("dir_a_xlsx_req_a_1__")
    assert paths["record"] == folder / "verdict_REQ-A_1.json"
    doc = json.loads(paths["record"].read_text())
    assert doc["summary"] == {
        "total_steps": 2, "executed_steps": 2, "failed_steps": 0, "skipped_steps": 0,
        "healed_steps": 1, "heal_rounds": 1, "llm_calls": 0, "duration_ms": 161.0,
    }  # fmt: skip
    assert doc["rca"]["class"] == "success" and doc["rca"]["message"] == "tok ***"
    assert doc["heals"][0]["proposal_id"] == "7" and doc["heals"][0]["badge"] == "Contract"
    assert [s["status"] for s in doc["steps"]] == ["success", "success"]
    lines = [json.loads(x) for x in paths["log"].read_text().splitlines()]
    # one step numbering, 1-based, in every artifact, as the CLI and the dashboard (issue 39)
    assert [(x["step"], x["op"], x["ok"]) for x in lines] == [(1, "fill", True), (2, "click", True)]
    assert [s["step"] for s in doc["steps"]] == [1, 2] and doc["heals"][0]["step"] == 2
    assert lines[1]["healedBy"] == ["similarity"]
    summary = paths["summary"].read_text()
    assert "- Result: Success (healed, 1 heal)" in summary
    assert 'healed by similarity: css #login-button -> role_name button "Log in"' in summary
    assert "- Step 2 healed by similarity" in summary
    assert "- Proposal 7: Contract (step 2)" in summary  # it said "step 1" beside "Step 2"
    assert "secret-42" not in "".join(p.read_text() for p in paths.values())


def test_prune_keeps_the_newest_runs_and_nothing_else(tmp_path: Path) -> None:
    names = [f"202611{d:02d}T000000Z-abcdef" for d in range(1, 6)]
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "index.json").write_text("{}")
    (tmp_path / "20261101T000000Z-000000-mine").mkdir()  # not a run folder
    (tmp_path / "LATEST").write_text(names[-1])
    removed = prune_runs(tmp_path, 2)
    assert [p.name for p in removed] == names[:3]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*names[3:], "20261101T000000Z-000000-mine", "LATEST"]
    )


def test_a_heal_without_the_store_still_says_which_rule_it_was_held_to() -> None:
    rec = record("REQ-A/1", heal=NEW, proposal_id="7", track="contract")
    (view,) = proposal_views(rec, None)
    # the similarity rung is held to the heal threshold; the view says so, with the score
    assert view.rule.startswith("held to the heal threshold 0.75 and a margin of 0.10")
    assert view.rule.endswith("the threshold") and "score " in view.rule


def test_the_reports_mask_a_secret_in_any_letter_case_as_the_engine_does() -> None:
    """One masking rule (``planner.templating.SecretMask``): the engine's messages masked a
    secret in any letter case, the reports and a trace's members only as written, so a page
    that shows the user name upper-cased ("Signed in as ADMIN-7") put it in the HTML report
    and the trace. Values under four characters stay unmasked everywhere alike."""
    from pytest_pacts.engine.network import mask_in

    secrets = ["Admin-7", "s3cr&t pass", "ab"]
    shown = "Signed in as ADMIN-7 with S3CR&T PASS; admin-7 again; ab stays"
    redactor = Redactor(secrets)
    assert redactor.text(shown) == mask_in(shown, secrets)
    assert redactor.text(shown) == "Signed in as *** with ***; *** again; ab stays"
    # a trace member: the value as sent in a form (URL-encoded) and in JSON, upper-cased
    member = b'{"postData":"user=ADMIN-7&pw=S3CR%26T+PASS","title":"s3cr&amp;t pass"}'
    masked = redactor.data(member)
    assert b"ADMIN-7" not in masked and b"S3CR%26T" not in masked and b"s3cr&amp;t" not in masked
    assert masked.count(b"***") == 3
