"""Store changes a few web tests need on top of the filled store, made the way the product
makes them (governance for proposals, the runs repository for runs)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pytest_pacts.governance import apply_patch, build_heal_proposal, propose, recipe_diff
from pytest_pacts.governance.drift import HealSite
from pytest_pacts.governance.recipes import recipe_of
from pytest_pacts.governance.review import reject
from pytest_pacts.models.heal import Severity
from pytest_pacts.models.recipe import PatchOp
from pytest_pacts.store import open_store

from .conftest import REQ


def add_major_proposal(store_target: str) -> int:
    """A pending major proposal: the last step's expectation changes (workflow patch)."""
    with open_store(store_target) as store:
        latest = store.recipes.latest(REQ)
        assert latest is not None
        recipe = recipe_of(latest)
        base = build_heal_proposal(
            recipe,
            step_index=4,
            element_key="Shopping cart",
            healed_locator={"strategy": "role_name", "role": "link", "name": "Cart"},
            tool_name="semantic",
            score=0.9,
            runner_up_score=0.3,
            rca_class="selector_drift",
            failure_type="not_found",
        )
        ops = (PatchOp(path="workflow.s005.expect", op="replace", value="navigates_to:Cart"),)
        major = base.model_copy(
            update={
                "patch_ops": ops,
                "severity": Severity.MAJOR,
                "suggested_diff": recipe_diff(recipe, apply_patch(recipe, ops)),
                "change_plan": "Expect the page called Cart after the cart link.",
            }
        )
        return int(propose(store, major).id)


# Markup an attacker could get into a stored field (a session name, a page's words, a reject
# reason...). Every element carries data-pwn, so a parser finds any that came out live.
HOSTILE = (
    '<meta http-equiv="refresh" content="0;url=http://127.0.0.2/" data-pwn="1">'
    "<img src=x onerror=\"document.title='pwned'\" data-pwn=1>"
    "\"><script data-pwn=1>document.title='pwned'</script>'><b data-pwn=1>x</b>"
)
# the same without '/', for values that become one path segment (req_id, file names)
HOSTILE_ID = (
    '<meta http-equiv="refresh" content="0;url=http:127.0.0.2" data-pwn="1">'
    "<img src=x onerror=\"document.title='pwned'\" data-pwn=1>\"><b data-pwn=1>x'"
)


@dataclass(frozen=True)
class HostileRecords:
    run_id: int
    pending_id: int
    rejected_id: int
    artifact: str  # the name of a file of the run, inside the project's report folder


def add_hostile_records(store_target: str, project: Path) -> HostileRecords:
    """A run, two heal proposals (one rejected) and a report file with ``HOSTILE`` in
    every field a page shows, written as the engine and governance write them."""
    folder = project / ".pacts" / "reports" / "20260101-000000" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    shot = folder / f"{HOSTILE_ID}.png"
    shot.write_bytes(b"\x89PNG\r\n\x1a\n")
    with open_store(store_target) as store:
        run = store.runs.begin(HOSTILE, HOSTILE_ID, plan_hash=HOSTILE)
        gate = {"points": [{"name": HOSTILE, "ok": False, "reason": HOSTILE}]}
        for index, status in enumerate(("passed", HOSTILE)):
            store.runs.add_step(
                run.id,
                step_index=index,
                action=HOSTILE,
                status=status,
                element_key=HOSTILE,
                locator={
                    "strategy": HOSTILE,
                    "role": HOSTILE,
                    "name": HOSTILE,
                    "region": {"description": HOSTILE},
                },
                strategy=HOSTILE,
                confidence=0.5,
                gate=gate,
                heal_round=1,
                duration_ms=12.0,
            )
        store.runs.add_artifact(run.id, "screenshot_step1-heal1-after", str(shot))
        store.runs.add_artifact(run.id, HOSTILE, str(shot))
        store.runs.add_metric(run.id, HOSTILE, 1.0)
        store.runs.finish(run.id, verdict="fail", rca_class=HOSTILE, healed=True, heal_count=1)

        latest = store.recipes.latest(REQ)
        assert latest is not None
        recipe = recipe_of(latest)
        made = []
        for element in ("Add to cart", "Shopping cart"):
            base = build_heal_proposal(
                recipe,
                step_index=3 if element == "Shopping cart" else 2,
                element_key=element,
                healed_locator={"strategy": "role_name", "role": "link", "name": HOSTILE},
                tool_name=HOSTILE,
                score=0.9,
                runner_up_score=0.3,
                rca_class=HOSTILE,
                failure_type=HOSTILE,
                failed_locator={"strategy": "css", "css": HOSTILE},
            )
            hostile = base.model_copy(
                update={"element_key": HOSTILE, "change_plan": HOSTILE, "req_id": HOSTILE_ID}
            )
            site = HealSite(deployment=HOSTILE, url=HOSTILE, screenshots={HOSTILE: HOSTILE})
            made.append(int(propose(store, hostile, site=site).id))
        reject(store, made[1], by=HOSTILE, reason=HOSTILE)
    return HostileRecords(run.id, made[0], made[1], shot.name)
