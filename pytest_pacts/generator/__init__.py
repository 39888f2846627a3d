"""The Generator: plain pytest-playwright tests from plans.

``write_test(plan, locators, out_dir)`` writes ``test_<req_id>.py`` with the verified
semantic locators, ``expect(...)`` assertions and secrets read from ``os.environ``;
``locators_from_record`` / ``locators_from_pom`` / ``locators_from_recipe`` give it the
locators; :mod:`~pytest_pacts.generator.walk` discovers them against a live page.
"""

from __future__ import annotations

from pytest_pacts.generator.codegen import Locators
from pytest_pacts.generator.literals import GenerationError, secret_var_env
from pytest_pacts.generator.sources import (
    locators_from_pom,
    locators_from_recipe,
    locators_from_record,
    merged,
)
from pytest_pacts.generator.writer import (
    GenerateResult,
    ensure_conftest,
    existing_plan_hash,
    generated_path,
    render_test,
    write_test,
)

__all__ = [
    "GenerateResult",
    "GenerationError",
    "Locators",
    "ensure_conftest",
    "existing_plan_hash",
    "generated_path",
    "locators_from_pom",
    "locators_from_recipe",
    "locators_from_record",
    "merged",
    "render_test",
    "secret_var_env",
    "write_test",
]
