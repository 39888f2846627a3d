"""Flower: the web monitor of a Celery task queue. A team reads its workers (the dashboard's
list with their counts of processed, failed, succeeded and retried tasks, a search box), the
tasks list (name, UUID, state, arguments, result, worker; a search box, "Show N entries"), a
task's page (its arguments, result, exception and traceback, a link to its worker), a worker's
page (the tabs "Pool", "Broker", "Queues", "Tasks", "Limits", "Config", "System", "Other"; the
pool's "Grow"/"Shrink", a task's rate limit with "Apply", a "Refresh" button with a menu) and
the broker's queues.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 1.2.0 shows, and committed before any engine run on it. Both versions are PyPI's
``flower`` with Celery and its Redis client; pip resolved today's ``celery`` 5.7.0 for both
(1.2.0 asks ``celery>=5.0.5``, ``tornado>=5,<7``), and every package is pinned below as pip
resolved it (``pip freeze``). 1.2.0 (2022) is the last 1.x, a Bootstrap 2 page with jQuery
DataTables; 2.2.0, the newest, redrew the pages (a "Workers" page for the "Dashboard", count
cards, state filter buttons and a search field with a placeholder over the tasks, the worker's
"Refresh" menu an "Actions" menu, icons for "Docs" and "Code"): the release a team on 1.x
upgrades to.

The queue is one of this corpus's own (``bakery.py`` below, written into the work folder at every
start, the same on both versions): a bakery's Celery app with four task kinds, its broker and
result store a Redis server from Debian's ``redis-server`` (started here on a free port on
127.0.0.1, no persistence), one worker "oven@bakery" (a prefork pool of one process, task events
on) and Flower, in one process group. Every start uses a fresh work folder and seeds the tasks
through Celery's own API (``apply_async`` with fixed task ids, so a task's UUID and page are the
same at every start), once the worker is up and Flower watches its events, each waited for: two
breads baked, two oven checks (oven 2 fails: "oven 2 is too hot: 280 degrees"), an order delivered
after one retry ("courier for order 17 did not answer"), and a sourdough proof due in a day (held
by the worker as scheduled). Checked with ``strace -f -e trace=connect`` and a Playwright request
log: docs/real-apps.md, "New held-out app: Flower".
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("1.2.0", "2.2.0")

# What pip resolved on Python 3.11 for `flower==V "celery[redis]"` when the corpus entry was
# written (`pip freeze`), pinned so that a new release of a dependency cannot change what is served.
_DEPS = """amqp==5.4.2 billiard==4.3.2 celery==5.7.0 click==8.5.1 click-didyoumean==0.3.1
click-plugins==1.1.1.2 click-repl==0.4.1 humanize==4.17.0 kombu==5.7.0 packaging==26.3
prometheus_client==0.26.0 prompt_toolkit==3.0.53 python-dateutil==2.9.0.post0 pytz==2026.6
redis==8.1.0 six==1.17.0 tornado==6.6.1 typing_extensions==4.16.0 tzlocal==5.4.5 vine==5.1.0
wcwidth==0.9.4"""
PINS: dict[str, tuple[str, ...]] = {v: (f"flower=={v}", *_DEPS.split()) for v in VERSIONS}

BAKERY = '''"""The corpus's Celery app: a bakery's tasks, one worker."""
import os
import time

from celery import Celery

app = Celery("bakery", broker=os.environ["BAKERY_BROKER"], backend=os.environ["BAKERY_BROKER"])
app.conf.update(worker_send_task_events=True, task_send_sent_event=True,
                broker_connection_retry_on_startup=True, worker_hijack_root_logger=False)


@app.task
def bake_bread(kind, loaves):
    time.sleep(0.2)
    return f"{loaves} loaves of {kind} bread baked"


@app.task
def check_oven(oven, temperature):
    if temperature > 250:
        raise ValueError(f"{oven} is too hot: {temperature} degrees")
    return f"{oven} is at {temperature} degrees"


@app.task(bind=True, max_retries=3)
def deliver_order(self, order, address):
    if self.request.retries < 1:
        late = ConnectionError(f"courier for order {order} did not answer")
        raise self.retry(countdown=1, exc=late)
    return f"order {order} delivered to {address}"


@app.task
def proof_dough(kind):
    return f"{kind} dough proofed"
'''

# (task, arguments, task id, seconds until due), sent in this order at every start, each
# finished before the next (the proof is due in a day: the worker holds it as scheduled)
SEED_TASKS = (
    ("bake_bread", ("rye", 4), "2b6f1c3e-4a5d-4e8f-9a0b-1c2d3e4f5a60", 0),
    ("bake_bread", ("spelt", 6), "3c7a2d4f-5b6e-4f90-8a1b-2d3e4f5a6b71", 0),
    ("check_oven", ("oven 1", 220), "4d8b3e5a-6c7f-4a01-9b2c-3e4f5a6b7c82", 0),
    ("check_oven", ("oven 2", 280), "5e9c4f6b-7d80-4b12-8c3d-4f5a6b7c8d93", 0),
    ("deliver_order", (17, "Mill Lane 3"), "6fad5a7c-8e91-4c23-9d4e-5a6b7c8d9ea4", 0),
    ("proof_dough", ("sourdough",), "7abe6b8d-9fa2-4d34-8e5f-6b7c8d9eafb5", 86400),
)

_SEED = """import json, sys
import bakery
for name, args, task_id, countdown in json.loads(sys.argv[1]):
    result = getattr(bakery, name).apply_async(tuple(args), task_id=task_id,
                                               countdown=countdown or None)
    if not countdown:
        try:
            result.get(timeout=60, propagate=False)
        except Exception as exc:  # a timeout: the seeding fails
            raise SystemExit(f"{name} {task_id}: {exc!r}")
"""

_LAUNCH = """import os, subprocess, sys, time
redis = subprocess.Popen([{redis!r}, "--port", "{redis_port}", "--bind", "127.0.0.1",
                          "--save", "", "--appendonly", "no", "--dir", {workdir!r}],
                         stdout=open("redis.log", "ab"), stderr=subprocess.STDOUT)
celery = os.path.join(os.path.dirname(sys.executable), "celery")
worker = subprocess.Popen([celery, "-A", "bakery", "worker", "-n", "oven@bakery", "-P", "prefork",
                           "-c", "1",
                           "-E", "-l", "info"], stdout=open("worker.log", "ab"),
                          stderr=subprocess.STDOUT)
os.execv(celery, [celery, "-A", "bakery", "flower", "--address=127.0.0.1", "--port={port}"])
"""


def _install(version: str) -> Path:
    return ensure_venv(f"flower-{version}", list(PINS[version]))


def _redis() -> str:
    found = shutil.which("redis-server")
    if found is None:
        raise RuntimeError("Redis is not installed (apt-get install redis-server)")
    return found


def _get(url: str) -> object:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def _seed(base_url: str, venv: Path, workdir: Path, env: dict[str, str]) -> None:
    """Wait for Flower to know the worker (its page answers: Flower has the worker's stats),
    send the seeded tasks through Celery (each finished before the next), then wait until
    Flower's own list holds every one of them in its final state."""
    deadline = time.monotonic() + 180
    while True:
        try:
            with urllib.request.urlopen(base_url + "worker/oven@bakery", timeout=30):
                break
        except urllib.error.HTTPError as exc:  # 404 "Unknown worker" until it has its stats
            if time.monotonic() > deadline:
                raise TimeoutError("Flower did not see the worker in 180 s") from exc
            time.sleep(1)
    tasks = json.dumps([[n, list(a), i, c] for n, a, i, c in SEED_TASKS])
    subprocess.run([str(venv / "bin" / "python"), "-c", _SEED, tasks], cwd=workdir,
                   env={**os.environ, **env}, check=True, timeout=300,
                   capture_output=True)  # fmt: skip
    final = {"SUCCESS", "FAILURE"}
    while True:
        seen = _get(base_url + "api/tasks")
        states = {k: v.get("state") for k, v in seen.items()} if isinstance(seen, dict) else {}
        due = [i for n, _, i, c in SEED_TASKS if not c]
        if all(states.get(i) in final for i in due) and len(states) >= len(SEED_TASKS):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"Flower did not list the seeded tasks in 180 s: {states}")
        time.sleep(0.5)


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    (workdir / "bakery.py").write_text(BAKERY)
    port, redis_port = free_port(), free_port()
    launch = workdir / "launch.py"
    launch.write_text(_LAUNCH.format(redis=_redis(), redis_port=redis_port,
                                     workdir=str(workdir), port=port))  # fmt: skip
    env = {"BAKERY_BROKER": f"redis://127.0.0.1:{redis_port}/0", "PYTHONPATH": str(workdir),
           "HOME": str(workdir), "FLOWER_UNAUTHENTICATED_API": "true"}  # fmt: skip
    return serve([str(venv / "bin" / "python"), str(launch)], port=port, cwd=workdir,
                 workdir=workdir, ready="healthcheck", env=env, timeout_s=240,
                 then=lambda base_url: _seed(base_url, venv, workdir, env))  # fmt: skip


APP = AppSpec(
    name="flower",
    kind="a task-queue monitor (Flower over Celery and Redis: workers, the tasks list with its "
    "search, a task's page, a worker's tabbed page with pool and rate-limit controls, the "
    "broker's queues; Bootstrap 2 and DataTables, then a redrawn Bootstrap 5 page)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
