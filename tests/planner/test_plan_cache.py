"""The plan cache (``planner/plan_cache.py``): plans built before, served as plain data.

A kept plan builds back into the same :class:`Plan`; an entry is used only while what its
plans were built from holds (the file's bytes and inputs, the environment names planning
asked about, the image targets' files); a file that does not plan is never kept; every
entry is sealed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest

from pytest_pacts.models import Plan
from pytest_pacts.planner import LoaderOptions, RequirementFileError, load_file
from pytest_pacts.planner.plan_cache import PlainPlan, PlanInputs, plain_plans
from pytest_pacts.planner.readers.limits import ReadLimits

SAMPLES = Path(__file__).resolve().parents[2] / "sample_requirements"

YAML = """
requirements:
  - req_id: REQ-ENV-001
    title: Sign in
    url: "{{env.PACTS_PC_START}}/login"
    tags: [smoke]
    vars: {user: alice}
    steps:
      - "Username@LoginForm | fill | {{vars.user}} |"
      - "Login | click | | navigates_to:Products"
"""


def _inputs(path: Path, **changes: object) -> PlanInputs:
    given: dict[str, object] = {
        "display": path.name,
        "folder": str(path.resolve().parent),
        "secret_vars": frozenset(),
        "limits": ReadLimits(),
        "max_file_bytes": 10_000_000,
        "check_env": True,
        "blocks": (),
    }
    given.update(changes)
    return PlanInputs(**given)  # type: ignore[arg-type]


class _Planner:
    """``load_file`` as ``plain_plans`` calls it, counting the calls (a call is a miss)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.calls = 0

    def __call__(self, env: Mapping[str, str]) -> Sequence[Plan]:
        self.calls += 1
        options = LoaderOptions(env=env)
        return load_file(self.path, options, display=self.path.name).plans


@pytest.mark.parametrize(
    "name", ["login.xlsx", "shopping.req.yaml", "widgets.req.json", "account.req.yaml"]
)
def test_a_kept_plan_builds_back_into_the_same_plan(name: str) -> None:
    env = {"SHOP_PASSWORD": "x", "SHOP_USER": "y", **os.environ}
    blocks = SAMPLES / "blocks" / "common.blocks.yaml"
    from pytest_pacts.planner.loader import load_blocks_file

    options = LoaderOptions(env=env, shared_blocks=load_blocks_file(blocks))
    plans = load_file(SAMPLES / name, options, display=name).plans
    assert plans
    for plan in plans:
        plain = PlainPlan.of(plan)
        again = PlainPlan(plain.data, plain.folder)
        assert again.plan == plan
        assert again.req_id == plan.req_id
        assert again.tags == plan.requirement.tags
        assert again.title == plan.requirement.title
        assert again.context == plan.requirement.context
        assert again.plan_hash == plan.plan_hash
        assert again.source() == plan.requirement.source.render()
        assert again.line == plan.requirement.source.zero_based_line


def test_an_unchanged_file_is_served_from_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "r.req.yaml"
    path.write_text(YAML, encoding="utf-8")
    planner = _Planner(path)
    env = {"PACTS_PC_START": "http://x"}
    cache = tmp_path / "plans"
    first = plain_plans(path, _inputs(path), env, cache, planner)
    second = plain_plans(path, _inputs(path), env, cache, planner)
    assert planner.calls == 1
    assert [p.data for p in first] == [p.data for p in second]
    assert second[0].plan == first[0].plan
    # another input (how errors name the file) is another entry
    plain_plans(path, _inputs(path, display="sub/r.req.yaml"), env, cache, planner)
    assert planner.calls == 2
    # a changed file too
    path.write_text(YAML.replace("alice", "bob"), encoding="utf-8")
    changed = plain_plans(path, _inputs(path), env, cache, planner)
    assert planner.calls == 3
    assert changed[0].plan.requirement.vars == {"user": "bob"}


def test_an_entry_holds_while_the_environment_names_asked_about_do(tmp_path: Path) -> None:
    path = tmp_path / "r.req.yaml"
    path.write_text(YAML, encoding="utf-8")
    planner = _Planner(path)
    cache = tmp_path / "plans"
    plain_plans(path, _inputs(path), {"PACTS_PC_START": "http://x"}, cache, planner)
    # another value of the same variable: the plans do not depend on it
    plain_plans(path, _inputs(path), {"PACTS_PC_START": "http://y", "OTHER": "1"}, cache, planner)
    assert planner.calls == 1
    # unset: the file is planned again, and its error located as always
    with pytest.raises(RequirementFileError) as caught:
        plain_plans(path, _inputs(path), {}, cache, planner)
    assert planner.calls == 2
    assert str(caught.value).startswith("r.req.yaml:5:")
    assert "{{env.PACTS_PC_START}} cannot be resolved" in str(caught.value)
    # set again: the entry kept before serves it
    plain_plans(path, _inputs(path), {"PACTS_PC_START": "http://z"}, cache, planner)
    assert planner.calls == 2


def test_a_file_that_does_not_plan_is_never_kept(tmp_path: Path) -> None:
    path = tmp_path / "r.req.yaml"
    path.write_text(YAML.replace("| click |", "| jump |"), encoding="utf-8")
    planner = _Planner(path)
    cache = tmp_path / "plans"
    errors = []
    for _ in range(2):
        with pytest.raises(RequirementFileError) as caught:
            plain_plans(path, _inputs(path), {"PACTS_PC_START": "x"}, cache, planner)
        errors.append(str(caught.value))
    assert planner.calls == 2
    assert errors[0] == errors[1]
    assert errors[0].startswith("r.req.yaml:10:")
    assert "unknown action 'jump'" in errors[0]
    assert not cache.exists() or not list(cache.iterdir())


def test_an_entry_holds_while_its_image_targets_files_exist(tmp_path: Path) -> None:
    picture = tmp_path / "buttons" / "go.png"
    picture.parent.mkdir()
    picture.write_bytes(b"\x89PNG\r\n\x1a\n")
    path = tmp_path / "r.req.yaml"
    path.write_text(
        "requirements:\n  - req_id: REQ-IMG-001\n    url: /\n"
        '    steps: ["image:buttons/go.png | click | |"]\n',
        encoding="utf-8",
    )
    planner = _Planner(path)
    cache = tmp_path / "plans"
    for _ in range(2):
        plain_plans(path, _inputs(path), {}, cache, planner)
    assert planner.calls == 1
    picture.unlink()
    with pytest.raises(RequirementFileError, match="does not exist"):
        plain_plans(path, _inputs(path), {}, cache, planner)
    assert planner.calls == 2


def test_a_planning_that_reads_an_environment_value_is_not_kept(tmp_path: Path) -> None:
    path = tmp_path / "r.req.yaml"
    path.write_text(YAML, encoding="utf-8")
    cache = tmp_path / "plans"
    inner = _Planner(path)

    def reads_a_value(env: Mapping[str, str]) -> Sequence[Plan]:
        env.get("PACTS_PC_START")
        return inner(env)

    for _ in range(2):
        plain_plans(path, _inputs(path), {"PACTS_PC_START": "x"}, cache, reads_a_value)
    assert inner.calls == 2


def test_entries_are_sealed(tmp_path: Path) -> None:
    path = tmp_path / "r.req.yaml"
    path.write_text(YAML.replace("alice", "hunter2-literal"), encoding="utf-8")
    cache = tmp_path / "plans"
    plain_plans(path, _inputs(path), {"PACTS_PC_START": "x"}, cache, _Planner(path))
    (entry,) = cache.iterdir()
    content = entry.read_bytes()
    for word in (b"hunter2-literal", b"REQ-ENV-001", b"Username", b"requirement"):
        assert word not in content


def test_no_cache_directory_plans_every_time(tmp_path: Path) -> None:
    path = tmp_path / "r.req.yaml"
    path.write_text(YAML, encoding="utf-8")
    planner: Callable[[Mapping[str, str]], Sequence[Plan]] = _Planner(path)
    for _ in range(2):
        plain_plans(path, _inputs(path), {"PACTS_PC_START": "x"}, None, planner)
    assert isinstance(planner, _Planner) and planner.calls == 2
