"""The xdist role of this pytest process, asked in one place.

pytest-xdist gives a worker's config a ``workerinput`` dict (what the controller's
``pytest_configure_node`` put there, and ``workerid``: ``gw0``, ``gw1``, ...) and a
``workeroutput`` dict the controller reads when the worker finishes; the controller, and a
session without xdist, has neither.
"""

from __future__ import annotations

from typing import Any

import pytest

__all__ = ["is_worker", "worker_input", "worker_output", "worker_slot"]


def worker_input(config: pytest.Config) -> dict[str, Any] | None:
    """What the controller gave this worker; ``None`` in the controller or without xdist."""
    found = getattr(config, "workerinput", None)
    return found if isinstance(found, dict) else None


def is_worker(config: pytest.Config) -> bool:
    """Whether this process is an xdist worker (its terminal is not shown; the controller
    writes the session's files and prints its summary)."""
    return worker_input(config) is not None


def worker_output(config: pytest.Config) -> dict[str, Any]:
    """What this worker hands the controller when it finishes (``{}`` outside a worker)."""
    found = getattr(config, "workeroutput", None)
    return found if isinstance(found, dict) else {}


def worker_slot(config: pytest.Config) -> int:
    """This worker's number (``gw3`` → 3); 0 in the controller or without xdist."""
    given = worker_input(config) or {}
    digits = str(given.get("workerid", "")).removeprefix("gw")
    return int(digits) if digits.isdigit() else 0
