"""``pacts heals accept|reject``: decide a pending heal proposal.

Accepting checks the patch against the contract and the latest recipe version and writes
the next version; a major proposal needs an explicit GO first. Rejecting leaves the recipe
unchanged and keeps the reason as an audit event. Both decisions are governance code
(``governance.review``), shared with ``pacts serve``. The loader lives here rather than in
``heals_cmd`` (whose ``show`` reads it) so imports run one way: ``heals_cmd`` ->
``heals_review``.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from pydantic import ValidationError

from pytest_pacts.cli.common import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, CommandError, opened_store
from pytest_pacts.cli.render import when
from pytest_pacts.governance import proposal_from_record, review
from pytest_pacts.models.heal import HealProposal
from pytest_pacts.store import HealProposal as ProposalRecord
from pytest_pacts.store import RecordNotFound, Store

#: What a reviewer types to accept a major proposal.
GO = "GO"


def load_proposal(store: Store, proposal_id: int) -> tuple[ProposalRecord, HealProposal]:
    """The stored proposal and its validated model; an unknown id or bad payload is a message."""
    try:
        record = store.proposals.get(proposal_id)
    except RecordNotFound:
        raise CommandError(
            f"no heal proposal #{proposal_id} in {store.location}; "
            "`pacts heals list --status all` shows every id",
            EXIT_USAGE,
        ) from None
    try:
        return record, proposal_from_record(record)
    except ValidationError as exc:
        raise CommandError(
            f"heal proposal #{proposal_id} in the store is not a valid proposal "
            f"({exc.error_count()} problem(s), first: {_first_error(exc)})"
        ) from None


def _first_error(exc: ValidationError) -> str:
    """The first validation problem as ``dotted.location: message``."""
    first = exc.errors()[0]
    return f"{'.'.join(str(p) for p in first['loc']) or 'payload'}: {first['msg']}"


def _actor(given: str | None) -> str:
    if given is not None:
        if not given.strip():
            raise CommandError("--by needs a name", EXIT_USAGE)
        return given.strip()
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name in some containers
        return "pacts-cli"


def _pending(record: ProposalRecord) -> None:
    if record.status != "pending":
        raise CommandError(
            f"heal proposal #{record.id} was already {record.status} by "
            f"{record.decided_by} at {when(record.decided_at)}; only pending proposals "
            "can be decided"
        )


def _approved(record: ProposalRecord, proposal: HealProposal, yes: bool) -> bool:
    """A major proposal's GO: ``--yes``, or typed at a terminal prompt."""
    if yes:
        return True
    paths = ", ".join(op.path for op in proposal.patch_ops)
    if not sys.stdin.isatty():
        raise CommandError(
            f"heal proposal #{record.id} is major (it changes {paths}) and needs explicit "
            f"approval: rerun with --yes, or run it in a terminal and type {GO}. "
            f"Review it first with `pacts heals show {record.id}`."
        )
    print(f"Heal proposal #{record.id} is MAJOR: it changes {paths}.")
    print(proposal.suggested_diff.rstrip("\n") or "(no diff)")
    try:
        answer = input(f"Type {GO} to accept, NOT {GO} to leave it pending: ")
    except EOFError:
        answer = ""
    return answer.strip().upper() == GO


def run_accept(args: argparse.Namespace) -> int:
    by = _actor(args.by)
    with opened_store(args) as store:
        record, _proposal = load_proposal(store, args.id)
        _pending(record)
        try:
            proposal, _recipe_now, _rebased = review.prepare(store, record)
        except review.ReviewError as exc:
            raise CommandError(str(exc)) from None
        if review.is_major(record, proposal) and not _approved(record, proposal, args.yes):
            print(
                f"NOT {GO}: heal proposal #{record.id} stays pending "
                f"(`pacts heals reject {record.id}` to reject it)",
                file=sys.stderr,
            )
            return EXIT_PROBLEMS
        try:
            done = review.accept(store, record.id, by=by, approved_major=True)
        except review.ReviewError as exc:
            raise CommandError(str(exc)) from None
    rebased = " (rebased onto the latest version)" if done.rebased else ""
    print(
        f"accepted heal proposal #{done.proposal_id} ({'major' if done.major else 'minor'}) "
        f"by {by}: recipe {done.req_id} {done.from_version} -> {done.to_version}{rebased}"
    )
    return EXIT_OK


def run_reject(args: argparse.Namespace) -> int:
    by = _actor(args.by)
    reason = (args.reason or "").strip() or None
    with opened_store(args) as store:
        record, _ = load_proposal(store, args.id)
        _pending(record)
        try:
            review.reject(store, record.id, by=by, reason=reason)
        except review.ReviewError as exc:
            raise CommandError(str(exc)) from None
    because = f": {reason}" if reason else ""
    print(f"rejected heal proposal #{record.id} ({record.req_id}) by {by}{because}")
    return EXIT_OK
