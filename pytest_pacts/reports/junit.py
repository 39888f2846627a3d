"""The ``pacts_*`` JUnit properties of a requirement's test case.

pytest writes ``item.user_properties`` as ``<property name=... value=...>`` under each
``<testcase>``; the values are strings. Under ``junit_family=xunit2`` (pytest's default)
they are still written but pytest warns, so ``docs/reports.md`` advises ``xunit1`` for CI
systems that read per-test-case properties.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_pacts.models.outcome import RunRecord
from pytest_pacts.reports.proposals import ProposalView, gates_json

PROPERTY_NAMES = (
    "pacts_verdict",
    "pacts_rca_class",
    "pacts_rca_confidence",
    "pacts_heal_rounds",
    "pacts_healed",
    "pacts_self_heal_gate",
    "pacts_recipe_version",
    "pacts_record",
)


def junit_properties(
    record: RunRecord, proposals: Sequence[ProposalView], record_path: str | None
) -> list[tuple[str, str]]:
    """The properties, in :data:`PROPERTY_NAMES` order, as strings."""
    return [
        ("pacts_verdict", record.verdict),
        ("pacts_rca_class", record.rca.rca_class.value),
        ("pacts_rca_confidence", f"{record.rca.confidence:.2f}"),
        ("pacts_heal_rounds", str(record.heal_rounds)),
        ("pacts_healed", "true" if record.healed else "false"),
        ("pacts_self_heal_gate", gates_json(proposals)),
        ("pacts_recipe_version", record.recipe_version or ""),
        ("pacts_record", record_path or ""),
    ]
