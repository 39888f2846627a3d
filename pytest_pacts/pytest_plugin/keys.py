"""Stash keys shared by the pytest layer's modules (state in stash, not attributes)."""

from __future__ import annotations

import pytest

from pytest_pacts.models.outcome import RunRecord

# The record of a requirement item's run, set by the item's test body before it returns or
# raises; report hooks (JUnit properties, pytest-html, artifacts) read it.
RUN_KEY = pytest.StashKey[RunRecord]()
