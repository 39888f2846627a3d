"""Governance: the patch contract, heal proposals and the self-heal gate.

Public surface (everything else is internal):

- the self-heal gate: :func:`build_self_heal_gate`,
  :func:`detect_case_specific_signals`, :func:`compute_exception_fingerprint`,
  :func:`compute_promotion_required`, and the evidence contracts,
  :func:`evidence_contract_for`;
- the patch contract: :func:`validate_patch`, :func:`classify_patch`,
  :func:`apply_patch`, :func:`recipe_diff`;
- :func:`build_heal_proposal`, which turns a heal into a proposal with honest
  contract/exception fields, and :func:`render_copy_text` ("copy proposal");
- :func:`propose`: gate a proposal with the store's repeat counts and persist it.

See ``docs/governance.md``.
"""

from __future__ import annotations

from pytest_pacts.governance.builder import build_heal_proposal, default_exception_expiry
from pytest_pacts.governance.contracts import (
    PRINCIPLE_EVIDENCE_CONTRACTS,
    RCA_CLASSES,
    REQUIRED_CONTRACT_FIELDS,
    REQUIRED_EXCEPTION_FIELDS,
    VIOLATION_EVIDENCE_CONTRACTS,
    evidence_contract_for,
)
from pytest_pacts.governance.fingerprint import compute_exception_fingerprint
from pytest_pacts.governance.gate import GATE_VERSION, EvidenceContract, build_self_heal_gate, gated
from pytest_pacts.governance.locators import locator_signals, locator_strategy
from pytest_pacts.governance.patch import (
    ALLOWED_OPS,
    OpCheck,
    PatchRejected,
    apply_patch,
    classify_patch,
    recipe_diff,
    recipe_json,
    validate_patch,
)
from pytest_pacts.governance.promotion import (
    DEFAULT_EXCEPTION_TTL,
    PROMOTION_THRESHOLD_7D,
    PROMOTION_THRESHOLD_30D,
    Promotion,
    compute_promotion_required,
    normalise_exception_stats,
)
from pytest_pacts.governance.render import PROMOTION_REQUIRED_LABEL, render_copy_text, track_badge
from pytest_pacts.governance.service import proposal_from_record, propose
from pytest_pacts.governance.signals import (
    CHANGE_PLAN_KEYWORDS,
    HARD_CODED_BRANCH_REGEX,
    SWITCH_LITERAL_REGEX,
    detect_case_specific_signals,
)

__all__ = [
    "ALLOWED_OPS",
    "CHANGE_PLAN_KEYWORDS",
    "DEFAULT_EXCEPTION_TTL",
    "GATE_VERSION",
    "HARD_CODED_BRANCH_REGEX",
    "PRINCIPLE_EVIDENCE_CONTRACTS",
    "PROMOTION_REQUIRED_LABEL",
    "PROMOTION_THRESHOLD_7D",
    "PROMOTION_THRESHOLD_30D",
    "RCA_CLASSES",
    "REQUIRED_CONTRACT_FIELDS",
    "REQUIRED_EXCEPTION_FIELDS",
    "SWITCH_LITERAL_REGEX",
    "VIOLATION_EVIDENCE_CONTRACTS",
    "EvidenceContract",
    "OpCheck",
    "PatchRejected",
    "Promotion",
    "apply_patch",
    "build_heal_proposal",
    "build_self_heal_gate",
    "classify_patch",
    "compute_exception_fingerprint",
    "compute_promotion_required",
    "default_exception_expiry",
    "detect_case_specific_signals",
    "evidence_contract_for",
    "gated",
    "locator_signals",
    "locator_strategy",
    "normalise_exception_stats",
    "proposal_from_record",
    "propose",
    "recipe_diff",
    "recipe_json",
    "render_copy_text",
    "track_badge",
    "validate_patch",
]
