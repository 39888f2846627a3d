"""``pacts heals show ID``: one heal proposal, written for the person deciding on it.

What changed (the element, its old and new locator, on which page), how sure the healer
was (score, runner-up and the rule the heal was held to), where and how often it happened
(the occurrences, with the screenshots' paths), what the self-heal gate says in words, and
what accepting it would write. ``--json`` prints the whole record for tools; ``--copy`` the
"copy proposal" block to paste into an issue. Steps are numbered from 1, as in the sheet.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping

from pydantic import ValidationError

from pytest_pacts.cli.common import EXIT_OK, opened_store
from pytest_pacts.cli.heals_review import load_proposal
from pytest_pacts.cli.render import compact, out, score, when
from pytest_pacts.governance import (
    REQUIRED_CONTRACT_FIELDS,
    REQUIRED_EXCEPTION_FIELDS,
    Selected,
    heal_rule,
    promotion_label,
    render_copy_text,
    review,
    track_badge,
    with_occurrences,
)
from pytest_pacts.governance.review import DECISION_REASON_EVENT
from pytest_pacts.models.heal import HealProposal, SelfHealGate
from pytest_pacts.models.locator import Locator
from pytest_pacts.models.locator_change import payload_change
from pytest_pacts.store import HealOccurrence, ProposalRecord, Store


def summary(item: Selected) -> dict[str, object]:
    """A proposal as ``list --json`` prints it (``show --json`` adds to it)."""
    record = item.record
    payload = record.payload
    return {
        "id": record.id,
        "status": record.status,
        "req_id": record.req_id,
        "requirements": list(item.requirements),
        "step": record.step_index + 1,
        "step_index": record.step_index,
        "page": record.page,
        "element_key": record.element_key,
        "failed_locator": payload.get("failed_locator"),
        "healed_locator": payload.get("healed_locator"),
        "change": payload_change(payload.get("failed_locator"), payload.get("healed_locator")),
        "tool_name": payload.get("tool_name"),
        "score": payload.get("score"),
        "runner_up_score": payload.get("runner_up_score"),
        "occurrences": len(item.occurrences),
        "severity": record.severity,
        "track": record.track,
        "promotion_required": record.promotion_required,
        "base_version": payload.get("base_version"),
        "drift_key": record.drift_key,
        "exception_fingerprint": record.exception_fingerprint,
        "created_at": record.created_at.isoformat(),
        "last_seen_at": (item.occurrences[-1].created_at.isoformat() if item.occurrences else None),
        "decided_at": record.decided_at.isoformat() if record.decided_at else None,
        "decided_by": record.decided_by,
    }


def _locator(value: object) -> str:
    """A locator as a person reads it (``role_name button "Login" in "LoginForm"``),
    else its JSON."""
    if isinstance(value, Mapping):
        try:
            return Locator.model_validate(dict(value)).describe()
        except ValidationError:
            pass
    return compact(value) if value not in (None, {}, "") else "(none)"


def _occurrence_json(o: HealOccurrence) -> dict[str, object]:
    return {
        "req_id": o.req_id,
        "step": o.step_index + 1,
        "deployment": o.deployment or None,
        "url": o.url or None,
        "base_version": o.base_version,
        "failed_locator": o.failed_locator,
        "score": o.score,
        "runner_up_score": o.runner_up_score,
        "screenshots": o.evidence,
        "created_at": o.created_at.isoformat(),
    }


def _written_versions(store: Store, record: ProposalRecord) -> list[str]:
    if record.status != "accepted":
        return []
    written: list[str] = []
    for req_id in store.recipes.requirements():
        written += [
            f"{req_id} {v.version}"
            for v in store.recipes.versions(req_id)
            if v.proposal_id == record.id
        ]
    return written


def _decision_reason(store: Store, record: ProposalRecord) -> str | None:
    if record.status == "pending":
        return None
    events = store.audit.events(event_type=DECISION_REASON_EVENT, req_id=record.req_id)
    reasons = [e.payload.get("reason") for e in events if e.payload.get("proposal_id") == record.id]
    last = reasons[-1] if reasons else None
    return last if isinstance(last, str) else None


def _outlook(store: Store, record: ProposalRecord) -> tuple[list[str], str | None]:
    """What accepting would write (one line per requirement), or why it cannot."""
    if record.status != "pending":
        return [], None
    try:
        proposal, _recipe, rebased = review.prepare(store, record)
        if review.is_drift(record, proposal):
            changes, unchanged = review.plan_accept(store, record)
            lines = [
                f"{c.req_id} {c.from_version} -> {c.to_version}"
                + (" (keeps its stronger primary; adds this one as a fallback)"
                   if c.kept_primary else "")
                for c in changes
            ]  # fmt: skip
            lines += [f"{req} (already holds it)" for req in unchanged]
            return lines, None
    except review.ReviewError as exc:
        return [], str(exc)
    latest = store.recipes.latest(record.req_id)
    version = latest.version if latest is not None else "-"
    return [f"{record.req_id} {version} -> next" + (" (rebased)" if rebased else "")], None


def _gate_words(gate: SelfHealGate | None, proposal: HealProposal, lang: str) -> list[str]:
    """The self-heal gate's verdict in sentences."""
    if gate is None:
        return ["not run"]
    lines: list[str] = []
    if gate["track"] == "exception":
        signals = ", ".join(gate["case_specific_signals"]) or "-"
        lines.append(
            f"Exception track: the new locator is brittle ({signals}); the exception expires "
            f"{proposal.exception_expiry or '-'}"
        )
        missing = gate["missing_exception_fields"]
    else:
        lines.append("Contract track: the new locator has no brittle signal")
        missing = gate["missing_contract_fields"]
    lines.append(
        "track fields complete" if not missing else f"track fields missing: {', '.join(missing)}"
    )
    evidence = gate["missing_evidence_fields"]
    lines.append(
        "evidence complete" if not evidence else f"evidence missing: {', '.join(evidence)}"
    )
    stats = gate["exception_stats"]
    repeats = (
        f"seen before: {stats['repeat_count_7d']} in 7 days, {stats['repeat_count_30d']} in 30"
    )
    if gate["promotion_required"]:
        lines.append(f"{promotion_label(lang)}: {gate['promotion_reason']} ({repeats})")
    else:
        lines.append(f"no promotion required ({repeats})")
    return lines


def _confidence(proposal: HealProposal) -> str:
    text = f"{proposal.score:.2f}"
    if proposal.runner_up_score is None:
        return text + ", no runner-up"
    margin = proposal.score - proposal.runner_up_score
    return text + f", runner-up {proposal.runner_up_score:.2f} (margin {margin:.2f})"


def _occurrence_lines(occurrences: tuple[HealOccurrence, ...]) -> list[str]:
    lines: list[str] = []
    for n, o in enumerate(occurrences, 1):
        where = o.deployment or "-"
        lines.append(
            f"  {n}. {when(o.created_at)}  {o.req_id} step {o.step_index + 1}  on {where}"
            f"  score {score(o.score)}  from {_locator(o.failed_locator)}"
        )
        for name, path in o.evidence.items():
            lines.append(f"       {name.replace('_', ' ')}: {path}")
    return lines


# long because: one proposal shown section by section, in the order the output prints
def run_show(args: argparse.Namespace) -> int:
    with opened_store(args) as store:
        record, proposal = load_proposal(store, args.id)
        item = with_occurrences(store, record)
        outlook, refused = _outlook(store, record)
        written = _written_versions(store, record)
        reason = _decision_reason(store, record)
    copy_text = render_copy_text(proposal, lang=args.lang)
    if args.copy:
        out(copy_text.rstrip("\n"))
        return EXIT_OK
    if args.json:
        document = {
            **summary(item),
            "rule": heal_rule(proposal),
            "occurrence_list": [_occurrence_json(o) for o in item.occurrences],
            "accept_writes": outlook,
            "cannot_accept": refused,
            "stale": refused is not None and "stale" in refused,
            "recipe_versions_written": written,
            "decision_reason": reason,
            "proposal": proposal.payload(),
            "self_heal_gate": proposal.self_heal_gate,
            "suggested_diff": proposal.suggested_diff,
            "copy_text": copy_text,
        }
        out(json.dumps(document, indent=2, ensure_ascii=False))
        return EXIT_OK
    gate = proposal.self_heal_gate
    reqs = item.requirements or (record.req_id,)
    seen = f"seen {len(item.occurrences)} time(s) in {len(reqs)} requirement(s)"
    lines = [
        f"Heal proposal #{record.id} · {record.status} · {record.severity} · "
        f"{track_badge(gate)} · {seen}",
        "",
        f"  element      {record.element_key}" + (f" on page {record.page}" if record.page else ""),
        f"  old locator  {_locator(proposal.failed_locator)}",
        f"  new locator  {_locator(proposal.healed_locator)}",
        f"  what changed {payload_change(proposal.failed_locator, proposal.healed_locator) or '-'}",
        f"  found by     {proposal.tool_name} after {proposal.failure_type or '-'} "
        f"(RCA {proposal.rca_class or '-'})",
        f"  score        {_confidence(proposal)}",
        f"  rule         {heal_rule(proposal)}",
        f"  requirements {', '.join(reqs)}",
        "",
        f"Occurrences ({len(item.occurrences)}):",
        *_occurrence_lines(item.occurrences),
        "",
        "Self-heal gate:",
        *(f"  {line}" for line in _gate_words(gate, proposal, args.lang)),
    ]
    names = (
        REQUIRED_EXCEPTION_FIELDS
        if gate is not None and gate["track"] == "exception"
        else REQUIRED_CONTRACT_FIELDS
    )
    lines += [f"  {name}: {getattr(proposal, name) or '-'}" for name in names]
    if record.status == "pending":
        lines += ["", "Accepting writes:"]
        lines += [f"  {line}" for line in outlook] or ["  nothing"]
        if refused:
            lines.append(f"  cannot be accepted: {refused}")
    else:
        decision = f"{record.status} by {record.decided_by} at {when(record.decided_at)}"
        if written:
            decision += f", wrote {', '.join(written)}"
        if reason:
            decision += f"; reason: {reason}"
        lines += ["", f"Decision: {decision}"]
    lines += [
        "",
        f"`pacts heals show {record.id} --copy` prints the block to paste into an issue (gate "
        "JSON, suggested diff); --json the whole record.",
    ]
    out("\n".join(lines))
    return EXIT_OK
