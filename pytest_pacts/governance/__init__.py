"""Governance: the patch contract, heal proposals and the self-heal gate (SPEC.md §8, §9).

Public surface (everything else is internal):

- the self-heal gate of seed 003: :func:`build_self_heal_gate`,
  :func:`detect_case_specific_signals`, :func:`compute_exception_fingerprint`,
  :func:`compute_promotion_required`, and the evidence contracts,
  :func:`evidence_contract_for`;
- the patch contract of seed 000 §7: :func:`validate_patch`, :func:`classify_patch`,
  :func:`apply_patch`, :func:`recipe_diff`;
- :func:`build_heal_proposal`, which turns a heal into a proposal with honest
  contract/exception fields, and :func:`render_copy_text` ("copy proposal", SPEC.md §9).

See ``docs/governance.md``.
"""

from __future__ import annotations

from pytest_pacts.governance.contracts import (
    PRINCIPLE_EVIDENCE_CONTRACTS,
    RCA_CLASSES,
    REQUIRED_CONTRACT_FIELDS,
    REQUIRED_EXCEPTION_FIELDS,
    VIOLATION_EVIDENCE_CONTRACTS,
    evidence_contract_for,
)
from pytest_pacts.governance.fingerprint import compute_exception_fingerprint
from pytest_pacts.governance.gate import GATE_VERSION, build_self_heal_gate
from pytest_pacts.governance.promotion import (
    DEFAULT_EXCEPTION_TTL,
    PROMOTION_THRESHOLD_7D,
    PROMOTION_THRESHOLD_30D,
    Promotion,
    compute_promotion_required,
    normalise_exception_stats,
)
from pytest_pacts.governance.signals import (
    CHANGE_PLAN_KEYWORDS,
    HARD_CODED_BRANCH_REGEX,
    SWITCH_LITERAL_REGEX,
    detect_case_specific_signals,
)

__all__ = [
    "CHANGE_PLAN_KEYWORDS",
    "DEFAULT_EXCEPTION_TTL",
    "GATE_VERSION",
    "HARD_CODED_BRANCH_REGEX",
    "PRINCIPLE_EVIDENCE_CONTRACTS",
    "PROMOTION_THRESHOLD_7D",
    "PROMOTION_THRESHOLD_30D",
    "RCA_CLASSES",
    "REQUIRED_CONTRACT_FIELDS",
    "REQUIRED_EXCEPTION_FIELDS",
    "SWITCH_LITERAL_REGEX",
    "VIOLATION_EVIDENCE_CONTRACTS",
    "Promotion",
    "build_self_heal_gate",
    "compute_exception_fingerprint",
    "compute_promotion_required",
    "detect_case_specific_signals",
    "evidence_contract_for",
    "normalise_exception_stats",
]
