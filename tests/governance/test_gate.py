"""build_self_heal_gate: the gate's shape and steps, from dicts and from models."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import timedelta

import pytest

from pytest_pacts.governance import (
    REQUIRED_CONTRACT_FIELDS,
    REQUIRED_EXCEPTION_FIELDS,
    build_self_heal_gate,
    gated,
)
from pytest_pacts.models.heal import HealProposal

from .conftest import ROLE_LOCATOR, T0

GATE_KEYS = [
    "track",
    "gate_version",
    "contract_fields_ok",
    "exception_fields_ok",
    "evidence_contract_ok",
    "case_specific_signals",
    "missing_contract_fields",
    "missing_exception_fields",
    "missing_evidence_fields",
    "promotion_required",
    "promotion_reason",
    "exception_fingerprint",
    "exception_stats",
]

CONTRACT = {
    "contract_scope": "slot_request_response_semantic_contract",
    "generalization_scope": "all_tools_with_same_semantic_mismatch_class",
    "locator_strategy": "semantic_units_contract_mapping",
    "pre_post_invariant_strategy": "deterministic_contract_invariants",
    "contract_expectation": "address1=base, address2=detail",
}
EXCEPTION = {
    "exception_reason": "why contract-first is not possible now",
    "exception_scope": "where this hotfix applies",
    "exception_expiry": "2026-04-01",
    "promotion_plan": "how to generalize into contract-first",
    "promotion_trigger": "repeat_count_30d>=3",
    "blast_radius": "impact scope",
}
VIOLATION = {
    "principle_key": "contract_first",
    "violation_id": "pv_s1_3_api.alignContracts",
    "evidence": {"mismatch_type": "request_base_detail_unseparated", "tool_name": "address"},
}


def gate(proposal: Mapping[str, object], **kw: object) -> dict[str, object]:
    kw.setdefault("now", T0)
    result = build_self_heal_gate(proposal, kw.pop("violation", VIOLATION), **kw)  # type: ignore[arg-type]
    return dict(result)


def test_shape_is_seed_3_1_and_json_ready() -> None:
    result = gate({**CONTRACT, "created_at": T0.isoformat()}, evidence_contract=[])
    assert list(result) == GATE_KEYS
    assert json.loads(json.dumps(result)) == result
    assert result == {
        "track": "contract",
        "gate_version": "v1",
        "contract_fields_ok": True,
        "exception_fields_ok": False,
        "evidence_contract_ok": True,
        "case_specific_signals": [],
        "missing_contract_fields": [],
        "missing_exception_fields": list(REQUIRED_EXCEPTION_FIELDS),
        "missing_evidence_fields": [],
        "promotion_required": False,
        "promotion_reason": "-",
        "exception_fingerprint": (
            "ex:contract_first:api.aligncontracts:request_base_detail_unseparated:address"
        ),
        "exception_stats": {"repeat_count_7d": 0, "repeat_count_30d": 0},
    }


def test_case_specific_proposal_goes_exception_track() -> None:
    proposal = {**EXCEPTION, "change_plan": "예외 처리 only", "created_at": T0.isoformat()}
    result = gate(proposal, evidence_contract=[])
    assert result["track"] == "exception"
    assert result["case_specific_signals"] == ["change_plan_keyword"]
    assert result["exception_fields_ok"] is True
    assert result["contract_fields_ok"] is False
    assert result["missing_contract_fields"] == list(REQUIRED_CONTRACT_FIELDS)


@pytest.mark.parametrize("field", REQUIRED_CONTRACT_FIELDS)
@pytest.mark.parametrize("empty", [None, "  ", [], {}, float("nan")])
def test_each_missing_contract_field_is_recorded(field: str, empty: object) -> None:
    result = gate({**CONTRACT, field: empty}, evidence_contract=[])
    assert result["missing_contract_fields"] == [field]
    assert result["contract_fields_ok"] is False
    assert result["track"] == "contract"  # recorded, never blocking


@pytest.mark.parametrize("field", REQUIRED_EXCEPTION_FIELDS)
def test_each_missing_exception_field_is_recorded(field: str) -> None:
    proposal = {k: v for k, v in EXCEPTION.items() if k != field}
    result = gate(proposal, evidence_contract=[])
    assert result["missing_exception_fields"] == [field]
    assert result["exception_fields_ok"] is False


def test_malformed_expiry_fails_exception_fields_and_forces_promotion() -> None:
    result = gate({**EXCEPTION, "exception_expiry": "next sprint"}, evidence_contract=[])
    assert result["missing_exception_fields"] == []
    assert result["exception_fields_ok"] is False
    assert result["promotion_required"] is True
    assert result["promotion_reason"] == "exception_expiry_malformed"


def test_expired_date_requires_promotion() -> None:
    result = gate(EXCEPTION, evidence_contract=[], now=T0 + timedelta(days=60))
    assert (result["promotion_required"], result["promotion_reason"]) == (
        True,
        "exception_expiry_passed:2026-04-01",
    )


@pytest.mark.parametrize(
    ("stats", "required", "reason"),
    [
        (None, False, "-"),
        ({"count_7d": 1, "count_30d": 2}, False, "-"),
        ({"count_7d": 2, "count_30d": 2}, True, "repeat_count_7d>=2"),
        ({"repeat_count_7d": 0, "repeat_count_30d": 3}, True, "repeat_count_30d>=3"),
    ],
)
def test_exception_stats_drive_promotion(
    stats: dict[str, int] | None, required: bool, reason: str
) -> None:
    result = gate({**EXCEPTION, "created_at": T0.isoformat()}, exception_stats=stats)
    assert (result["promotion_required"], result["promotion_reason"]) == (required, reason)
    expected_stats = {
        "repeat_count_7d": (stats or {}).get("count_7d", (stats or {}).get("repeat_count_7d", 0)),
        "repeat_count_30d": (stats or {}).get(
            "count_30d", (stats or {}).get("repeat_count_30d", 0)
        ),
    }
    assert result["exception_stats"] == expected_stats


def test_evidence_given_as_list_or_named_lists() -> None:
    as_list = gate({}, evidence_contract=["tool_name", "request_fields", "mismatch_type"])
    assert as_list["missing_evidence_fields"] == ["request_fields"]
    assert as_list["evidence_contract_ok"] is False
    named = {"requiredContractMismatchEvidence": ["tool_name", "resolved_fields", "tool_name"]}
    assert gate({}, evidence_contract=named)["missing_evidence_fields"] == ["resolved_fields"]


def test_evidence_contract_looked_up_when_not_given() -> None:
    violation = {
        "principle_key": "assertion_mismatch",
        "violation_key": "R.x",
        "evidence": {"tool_name": "t", "mismatch_type": "expectation_failed", "expected": ""},
    }
    result = gate({}, violation=violation)
    assert result["missing_evidence_fields"] == ["expected", "actual"]
    unknown = gate({}, violation={"principle_key": "contract_first", "evidence": {}})
    assert unknown["missing_evidence_fields"] == []
    assert unknown["evidence_contract_ok"] is True


def _proposal(**kw: object) -> HealProposal:
    base: dict[str, object] = {
        "req_id": "REQ-LOGIN-001",
        "step_index": 1,
        "element_key": "Username@LoginForm",
        "rca_class": "selector_drift",
        "failure_type": "none",
        "failed_locator": {"strategy": "css", "css": "#user-name"},
        "healed_locator": ROLE_LOCATOR,
        "tool_name": "rediscovery",
        "score": 0.93,
        "runner_up_score": 0.41,
        "created_at": T0,
        **CONTRACT,
    }
    base.update(kw)
    return HealProposal.model_validate(base)


def test_heal_proposal_model_is_gated_against_its_own_violation() -> None:
    result = build_self_heal_gate(_proposal(), now=T0)
    assert result["track"] == "contract"
    assert result["exception_fingerprint"] == (
        "ex:selector_drift:req-login-001.username@loginform:none:rediscovery"
    )
    # selector_drift also wants the gate's result, which this heal did not record.
    assert result["missing_evidence_fields"] == ["gate_result"]
    with_gate = _proposal(evidence=["saw the label change", {"gate_result": {"unique": True}}])
    assert build_self_heal_gate(with_gate, now=T0)["evidence_contract_ok"] is True


def test_brittle_heal_proposal_goes_exception() -> None:
    brittle = _proposal(healed_locator={"strategy": "css", "css": "form > input:nth-child(1)"})
    result = build_self_heal_gate(brittle, now=T0)
    assert result["track"] == "exception"
    assert result["case_specific_signals"] == ["positional_locator"]


def test_default_expiry_of_a_model_counts_from_its_created_at() -> None:
    late = T0 + timedelta(days=31)
    assert build_self_heal_gate(_proposal(), now=late)["promotion_reason"] == (
        "exception_expiry_passed:created_at+30d"
    )


def test_gated_fills_a_copy() -> None:
    proposal = _proposal()
    result = gated(proposal, None, {"count_7d": 2, "count_30d": 2}, now=T0)
    assert proposal.self_heal_gate is None
    assert result.self_heal_gate is not None
    assert result.self_heal_gate["promotion_required"] is True
    assert HealProposal.model_validate(result.payload()) == result
