"""``--pacts-generate``: the plain pytest-playwright test of a passing run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.models import Plan
from pytest_pacts.models.outcome import RunRecord

if TYPE_CHECKING:
    pass


def generate_test(plan: Plan, record: RunRecord, out_dir: Path) -> str | None:
    """``--pacts-generate``: ``<out_dir>/test_<req_id>.py`` (plain pytest-playwright) from the
    locators a passing run used, rewritten only when the plan hash changes. ``None`` when the
    run did not pass or the test cannot be written."""
    if record.verdict != "pass":
        return None
    from pytest_pacts.generator import GenerationError, locators_from_record, write_test

    try:
        result = write_test(plan, locators_from_record(record), out_dir)
    except (GenerationError, OSError):
        return None
    return str(result.path)
