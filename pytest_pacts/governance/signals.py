"""Case-specific signals: what puts a proposal on the exception track.

One signal is enough. The four rules (docs/governance.md "Track: case-specific signals"):

1. ``single_target_file``: ``target_files`` has at most one entry and ``target_files[0]``
   contains ``/handlers/`` or ``/runtime/`` (Windows separators are read as ``/``);
2. ``hardcoded_constant``: ``suggested_diff`` matches ``HARD_CODED_BRANCH_REGEX`` or
   ``SWITCH_LITERAL_REGEX`` (two JavaScript regular expressions, unchanged);
3. ``change_plan_keyword``: ``change_plan``, all of it merged and lower-cased, contains
   ``특정 케이스``, ``예외 처리``, ``하드코딩`` or ``only this case``;
4. ``reject_case_specific_primary_fix``: ``violation.evidence.reject_case_specific_primary_fix``
   is ``true`` (the JSON boolean, nothing truthy in its place).

Then the three locator signals on the proposal's ``healed_locator``
(``pytest_pacts.governance.locators``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pytest_pacts.governance._values import Payload, as_payload, get_mapping, string_leaves
from pytest_pacts.governance.locators import locator_signals
from pytest_pacts.models.heal import HealProposal, Violation

SINGLE_TARGET_FILE = "single_target_file"
HARDCODED_CONSTANT = "hardcoded_constant"
CHANGE_PLAN_KEYWORD = "change_plan_keyword"
REJECT_CASE_SPECIFIC_PRIMARY_FIX = "reject_case_specific_primary_fix"

SINGLE_FILE_DIRS: tuple[str, ...] = ("/handlers/", "/runtime/")
"""Rule 1: a lone target file under one of these is a single-domain handler."""

# Rule 2, verbatim. Python's re reads these JavaScript patterns the same way
# for ASCII text; on other scripts its \d and \b are Unicode-aware where JavaScript's are not.
HARD_CODED_BRANCH_REGEX = re.compile(
    r"""\b(if|else if)\s*\([^\)]*([=!]==?|===)\s*(["'`][^"'`]+["'`]|\d+)\s*\)"""
)
SWITCH_LITERAL_REGEX = re.compile(
    r"""\bswitch\s*\([^\)]*\)\s*\{[^}]*\bcase\s+(["'`][^"'`]+["'`]|\d+)\s*:""", re.DOTALL
)

CHANGE_PLAN_KEYWORDS: tuple[str, ...] = ("특정 케이스", "예외 처리", "하드코딩", "only this case")
"""Rule 3, the four keywords (Korean and English)."""


def _single_target_file(proposal: Payload) -> bool:
    files = proposal.get("target_files")
    if isinstance(files, str):
        files = [files]
    if not isinstance(files, list | tuple) or not 0 < len(files) <= 1:
        return False
    first = files[0]
    if not isinstance(first, str):
        return False
    path = first.replace("\\", "/")
    return any(part in path for part in SINGLE_FILE_DIRS)


def _hardcoded_constant(proposal: Payload) -> bool:
    diff = proposal.get("suggested_diff")
    if not isinstance(diff, str):
        return False
    return bool(HARD_CODED_BRANCH_REGEX.search(diff) or SWITCH_LITERAL_REGEX.search(diff))


def _change_plan_keyword(proposal: Payload) -> bool:
    # "change_plan 전체를 소문자로 병합": a plan given as a list (or object) is joined first.
    merged = "\n".join(string_leaves(proposal.get("change_plan"))).lower()
    return any(keyword in merged for keyword in CHANGE_PLAN_KEYWORDS)


def _rejects_case_specific_fix(violation: Payload) -> bool:
    return get_mapping(violation, "evidence").get("reject_case_specific_primary_fix") is True


def detect_case_specific_signals(
    proposal: HealProposal | Payload,
    violation: Violation | Payload | None = None,
) -> list[str]:
    """The case-specific signals of a proposal, the four rules first, then locator rules.

    ``proposal`` is a :class:`HealProposal` or a proposal's JSON payload (a dict);
    ``violation`` a :class:`Violation` or a violation's JSON dict. For a
    :class:`HealProposal` with no violation given, its own :attr:`HealProposal.violation`
    is used.
    """
    if violation is None and isinstance(proposal, HealProposal):
        violation = proposal.violation
    data = as_payload(proposal)
    signals: list[str] = []
    if _single_target_file(data):
        signals.append(SINGLE_TARGET_FILE)
    if _hardcoded_constant(data):
        signals.append(HARDCODED_CONSTANT)
    if _change_plan_keyword(data):
        signals.append(CHANGE_PLAN_KEYWORD)
    if _rejects_case_specific_fix(as_payload(violation)):
        signals.append(REJECT_CASE_SPECIFIC_PRIMARY_FIX)
    healed = data.get("healed_locator")
    if isinstance(healed, Mapping):
        signals.extend(locator_signals(healed))
    return signals
