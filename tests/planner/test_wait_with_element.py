"""A ``wait`` step may name the element to wait for (``Walk dog | wait | | text_visible:…``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytest_pacts.discovery.planning import start_page_steps
from pytest_pacts.models import Action, Target
from pytest_pacts.planner import LoaderOptions, load_file

YAML = """
req_id: REQ-TODO-1
url: /
steps:
  - "What needs to be done? | fill | Walk dog"
  - "What needs to be done? | press | Enter | text_visible:Walk dog"
  - "Walk dog | wait | | text_visible:1 item left"
  - "checkbox@Walk dog | check | | checked"
"""


def test_a_wait_step_keeps_its_element(write: Callable[[str, str], Path]) -> None:
    plan = load_file(write("todo.req.yaml", YAML), LoaderOptions(env={})).plans[0]
    wait = plan.steps[2]
    assert wait.action is Action.WAIT
    assert wait.target == Target(element="Walk dog")
    assert wait.expected is not None and str(wait.expected) == "text_visible:1 item left"
    # Collection-time discovery leaves it to run time (what a wait names usually appears
    # only after the steps before it), and goes on with the steps after it.
    assert [s.index for s in start_page_steps(plan)] == [0, 1, 3]
