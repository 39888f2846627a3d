"""Store changes a few web tests need on top of the filled store, made the way the product
makes them (governance for proposals, the runs repository for runs)."""

from __future__ import annotations

from pytest_pacts.governance import apply_patch, build_heal_proposal, propose, recipe_diff
from pytest_pacts.governance.recipes import recipe_of
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
