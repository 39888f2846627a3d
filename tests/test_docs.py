"""Docs that are generated or must mention every setting stay current."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_reference_settings_table_is_current() -> None:
    spec = importlib.util.spec_from_file_location(
        "gen_reference", ROOT / "scripts" / "gen_reference.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    assert module.render(text) == text, "run: .venv/bin/python scripts/gen_reference.py"


def test_readme_quick_start_is_exactly_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = section.split("```bash", 1)[1].split("```", 1)[0]
    commands = [line for line in block.strip().splitlines() if line.strip()]
    assert [c.split("#")[0].strip() for c in commands] == [
        "bash scripts/demo.sh",
        "bash scripts/test.sh",
    ]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "scripts/test.sh" in ci


def test_sample_conftest_is_the_template() -> None:
    # sample_requirements/conftest.py is what `pacts init --demo` scaffolds; keep one truth
    template = (ROOT / "conftest_templates" / "conftest.py").read_text(encoding="utf-8")
    sample = (ROOT / "sample_requirements" / "conftest.py").read_text(encoding="utf-8")
    assert sample == template, "copy conftest_templates/conftest.py to sample_requirements/"
