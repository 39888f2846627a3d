"""Fixtures for the web observer's tests: a real store filled by real runs, a real server.

The store is filled once per session the way a project fills it: pytest runs one
requirement against the bundled demo app, first on its v1 (a clean pass, recipe v001),
then on its v2 (DOM drift: the run heals and leaves pending heal proposals with
before/after screenshots). Each test serves a copy of that SQLite store, or the same
records copied into a fresh PostgreSQL schema through the store's repository API, with
uvicorn on a free 127.0.0.1 port in a thread, and talks to it with httpx (and Chromium,
in ``test_dashboard.py``).
"""

from __future__ import annotations

import fcntl
import itertools
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from pytest_pacts.store import HealOccurrence, NewOccurrence, Store, open_store
from pytest_pacts.web.server import Built, bind, build
from tests.store.conftest import postgres_cluster  # noqa: F401  (the shared PostgreSQL fixture)

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_requirements"
TOKEN = "web-tests-token-0123456789"
REQ = "REQ-WEB-001"
SHEET = """\
requirements:
  - req_id: REQ-WEB-001
    title: Sign in and put the backpack in the cart
    url: /
    steps:
      - "use | SignIn | password={{env.PACTS_DEMO_PASSWORD:secret_sauce}}"
      - element: Add to cart
        region: Sauce Labs Backpack
        action: click
        expected: "text_visible:Remove"
      - "Shopping cart | click | | navigates_to:Your Cart"
"""
QUICK = """\
requirements:
  - req_id: REQ-QUICK-001
    title: Sign in
    url: /
    steps:
      - "use | SignIn | password={{env.PACTS_DEMO_PASSWORD:secret_sauce}}"
"""
_schemas = itertools.count()


def make_project(folder: Path) -> Path:
    """A project like ``pacts init`` makes: the sample conftest (serves the demo app), its
    pytest.ini and blocks, and two small requirement sheets."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("conftest.py", "pytest.ini"):
        shutil.copy(SAMPLES / name, folder / name)
    shutil.copytree(SAMPLES / "blocks", folder / "blocks")
    (folder / "web.req.yaml").write_text(SHEET, encoding="utf-8")
    (folder / "quick.req.yaml").write_text(QUICK, encoding="utf-8")
    return folder


def run_pytest(project: Path, *args: str, release: str = "v1", store: str | None = None) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PACTS_", "PYTEST_"))}
    env["PACTS_DEMO_RELEASE"] = release
    if store is not None:
        env["PACTS_STORE"] = store
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


@dataclass(frozen=True)
class Filled:
    project: Path
    db: Path


@pytest.fixture(scope="session")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Filled:
    """The demo project after a clean v1 run and a healing v2 run of REQ-WEB-001.

    Made once per test session: under xdist the workers share it through their common
    temp folder (unique to this session), the first one making it under a file lock."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = tmp_path_factory.getbasetemp().parent
    else:
        shared = tmp_path_factory.mktemp("web-shared")
    project = shared / "web-project"
    with (shared / "web-project.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "web-project.done").exists():
            shutil.rmtree(project, ignore_errors=True)
            make_project(project)
            run_pytest(project, "web.req.yaml", release="v1")
            run_pytest(project, "web.req.yaml", release="v2")
            (shared / "web-project.done").touch()
    return Filled(project, project / ".pacts" / "pacts.db")


def _occurrence(o: HealOccurrence) -> NewOccurrence:
    return NewOccurrence(
        req_id=o.req_id,
        step_index=o.step_index,
        failed_locator=o.failed_locator,
        base_version=o.base_version,
        deployment=o.deployment,
        url=o.url,
        score=o.score,
        runner_up_score=o.runner_up_score,
        evidence=o.evidence,
    )


def copy_records(source: Store, target: Store) -> None:
    """Every recipe, proposal and run of ``source`` written again into ``target`` through
    the repository API, as the engine and governance write them (times kept)."""
    for req in source.recipes.requirements():
        for version in source.recipes.versions(req):
            assert version.proposal_id is None, "the filled store has no accepted proposal"
            assert isinstance(version.body, dict)
            target.recipes.add_version(
                req, version.body, plan_hash=version.plan_hash, now=version.created_at
            )
    for p in source.proposals.query():
        first, *more = source.proposals.occurrences(p.id)
        copied = target.proposals.create(
            req_id=p.req_id,
            step_index=p.step_index,
            element_key=p.element_key,
            severity=p.severity,
            track=p.track,
            promotion_required=p.promotion_required,
            payload=p.payload,
            exception_fingerprint=p.exception_fingerprint,
            drift_key=p.drift_key,
            page=p.page,
            occurrence=_occurrence(first),
            now=p.created_at,
        )
        for o in more:  # the same drift healed again (another requirement or run)
            target.proposals.add_occurrence(copied.id, _occurrence(o), now=o.created_at)
    for run in source.runs.query():
        copy = target.runs.begin(
            run.session_id, run.req_id, plan_hash=run.plan_hash, now=run.started_at
        )
        for s in source.runs.steps(run.id):
            target.runs.add_step(
                copy.id,
                step_index=s.step_index,
                action=s.action,
                status=s.status,
                element_key=s.element_key,
                locator=s.locator if isinstance(s.locator, dict) else None,
                strategy=s.strategy,
                confidence=s.confidence,
                gate=s.gate if isinstance(s.gate, dict) else None,
                heal_round=s.heal_round,
                duration_ms=s.duration_ms,
                now=s.created_at,
            )
        for a in source.runs.artifacts(run.id):
            target.runs.add_artifact(copy.id, a.kind, a.path, now=a.created_at)
        assert run.verdict is not None
        target.runs.finish(
            copy.id,
            verdict=run.verdict,
            rca_class=run.rca_class,
            healed=run.healed,
            heal_count=run.heal_count,
            llm_calls=run.llm_calls,
            now=run.finished_at,
        )


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request: pytest.FixtureRequest, filled: Filled, tmp_path: Path) -> str:
    """A store holding the filled records: a copy of the SQLite file, or a fresh
    PostgreSQL schema the records were copied into."""
    if request.param == "sqlite":
        db = tmp_path / "pacts.db"
        shutil.copy(filled.db, db)
        return str(db)
    cluster = request.getfixturevalue("postgres_cluster")
    import psycopg

    schema = f"web{next(_schemas)}_{os.getpid()}"
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    dsn: str = cluster.dsn(schema=schema)
    with open_store(filled.db) as source, open_store(dsn) as target:
        copy_records(source, target)
    return dsn


@dataclass
class Server:
    url: str
    built: Built
    client: httpx.Client

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {TOKEN}"}


@contextmanager
def serving(store: str, root: Path, token: str = TOKEN, **options: Any) -> Iterator[Server]:
    """The real app under uvicorn on a free loopback port, in a thread (``options`` go to
    :func:`~pytest_pacts.web.server.build`)."""
    built = build(store, root=root, token=token, **options)
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(built.app, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:  # uvicorn sets it once it accepts connections
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            yield Server(url, built, client)
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        built.close()
        sock.close()


@pytest.fixture
def server(store_target: str, filled: Filled) -> Iterator[Server]:
    with serving(store_target, filled.project) as running:
        yield running


@pytest.fixture
def sqlite_server(filled: Filled, tmp_path: Path) -> Iterator[Server]:
    """Only SQLite, for the checks that do not depend on the backend."""
    db = tmp_path / "pacts.db"
    shutil.copy(filled.db, db)
    with serving(str(db), filled.project) as running:
        yield running
