"""CI shards with xdist on one shared PostgreSQL store (issue 11 item 6), small.

``bench/bench_scale.py`` at 2 runners x ``-n 2`` x 6 requirements (the benchmark runs 4 x 2
x 200): separate working copies, each with its own demo app, sharded by pytest-split, run
at once against one store. Each requirement runs in exactly one shard and is recorded once,
is discovered once across both runners (the store's discovery leases), and the heal
proposals and healing memory one runner records on the demo's v2 are read by the other.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import bench_scale  # noqa: E402
from bench_scale import Check, Runner, scale  # noqa: E402

from tests import forked_sessions  # noqa: E402

_ids = itertools.count()


def _forked_start(runner: Runner, args: list[str], env: dict[str, str]) -> None:
    """The benchmark's runner sessions, forked from the worker's server as the suite's other
    sessions are (tests/forked_sessions.py), their xdist workers with them; the same
    commands, folders and environments."""
    runner.started = time.perf_counter()
    with (runner.path / "output.txt").open("w") as out:
        command = bench_scale.pytest_command(args, runner.path / "junit.xml")
        forked = forked_sessions.popen(command, cwd=runner.path, env=env, stdout=out)
    if forked is None:
        _START(runner, args, env)
    else:
        runner.proc = cast("subprocess.Popen[str]", forked)


_START = bench_scale.start


def test_two_shards_with_xdist_share_one_postgres_store(
    postgres_cluster: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import psycopg

    monkeypatch.setattr(bench_scale, "start", _forked_start)

    schema = f"shards{next(_ids)}_{os.getpid()}"
    with psycopg.connect(postgres_cluster.dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    check = Check()
    figures = scale(
        tmp_path,
        postgres_cluster.dsn(schema=schema),
        check,
        requirements=6,
        runners=2,
        workers=2,
        per_file=3,
        timeout=300,
    )
    report = capsys.readouterr().out
    assert not check.failures, report
    assert figures["runs"] == 6 and figures["max_discoveries"] == 1, report
