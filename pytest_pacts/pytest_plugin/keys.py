"""Stash keys shared by the pytest layer's modules (state in stash, not attributes)."""

from __future__ import annotations

import pytest

from pytest_pacts.models.outcome import RunRecord

# The record of a requirement item's run, set by the item's test body before it returns or
# raises; report hooks (JUnit properties, pytest-html, artifacts) read it.
RUN_KEY = pytest.StashKey[RunRecord]()

# The test file ``--pacts-generate`` wrote for a requirement item's passing run (set by the
# item's test body); the report hooks name it in the run index.
GENERATED_KEY = pytest.StashKey[str]()
