"""``pacts heals``: list, show, accept, reject against a real SQLite store.

The store is built the way a test run leaves it: recipe v001 from a plan, then proposals
through ``governance.propose`` (gate, repeat counts, audit event). The CLI is driven through
its ``main`` in this process with stdin not a terminal, and through ``python -m
pytest_pacts.cli`` where a pty stands in for a reviewer typing GO.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import pty
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pytest_pacts.cli.main import main
from pytest_pacts.governance import apply_patch, build_heal_proposal, gated, propose, recipe_diff
from pytest_pacts.models.heal import HealProposal, Severity
from pytest_pacts.models.recipe import PatchOp, Recipe
from pytest_pacts.planner import load_file
from pytest_pacts.store import open_store

REQ = "REQ-LOGIN-001"
USER = "Username@Login form"
LOGIN = "Login@Login form"
SHEET = """\
req_id: REQ-LOGIN-001
url: /login
steps:
  - "Username@Login form | fill | {{env.USER_NAME:standard_user}}"
  - "Login@Login form | click | | navigates_to:Products"
"""
CLEAN_ENV = {k: v for k, v in os.environ.items() if k != "PACTS_STORE"}


@dataclass(frozen=True)
class Seeded:
    """A store holding recipe v001 and proposals #1 minor, #2 major, #3-#5 exception."""

    path: Path
    recipe: Recipe


def _heal(recipe: Recipe, created: datetime, **changes: object) -> HealProposal:
    args: dict[str, object] = {
        "step_index": 0,
        "element_key": USER,
        "healed_locator": {"strategy": "label", "label": "Username"},
        "tool_name": "semantic",
        "score": 0.92,
        "runner_up_score": 0.41,
        "rca_class": "selector_drift",
        "failure_type": "not_found",
        "failed_locator": {"strategy": "css", "css": "#user-name"},
        "evidence": [{"gate_result": "passed"}],
        "created_at": created,
    }
    args.update(changes)
    return build_heal_proposal(recipe, **args)  # type: ignore[arg-type]


def _major(recipe: Recipe, created: datetime) -> HealProposal:
    """A heal whose patch changes a step's expectation: major."""
    ops = (PatchOp(path="workflow.s002.expect", op="replace", value="navigates_to:Inventory"),)
    base = _heal(recipe, created, step_index=1, element_key=LOGIN)
    return base.model_copy(
        update={
            "patch_ops": ops,
            "severity": Severity.MAJOR,
            "suggested_diff": recipe_diff(recipe, apply_patch(recipe, ops)),
            "change_plan": "Expect the Inventory page after Login instead of Products.",
        }
    )


@pytest.fixture
def seeded(tmp_path: Path) -> Seeded:
    sheet = tmp_path / "login.req.yaml"
    sheet.write_text(SHEET)
    recipe = Recipe.from_plan(load_file(sheet).plans[0])
    start = datetime.now(UTC) - timedelta(days=3)
    path = tmp_path / ".pacts" / "pacts.db"
    with open_store(path) as store:
        store.recipes.add_version(REQ, recipe.model_dump(mode="json"), plan_hash=recipe.plan_hash)
        propose(store, _heal(recipe, start), now=start)
        propose(store, _major(recipe, start), now=start)
        # The Login button healed three times in three days, each time to another brittle
        # locator (three drifts, one exception fingerprint): the third needs promotion.
        for day in range(3):
            moment = start + timedelta(days=day, hours=1)
            brittle = _heal(
                recipe,
                moment,
                element_key=LOGIN,
                step_index=1,
                healed_locator={"strategy": "css", "css": f"form > button:nth-child({day + 3})"},
                tool_name="similarity",
                score=0.81,
                runner_up_score=None,
                failed_locator={"strategy": "role_name", "role": "button", "name": "Login"},
            )
            propose(store, brittle, now=moment)
    return Seeded(path, recipe)


@dataclass(frozen=True)
class Call:
    """One ``pacts heals ...`` invocation."""

    args: tuple[str, ...]
    cwd: Path | None = None
    env: dict[str, str] | None = None


def pacts_all(*calls: Call) -> list[subprocess.CompletedProcess[str]]:
    """Run each invocation through the CLI's ``main`` in this process, as the console script
    would (its environment, working folder, stdin not a terminal): a fresh interpreter per
    call cost about 0.3 s of CPU, 40 calls in this file. The console script itself is the
    front door of the two pty tests below."""
    return [_in_process(call) for call in calls]


def _in_process(call: Call) -> subprocess.CompletedProcess[str]:
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        for key in list(os.environ):
            mp.delenv(key)
        for key, value in (call.env or CLEAN_ENV).items():
            mp.setenv(key, value)
        if call.cwd is not None:
            mp.chdir(call.cwd)
        mp.setattr(sys, "stdin", io.StringIO(""))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(["heals", *call.args])
            except SystemExit as exc:  # argparse: --help, usage errors
                code = exc.code if isinstance(exc.code, int) else 2
    return subprocess.CompletedProcess(call.args, code, out.getvalue(), err.getvalue())


def pacts(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return pacts_all(Call(args, cwd, env))[0]


def rows(result: subprocess.CompletedProcess[str]) -> list[dict[str, object]]:
    assert result.returncode == 0, result.stderr
    parsed: list[dict[str, object]] = json.loads(result.stdout)
    return parsed


def test_list_table_is_aligned_and_shows_each_column(seeded: Seeded) -> None:
    result = pacts("list", "--store", str(seeded.path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header, first = lines[0], lines[1]
    for column in ("ID", "REQ", "STEP", "PAGE", "ELEMENT", "RUNG", "SCORE/RUNNER-UP", "SEEN"):
        assert column in header
    for column in ("SEVERITY", "TRACK", "PROMOTION", "LAST SEEN"):
        assert column in header
    # steps are numbered from 1, as in the sheet: step_index 0 is step 1
    assert first.split()[:4] == ["1", "pending", REQ, "1"]
    assert "semantic" in first and "0.92/0.41" in first and "minor" in first
    assert "0.81/-" in lines[3]
    # columns line up: every row's RUNG cell starts where the header's does
    col = header.index("RUNG")
    assert all(line[col - 2 : col] == "  " and line[col] != " " for line in lines[1:6])
    assert "5 pending heal proposal(s) shown (5 occurrence(s))" in result.stdout
    assert "PROMOTION yes: Promotion required" in result.stdout


def test_show_is_written_for_a_person(seeded: Seeded) -> None:
    result = pacts("show", "5", "--store", str(seeded.path))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith(
        "Heal proposal #5 · pending · minor · Exception · seen 1 time(s) in 1 requirement(s)"
    )
    assert '  old locator  {"name": "Login", "role": "button", "strategy": "role_name"}' in out
    assert '  new locator  {"css": "form > button:nth-child(5)", "strategy": "css"}' in out
    assert "  score        0.81, no runner-up" in out
    assert "  rule         held to the heal threshold 0.75" in out
    assert "Occurrences (1):\n  1. " in out and f"{REQ} step 2" in out
    assert "Exception track: the new locator is brittle (positional_locator)" in out
    assert "Promotion required: repeat_count_7d>=2" in out and "승격" not in out
    assert "Accepting writes:\n  REQ-LOGIN-001 v001 -> v002" in out
    # the gate JSON and the diff are in --copy and --json
    assert '"gate_version"' not in out and "+++ recipes/" not in out
    assert "`pacts heals show 5 --copy` prints the block to paste into an issue" in out
    korean = pacts("show", "5", "--lang", "ko", "--store", str(seeded.path)).stdout
    assert "승격 필요: repeat_count_7d>=2" in korean


def test_show_copy_prints_the_copy_proposal_block(seeded: Seeded) -> None:
    result = pacts("show", "5", "--copy", "--store", str(seeded.path))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Heal proposal 5: REQ-LOGIN-001, step 2, Login@Login form")
    assert "Promotion required: repeat_count_7d>=2" in out
    assert '"gate_version": "v1"' in out and '"repeat_count_7d": 2' in out
    assert "positional_locator" in out
    assert "--- recipes/REQ-LOGIN-001/v001" in out and "+++ recipes/REQ-LOGIN-001/v002" in out


def test_show_json(seeded: Seeded) -> None:
    result = pacts("show", "2", "--json", "--store", str(seeded.path))
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert (shown["id"], shown["severity"], shown["status"]) == (2, "major", "pending")
    assert shown["self_heal_gate"]["gate_version"] == "v1"
    assert "navigates_to:Inventory" in shown["suggested_diff"]
    assert shown["copy_text"].startswith("Heal proposal 2: REQ-LOGIN-001")
    assert shown["suggested_diff"] in shown["copy_text"]
    assert shown["proposal"]["patch_ops"][0]["path"] == "workflow.s002.expect"
    assert (shown["cannot_accept"], shown["stale"]) == (None, False)
    assert shown["accept_writes"] == ["REQ-LOGIN-001 v001 -> next"]
    assert (shown["step"], shown["step_index"], shown["occurrences"]) == (2, 1, 1)
    assert shown["occurrence_list"][0]["req_id"] == REQ


def test_accept_minor_writes_the_next_version(seeded: Seeded) -> None:
    result = pacts("accept", "1", "--by", "alice", "--store", str(seeded.path))
    assert result.returncode == 0, result.stderr
    assert "recipe REQ-LOGIN-001 v001 -> v002" in result.stdout
    with open_store(seeded.path) as store:
        v1, v2 = store.recipes.versions(REQ)
        record = store.proposals.get(1)
    assert (v2.version, v2.parent_version, v2.proposal_id) == ("v002", "v001", 1)
    assert v1.body == seeded.recipe.model_dump(mode="json")  # the old version is untouched
    new = Recipe.model_validate(v2.body)
    assert new.selectors[USER].primary == {"strategy": "label", "label": "Username"}
    assert new.selectors[USER].fallbacks == ({"strategy": "css", "css": "#user-name"},)
    assert (record.status, record.decided_by) == ("accepted", "alice")
    shown = json.loads(pacts("show", "1", "--json", "--store", str(seeded.path)).stdout)
    assert shown["recipe_versions_written"] == ["REQ-LOGIN-001 v002"]


def test_accept_rebases_when_the_patched_paths_did_not_move(seeded: Seeded) -> None:
    # proposals 1 (a selector) and 2 (an expectation) touch different paths
    assert pacts("accept", "1", "--store", str(seeded.path)).returncode == 0
    result = pacts("accept", "2", "--yes", "--store", str(seeded.path))
    assert result.returncode == 0, result.stderr
    assert "recipe REQ-LOGIN-001 v002 -> v003 (rebased onto the latest version)" in result.stdout
    with open_store(seeded.path) as store:
        v3 = Recipe.model_validate(store.recipes.get(REQ, "v003").body)
    assert v3.selectors[USER].primary == {"strategy": "label", "label": "Username"}


def test_two_drifts_of_one_element_are_both_kept_not_stale(seeded: Seeded) -> None:
    # proposals 3, 4 and 5 heal the Login button to three locators: each is merged into
    # the latest version, the newest accepted one primary, the others kept as fallbacks
    assert pacts("accept", "3", "--store", str(seeded.path)).returncode == 0
    result = pacts("accept", "4", "--store", str(seeded.path))
    assert result.returncode == 0, result.stderr
    assert "recipe REQ-LOGIN-001 v002 -> v003" in result.stdout
    with open_store(seeded.path) as store:
        v3 = Recipe.model_validate(store.recipes.get(REQ, "v003").body)
    assert v3.selectors[LOGIN].primary == {"strategy": "css", "css": "form > button:nth-child(4)"}
    assert {"strategy": "css", "css": "form > button:nth-child(3)"} in v3.selectors[LOGIN].fallbacks


def test_a_proposal_from_before_drifts_is_stale_when_its_path_moved_on(seeded: Seeded) -> None:
    # a store migrated from schema v3 holds proposals without a drift key: each patches
    # its own recipe version and is stale once what it patches changed
    with open_store(seeded.path) as store:
        old = gated(_heal(seeded.recipe, datetime.now(UTC), healed_locator={"css": "#u"}))
        assert old.self_heal_gate is not None
        legacy = store.proposals.create(
            req_id=REQ,
            step_index=0,
            element_key=USER,
            severity="minor",
            track=old.self_heal_gate["track"],
            promotion_required=False,
            payload=old.payload(),
        ).id
    assert pacts("accept", "1", "--store", str(seeded.path)).returncode == 0
    result = pacts("accept", str(legacy), "--yes", "--store", str(seeded.path))
    assert result.returncode == 1
    assert (
        "was made against recipe REQ-LOGIN-001 v001, and what it patches changed in v002"
        in result.stderr
    )
    text = pacts("show", str(legacy), "--store", str(seeded.path)).stdout
    assert "cannot be accepted: " in text and "it is stale" in text
    with open_store(seeded.path) as store:
        assert [v.version for v in store.recipes.versions(REQ)] == ["v001", "v002"]
        assert store.proposals.get(legacy).status == "pending"


def test_major_needs_yes_when_not_interactive(seeded: Seeded) -> None:
    refused = pacts("accept", "2", "--store", str(seeded.path))
    assert refused.returncode == 1
    assert "is major (it changes workflow.s002.expect)" in refused.stderr
    assert "--yes" in refused.stderr and "type GO" in refused.stderr
    with open_store(seeded.path) as store:
        assert store.recipes.latest(REQ).version == "v001"  # type: ignore[union-attr]
        assert store.proposals.get(2).status == "pending"

    accepted = pacts("accept", "2", "--yes", "--by", "lead", "--store", str(seeded.path))
    assert accepted.returncode == 0, accepted.stderr
    with open_store(seeded.path) as store:
        latest = store.recipes.latest(REQ)
        assert latest is not None and latest.proposal_id == 2
        assert Recipe.model_validate(latest.body).workflow[1].expect == "navigates_to:Inventory"
        assert store.proposals.get(2).decided_by == "lead"


@pytest.mark.parametrize(
    ("answer", "code", "status"), [("GO", 0, "accepted"), ("no", 1, "pending")]
)
def test_major_go_at_a_terminal(seeded: Seeded, answer: str, code: int, status: str) -> None:
    controller, terminal = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pytest_pacts.cli", "heals", "accept", "2"],
            env={**CLEAN_ENV, "PACTS_STORE": str(seeded.path)},
            stdin=terminal,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        os.write(controller, f"{answer}\n".encode())
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(terminal)
        os.close(controller)
    assert proc.returncode == code, err
    assert "is MAJOR" in out and "Type GO to accept" in out
    with open_store(seeded.path) as store:
        assert store.proposals.get(2).status == status


def test_reject_with_reason(seeded: Seeded) -> None:
    result = pacts(
        "reject", "#3", "--by", "bob", "--reason", "positional", "--store", str(seeded.path)
    )
    assert result.returncode == 0, result.stderr
    assert "rejected heal proposal #3 (REQ-LOGIN-001) by bob: positional" in result.stdout
    shown = json.loads(pacts("show", "3", "--json", "--store", str(seeded.path)).stdout)
    assert (shown["status"], shown["decided_by"]) == ("rejected", "bob")
    assert shown["decision_reason"] == "positional"
    again = pacts("accept", "3", "--store", str(seeded.path))
    assert again.returncode == 1 and "already rejected by bob" in again.stderr


def test_help_documents_exit_codes() -> None:
    result = pacts("accept", "--help")
    assert result.returncode == 0
    assert "exit codes:" in result.stdout and "3  the store is missing" in result.stdout


def test_list_filters(seeded: Seeded) -> None:
    store = ("--json", "--store", str(seeded.path))
    pending, contract, exception, promoted, other, accepted = pacts_all(
        Call(("list", *store)),
        Call(("list", "--track", "contract", *store)),
        Call(("list", "--track", "exception", *store)),
        Call(("list", "--promotion", *store)),
        Call(("list", "--req", "REQ-OTHER", "--status", "all", *store)),
        Call(("list", "--req", REQ, "--status", "accepted", *store)),
    )
    assert [r["id"] for r in rows(pending)] == [1, 2, 3, 4, 5]
    assert [r["id"] for r in rows(contract)] == [1, 2]
    assert [r["id"] for r in rows(exception)] == [3, 4, 5]
    assert [(r["id"], r["promotion_required"]) for r in rows(promoted)] == [(5, True)]
    assert rows(other) == [] and rows(accepted) == []
    first, second = rows(pending)[:2]
    assert (first["severity"], first["tool_name"], first["score"]) == ("minor", "semantic", 0.92)
    assert (second["severity"], second["base_version"]) == ("major", "v001")


def test_unknown_and_malformed_ids_are_usage_errors(seeded: Seeded) -> None:
    store = ("--store", str(seeded.path))
    *unknown, bad = pacts_all(
        Call(("show", "99", *store)), Call(("accept", "99", *store)), Call(("show", "abc", *store))
    )
    for result in unknown:
        assert result.returncode == 2 and "no heal proposal #99" in result.stderr
    assert bad.returncode == 2 and "a proposal id is a number" in bad.stderr


def test_store_from_env_default_and_either_option_position(seeded: Seeded) -> None:
    results = pacts_all(
        Call(("list",), env={**CLEAN_ENV, "PACTS_STORE": f"sqlite:///{seeded.path}"}),
        Call(("list",), cwd=seeded.path.parent.parent),
        Call(("--store", str(seeded.path), "list")),
    )
    for result in results:
        assert result.returncode == 0 and "5 pending" in result.stdout, result.stderr


def test_missing_or_unreadable_store_is_exit_3_and_never_created(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    missing, elsewhere, unreadable = pacts_all(
        Call(("list",), cwd=tmp_path),
        Call(("show", "1", "--store", str(tmp_path / "nope.db"))),
        Call(("list", "--store", str(junk))),
    )
    assert missing.returncode == 3
    assert f"no store at {tmp_path / '.pacts' / 'pacts.db'}" in missing.stderr
    assert "--store" in missing.stderr and "PACTS_STORE" in missing.stderr
    assert not (tmp_path / ".pacts").exists()
    assert elsewhere.returncode == 3 and not (tmp_path / "nope.db").exists()
    assert unreadable.returncode == 3 and "cannot open the store" in unreadable.stderr


def test_bulk_accept_lists_the_proposals_and_needs_a_go(seeded: Seeded) -> None:
    store = ("--store", str(seeded.path))
    refused = pacts("accept", "1", "3", *store)
    assert refused.returncode == 1
    assert "2 heal proposal(s) selected to accept" in refused.stderr and "--yes" in refused.stderr
    listed = refused.stdout.splitlines()
    assert listed[0].split()[:3] == ["ID", "REQUIREMENTS", "PAGE"]
    assert [line.split()[0] for line in listed[1:]] == ["1", "3"]
    with open_store(seeded.path) as opened:
        assert opened.recipes.latest(REQ).version == "v001"  # type: ignore[union-attr]

    accepted = pacts("accept", "1", "3", "--yes", "--by", "lead", *store)
    assert accepted.returncode == 0, accepted.stderr
    assert "accepted heal proposal #1 (minor) by lead: recipe REQ-LOGIN-001 v001 -> v002" in (
        accepted.stdout
    )
    assert "accepted heal proposal #3 (minor) by lead: recipe REQ-LOGIN-001 v002 -> v003" in (
        accepted.stdout
    )
    with open_store(seeded.path) as opened:
        assert [opened.proposals.get(i).status for i in (1, 2, 3, 4)] == [
            "accepted", "pending", "accepted", "pending",
        ]  # fmt: skip


def test_bulk_decisions_need_ids_all_or_a_filter(seeded: Seeded) -> None:
    store = ("--store", str(seeded.path))
    nothing, both = pacts_all(
        Call(("accept", *store)), Call(("reject", "1", "--all", "--yes", *store))
    )
    assert nothing.returncode == 2 and "--all, or a filter" in nothing.stderr
    assert both.returncode == 2 and "not both" in both.stderr
    rejected = pacts(
        "reject", "--min-score", "0.8", "--max-score", "0.85", "--reason", "dup", "--yes", *store
    )
    assert rejected.returncode == 0, rejected.stderr
    assert [line.split()[3] for line in rejected.stdout.splitlines() if "rejected" in line] == [
        "#3", "#4", "#5",
    ]  # fmt: skip
    with open_store(seeded.path) as opened:
        assert [p.id for p in opened.proposals.query(status="pending")] == [1, 2]


@pytest.mark.parametrize(
    ("answer", "code", "status"), [("GO", 0, "accepted"), ("NOT GO", 1, "pending")]
)
def test_bulk_go_at_a_terminal(seeded: Seeded, answer: str, code: int, status: str) -> None:
    controller, terminal = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pytest_pacts.cli", "heals", "accept", "--all", "--track",
             "contract"],
            env={**CLEAN_ENV, "PACTS_STORE": str(seeded.path)},
            stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        os.write(controller, f"{answer}\n".encode())
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(terminal)
        os.close(controller)
    assert proc.returncode == code, err
    assert "Type GO to accept these 2 proposal(s)" in out
    with open_store(seeded.path) as store:
        # the contract track holds the minor #1 and the major #2: a bulk GO covers both
        assert [store.proposals.get(i).status for i in (1, 2)] == [status, status]
        assert store.proposals.get(3).status == "pending"


def test_one_drift_in_two_requirements_and_two_runs_is_one_proposal(seeded: Seeded) -> None:
    other = seeded.recipe.model_copy(update={"req_id": "REQ-OTHER-002"})
    later = datetime.now(UTC)
    with open_store(seeded.path) as store:
        store.recipes.add_version(
            "REQ-OTHER-002", other.model_dump(mode="json"), plan_hash=other.plan_hash
        )
        first = propose(store, _heal(other, later, step_index=2), now=later)
        again = propose(store, _heal(other, later, step_index=2), now=later + timedelta(hours=1))
        assert first.id == again.id == "1"  # the seeded #1 is the same drift
        assert [o.req_id for o in store.proposals.occurrences(1)] == [
            REQ, "REQ-OTHER-002", "REQ-OTHER-002",
        ]  # fmt: skip
    listed = rows(pacts("list", "--req", "REQ-OTHER-002", "--json", "--store", str(seeded.path)))
    assert [(r["id"], r["occurrences"], r["requirements"]) for r in listed] == [
        (1, 3, [REQ, "REQ-OTHER-002"])
    ]
    accepted = pacts("accept", "1", "--store", str(seeded.path))
    assert accepted.returncode == 0, accepted.stderr
    assert "recipe REQ-LOGIN-001 v001 -> v002, REQ-OTHER-002 v001 -> v002" in accepted.stdout
    with open_store(seeded.path) as store:
        for req in (REQ, "REQ-OTHER-002"):
            latest = store.recipes.latest(req)
            assert latest is not None and latest.proposal_id == 1
            body = Recipe.model_validate(latest.body)
            assert body.selectors[USER].primary == {"strategy": "label", "label": "Username"}
    # the dashboard's review lists every requirement the accept wrote, as the CLI does, and
    # the diff of what it wrote (issue 39: it showed one version and the v001 -> v002
    # suggestion made before the accept)
    from pytest_pacts.web.projection import Projection

    with open_store(seeded.path) as store:
        detail = Projection(store, root=seeded.path.parent).proposal(1)
    assert detail.versions_written == [f"{REQ} v002", "REQ-OTHER-002 v002"]
    assert detail.written_diff is not None
    assert f"+++ recipes/{REQ}/v002" in detail.written_diff
    assert "+++ recipes/REQ-OTHER-002/v002" in detail.written_diff
