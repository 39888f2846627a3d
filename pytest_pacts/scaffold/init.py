"""``pacts init``: scaffold a project for requirement sheets.

Writes, from ``conftest_templates/``:

- ``conftest.py``: the project variant (documents ``base_url``), or with ``demo=True`` the
  variant that serves the bundled demo app (the one ``sample_requirements/`` uses);
- ``pytest.ini``: the recommended settings (``junit_family = xunit1``, report folder,
  pytest-playwright screenshots and traces on failure);
- ``requirements/example.req.yaml``: one example requirement;
- ``requirements/requirements.req.xlsx``: the Excel template, its Action and Expected
  Outcome columns dropdowns (data validation), with one example requirement.

Nothing is overwritten unless ``force``: :class:`ScaffoldExists` names what is in the way.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from pytest_pacts.errors import PactsError
from pytest_pacts.scaffold.workbook import SheetRequirement, WorkbookSpec, write_workbook

TEMPLATES_ENV = "PACTS_TEMPLATES_DIR"

EXAMPLE_SHEET = SheetRequirement(
    req_id="REQ-EXAMPLE-002",
    url="/",
    title="A locked-out user is told why",
    tags="smoke",
    steps=(
        ("Username@LoginForm", "fill", "locked_out_user", "field_populated"),
        ("Password@LoginForm", "fill", "{{env.DEMO_PASSWORD:secret_sauce}}", "field_populated"),
        ("Login@LoginForm", "click", "", "text_visible:locked out"),
    ),
)


class ScaffoldExists(FileExistsError, PactsError):
    """Files of the scaffold already exist and ``force`` was not given."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths = paths
        names = ", ".join(str(p) for p in paths)
        super().__init__(f"{names} already exist{'s' if len(paths) == 1 else ''}")


class TemplatesMissing(FileNotFoundError, PactsError):
    """``conftest_templates/`` cannot be found."""


@dataclass(frozen=True)
class Scaffold:
    root: Path
    written: tuple[Path, ...]


def templates_dir() -> Path:
    """``conftest_templates/``: ``$PACTS_TEMPLATES_DIR``, else beside the package."""
    configured = os.environ.get(TEMPLATES_ENV)
    candidates = [Path(configured)] if configured else []
    here = Path(__file__).resolve().parent
    candidates += [here.parent.parent / "conftest_templates", here / "templates"]
    for candidate in candidates:
        if (candidate / "pytest.ini").is_file():
            return candidate
    raise TemplatesMissing(
        "conftest_templates/ not found (looked in "
        + ", ".join(str(c) for c in candidates)
        + f"); set ${TEMPLATES_ENV} to the folder"
    )


def plan_files(root: Path, demo: bool) -> dict[Path, Path | None]:
    """Destination -> template file (``None``: generated, the Excel template)."""
    src = templates_dir()
    return {
        root / "conftest.py": src / ("conftest.py" if demo else "project_conftest.py"),
        root / "pytest.ini": src / "pytest.ini",
        root / "requirements" / "example.req.yaml": src / "example.req.yaml",
        root / "requirements" / "requirements.req.xlsx": None,
    }


def scaffold(root: Path, *, force: bool = False, demo: bool = False) -> Scaffold:
    """Write the scaffold into ``root`` (created if needed)."""
    files = plan_files(root, demo)
    existing = [p for p in files if p.exists()]
    if existing and not force:
        raise ScaffoldExists(existing)
    written: list[Path] = []
    for dest, template in files.items():
        dest.parent.mkdir(parents=True, exist_ok=True)
        if template is None:
            write_workbook(dest, WorkbookSpec(requirements=[EXAMPLE_SHEET]))
        else:
            shutil.copyfile(template, dest)
        written.append(dest)
    return Scaffold(root, tuple(written))
