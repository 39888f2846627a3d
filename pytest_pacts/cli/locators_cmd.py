"""``pacts locators REQ-ID``: what the store holds for a requirement's elements.

Per step of the requirement's latest recipe (the reviewed, versioned plan a run starts
from): the element, its primary locator and fallbacks with strategy and confidence, and
where each was verified (the deployments, i.e. base URLs, on which it passed the gate and
acted, how often, and when last). Verified locators the recipe does not hold (another
deployment's, an older one) are listed under their element. Read-only.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from pytest_pacts.cli.common import EXIT_OK, EXIT_PROBLEMS, add_store_option, opened_store
from pytest_pacts.cli.render import out, when
from pytest_pacts.store.records import VerifiedLocator


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "locators",
        help="show the locators the store holds for a requirement, and where each was verified",
        description="Show, per step of the requirement's latest recipe, the primary locator "
        "and fallbacks (strategy, confidence) and the deployments (base URLs) where each was "
        "verified: how often and when last. Read-only.",
    )
    parser.add_argument("req_id", metavar="REQ-ID")
    add_store_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=run)


def _locator_text(payload: object) -> tuple[str, str, str]:
    """(Playwright code, strategy, confidence) of a stored locator payload."""
    from pydantic import ValidationError

    from pytest_pacts.discovery import UnrenderableLocator, to_code
    from pytest_pacts.models.locator import Locator

    if not isinstance(payload, dict):
        return json.dumps(payload), "?", "-"
    try:
        locator = Locator.model_validate(payload)
    except ValidationError:
        return json.dumps(payload, sort_keys=True), str(payload.get("strategy", "?")), "-"
    try:
        code = to_code(locator)
    except UnrenderableLocator:
        code = locator.describe()
    return code, locator.strategy.value, f"{locator.confidence:.2f}"


def _verified_json(row: VerifiedLocator) -> dict[str, object]:
    return {
        "deployment": row.deployment,
        "times": row.verified_count,
        "first": row.first_verified_at.isoformat(),
        "last": row.last_verified_at.isoformat(),
    }


# long because: recipe steps and verified locators joined row by row for one table
def collect(store: object, req_id: str) -> dict[str, object] | None:
    """The requirement's recipe steps and verified locators, or ``None`` when the store
    holds nothing for it."""
    from pytest_pacts.governance.recipes import recipe_of
    from pytest_pacts.store import Store
    from pytest_pacts.store.repos.locators import locator_key

    assert isinstance(store, Store)
    latest = store.recipes.latest(req_id)
    verified: dict[str, list[VerifiedLocator]] = defaultdict(list)
    for row in store.locators.for_requirement(req_id):
        verified[row.element_key].append(row)
    if latest is None and not verified:
        return None
    recipe = recipe_of(latest) if latest is not None else None
    steps: list[dict[str, object]] = []
    shown: set[tuple[str, str]] = set()

    def entry(key: str, role: str, payload: object) -> dict[str, object]:
        code, strategy, confidence = _locator_text(payload)
        lkey = locator_key(payload) if isinstance(payload, dict) else json.dumps(payload)
        shown.add((key, lkey))
        rows = [
            r for r in verified.get(key, [])
            if isinstance(r.locator, dict) and locator_key(r.locator) == lkey
        ]  # fmt: skip
        return {
            "role": role,
            "locator": code,
            "strategy": strategy,
            "confidence": confidence,
            "verified": [_verified_json(r) for r in rows],
        }

    if recipe is not None:
        for number, step in enumerate(recipe.workflow, start=1):
            item: dict[str, object] = {
                "step": number,
                "action": step.op.value,
                "element": step.target,
                "locators": [],
            }
            selector = recipe.selectors.get(step.target) if step.target else None
            if step.target and selector is not None:
                item["locators"] = [
                    entry(step.target, "primary", selector.primary),
                    *(entry(step.target, "fallback", f) for f in selector.fallbacks),
                ]
            steps.append(item)
    others: list[dict[str, object]] = []
    for key, rows in verified.items():
        for row in rows:
            lkey = locator_key(row.locator) if isinstance(row.locator, dict) else ""
            if (key, lkey) in shown:
                continue
            code, strategy, confidence = _locator_text(row.locator)
            others.append(
                {
                    "element": key,
                    "locator": code,
                    "strategy": strategy,
                    "confidence": confidence,
                    "verified": [_verified_json(row)],
                }
            )
    return {
        "req_id": req_id,
        "store": store.location,
        "recipe": None
        if latest is None
        else {
            "version": latest.version,
            "plan_hash": latest.plan_hash,
            "written": latest.created_at.isoformat(),
            "proposal": latest.proposal_id,
        },
        "steps": steps,
        "other_verified": others,
    }


def _print(report: Mapping[str, Any]) -> None:
    from datetime import datetime

    def verified_text(rows: object) -> str:
        assert isinstance(rows, list)
        if not rows:
            return "not verified by a run yet"
        return "; ".join(
            f"{r['deployment']} x{r['times']} (last {when(datetime.fromisoformat(r['last']))})"
            for r in rows
        )

    recipe = report["recipe"]
    out(f"{report['req_id']}  (store: {report['store']})")
    if isinstance(recipe, dict):
        origin = f", from heal proposal {recipe['proposal']}" if recipe["proposal"] else ""
        written = when(datetime.fromisoformat(str(recipe["written"])))
        out(
            f"recipe {recipe['version']}: plan {str(recipe['plan_hash'])[:19]}, "
            f"written {written}{origin}"
        )
    else:
        out("no recipe yet (written after the first clean pass)")
    for step in report["steps"]:
        out("")
        out(f"  step {step['step']}: {step['action']} {step['element'] or '(no element)'}")
        for loc in step["locators"]:
            out(f"    {loc['role']:<8}  {loc['locator']}  [{loc['strategy']} {loc['confidence']}]")
            if loc["verified"] or loc["role"] == "primary":
                out(f"              verified: {verified_text(loc['verified'])}")
    others = report["other_verified"]
    if others:
        out("")
        out("  verified locators the recipe does not hold (another deployment, an older one):")
        for loc in others:
            out(f"    {loc['element']}: {loc['locator']}  [{loc['strategy']} {loc['confidence']}]")
            out(f"              verified: {verified_text(loc['verified'])}")


def run(args: argparse.Namespace) -> int:
    with opened_store(args) as store:
        report = collect(store, args.req_id)
        location = store.location
    if report is None:
        out(
            f"the store ({location}) holds no locators for {args.req_id}: it gets them when "
            "the requirement runs (pytest), or check the id (pacts plan lists them)"
        )
        return EXIT_PROBLEMS
    if args.json:
        out(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        _print(report)
    return EXIT_OK
