"""What a heal changed, in words, wherever a proposal is shown: the CLI, the report (the
dashboard's review page: tests/web/test_dashboard.py). Two locators whose short forms read
the same (``relational combobox in "Name (A to Z)"`` twice: the region's container moved)
must say what differs (issue 39)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_pacts.cli.main import main
from pytest_pacts.models.locator import Locator, Region, Strategy
from pytest_pacts.models.locator_change import change_words
from pytest_pacts.reports.html import heal_box
from pytest_pacts.reports.proposals import ProposalView
from tests.reports.helpers import stored_proposal


def _sort(container: str, frame: tuple[str, ...] = ()) -> Locator:
    region = Region(description="Name (A to Z)", matched_by="text", css=container)
    return Locator(strategy=Strategy.RELATIONAL, confidence=0.8, role="combobox",
                   region=region, frame_path=frame)  # fmt: skip


OLD = _sort("div.sort-bar")
NEW = _sort("header .toolbar")


def test_locators_that_read_the_same_say_what_changed() -> None:
    assert OLD.describe() == NEW.describe()  # the observed problem
    assert change_words(OLD, NEW) == (
        'region "Name (A to Z)": container div.sort-bar -> header .toolbar'
    )
    framed = _sort("div.sort-bar", ("iframe#shop",))
    assert change_words(OLD, framed) == "frame: the top document -> iframe#shop"
    button = Locator(strategy=Strategy.ROLE_NAME, confidence=0.9, role="button", name="Sort")
    assert change_words(OLD, button).startswith(
        'element: relational combobox -> role_name button "Sort"; region'
    )
    assert change_words(OLD, OLD).startswith("nothing in the locator")


def test_the_report_and_the_cli_say_what_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = 'region "Name (A to Z)": container div.sort-bar -> header .toolbar'
    view = ProposalView(id="1", step_index=0, element_key="Sort", track="contract",
                        heal={"rung": "region", "failure": "not_unique",
                              "old_locator": OLD.model_dump(mode="json"),
                              "new_locator": NEW.model_dump(mode="json")})  # fmt: skip
    escaped = words.replace('"', "&quot;").replace(">", "&gt;")
    assert f"What changed: {escaped}" in heal_box(view)
    db = tmp_path / "pacts.db"
    proposal = stored_proposal(db, "REQ-SORT", NEW, failed=OLD)
    assert main(["heals", "show", proposal, "--store", str(db)]) == 0
    assert f"  what changed {words}" in capsys.readouterr().out
    assert main(["heals", "list", "--store", str(db)]) == 0
    listing = capsys.readouterr().out
    assert "CHANGE" in listing and 'region "Name (A to Z)": container' in listing
