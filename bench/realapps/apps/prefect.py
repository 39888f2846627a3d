"""Prefect: a workflow orchestration server's web UI (a sidebar: "Dashboard", "Flow Runs",
"Flows", "Deployments", "Work Pools", "Blocks", "Variables", "Notifications", "Concurrency",
"Settings"; lists of flow runs, flows, deployments and variables, each with a search box; a
flow run's page with tabs "Logs", "Task Runs", "Subflow Runs", "Results", "Artifacts",
"Details", "Parameters"; a deployment's page with tabs "Runs", "Upcoming", "Description" and a
"Run" menu; a work pool's page; the blocks catalog; global concurrency limits in a dialog).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 2.20.27 (the last 2.x) shows, and committed before any engine run on it. Both versions
are PyPI's ``prefect`` package; each serves its own Vue UI with ``prefect server start``.
The drift between them is the app's own: "Flow Runs" in the sidebar becomes "Runs" (a page
with the tabs "Flow runs" and "Task runs", its search box "Search by flow run name"),
"Notifications" gives way to "Automations" and "Event Feed", a flow run's page loses the
"Results" tab and gains "Job Variables", a deployment's page gains "Parameters" and
"Configuration" tabs, the blocks catalog lists the integrations' block types, and the sidebar
ends with "Switch to V2 UI".

Every start makes a fresh ``PREFECT_HOME`` (its SQLite database) in the work folder, starts
the server on 127.0.0.1 without its scheduler, late-runs service or analytics, and seeds it
through the server's own REST API (``/api/flows/``, ``/api/deployments/``,
``/api/flow_runs/``, ``/api/task_runs/``, ``/api/logs/``, ``/api/variables/``,
``/api/work_pools/``): a bakery's work pool, three flows, two deployments (with an entrypoint
and the pool), five flow runs (completed, failed, cancelled) with task runs and log lines, and
two variables. Checked with
``strace -f -e trace=connect`` and a Playwright request log: docs/real-apps.md, "New
held-out app: Prefect".
"""

from __future__ import annotations

import json
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("2.20.27", "3.9.1")

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "2.20.27": """
aiosqlite==0.22.1 alembic==1.20.1 annotated-doc==0.0.7 annotated-types==0.8.0 anyio==4.16.0
apprise==1.13.1 asgi-lifespan==2.1.0 asyncpg==0.31.0 attrs==26.1.0 cachetools==6.2.6
certifi==2026.10.19.post1 cffi==2.1.1 charset-normalizer==3.5.3 click==8.3.3
cloudpickle==3.1.3 colorama==0.4.6 coolname==3.0.0 croniter==6.2.4 cryptography==50.0.2
dateparser==1.5.0 dnspython==2.9.2 docker==7.2.0 durationpy==0.11 email-validator==2.4.0
exceptiongroup==1.3.2 fsspec==2026.9.0 google-auth==2.63.0 graphviz==0.21 greenlet==3.5.6
griffe==1.15.0 h11==0.16.0 h2==4.4.1 hpack==4.2.0 httpcore==1.0.9 httpx==0.28.1
humanize==4.17.0 hyperframe==6.1.0 idna==3.20 importlib_resources==6.4.5
itsdangerous==2.2.0 Jinja2==3.1.6 jinja2-humanize-extension==0.4.0 jsonpatch==1.48
jsonpointer==3.12 jsonschema==4.26.0 jsonschema-specifications==2025.9.1 kubernetes==31.0.0
Mako==1.4.3 Markdown==3.11.3 markdown-it-py==4.3.0 MarkupSafe==3.0.4 mdurl==0.1.2
oauthlib==4.0.1 orjson==3.13.0 packaging==26.0 pathspec==1.1.1 pendulum==2.1.2
pyasn1==0.6.5 pyasn1_modules==0.4.2 pycparser==3.12 pydantic==2.12.5 pydantic_core==2.41.5
Pygments==2.21.0 python-dateutil==2.9.0.post0 python-multipart==0.0.34
python-slugify==8.0.4 pytz==2026.6 pytzdata==2020.1 PyYAML==6.0.4 readchar==4.2.2
referencing==0.37.0 regex==2026.11.19 requests==2.34.2 requests-oauthlib==2.0.0
rfc3339-validator==0.1.4 rich==14.3.4 rpds-py==2026.9.1 ruamel.yaml==0.19.1
shellingham==1.5.4 six==1.17.0 sniffio==1.3.1 SQLAlchemy==2.0.35 text-unidecode==1.3
toml==0.10.2 typer==0.23.2 typing-inspection==0.4.5 typing_extensions==4.16.0
tzlocal==5.4.5 ujson==5.13.0 urllib3==2.8.0 uvicorn==0.54.0 websocket-client==1.9.2
websockets==13.1""",
    "3.9.1": """
aiosqlite==0.22.1 alembic==1.20.1 amplitude-analytics==1.3.0 annotated-doc==0.0.7
annotated-types==0.8.0 anyio==4.16.0 apprise==2.0.1 asgi-lifespan==2.1.0 asyncpg==0.32.0
attrs==26.1.0 beartype==0.23.1 burner-redis==0.1.7 cachetools==7.3.3
certifi==2026.10.19.post1 cffi==2.1.1 charset-normalizer==3.5.3 click==8.5.1
cloudpickle==3.1.3 colorama==0.4.6 coolname==5.0.0 cronsim==2.8 cryptography==50.0.2
cyclopts==5.5.2 dateparser==1.5.0 docker==7.2.0 docstring_parser==0.18.0
exceptiongroup==1.3.2 fastapi==0.150.0 fsspec==2026.9.0 graphviz==0.21 greenlet==3.5.6
griffe==2.4.1 griffecli==2.4.1 griffelib==2.4.1 h11==0.16.0 h2==4.4.1 hpack==4.2.0
httpcore==1.0.9 httpx==0.28.1 humanize==4.17.0 hyperframe==6.1.0 idna==3.20 Jinja2==3.1.6
jinja2-humanize-extension==0.4.0 jsonpatch==1.48 jsonpointer==3.12 jsonschema==4.26.0
jsonschema-specifications==2025.9.1 Mako==1.4.3 Markdown==3.11.3 markdown-it-py==4.3.0
MarkupSafe==3.0.4 mdurl==0.1.2 oauthlib==4.0.1 opentelemetry-api==1.45.2 orjson==3.13.0
packaging==26.4 pathspec==1.1.1 pendulum==3.3.0 pluggy==1.7.0 prometheus_client==0.26.0
py-key-value-aio==0.5.0 pycparser==3.12 pydantic==2.14.4 pydantic-extra-types==2.11.1
pydantic-settings==2.16.3 pydantic_core==2.50.5 pydocket==0.27.0 Pygments==2.21.0
python-dateutil==2.9.0.post0 python-dotenv==1.2.4 python-json-logger==4.2.0
python-slugify==9.1.3 pytz==2026.6 PyYAML==6.0.4 readchar==4.2.2 redis==8.1.0
referencing==0.37.0 regex==2026.11.19 requests==2.34.2 requests-oauthlib==2.0.0
rfc3339-validator==0.1.4 rich==15.0.0 rich-rst==2.2.0 rpds-py==2026.9.1 ruamel.yaml==0.19.1
semver==3.1.2 shellingham==1.5.4 six==1.17.0 sniffio==1.3.1 SQLAlchemy==2.1.9
starlette==1.10.0 text-unidecode==1.3 toml==0.10.2 typer==0.29.2 typing-inspection==0.4.5
typing_extensions==4.16.0 tzdata==2026.6 tzlocal==5.4.5 uncalled-for==0.6.2 urllib3==2.8.0
uvicorn==0.54.0 websockets==16.1.1 whenever==0.11.0""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"prefect=={v}", *_DEPS[v].split()) for v in VERSIONS}

FLOWS = ("bake-bread", "deliver-orders", "count-stock")
# (flow, name, description, tags, parameters)
DEPLOYMENTS: tuple[tuple[str, str, str, list[str], dict[str, object]], ...] = (
    ("bake-bread", "daily-bake", "Bakes the day's bread at 4 in the morning", ["ovens"],
     {"loaves": 120}),
    ("deliver-orders", "morning-delivery", "Sends the vans out with the pre-orders", ["vans"],
     {"route": "north"}),
)  # fmt: skip
# (flow, deployment or None, run name, state type, state name), created in this order (the
# lists show the newest first)
RUNS: tuple[tuple[str, str | None, str, str, str], ...] = (
    ("bake-bread", "daily-bake", "sourdough-monday", "COMPLETED", "Completed"),
    ("bake-bread", "daily-bake", "rye-tuesday", "FAILED", "Failed"),
    ("bake-bread", None, "baguette-wednesday", "COMPLETED", "Completed"),
    ("deliver-orders", "morning-delivery", "north-route-thursday", "COMPLETED", "Completed"),
    ("count-stock", None, "flour-count-friday", "CANCELLED", "Cancelled"),
)
TASKS = {
    "sourdough-monday": ("mix-dough", "proof-dough", "bake-loaves"),
    "rye-tuesday": ("mix-dough", "proof-dough"),
}
# (level, message) per run: 20 is INFO, 40 ERROR
LOGS = {
    "sourdough-monday": ((20, "Mixing 60 kg of sourdough"), (20, "120 loaves out of oven 2")),
    "rye-tuesday": ((20, "Mixing 30 kg of rye dough"), (40, "Oven 3 did not reach 230 degrees")),
}
VARIABLES = (("oven_temperature", "230"), ("flour_supplier", "mill-and-co"))


def _install(version: str) -> Path:
    return ensure_venv(f"prefect-{version}", list(PINS[version]))


def _call(base_url: str, path: str, body: object) -> dict[str, object]:
    request = urllib.request.Request(
        f"{base_url}api/{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        data = answer.read()
    return dict(json.loads(data)) if data.strip().startswith(b"{") else {}


def seed(base_url: str) -> None:
    """The work pool, flows, deployments, runs (with task runs and logs) and variables,
    created through the server's own REST API."""
    pool = {"name": "bakery-pool", "type": "process", "description": "The bakery's own machines"}
    _call(base_url, "work_pools/", pool)
    flow_ids = {name: _call(base_url, "flows/", {"name": name})["id"] for name in FLOWS}
    deployment_ids = {}
    for flow, name, description, tags, parameters in DEPLOYMENTS:
        # an entrypoint and a work pool, as `prefect deploy` gives it (2.x's page shows a
        # deployment without them as "deprecated", in place of its description)
        body = {"name": name, "flow_id": flow_ids[flow], "description": description,
                "tags": tags, "parameters": parameters, "work_pool_name": "bakery-pool",
                "entrypoint": f"bakery.py:{flow.replace('-', '_')}"}  # fmt: skip
        deployment_ids[name] = _call(base_url, "deployments/", body)["id"]
    for flow, deployment, name, kind, label in RUNS:
        body = {
            "flow_id": flow_ids[flow],
            "name": name,
            "deployment_id": deployment_ids[deployment] if deployment else None,
            "parameters": {},
            "state": {"type": kind, "name": label},
        }
        run_id = _call(base_url, "flow_runs/", body)["id"]
        done = {"type": "COMPLETED", "name": "Completed"}
        for task in TASKS.get(name, ()):
            body = {"flow_run_id": run_id, "task_key": task, "dynamic_key": "0",
                    "name": f"{task}-0", "state": done}  # fmt: skip
            _call(base_url, "task_runs/", body)
        now = datetime.now(UTC).isoformat()
        logs = [
            {"name": "prefect.flow_runs", "level": level, "message": message,
             "timestamp": now, "flow_run_id": run_id}
            for level, message in LOGS.get(name, ())
        ]  # fmt: skip
        if logs:
            _call(base_url, "logs/", logs)
    for name, value in VARIABLES:
        _call(base_url, "variables/", {"name": name, "value": value})


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    port = free_port()
    home = workdir / "prefect"
    home.mkdir(parents=True)
    api = f"http://127.0.0.1:{port}/api"
    env = {
        "HOME": str(workdir),
        "PREFECT_HOME": str(home),
        "PREFECT_API_URL": api,
        "PREFECT_UI_API_URL": api,  # 2.x
        "PREFECT_SERVER_UI_API_URL": api,  # 3.x
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    }
    argv = [
        str(venv / "bin" / "prefect"), "server", "start",
        "--host", "127.0.0.1", "--port", str(port),
        "--no-scheduler", "--no-late-runs", "--analytics-off",
    ]  # fmt: skip
    return serve(
        argv,
        port=port,
        cwd=workdir,
        workdir=workdir,
        ready="api/health",
        env=env,
        timeout_s=600,
        then=seed,
    )


APP = AppSpec(
    name="prefect",
    kind="workflow orchestration server (Prefect's UI: flow runs with logs and task runs, "
    "flows, deployments, work pools, variables, blocks, concurrency limits, settings)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
