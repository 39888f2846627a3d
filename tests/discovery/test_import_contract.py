"""The discovery engine depends on the models and Playwright, never on pytest (docs/architecture.md)."""

from __future__ import annotations

import subprocess
import sys


def test_discovery_never_imports_pytest() -> None:
    code = (
        "import sys, pytest_pacts.discovery, pytest_pacts.discovery.naive; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'pytest', '_pytest'}); "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_locator_models_depend_only_on_pydantic() -> None:
    code = (
        "import sys, pytest_pacts.models.locator; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'playwright', 'pytest'}); "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
