"""Rendering and writing ``generated_tests/test_<req_id>.py``.

Jinja2 templates ship as package data (``generator/templates``). Autoescaping is off
because the output is Python, not HTML: safety comes from every value being rendered to a
Python literal *before* it reaches the template (:mod:`~pytest_pacts.generator.literals`),
so nothing a cell holds (quotes, newlines, ``{{ }}``, ``{% %}``, ``\"\"\"``, code) is ever
interpreted by Jinja or Python. A file is rewritten only when its plan hash changes.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import jinja2

from pytest_pacts.engine.pagename import NAVIGATED_JS
from pytest_pacts.generator.codegen import Codegen, Locators
from pytest_pacts.generator.literals import GenerationError, ValueRenderer, comment_text
from pytest_pacts.models import Plan
from pytest_pacts.models.text import file_stem
from pytest_pacts.reports.artifacts import write_text

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("pytest_pacts.generator", "templates"),
    autoescape=False,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    undefined=jinja2.StrictUndefined,
)
_HASH_RE = re.compile(r"^PLAN_HASH = (.+)$", re.MULTILINE)
_SOURCE_RE = re.compile(r"^SOURCE_FILE = (.+)$", re.MULTILINE)


@dataclass(frozen=True)
class GenerateResult:
    path: Path
    written: bool
    reason: str  # "new", "plan hash changed", "unchanged", "forced"


def function_suffix(req_id: str) -> str:
    """``REQ-LOGIN-001`` -> ``req_login_001`` (an ASCII identifier fragment)."""
    name = re.sub(r"[^A-Za-z0-9]+", "_", req_id).strip("_").lower()
    return name or "requirement"


def render_test(plan: Plan, locators: Locators, secret_vars: frozenset[str] = frozenset()) -> str:
    """The test module's source for ``plan``; raises :class:`GenerationError`."""
    values = ValueRenderer(plan, secret_vars)
    gen = Codegen(plan, locators, values)
    steps = [gen.step(step) for step in plan.steps]
    url = values.expr(plan.requirement.url)
    req = plan.requirement
    source = _ENV.get_template("test_requirement.py.j2").render(
        source=comment_text(req.source.render()),
        req_comment=comment_text(req.req_id),
        title=comment_text(req.title or ""),
        strategies=", ".join(sorted(gen.strategies)) or "none",
        env_names=", ".join(values.env_names),
        uses_os=bool(values.env_names),
        uses_re=gen.uses_re,
        uses_nav=any("expect_navigated_to(" in line for s in steps for line in s.lines),
        navigated_js=NAVIGATED_JS,
        plan_hash=repr(plan.plan_hash),
        req_id=repr(req.req_id),
        source_file=repr(req.source.path),
        func="test_" + function_suffix(req.req_id),
        url=url,
        steps=steps,
    )
    try:
        ast.parse(source)
    except SyntaxError as exc:  # a bug here, never a cell value: say so plainly
        raise GenerationError(f"generated code for {req.req_id} does not parse: {exc}") from exc
    return format_source(source)


def format_source(source: str) -> str:
    """``ruff format`` the source when ruff is available; otherwise return it as is."""
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        return source
    try:
        done = subprocess.run(
            [ruff, "format", "--isolated", "--line-length", "100", "-"],
            input=source,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return source
    return done.stdout if done.returncode == 0 and done.stdout else source


def existing_plan_hash(path: Path) -> str | None:
    """The ``PLAN_HASH`` a previously generated file carries, if any."""
    return _constant(path, _HASH_RE)


def existing_source_file(path: Path) -> str | None:
    """The requirement file a previously generated file was written from (``SOURCE_FILE``);
    ``None`` when the file is missing or was written before the constant existed."""
    return _constant(path, _SOURCE_RE)


def _constant(path: Path, pattern: re.Pattern[str]) -> str | None:
    try:
        match = pattern.search(path.read_text(encoding="utf-8"))
        value = ast.literal_eval(match.group(1)) if match else None
    except (OSError, ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def generated_path(out_dir: Path, req_id: str, source_file: str | None = None) -> Path:
    """``test_<req_id>.py``; with ``source_file``, the name that keeps the same req_id of
    another requirement file apart: ``test_<req_id>__<source file>.py``."""
    if source_file is None:
        return out_dir / f"test_{file_stem(req_id)}.py"
    return out_dir / f"test_{file_stem(req_id)}__{file_stem(source_file)}.py"


def _same_file(a: str, b: str) -> bool:
    return os.path.normcase(os.path.abspath(a)) == os.path.normcase(os.path.abspath(b))


def target_path(out_dir: Path, plan: Plan) -> Path:
    """Where ``plan``'s test goes. A req_id names one test file, ``test_<req_id>.py``, unless
    that file was generated from another requirement file (the same req_id used in two
    files): then this file's test goes to the source-qualified name, so neither overwrites
    the other. The plain name is claimed atomically, so two workers generating the same
    req_id from two files at once cannot both take it."""
    source = plan.requirement.source.path
    plain = generated_path(out_dir, plan.req_id)
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(plain, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
    except FileExistsError:
        owner = existing_source_file(plain)
        if owner is not None and not _same_file(owner, source):
            return generated_path(out_dir, plan.req_id, source)
    return plain


def write_test(
    plan: Plan,
    locators: Locators,
    out_dir: Path,
    *,
    force: bool = False,
    secret_vars: frozenset[str] = frozenset(),
) -> GenerateResult:
    """Write the test unless a file with the same plan hash exists (``force`` rewrites)."""
    path = target_path(out_dir, plan)
    previous = existing_plan_hash(path)
    if previous == plan.plan_hash and not force:
        return GenerateResult(path, False, "unchanged")
    try:
        source = render_test(plan, locators, secret_vars)
    except GenerationError:
        if path.exists() and path.stat().st_size == 0:
            path.unlink()  # the name claimed for this test: nothing was written
        raise
    write_text(path, source)
    reason = (
        "forced"
        if previous == plan.plan_hash
        else "new"
        if previous is None
        else "plan hash changed"
    )
    ensure_conftest(out_dir)
    return GenerateResult(path, True, reason)


def ensure_conftest(out_dir: Path) -> Path | None:
    """Write the user variant of ``conftest.py`` (base URL notes) when there is none."""
    path = out_dir / "conftest.py"
    if path.exists():
        return None
    return write_text(path, _ENV.get_template("conftest_user.py.j2").render())


__all__ = [
    "GenerateResult",
    "GenerationError",
    "Locators",
    "existing_plan_hash",
    "existing_source_file",
    "generated_path",
    "render_test",
    "target_path",
    "write_test",
]
