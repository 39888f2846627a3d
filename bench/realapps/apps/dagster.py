"""Dagster: a data orchestrator's web UI (the top bar's "Overview", "Runs", "Assets" and
"Deployment"; an asset catalog with a filter box, an asset's page with the tabs "Events",
"Checks", "Plots", "Definition", "Lineage"; the runs list with "All runs", "Failed" ...; a
job's page with "Overview", "Launchpad", "Runs"; the overview's "Jobs", "Schedules" and
"Sensors" lists; the deployment's "Code locations" and "Daemons"; a "User settings" dialog).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 1.6.14 shows, and committed before any engine run on it. Both versions are PyPI's
``dagster`` and ``dagster-webserver`` packages; each serves its own React UI with
``dagster-webserver``. The drift between them is the app's own: the top bar gains "Jobs" and
"Automation" (the overview loses its "Jobs", "Schedules" and "Sensors" tabs, the schedules
and sensors move to one "Automation" list), an asset's page loses "Definition" and "Plots" for
an "Overview" tab, the asset catalog's "Filter asset keys…" box becomes an asset selection
editor, the runs list's "View run" becomes "View" and its tabs gain "Backfills", the
deployment page moves to ``/deployment/locations``, and the "Search…" box becomes an icon.

Every start writes the code location (``orchard.py``: an orchard's four assets in two groups,
two jobs, a schedule and a sensor) and ``dagster.yaml`` (telemetry off, the first-visit
"Join the Dagster community" dialog off: ``nux: enabled: false``) into a fresh
``DAGSTER_HOME`` in the work folder, seeds it with Dagster's own command line (``dagster asset
materialize --select '*'``, then ``dagster job execute`` of ``invoice_customer`` twice: once
for 12 crates, once for 140, which fails with "Too many crates for one invoice"), then serves
it on 127.0.0.1 with ``dagster-webserver -f orchard.py``. Checked with ``strace -f -e
trace=connect`` and a Playwright request log: docs/real-apps.md, "New held-out app: Dagster".
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("1.6.14", "1.10.21")

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze` after `pip
# install dagster==V dagster-webserver==V`), pinned so that a new release of a dependency
# cannot change what is served.
_DEPS = {
    "1.6.14": """
alembic==1.20.1 annotated-types==0.8.0 anyio==4.16.0 backoff==2.2.1
certifi==2026.10.19.post1 charset-normalizer==3.5.3 click==8.5.1 coloredlogs==14.0
croniter==7.0.0 dagster-graphql==1.6.14 dagster-pipes==1.6.14 docstring_parser==0.18.0
fsspec==2026.9.0 gql==3.5.3 graphene==3.4.3 graphql-core==3.2.6 graphql-relay==3.2.0
grpcio==1.85.3 grpcio-health-checking==1.62.3 h11==0.16.0 httptools==0.9.0
humanfriendly==10.0 idna==3.20 Jinja2==3.1.6 Mako==1.4.3 markdown-it-py==4.3.0
MarkupSafe==3.0.4 mdurl==0.1.2 multidict==7.2.1 packaging==26.4 pathlib_abc==0.5.2
pendulum==3.3.0 propcache==0.5.4 protobuf==4.25.9 pydantic==2.14.4 pydantic_core==2.50.5
Pygments==2.21.0 python-dateutil==2.9.0.post0 python-dotenv==1.2.4 pytz==2026.6
PyYAML==6.0.4 requests==2.34.2 requests-toolbelt==1.0.0 rich==15.0.0 six==1.17.0
SQLAlchemy==2.1.9 starlette==1.10.0 structlog==26.1.0 tabulate==0.10.0 tomli==2.5.0
toposort==1.10 tqdm==4.70.1 typing-inspection==0.4.5 typing_extensions==4.16.0
tzdata==2026.6 universal_pathlib==0.3.10 urllib3==2.8.0 uvicorn==0.54.0 uvloop==0.23.0
watchdog==7.1.0 watchfiles==1.3.0 websockets==17.4 yarl==1.25.1""",
    "1.10.21": """
alembic==1.20.1 annotated-types==0.8.0 antlr4-python3-runtime==4.13.2 anyio==4.16.0
backoff==2.2.1 certifi==2026.10.19.post1 charset-normalizer==3.5.3 click==8.1.8
coloredlogs==14.0 dagster-graphql==1.10.21 dagster-pipes==1.10.21 dagster_shared==1.10.21
docstring_parser==0.18.0 filelock==4.3.1 fsspec==2026.9.0 gql==3.5.3 graphene==3.4.3
graphql-core==3.2.6 graphql-relay==3.2.0 grpcio==1.85.3 grpcio-health-checking==1.71.2
h11==0.16.0 httptools==0.9.0 humanfriendly==10.0 idna==3.20 Jinja2==3.1.6 Mako==1.4.3
markdown-it-py==4.3.0 MarkupSafe==3.0.4 mdurl==0.1.2 multidict==7.2.1 packaging==26.4
pathlib_abc==0.5.2 propcache==0.5.4 protobuf==5.29.6 pydantic==2.14.4 pydantic_core==2.50.5
Pygments==2.21.0 python-dateutil==2.9.0.post0 python-dotenv==1.2.4 pytz==2026.6
PyYAML==6.0.4 requests==2.34.2 requests-toolbelt==1.0.0 rich==15.0.0 six==1.17.0
SQLAlchemy==2.1.9 starlette==1.10.0 structlog==26.1.0 tabulate==0.10.0 tomli==2.5.0
tomlkit==0.15.2 toposort==1.10 tqdm==4.70.1 typing-inspection==0.4.5
typing_extensions==4.16.0 universal_pathlib==0.3.10 urllib3==2.8.0 uvicorn==0.54.0
uvloop==0.23.0 watchdog==5.0.3 watchfiles==1.3.0 websockets==17.4 yarl==1.25.1""",
}
PINS: dict[str, tuple[str, ...]] = {
    v: (f"dagster=={v}", f"dagster-webserver=={v}", *_DEPS[v].split()) for v in VERSIONS
}

# The code location, written into the work folder at every start (the in-process executor
# keeps the seeding runs to one process each).
CODE = '''"""An orchard's data pipelines (written for the pytest-pacts corpus)."""
from dagster import (
    AssetSelection, Config, Definitions, ScheduleDefinition, SkipReason, asset,
    define_asset_job, in_process_executor, job, op, sensor,
)


@asset(group_name="harvest", description="Crates picked per row, as the pickers log them")
def raw_harvest() -> list:
    return [42, 38, 51, 47]


@asset(group_name="harvest", description="The harvest without empty or double-counted crates")
def cleaned_harvest(raw_harvest: list) -> list:
    return [n for n in raw_harvest if n > 40]


@asset(group_name="harvest", description="Total crates of the week, for the farm shop")
def harvest_report(cleaned_harvest: list) -> int:
    return sum(cleaned_harvest)


@asset(group_name="weather", description="Rain and frost readings from the orchard's station")
def weather_readings() -> dict:
    return {"rain_mm": 4.2, "frost_hours": 0.0}


class InvoiceConfig(Config):
    customer: str = "farm-shop"
    crates: int = 10


@op
def count_crates(config: InvoiceConfig) -> int:
    return config.crates


@op
def send_invoice(crates: int) -> None:
    if crates > 100:
        raise ValueError("Too many crates for one invoice")


@job(description="Invoices a customer for the crates delivered")
def invoice_customer() -> None:
    send_invoice(count_crates())


harvest_job = define_asset_job(
    "harvest_job", AssetSelection.groups("harvest"),
    description="Picks, cleans and reports the harvest",
)
nightly_harvest = ScheduleDefinition(
    name="nightly_harvest", job=harvest_job, cron_schedule="0 2 * * *"
)


@sensor(job=invoice_customer, name="new_orders_sensor")
def new_orders_sensor():
    return SkipReason("No new orders")


defs = Definitions(
    assets=[raw_harvest, cleaned_harvest, harvest_report, weather_readings],
    jobs=[harvest_job, invoice_customer],
    schedules=[nightly_harvest],
    sensors=[new_orders_sensor],
    executor=in_process_executor,
)
'''
INSTANCE = "telemetry:\n  enabled: false\nnux:\n  enabled: false\n"
# (customer, crates): the second run fails (more than 100 crates)
INVOICES = (("farm-shop", 12), ("cider-press", 140))


def _install(version: str) -> Path:
    return ensure_venv(f"dagster-{version}", list(PINS[version]))


def seed(venv: Path, workdir: Path, env: dict[str, str]) -> None:
    """Materialize every asset and run ``invoice_customer`` twice, with Dagster's own command
    line, into the instance of ``DAGSTER_HOME`` (before the web server starts)."""
    dagster = str(venv / "bin" / "dagster")
    full = {**os.environ, **env}
    materialize = [dagster, "asset", "materialize", "-f", "orchard.py", "--select", "*"]
    subprocess.run(materialize, cwd=workdir, env=full, check=True, timeout=600,
                   capture_output=True)  # fmt: skip
    for customer, crates in INVOICES:
        config = workdir / f"invoice-{customer}.yaml"
        config.write_text(
            f"ops:\n  count_crates:\n    config:\n      customer: {customer}\n"
            f"      crates: {crates}\n"
        )
        argv = [dagster, "job", "execute", "-f", "orchard.py", "-j", "invoice_customer",
                "-c", config.name]  # fmt: skip
        done = subprocess.run(argv, cwd=workdir, env=full, timeout=600, capture_output=True)
        if (done.returncode == 0) != (crates <= 100):
            raise RuntimeError(f"seeding invoice_customer for {customer}: {done.stderr[-800:]!r}")


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    port = free_port()
    home = workdir / "dagster_home"
    home.mkdir(parents=True)
    (home / "dagster.yaml").write_text(INSTANCE)
    (workdir / "orchard.py").write_text(CODE)
    env = {"HOME": str(workdir), "DAGSTER_HOME": str(home)}
    seed(venv, workdir, env)
    argv = [
        str(venv / "bin" / "dagster-webserver"), "-f", "orchard.py",
        "-h", "127.0.0.1", "-p", str(port),
    ]  # fmt: skip
    return serve(
        argv, port=port, cwd=workdir, workdir=workdir, ready="server_info", env=env,
        timeout_s=600,
    )  # fmt: skip


APP = AppSpec(
    name="dagster",
    kind="data orchestrator (Dagster's UI: an asset catalog with lineage, runs with their logs, "
    "jobs with a launchpad, schedules, sensors, the deployment's code locations and daemons, "
    "user settings)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
