"""The exception fingerprint: one stable string per recurring exception.

Computed exactly as below, so a fingerprint computed by another tool agrees:

- ``principle_key = String(violation.principle_key || "-")``;
- ``violation_key``: ``violation.violation_key`` when present, else ``violation.violation_id``
  with its ``pv_<session>_<turn>_`` prefix removed, else ``"-"``;
- ``mismatch_type = String(violation.evidence?.mismatch_type || "-")``;
- ``tool_name = String(violation.evidence?.tool_name || "-")``;
- every part is ``trim()``-ed and lower-cased, and its whitespace replaced by ``_``;
- the result is ``ex:<principle_key>:<violation_key>:<mismatch_type>:<tool_name>``.

In this domain that reads ``ex:<rca class>:<req_id>.<element key>:<failure
type>:<healing rung>``.
"""

from __future__ import annotations

import re

from pytest_pacts.governance._values import (
    Payload,
    as_payload,
    get_mapping,
    js_or_dash,
    js_trim,
    js_truthy,
)
from pytest_pacts.models.heal import HealProposal, Violation

# ``pv_<session>_<turn>_<rest>``: session and turn are single segments (no ``_``); the rest
# must not be empty. An id without this prefix does not yield a key.
_VIOLATION_ID_PREFIX = re.compile(r"^pv_[^_]+_[^_]+_(.+)$", re.DOTALL)
_WHITESPACE = re.compile(r"\s+")


def strip_violation_id_prefix(violation_id: object) -> str | None:
    """``"pv_s1_3_login.username"`` -> ``"login.username"``; ``None`` without the prefix."""
    if not isinstance(violation_id, str):
        return None
    match = _VIOLATION_ID_PREFIX.match(violation_id)
    return match.group(1) if match else None


def normalise_part(text: str) -> str:
    """``trim()``, lower-case, then each run of whitespace becomes ``_``."""
    return _WHITESPACE.sub("_", js_trim(text).lower())


def _violation_key(violation: Payload) -> str:
    key = violation.get("violation_key")
    if js_truthy(key):
        return js_or_dash(key)
    stripped = strip_violation_id_prefix(violation.get("violation_id"))
    return stripped if stripped else "-"


def compute_exception_fingerprint(
    proposal: HealProposal | Payload | None,
    violation: Violation | Payload | None = None,
) -> str:
    """``ex:<principle_key>:<violation_key>:<mismatch_type>:<tool_name>``.

    Only the violation is read, so a reworded proposal keeps its fingerprint. ``proposal`` is
    taken for the gate's signature and, when it is a :class:`HealProposal` and no violation
    is given, supplies the violation (:attr:`HealProposal.violation`).
    """
    if violation is None and isinstance(proposal, HealProposal):
        violation = proposal.violation
    data = as_payload(violation)
    evidence = get_mapping(data, "evidence")
    parts = (
        js_or_dash(data.get("principle_key")),
        _violation_key(data),
        js_or_dash(evidence.get("mismatch_type")),
        js_or_dash(evidence.get("tool_name")),
    )
    return "ex:" + ":".join(normalise_part(part) for part in parts)
