"""jotter-app: a Markdown kanban board (projects in a sidebar, each a board of columns
holding task cards with their tags; a task's dialog with its notes and "Delete", "Archive",
"Mark Done" and "Edit"; a task form with title, column, tags, dates, priority and colour; a
column's form; a list view of the tasks with a checkbox per row; a search box; settings).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 3.0.0 shows, and committed before any engine run on it. Both versions are PyPI's
``jotter-app`` package (FastAPI serving a bundled Vue app; every task a Markdown file in the
data folder). The drift between them is the app's own: 3.4.0 names the project it makes at
first start "Default" (was "Default Project"), adds a Pomodoro button to every card and
Time Blocking and Pomodoro buttons to the top bar, a voice dictation button inside the
task form's title box and notes, and its task form's column list holds only the board's
shown columns.

3.0.0's command is ``jotter --host H --port N --data-dir D``; 3.4.0's is ``jotter serve``
with the same options and ``--no-browser``. Both bind 127.0.0.1 here. Every start uses a
fresh data folder in the work folder and seeds it through the app's own API
(``POST /api/projects``, ``POST /api/projects/{id}/tasks``): a bakery's board, five tasks in
the first project's Backlog, To Do and In Progress columns, and a second project "Market
stall" with one task. Checked with ``strace -f -e trace=connect`` on both versions while
they started, were seeded and served their pages: no connection beyond 127.0.0.1; the pages
load nothing from other hosts (a Playwright request log).
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("3.0.0", "3.4.0")

_DEPS = """annotated-doc==0.0.7 annotated-types==0.8.0 anyio==4.16.0 click==8.5.1
fastapi==0.165.0 h11==0.16.0 httptools==0.9.0 idna==3.20 opentelemetry-api==1.45.2
pydantic==2.14.4 pydantic_core==2.50.5 python-dotenv==1.2.4 python-multipart==0.0.34
PyYAML==6.0.4 starlette==1.10.0 typing-inspection==0.4.5 typing_extensions==4.16.0
uvicorn==0.54.0 uvloop==0.23.0 watchfiles==1.3.0 websockets==17.4"""

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`, the same
# for both versions), pinned so that a new release of a dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {v: (f"jotter-app=={v}", *_DEPS.split()) for v in VERSIONS}

# (project id, column, title, tags, notes), in the order added
TASKS: tuple[tuple[str, str, str, tuple[str, ...], str], ...] = (
    ("default", "backlog", "Order rye flour", ("supplies",), "Twenty sacks from the mill."),
    ("default", "backlog", "Repaint the shop sign", ("shop",), "Cream letters on green."),
    ("default", "todo", "Fix the oven door", ("repairs",), "The hinge sticks when hot."),
    ("default", "todo", "Clean the proofing baskets", (), ""),
    ("default", "in-progress", "Write the winter bread menu", ("menu",), "Spelt and rye."),
    ("market-stall", "todo", "Price the sourdough loaves", ("market",), ""),
)


def _post(url: str, body: object) -> None:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()


def _seed(base_url: str) -> None:
    _post(base_url + "api/projects", {"title": "Market stall"})
    for project, column, title, tags, notes in TASKS:
        _post(
            f"{base_url}api/projects/{project}/tasks",
            {"title": title, "bucket": column, "tags": list(tags), "body": notes},
        )


def _install(version: str) -> Path:
    return ensure_venv(f"jotter-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    port = free_port()
    options = ["--host", "127.0.0.1", "--port", str(port), "--data-dir", str(workdir / "data")]
    command = [str(venv / "bin" / "jotter")]
    if version != "3.0.0":
        command += ["serve", *options, "--no-browser"]
    else:
        command += options
    env = {"HOME": str(workdir)}
    return serve(
        command,
        port=port,
        cwd=workdir,
        workdir=workdir,
        ready="api/projects",
        env=env,
        timeout_s=120,
        then=_seed,
    )


APP = AppSpec(
    name="jotter",
    kind="Markdown kanban board (jotter-app: projects, columns, task cards, list view)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
