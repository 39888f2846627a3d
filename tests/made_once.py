"""A module-scoped result made once per test session, whichever xdist workers need it.

Under ``--dist worksteal`` a module's tests can end on two workers (a worker that runs out of
tests takes the last half of another's), and each worker then made the module's fixtures
again: for a fixture that runs a whole ``pacts`` walk or pytest session that is seconds of CPU
(docs/testing.md, "Modules split across workers"). :func:`made_once` makes the result once
in the session's common temporary folder, under a file lock, and gives the other workers a
copy of it, as ``tests/web/conftest.py``'s filled project is shared.
"""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], T]) -> T:
    """``make(folder)``'s result (picklable), made in a new ``folder`` by the first worker
    of this test session that asks for ``name``; the others wait for it and get a copy. A
    ``make`` that raises leaves nothing: the next worker that asks tries again."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    kept = shared / f"made-once-{name}.pickle"
    with (shared / f"made-once-{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            value: T = pickle.loads(kept.read_bytes())
            return value
        folder = shared / f"made-once-{name}"
        folder.mkdir()
        value = make(folder)
        kept.write_bytes(pickle.dumps(value))
        return value
