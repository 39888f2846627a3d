"""``pacts heals list|show|accept|reject``: review heal proposals.

A test run that heals a locator leaves a pending proposal in the store. A reviewer lists
them, reads one (the self-heal gate, the suggested diff and the "copy proposal" text,
docs/cli-heals.md), and accepts it, which writes the next recipe version, or rejects it. Minor
proposals (selectors, actions, policies) are accepted directly; major ones (workflow or
expectations) need an explicit GO. The store is never created here: a missing
store means the command points at the wrong place, and an empty one would hide that.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from pytest_pacts.cli.common import EXIT_OK, EXIT_USAGE, STORE_ENV, opened_store
from pytest_pacts.cli.heals_review import GO, load_proposal, run_accept, run_reject
from pytest_pacts.cli.render import clip, compact, out, score, table, when
from pytest_pacts.governance import (
    REQUIRED_CONTRACT_FIELDS,
    REQUIRED_EXCEPTION_FIELDS,
    render_copy_text,
    review,
    track_badge,
)
from pytest_pacts.governance.review import DECISION_REASON_EVENT
from pytest_pacts.models.heal import HealProposal
from pytest_pacts.store import HealProposal as ProposalRecord
from pytest_pacts.store import Store

_STATUS_CHOICES = ("pending", "accepted", "rejected", "all")
_TRACK_CHOICES = ("contract", "exception")

EPILOG = f"""\
store:
  --store PATH|DSN (a SQLite file, sqlite:///path, or a postgresql:// DSN), else
  ${STORE_ENV}, else .pacts/pacts.db under the current directory. These commands
  never create a store.

exit codes:
  0  success
  1  refused or a problem: the patch breaks the contract, the recipe moved on since the
     proposal (stale), a major proposal without GO, a proposal already decided
  2  usage: bad arguments, an unknown proposal id
  3  the store is missing, unreadable or unreachable
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = subparsers.add_parser(
        "heals",
        help="review heal proposals: list, show, accept, reject",
        description="Review the heal proposals test runs left in the store.\nAccepting one "
        "writes the next recipe version; major proposals need an explicit GO.",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    _store_option(parser, default=None)
    parser.set_defaults(func=_no_action(parser))
    actions = parser.add_subparsers(dest="heals_command", metavar="ACTION")

    listing = actions.add_parser(
        "list",
        help="a table of proposals (pending by default)",
        description="List heal proposals, oldest first.",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    listing.add_argument("--status", choices=_STATUS_CHOICES, default="pending")
    listing.add_argument("--track", choices=_TRACK_CHOICES, help="only this gate track")
    listing.add_argument(
        "--promotion", action="store_true", help="only proposals whose gate requires promotion"
    )
    listing.add_argument("--req", metavar="REQ_ID", help="only this requirement")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    _store_option(listing)
    listing.set_defaults(func=run_list)

    show = actions.add_parser(
        "show",
        help="one proposal: details, self-heal gate, suggested diff, copy-proposal text",
        description="Show one heal proposal with its self-heal gate JSON, suggested diff\n"
        "and the copy-proposal text.",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    show.add_argument("id", type=_proposal_id, metavar="ID")
    show.add_argument("--json", action="store_true", help="print JSON instead of text")
    _store_option(show)
    show.set_defaults(func=run_show)

    accept = actions.add_parser(
        "accept",
        help="accept a proposal: write the next recipe version",
        description="Check the proposal's patch against the contract and the latest recipe\n"
        "version, write the next version and mark the proposal accepted.\nA major proposal "
        f"needs --yes, or typing {GO} at the prompt in a terminal.",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    accept.add_argument("id", type=_proposal_id, metavar="ID")
    accept.add_argument(
        "--yes", action="store_true", help=f"approve a major proposal without asking ({GO})"
    )
    accept.add_argument("--by", metavar="NAME", help="who decides (default: the login name)")
    _store_option(accept)
    accept.set_defaults(func=run_accept)

    reject = actions.add_parser(
        "reject",
        help="reject a proposal; the recipe is unchanged",
        description="Mark a pending proposal rejected, with an optional reason.",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    reject.add_argument("id", type=_proposal_id, metavar="ID")
    reject.add_argument("--by", metavar="NAME", help="who decides (default: the login name)")
    reject.add_argument("--reason", metavar="TEXT", help="why (kept in the audit log)")
    _store_option(reject)
    reject.set_defaults(func=run_reject)


def _store_option(parser: argparse.ArgumentParser, default: object = argparse.SUPPRESS) -> None:
    # On ``heals`` and on each action, so ``pacts heals --store X list`` and
    # ``pacts heals list --store X`` both work; SUPPRESS keeps the action's copy from
    # overwriting the outer one when it is not given.
    parser.add_argument(
        "--store",
        metavar="PATH|DSN",
        default=default,
        help=f"the store (default: ${STORE_ENV}, else .pacts/pacts.db here)",
    )


def _no_action(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        parser.print_help()
        return EXIT_USAGE

    return run


def _proposal_id(text: str) -> int:
    value = text.strip().removeprefix("#")
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(
            f"a proposal id is a number as shown by `pacts heals list`, got {text!r}"
        )
    return int(value)


# -- the store ---------------------------------------------------------------------------


def _written_version(store: Store, record: ProposalRecord) -> str | None:
    if record.status != "accepted":
        return None
    found = (v for v in store.recipes.versions(record.req_id) if v.proposal_id == record.id)
    return next((v.version for v in found), None)


def _decision_reason(store: Store, record: ProposalRecord) -> str | None:
    if record.status == "pending":
        return None
    events = store.audit.events(event_type=DECISION_REASON_EVENT, req_id=record.req_id)
    reasons = [e.payload.get("reason") for e in events if e.payload.get("proposal_id") == record.id]
    last = reasons[-1] if reasons else None
    return last if isinstance(last, str) else None


# -- list --------------------------------------------------------------------------------

_ELEMENT_CELLS = 34
_REQ_CELLS = 24


def _summary(record: ProposalRecord) -> dict[str, object]:
    payload = record.payload
    return {
        "id": record.id,
        "status": record.status,
        "req_id": record.req_id,
        "step_index": record.step_index,
        "element_key": record.element_key,
        "tool_name": payload.get("tool_name"),
        "score": payload.get("score"),
        "runner_up_score": payload.get("runner_up_score"),
        "severity": record.severity,
        "track": record.track,
        "promotion_required": record.promotion_required,
        "base_version": payload.get("base_version"),
        "exception_fingerprint": record.exception_fingerprint,
        "created_at": record.created_at.isoformat(),
        "decided_at": record.decided_at.isoformat() if record.decided_at else None,
        "decided_by": record.decided_by,
    }


def _row(record: ProposalRecord) -> list[str]:
    payload = record.payload
    runner_up = payload.get("runner_up_score")
    return [
        str(record.id),
        record.status,
        clip(record.req_id, _REQ_CELLS),
        str(record.step_index),
        clip(record.element_key, _ELEMENT_CELLS),
        str(payload.get("tool_name") or "-"),
        f"{score(payload.get('score'))}/{score(runner_up)}",
        record.severity,
        record.track,
        "yes" if record.promotion_required else "-",
        when(record.created_at),
    ]


def run_list(args: argparse.Namespace) -> int:
    with opened_store(args) as store:
        status = None if args.status == "all" else args.status
        records = store.proposals.query(status=status, req_id=args.req)
        counts = store.proposals.count_by_status()
        location = store.location
    records = [
        r
        for r in records
        if (args.track is None or r.track == args.track)
        and (not args.promotion or r.promotion_required)
    ]
    if args.json:
        out(json.dumps([_summary(r) for r in records], indent=2, ensure_ascii=False))
        return EXIT_OK
    if records:
        headers = (
            *("ID", "STATUS", "REQ", "STEP", "ELEMENT", "RUNG", "SCORE/RUNNER-UP"),
            *("SEVERITY", "TRACK", "PROMOTION", "CREATED"),
        )
        out(table(headers, [_row(r) for r in records], right={0, 3}) + "\n")
    what = "" if args.status == "all" else f"{args.status} "
    totals = ", ".join(f"{n} {s}" for s, n in counts.items())
    out(f"{len(records)} {what}heal proposal(s) shown; in the store: {totals} ({location})")
    return EXIT_OK


# -- show --------------------------------------------------------------------------------


def _track_fields(proposal: HealProposal) -> list[tuple[str, str]]:
    gate = proposal.self_heal_gate
    track = gate["track"] if gate is not None else "contract"
    names = REQUIRED_EXCEPTION_FIELDS if track == "exception" else REQUIRED_CONTRACT_FIELDS
    return [(name, str(getattr(proposal, name) or "-")) for name in names]


def _staleness(store: Store, proposal: HealProposal) -> tuple[str | None, bool]:
    """The latest version, and whether the proposal can no longer be accepted on it (a
    proposal on an older version whose patched paths did not change is rebased, not stale)."""
    latest = store.recipes.latest(proposal.req_id)
    version = latest.version if latest is not None else None
    if proposal.status.value != "pending" or proposal.base_version in (None, version):
        return version, False
    try:
        review.prepare(store, store.proposals.get(int(proposal.id or 0)))
    except review.ReviewError as exc:
        return version, exc.problem == "stale"
    return version, False


def run_show(args: argparse.Namespace) -> int:
    with opened_store(args) as store:
        record, proposal = load_proposal(store, args.id)
        latest, stale = _staleness(store, proposal)
        written = _written_version(store, record)
        reason = _decision_reason(store, record)
    copy_text = render_copy_text(proposal)
    if args.json:
        document = {
            **_summary(record),
            "latest_recipe_version": latest,
            "stale": stale,
            "recipe_version_written": written,
            "decision_reason": reason,
            "proposal": proposal.payload(),
            "self_heal_gate": proposal.self_heal_gate,
            "suggested_diff": proposal.suggested_diff,
            "copy_text": copy_text,
        }
        out(json.dumps(document, indent=2, ensure_ascii=False))
        return EXIT_OK
    badge = track_badge(proposal.self_heal_gate)
    recipe_line = f"{proposal.base_version or '-'} (latest: {latest or 'none'})"
    if stale:
        recipe_line += " - stale: the recipe moved on, this patch can no longer be accepted"
    fields: list[tuple[str, str]] = [
        ("requirement", f"{record.req_id}, step {record.step_index}, {record.element_key}"),
        ("recipe", recipe_line),
        ("failed locator", compact(proposal.failed_locator)),
        ("healed locator", compact(proposal.healed_locator)),
        ("patch", "; ".join(f"{op.op} {op.path}" for op in proposal.patch_ops) or "-"),
        ("fingerprint", record.exception_fingerprint or "-"),
        *_track_fields(proposal),
    ]
    if record.status != "pending":
        decision = f"{record.status} by {record.decided_by} at {when(record.decided_at)}"
        if written:
            decision += f", wrote {written}"
        if reason:
            decision += f"; reason: {reason}"
        fields.append(("decision", decision))
    label = max(len(name) for name, _ in fields)
    lines = [f"Heal proposal #{record.id} · {record.status} · {record.severity} · {badge}"]
    lines += [f"  {name.ljust(label)}  {value}" for name, value in fields]
    lines += ["", "--- copy proposal (self-heal gate JSON and suggested diff included) ---"]
    out("\n".join(lines) + "\n" + copy_text + "--- end of copy proposal ---")
    return EXIT_OK
