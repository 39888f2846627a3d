"""Progress lines of the phases before and around the tests (find-first discovery, auth
profiles' logins): on the terminal past pytest's capture; in an xdist worker, kept for the
controller, which prints them in its summary (a worker's terminal is not shown)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pytest_pacts.pytest_plugin.workers import is_worker, worker_output

__all__ = ["WORKER_LINES", "say"]

WORKER_LINES = "pacts_discovery_lines"


def say(config: pytest.Config) -> Callable[[str], None]:
    """Progress lines: on the terminal (past pytest's capture); in an xdist worker, also kept
    for the controller, which prints them (a worker's terminal is not shown)."""
    if is_worker(config):
        kept: list[str] = worker_output(config).setdefault(WORKER_LINES, [])
        return kept.append
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.getplugin("capturemanager")

    def say(text: str) -> None:
        if reporter is None:
            return
        if capture is not None:
            with capture.global_and_fixture_disabled():
                reporter.write_line(f"pacts: {text}")
        else:
            reporter.write_line(f"pacts: {text}")

    return say
