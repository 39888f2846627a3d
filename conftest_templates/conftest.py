"""Serve the bundled demo app for the sample requirements (copied from conftest_templates/).

The server starts in ``pytest_configure``, not in a fixture: it gives pytest-playwright's
``--base-url`` its value, which the tests and discovery before them both use.
Choose the release with ``PACTS_DEMO_RELEASE=v1|v2`` (v2 has realistic DOM drift); a
``--base-url`` on the command line wins and no server is started. Under xdist the workers
inherit the controller's server through ``PACTS_DEMO_URL``.
"""

from __future__ import annotations

import os

import pytest

from pytest_pacts.demo_app import DemoServer

_SERVER = pytest.StashKey[DemoServer]()


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("base_url", default=None):
        return
    url = os.environ.get("PACTS_DEMO_URL")
    if not url:
        server = DemoServer(os.environ.get("PACTS_DEMO_RELEASE", "v1"))
        server.start()
        config.stash[_SERVER] = server
        url = server.url
        os.environ["PACTS_DEMO_URL"] = url
    config.option.base_url = url


def pytest_unconfigure(config: pytest.Config) -> None:
    server = config.stash.get(_SERVER, None)
    if server is not None:
        server.stop()
        os.environ.pop("PACTS_DEMO_URL", None)
