"""Fixtures for the healing tests: one Chromium per module, a fresh context per test, the
demo app's two releases, and a store in a temporary directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_pacts.demo_app import RELEASES, DemoServer
from pytest_pacts.store import Store, open_store


@pytest.fixture(scope="session")
def demo() -> Iterator[dict[str, DemoServer]]:
    servers = {release: DemoServer(release).start() for release in RELEASES}
    yield servers
    for server in servers.values():
        server.stop()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(tmp_path / "pacts.db")
    yield opened
    opened.close()
