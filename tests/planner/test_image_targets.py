"""Image targets in requirement files: the path is relative to the file, checked at
collection with a located message; the plan hash does not depend on where the file is."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from tests.planner.conftest import load, problems

PNG = Path(__file__).parents[2] / "pytest_pacts/demo_app/static/assets/img/refresh.png"


def test_an_image_target_resolves_next_to_its_file_and_is_checked(
    write: Callable[[str, str], Path], tmp_path: Path
) -> None:
    (tmp_path / "img").mkdir()
    shutil.copy(PNG, tmp_path / "img" / "refresh.png")
    path = write(
        "chart.req.yaml",
        "req_id: R1\nurl: /\nsteps:\n  - image:img/refresh.png | click | | text_visible:Done\n",
    )
    (plan,) = load(path).plans
    target = plan.steps[0].target
    assert target is not None and target.image == "img/refresh.png"
    assert plan.requirement.folder == str(tmp_path.resolve())
    assert "folder" not in plan.requirement.model_dump()
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    shutil.copytree(tmp_path / "img", moved / "img")
    shutil.copy(path, moved / "chart.req.yaml")
    (again,) = load(moved / "chart.req.yaml").plans
    assert again.plan_hash == plan.plan_hash

    bad = write(
        "bad.req.yaml",
        "req_id: R2\nurl: /\nsteps:\n"
        "  - image:img/missing.png | click\n"
        "  - image:img/refresh.png | fill | x\n"
        "  - image:img/refresh.png@Chart | click\n",
    )
    found = problems(bad)
    assert any("bad.req.yaml:4" in p and "'img/missing.png' does not exist" in p for p in found)
    assert any("bad.req.yaml:5" in p and "clicked or hovered, not 'fill'" in p for p in found)
    assert any("bad.req.yaml:6" in p and "has a region ('Chart')" in p for p in found), found
