"""The exception fingerprint (docs/governance.md "Exception fingerprint")."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from pytest_pacts.governance import compute_exception_fingerprint
from pytest_pacts.governance.fingerprint import strip_violation_id_prefix
from pytest_pacts.models.heal import HealProposal, Violation


def fp(violation: Mapping[str, object]) -> str:
    return compute_exception_fingerprint({}, violation)


def test_format_and_normalisation() -> None:
    violation = {
        "principle_key": "  Contract_First ",
        "violation_key": "api.Align Conversation\tAnd  Tool",
        "evidence": {"mismatch_type": "Request Base Detail", "tool_name": " Address Lookup "},
    }
    assert fp(violation) == (
        "ex:contract_first:api.align_conversation_and_tool:request_base_detail:address_lookup"
    )


def test_everything_missing_is_dashes() -> None:
    assert fp({}) == "ex:-:-:-:-"
    assert compute_exception_fingerprint({}, None) == "ex:-:-:-:-"


@pytest.mark.parametrize("falsy", [None, "", 0, False])
def test_falsy_values_become_dash(falsy: object) -> None:
    violation = {"principle_key": falsy, "evidence": {"mismatch_type": falsy, "tool_name": falsy}}
    assert fp(violation) == "ex:-:-:-:-"


def test_whitespace_only_string_is_truthy_then_trimmed_to_empty() -> None:
    # String("   " || "-") is "   "; trim() then leaves "" (JavaScript's order of operations).
    assert fp({"principle_key": "   "}) == "ex::-:-:-"


def test_numbers_are_stringified() -> None:
    assert fp({"principle_key": 7, "evidence": {"tool_name": 2.0}}) == "ex:7:-:-:2"


@pytest.mark.parametrize(
    ("violation", "key"),
    [
        ({"violation_key": "Login.Username", "violation_id": "pv_s1_2_other"}, "login.username"),
        ({"violation_id": "pv_sess42_7_login.username"}, "login.username"),
        ({"violation_id": "pv_abc-def_12_with_underscores_kept"}, "with_underscores_kept"),
        ({"violation_key": "", "violation_id": "pv_s_1_fallback"}, "fallback"),
        ({"violation_key": None, "violation_id": "pv_s_1_fallback"}, "fallback"),
        ({"violation_id": "login.username"}, "-"),  # no pv_ prefix: not a usable id
        ({"violation_id": "pv_s_1_"}, "-"),  # nothing after the prefix
        ({"violation_id": "pv_s_1"}, "-"),
        ({"violation_id": 12}, "-"),
        ({}, "-"),
    ],
)
def test_violation_key_rules(violation: dict[str, object], key: str) -> None:
    assert fp(violation).split(":")[2] == key


def test_prefix_stripping() -> None:
    assert strip_violation_id_prefix("pv_a_1_rest") == "rest"
    assert strip_violation_id_prefix("PV_a_1_rest") is None
    assert strip_violation_id_prefix(None) is None


def test_domain_mapping_from_a_proposal() -> None:
    proposal = HealProposal(
        req_id="REQ-CART-002",
        step_index=4,
        element_key="Add to cart@Sauce Labs Backpack",
        rca_class="selector_drift",
        failure_type="none",
        failed_locator={},
        healed_locator={"role": "button"},
        tool_name="similarity",
        score=0.9,
    )
    expected = "ex:selector_drift:req-cart-002.add_to_cart@sauce_labs_backpack:none:similarity"
    assert compute_exception_fingerprint(proposal, None) == expected
    assert compute_exception_fingerprint(proposal, proposal.violation) == expected


def test_only_the_violation_is_read() -> None:
    violation = Violation(principle_key="env_fault", violation_key="R.x")
    proposal = {"principle_key": "ignored", "tool_name": "ignored"}
    assert compute_exception_fingerprint(proposal, violation) == "ex:env_fault:r.x:-:-"
