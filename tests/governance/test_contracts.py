"""Evidence contracts: one table, principle key first."""

from __future__ import annotations

import pytest

from pytest_pacts.governance import (
    PRINCIPLE_EVIDENCE_CONTRACTS,
    RCA_CLASSES,
    evidence_contract_for,
)

PRINCIPLES = {"selector_drift": ("tool_name", "score"), "empty_one": ()}
VIOLATIONS = {"REQ.Username": ("screenshot",), "selector_drift": ("never_read",)}


@pytest.mark.parametrize(
    ("principle", "violation", "expected"),
    [
        ("selector_drift", "REQ.Username", ("tool_name", "score")),  # principle first
        ("unknown", "REQ.Username", ("screenshot",)),  # then the violation key
        (None, "REQ.Username", ("screenshot",)),
        ("unknown", "REQ.Other", ()),  # else empty
        (None, None, ()),
        ("empty_one", "REQ.Username", ()),  # a principle entry, even empty, wins
        ("Selector_Drift", None, ()),  # keys match exactly
    ],
)
def test_lookup_order(
    principle: str | None, violation: str | None, expected: tuple[str, ...]
) -> None:
    found = evidence_contract_for(
        principle, violation, principle_contracts=PRINCIPLES, violation_contracts=VIOLATIONS
    )
    assert found == expected


def test_every_rca_class_has_a_contract_naming_rung_and_failure_type() -> None:
    assert set(PRINCIPLE_EVIDENCE_CONTRACTS) == set(RCA_CLASSES)
    for principle in RCA_CLASSES:
        fields = evidence_contract_for(principle, None)
        assert fields[:2] == ("tool_name", "mismatch_type")


def test_built_in_violation_table_is_empty() -> None:
    assert evidence_contract_for(None, "REQ-LOGIN-001.Username@LoginForm") == ()
