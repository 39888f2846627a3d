"""Stash keys shared by the pytest layer's modules (state in stash, not attributes)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_pacts.auth import AuthFailed
    from pytest_pacts.models.outcome import RunRecord

# The record of a requirement item's run, set by the item's test body before it returns or
# raises; report hooks (JUnit properties, pytest-html, artifacts) read it. (Typed without
# importing the run's models, which collection does not need.)
RUN_KEY: pytest.StashKey[RunRecord] = pytest.StashKey()

# The test file ``--pacts-generate`` wrote for a requirement item's passing run (set by the
# item's test body); the report hooks name it in the run index.
GENERATED_KEY = pytest.StashKey[str]()

# Why a requirement item's auth profile has no session (its login failed), set by the
# fixture that builds the item's context; the test body then fails with it.
AUTH_FAILED_KEY: pytest.StashKey[AuthFailed] = pytest.StashKey()

# Every secret value a test's run knew (typed values and their defaults, secret extracts, the
# values of the saved auth session its context started from): the report hooks mask them in
# the test's Playwright traces and reports. Memory only: never written, never pickled.
SECRETS_KEY = pytest.StashKey[set[str]]()


def add_secrets(item: pytest.Item, values: Iterable[str]) -> None:
    """Add ``values`` to ``item``'s known secret values."""
    item.stash.setdefault(SECRETS_KEY, set()).update(v for v in values if v)
