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
- :func:`propose`: gate a proposal with the store's repeat counts and persist it, or
  record it as an occurrence of the proposal of the same drift (:func:`drift_key`);
- choosing proposals to review: :class:`ProposalFilter`, :func:`select_proposals`;
- locators per deployment: :func:`deployment_of`, :func:`merge_heal`,
  :func:`order_for_deployment`, :func:`locator_strength`.

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
from pytest_pacts.governance.drift import (
    HealSite,
    Merged,
    deployment_of,
    drift_key,
    merge_heal,
    order_for_deployment,
    page_of,
)
from pytest_pacts.governance.fingerprint import compute_exception_fingerprint
from pytest_pacts.governance.gate import GATE_VERSION, EvidenceContract, build_self_heal_gate, gated
from pytest_pacts.governance.locators import (
    built_on_generated,
    locator_signals,
    locator_strategy,
    locator_strength,
)
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
from pytest_pacts.governance.render import (
    LANGUAGES,
    PROMOTION_REQUIRED_LABEL,
    heal_rule,
    promotion_label,
    render_copy_text,
    rule_text,
    track_badge,
)
from pytest_pacts.governance.selection import (
    ProposalFilter,
    Selected,
    select_proposals,
    with_occurrences,
)
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
    "LANGUAGES",
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
    "HealSite",
    "Merged",
    "OpCheck",
    "PatchRejected",
    "Promotion",
    "ProposalFilter",
    "Selected",
    "apply_patch",
    "build_heal_proposal",
    "build_self_heal_gate",
    "built_on_generated",
    "classify_patch",
    "compute_exception_fingerprint",
    "compute_promotion_required",
    "default_exception_expiry",
    "deployment_of",
    "detect_case_specific_signals",
    "drift_key",
    "evidence_contract_for",
    "gated",
    "heal_rule",
    "locator_signals",
    "locator_strategy",
    "locator_strength",
    "merge_heal",
    "normalise_exception_stats",
    "order_for_deployment",
    "page_of",
    "promotion_label",
    "proposal_from_record",
    "propose",
    "recipe_diff",
    "recipe_json",
    "render_copy_text",
    "rule_text",
    "select_proposals",
    "track_badge",
    "validate_patch",
    "with_occurrences",
]
