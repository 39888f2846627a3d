"""Evidence contracts and the required proposal fields of each track, declared here only.

Every principle has the list of evidence fields a proposal for it must carry.
In this domain the principle is the RCA class, and the evidence is the
violation's ``evidence`` object, which the healer fills. The lookup
order: the principle key's contract first, then the violation key's, else an empty list.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# The contract track's fields, adapted to locators: ``locator_strategy`` stands for the
# request-mapping and response-projection strategies of a code patch.
REQUIRED_CONTRACT_FIELDS: tuple[str, ...] = (
    "contract_scope",
    "generalization_scope",
    "locator_strategy",
    "pre_post_invariant_strategy",
    "contract_expectation",
)
"""Contract-track fields a proposal must carry at its top level."""

REQUIRED_EXCEPTION_FIELDS: tuple[str, ...] = (
    "exception_reason",
    "exception_scope",
    "exception_expiry",
    "promotion_plan",
    "promotion_trigger",
    "blast_radius",
)
"""Exception-track fields a proposal must carry at its top level."""

RCA_CLASSES: tuple[str, ...] = (
    "success",
    "selector_drift",
    "timing_instability",
    "visibility_issue",
    "enablement_issue",
    "assertion_mismatch",
    "data_issue",
    "env_fault",
    "unsupported_surface",
)
"""The principle keys of this domain: the RCA classes (docs/engine.md "Verdict and RCA")."""

# Every violation names the failure type and the healing rung (docs/governance.md).
_COMMON = ("tool_name", "mismatch_type")

PRINCIPLE_EVIDENCE_CONTRACTS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        # A heal on a run that ended green: the rung and the gate that let the action go.
        "success": (*_COMMON, "gate_result"),
        # The locator drifted: old and new locator, and the abstain rule's inputs.
        "selector_drift": (
            *_COMMON,
            "failed_locator",
            "healed_locator",
            "score",
            "runner_up_score",
            "gate_result",
        ),
        # Unstable / late elements: what the gate saw and how long the step waited.
        "timing_instability": (*_COMMON, "gate_result", "waited_ms"),
        # Hidden or covered: the gate's result and the element's box at the action point.
        "visibility_issue": (*_COMMON, "gate_result", "bounding_box"),
        # Disabled: the gate's result and how long the step waited for enablement.
        "enablement_issue": (*_COMMON, "gate_result", "waited_ms"),
        # The expectation failed: what was expected and what the page showed.
        "assertion_mismatch": (*_COMMON, "expected", "actual"),
        # Bad input data: which field and the value *template* (never a resolved secret).
        "data_issue": (*_COMMON, "field", "value_template"),
        # Network error, browser crash, HTTP 5xx: the error and the URL it happened on.
        "env_fault": (*_COMMON, "error", "url"),
        # A canvas, PDF viewer, closed shadow root or cross-origin frame: what was found.
        "unsupported_surface": (*_COMMON, "surface", "url"),
    }
)
"""Required evidence fields per principle key (RCA class)."""

VIOLATION_EVIDENCE_CONTRACTS: Mapping[str, tuple[str, ...]] = MappingProxyType({})
"""Required evidence per violation key (``<req_id>.<element key>``): none are built in.

A caller with element-specific contracts passes its own table to
:func:`evidence_contract_for`.
"""


def evidence_contract_for(
    principle_key: str | None,
    violation_key: str | None,
    *,
    principle_contracts: Mapping[str, tuple[str, ...]] = PRINCIPLE_EVIDENCE_CONTRACTS,
    violation_contracts: Mapping[str, tuple[str, ...]] = VIOLATION_EVIDENCE_CONTRACTS,
) -> tuple[str, ...]:
    """The evidence fields a violation must carry.

    The principle key's contract when the table has that key (even an empty one), else
    the violation key's, else ``()``. Keys are matched exactly as given.
    """
    if principle_key is not None and principle_key in principle_contracts:
        return tuple(principle_contracts[principle_key])
    if violation_key is not None and violation_key in violation_contracts:
        return tuple(violation_contracts[violation_key])
    return ()
