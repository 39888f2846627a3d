"""``pacts heals accept|reject``: decide pending heal proposals, one or many.

Accepting a drift's proposal writes the next recipe version of every requirement using the
element; a major proposal needs an explicit GO first. Rejecting leaves the recipe unchanged
and keeps the reason as an audit event. Both decisions are governance code
(``governance.review``), shared with ``pacts serve``.

Several proposals (ids, ``--all`` or filters) are listed first and decided only after a GO
typed at a terminal, or ``--yes``: a bulk decision is shown before it is made. Each is then
decided on its own; one that cannot be accepted is reported and the others go on.

The loader lives here rather than in ``heals_cmd`` (whose ``show`` reads it) so imports run
one way: ``heals_cmd`` -> ``heals_review``.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from pydantic import ValidationError

from pytest_pacts.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    GO,
    CommandError,
    opened_store,
)
from pytest_pacts.cli.render import clip, out, score, table, when
from pytest_pacts.governance import (
    ProposalFilter,
    Selected,
    proposal_from_record,
    review,
    select_proposals,
    with_occurrences,
)
from pytest_pacts.models.heal import HealProposal
from pytest_pacts.store import ProposalRecord, RecordNotFound, Store
from pytest_pacts.store.records import ProposalStatus


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


def _status(status: str | None) -> ProposalStatus | None:
    """``--status`` (argparse keeps it to its choices; ``all`` filters nothing)."""
    match status:
        case "pending" | "accepted" | "rejected":
            return status
        case _:
            return None


def proposal_filter(args: argparse.Namespace, status: str | None = "pending") -> ProposalFilter:
    """The filter options of ``list``, ``accept`` and ``reject`` as one filter."""
    return ProposalFilter(
        status=_status(status),
        req_id=args.req,
        page=args.page,
        element=args.element,
        track=args.track,
        min_score=args.min_score,
        max_score=args.max_score,
        promotion=args.promotion,
    )


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


def _ask(question: str) -> bool:
    try:
        answer = input(question)
    except EOFError:
        answer = ""
    return answer.strip().upper() == GO


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
    return _ask(f"Type {GO} to accept, NOT {GO} to leave it pending: ")


# -- choosing what to decide -------------------------------------------------------------


def _chosen(store: Store, args: argparse.Namespace) -> tuple[list[Selected], bool]:
    """The proposals the command names, and whether it is a bulk decision (several ids,
    ``--all`` or a filter) that needs a GO."""
    flt = proposal_filter(args)
    if args.ids and (args.all or flt.narrows):
        raise CommandError("give proposal ids, or --all / filters, not both", EXIT_USAGE)
    if args.ids:
        ids = list(dict.fromkeys(args.ids))
        chosen = [with_occurrences(store, load_proposal(store, i)[0]) for i in ids]
        return chosen, len(ids) > 1
    if not (args.all or flt.narrows):
        raise CommandError(
            "name the proposals: one or more ids (`pacts heals accept 3 4 5`), --all, or a "
            "filter (--req, --page, --element, --track, --min-score, --max-score, --promotion)",
            EXIT_USAGE,
        )
    return select_proposals(store, flt), True


def _table(chosen: list[Selected]) -> str:
    headers = ("ID", "REQUIREMENTS", "PAGE", "ELEMENT", "SCORE", "SEEN", "SEVERITY", "TRACK")
    rows = [
        [
            str(item.record.id),
            clip(", ".join(item.requirements), 40),
            clip(item.record.page or "-", 24),
            clip(item.record.element_key, 34),
            score(item.score),
            str(len(item.occurrences)),
            item.record.severity,
            item.record.track,
        ]
        for item in chosen
    ]
    return table(headers, rows, right={0, 4, 5})


def _confirmed(chosen: list[Selected], verb: str, yes: bool) -> bool:
    """The GO / NOT GO of a bulk decision: the proposals are listed first."""
    out(_table(chosen))
    if yes:
        return True
    if not sys.stdin.isatty():
        raise CommandError(
            f"{len(chosen)} heal proposal(s) selected to {verb}: a bulk decision needs "
            f"explicit approval; rerun with --yes, or run it in a terminal and type {GO}"
        )
    return _ask(
        f"Type {GO} to {verb} these {len(chosen)} proposal(s), NOT {GO} to leave them pending: "
    )


# -- accept ------------------------------------------------------------------------------


def _accept_one(store: Store, record: ProposalRecord, by: str, approved: bool) -> str:
    """Accept one proposal; the line to print. Raises :class:`CommandError`."""
    _pending(record)
    try:
        proposal, _recipe_now, _rebased = review.prepare(store, record)
    except review.ReviewError as exc:
        raise CommandError(str(exc)) from None
    if review.is_major(record, proposal) and not _approved(record, proposal, approved):
        raise CommandError(
            f"NOT {GO}: heal proposal #{record.id} stays pending "
            f"(`pacts heals reject {record.id}` to reject it)"
        )
    try:
        done = review.accept(store, record.id, by=by, approved_major=True)
    except review.ReviewError as exc:
        raise CommandError(str(exc)) from None
    rebased = " (rebased onto the latest version)" if done.rebased else ""
    kept = [c.req_id for c in done.changes if c.kept_primary]
    note = (
        f"; kept the stronger primary locator of {', '.join(kept)} (it still works on "
        "another deployment), the healed one added as a fallback"
        if kept
        else ""
    )
    return (
        f"accepted heal proposal #{done.proposal_id} ({'major' if done.major else 'minor'}) "
        f"by {by}: {done.summary()}{rebased}{note}"
    )


def run_accept(args: argparse.Namespace) -> int:
    by = _actor(args.by)
    failed = 0
    with opened_store(args) as store:
        chosen, bulk = _chosen(store, args)
        if not chosen:
            out("no pending heal proposal matches; nothing was accepted")
            return EXIT_OK
        if bulk and not _confirmed(chosen, "accept", args.yes):
            print(f"NOT {GO}: the {len(chosen)} proposal(s) stay pending", file=sys.stderr)
            return EXIT_PROBLEMS
        for item in chosen:
            try:
                # a bulk GO approves the major ones it listed too
                out(_accept_one(store, item.record, by, args.yes or bulk))
            except CommandError as exc:
                if not bulk:
                    raise
                failed += 1
                print(f"heal proposal #{item.record.id} not accepted: {exc}", file=sys.stderr)
    if failed:
        print(f"{failed} of {len(chosen)} proposal(s) not accepted", file=sys.stderr)
        return EXIT_PROBLEMS
    return EXIT_OK


# -- reject ------------------------------------------------------------------------------


def run_reject(args: argparse.Namespace) -> int:
    by = _actor(args.by)
    reason = (args.reason or "").strip() or None
    failed = 0
    with opened_store(args) as store:
        chosen, bulk = _chosen(store, args)
        if not chosen:
            out("no pending heal proposal matches; nothing was rejected")
            return EXIT_OK
        if bulk and not _confirmed(chosen, "reject", args.yes):
            print(f"NOT {GO}: the {len(chosen)} proposal(s) stay pending", file=sys.stderr)
            return EXIT_PROBLEMS
        for item in chosen:
            record = item.record
            try:
                _pending(record)
                review.reject(store, record.id, by=by, reason=reason)
            except (CommandError, review.ReviewError) as exc:
                if not bulk:
                    raise CommandError(str(exc)) from None
                failed += 1
                print(f"heal proposal #{record.id} not rejected: {exc}", file=sys.stderr)
                continue
            because = f": {reason}" if reason else ""
            where = ", ".join(item.requirements) or record.req_id
            out(f"rejected heal proposal #{record.id} ({where}) by {by}{because}")
    if failed:
        print(f"{failed} of {len(chosen)} proposal(s) not rejected", file=sys.stderr)
        return EXIT_PROBLEMS
    return EXIT_OK
