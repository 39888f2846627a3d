"""``pacts heals list``: the proposals in a table, oldest first, one row per drift (or JSON).

The options are ``heals_cmd``'s; this module is imported when the action runs.
"""

from __future__ import annotations

import argparse
import json

from pytest_pacts.cli.common import EXIT_OK, opened_store
from pytest_pacts.cli.heals_review import proposal_filter
from pytest_pacts.cli.heals_show import summary
from pytest_pacts.cli.render import clip, out, score, table, when
from pytest_pacts.governance import Selected, promotion_label, select_proposals
from pytest_pacts.models.locator_change import payload_change

_ELEMENT_CELLS = 34
_REQ_CELLS = 28
_PAGE_CELLS = 20
_CHANGE_CELLS = 48


def _requirements_cell(item: Selected) -> str:
    reqs = item.requirements or (item.record.req_id,)
    more = f" +{len(reqs) - 1}" if len(reqs) > 1 else ""
    return clip(reqs[0], _REQ_CELLS - len(more)) + more


def _row(item: Selected) -> list[str]:
    record = item.record
    payload = record.payload
    first = item.occurrences[0] if item.occurrences else None
    step = (first.step_index if first else record.step_index) + 1
    return [
        str(record.id),
        record.status,
        _requirements_cell(item),
        str(step),
        clip(record.page or "-", _PAGE_CELLS),
        clip(record.element_key, _ELEMENT_CELLS),
        clip(
            payload_change(payload.get("failed_locator"), payload.get("healed_locator")) or "-",
            _CHANGE_CELLS,
        ),
        str(payload.get("tool_name") or "-"),
        f"{score(payload.get('score'))}/{score(payload.get('runner_up_score'))}",
        str(len(item.occurrences)),
        record.severity,
        record.track,
        "yes" if record.promotion_required else "-",
        when(item.occurrences[-1].created_at if item.occurrences else record.created_at),
    ]


def run_list(args: argparse.Namespace) -> int:
    with opened_store(args) as store:
        chosen = select_proposals(store, proposal_filter(args, args.status))
        counts = store.proposals.count_by_status()
        location = store.location
    if args.json:
        out(json.dumps([summary(item) for item in chosen], indent=2, ensure_ascii=False))
        return EXIT_OK
    if chosen:
        headers = (
            *("ID", "STATUS", "REQ", "STEP", "PAGE", "ELEMENT", "CHANGE", "RUNG"),
            "SCORE/RUNNER-UP",
            *("SEEN", "SEVERITY", "TRACK", "PROMOTION", "LAST SEEN"),
        )
        out(table(headers, [_row(r) for r in chosen], right={0, 3, 9}) + "\n")
    what = "" if args.status == "all" else f"{args.status} "
    totals = ", ".join(f"{n} {s}" for s, n in counts.items())
    seen = sum(len(item.occurrences) for item in chosen)
    out(
        f"{len(chosen)} {what}heal proposal(s) shown ({seen} occurrence(s)); in the store: "
        f"{totals} ({location})"
    )
    if any(item.record.promotion_required for item in chosen):
        out(f"PROMOTION yes: {promotion_label(args.lang)} (the same exception keeps coming back)")
    return EXIT_OK
