"""Kedro-Viz: the web visualiser of a Kedro data pipeline project. A data team reads its
pipelines on it: a flowchart of the nodes (functions), the datasets between them and the
parameters, with the modular pipelines drawn as boxes that open on a click; a sidebar with the
pipeline drop-down ("Default", "Ingestion", ...), a "Search" box, the list of the pipeline's
elements (modular pipelines as a tree, nodes, datasets, parameters) and its "Filters"
("Element types": Nodes, Datasets, Parameters; "Tags"); a node's or dataset's metadata panel
(its original name, type, file path, parameters, inputs, outputs, tags, the run command, and a
"Show Code" switch that shows the node's function); a toolbar ("Hide menu", "Hide text
labels", "Show layers", "Export visualisation", the minimap and zoom buttons); "Publish and
share" (a form for an AWS bucket), "Settings" ("Pretty name", "New feature hints", ...), and a
six-step tour of the new features ("1 of 6", "Next").

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 6.7.0 shows, and committed before any engine run on it. Both versions are PyPI's
``kedro-viz`` with the ``kedro`` of its day: 6.7.0 (December 2023) with Kedro 0.18.14, and
12.5.0 (the newest on this registry) with Kedro 1.7.0, the release a team on Kedro 0.18 moves
to with Kedro 1.x. pip resolves today's ``strawberry-graphql`` and ``secure`` for 6.7.0, which
it cannot start with (``GraphQL(..., graphiql=...)`` is gone; ``Secure`` has no ``framework``),
so ``strawberry-graphql==0.216.1`` and ``secure==0.3.0`` (of its day) were asked for; every
package is pinned below as pip then resolved it (``pip freeze``).

The project is one of this corpus's own ("Roastery Planning", below, the same on both
versions; no ``kedro new`` starter, which would be downloaded): a coffee roastery's planning,
with three pipelines: "ingestion" (a modular pipeline: "clean_bean_orders",
"merge_roast_logs"), "forecasting" (a modular pipeline: "build_weekly_features",
"train_demand_model", "forecast_demand") and "reporting" ("plan_green_bean_purchases",
"summarise_roasts"), five catalogued CSV datasets of the project's own type, four parameters
and the tags "cleaning", "features", "model", "report". Every start writes it into a fresh
work folder (the app's own files: ``pyproject.toml``, ``conf/``, ``src/``) and serves it with
Kedro-Viz's own server (``kedro_viz.server.run_server``) on 127.0.0.1. Kedro's telemetry is off
(``KEDRO_DISABLE_TELEMETRY``, ``DO_NOT_TRACK`` and the project's ``.telemetry`` with ``consent:
false``; 12.5.0 installs ``kedro-telemetry``, whose consent also keeps Heap's script out of the
page), and Kedro-Viz's question to PyPI for its newest release (``/api/version``, the settings'
"You are on the latest version") is answered with the installed release by the launcher, as an
up-to-date install online would answer, so nothing leaves the machine. Checked with ``strace
-f -e trace=connect`` and a Playwright request log: docs/real-apps.md, "New held-out app:
Kedro-Viz".
"""

from __future__ import annotations

import os
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("6.7.0", "12.5.0")
KEDRO = {"6.7.0": "0.18.14", "12.5.0": "1.7.0"}

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "6.7.0": """aiobotocore==2.26.0 aiofiles==25.1.0 aiohappyeyeballs==2.7.1 aiohttp==3.14.5
aioitertools==0.13.0 aiosignal==1.4.0 annotated-doc==0.0.7 anyconfig==0.16.0 anyio==3.7.1
arrow==1.4.0 asttokens==3.0.2 attrs==26.1.0 binaryornot==0.6.0 botocore==1.41.5 build==1.3.0
cachetools==8.0.2 certifi==2026.10.19.post1 charset-normalizer==3.5.3 click==8.5.1
cookiecutter==2.7.1 cross-web==0.9.0 decorator==5.3.1 dynaconf==3.3.5 executing==2.3.0
fastapi==0.125.0 frozenlist==1.8.0 fsspec==2023.12.2 gitdb==4.0.12 GitPython==3.2.1
graphql-core==3.2.14 h11==0.16.0 httptools==0.9.0 idna==3.20 importlib-metadata==6.11.0
importlib_resources==6.5.2 ipython==8.39.0 jedi==0.20.1 Jinja2==3.1.6 jmespath==1.1.0
markdown-it-py==4.3.0 MarkupSafe==3.0.4 matplotlib-inline==0.2.2 mdurl==0.1.2
more-itertools==11.2.1 multidict==6.9.1 narwhals==2.29.0 networkx==3.6.1 numpy==2.4.6
omegaconf==2.4.0 orjson==3.13.0 packaging==23.2 pandas==3.1.1 parse==1.22.4 parso==0.8.7
pexpect==4.9.0 pip-tools==7.6.2 platformdirs==4.14.9 plotly==7.1.0 pluggy==1.2.0
prompt_toolkit==3.0.53 propcache==0.5.4 ptyprocess==0.7.0 pure_eval==0.2.4 pydantic==1.10.27
Pygments==2.21.0 pyproject_hooks==1.3.3 python-dateutil==2.9.0.post0 python-dotenv==1.2.4
python-slugify==9.2.0 pytoolconfig==1.3.1 PyYAML==6.0.4 requests==2.34.2 rich==13.9.4
rope==1.15.2 s3fs==2023.12.2 secure==0.3.0 six==1.17.0 smmap==5.0.3 sniffio==1.3.1
SQLAlchemy==2.1.9 stack-data==0.6.3 starlette==0.50.0 strawberry-graphql==0.216.1
text-unidecode==1.3 toml==0.10.2 toposort==1.10 traitlets==5.16.1 typing_extensions==4.16.0
tzdata==2026.6 urllib3==2.8.0 uvicorn==0.22.0 uvloop==0.23.0 watchfiles==1.3.0 watchgod==0.8.2
wcwidth==0.9.4 websockets==17.4 wrapt==1.17.3 yarl==1.25.1 zipp==4.1.2""",
    "12.5.0": """aiofiles==25.1.0 annotated-doc==0.0.7 annotated-types==0.8.0 anyio==4.16.0
appdirs==1.4.4 arrow==1.4.0 asttokens==3.0.2 attrs==26.1.0 binaryornot==0.6.0 build==1.6.1
certifi==2026.10.19.post1 charset-normalizer==3.5.3 click==8.5.1 click-default-group==1.2.4
cookiecutter==2.7.1 decorator==5.3.1 dynaconf==3.3.5 executing==2.3.0 fastapi==0.165.0
fsspec==2026.9.0 gitdb==4.0.12 GitPython==3.2.1 h11==0.16.0 httptools==0.9.0 idna==3.20
ipython==8.39.0 jedi==0.20.1 Jinja2==3.1.6 kedro-telemetry==0.9.0 markdown-it-py==4.3.0
MarkupSafe==3.0.4 matplotlib-inline==0.2.2 mdurl==0.1.2 more-itertools==11.2.1
narwhals==2.29.0 networkx==3.6.1 numpy==2.4.6 omegaconf==2.4.0 opentelemetry-api==1.45.2
orjson==3.13.0 packaging==26.4 pandas==3.1.1 parse==1.22.4 parso==0.8.7 pathspec==1.1.1
pexpect==4.9.0 plotly==7.1.0 pluggy==1.7.0 prompt_toolkit==3.0.53 ptyprocess==0.7.0
pure_eval==0.2.4 pydantic==2.14.4 pydantic_core==2.50.5 Pygments==2.21.0
pyproject_hooks==1.3.3 python-dateutil==4.0.0 python-dotenv==1.2.4 python-slugify==9.2.0
PyYAML==6.0.4 requests==2.34.2 rich==15.0.0 secure==2.0.1 smmap==5.0.3 stack-data==0.6.3
starlette==1.10.0 text-unidecode==1.3 tomli_w==1.2.0 traitlets==5.16.1
typing-inspection==0.4.5 typing_extensions==4.16.0 tzdata==2026.6 urllib3==2.8.0
uvicorn==0.54.0 uvloop==0.23.0 watchfiles==1.3.0 wcwidth==0.9.4 websockets==17.4
Werkzeug==3.1.9""",
}
PINS: dict[str, tuple[str, ...]] = {
    v: (f"kedro-viz=={v}", f"kedro=={KEDRO[v]}", *_DEPS[v].split()) for v in VERSIONS
}

# The project's files ("Roastery Planning"), written into the fresh work folder at every start
# ("{kedro_version}": the Kedro release of the version served).
PROJECT: dict[str, str] = {
    "pyproject.toml": """[tool.kedro]
package_name = "roastery"
project_name = "Roastery Planning"
kedro_init_version = "{kedro_version}"
source_dir = "src"
""",
    ".telemetry": """consent: false
""",
    "conf/base/parameters.yml": """# Parameters of the roastery's planning pipelines
ingestion:
  min_bag_kg: 5
forecasting:
  window_weeks: 6
  model_options:
    test_share: 0.2
    seasonality: weekly
reorder_margin: 0.15
""",
    "conf/base/catalog.yml": """# Datasets of the roastery's planning pipelines
bean_orders:
  type: roastery.datasets.CSVTable
  filepath: data/01_raw/bean_orders.csv

roast_logs:
  type: roastery.datasets.CSVTable
  filepath: data/01_raw/roast_logs.csv

roast_batches:
  type: roastery.datasets.CSVTable
  filepath: data/02_intermediate/roast_batches.csv

demand_forecast:
  type: roastery.datasets.CSVTable
  filepath: data/07_model_output/demand_forecast.csv

purchase_plan:
  type: roastery.datasets.CSVTable
  filepath: data/08_reporting/purchase_plan.csv
""",
    "conf/local/.gitkeep": """""",
    "src/roastery/__init__.py": '''\
"""Roastery Planning: green-bean purchases from roast forecasts."""
__version__ = "0.1"
''',
    "src/roastery/settings.py": '''\
"""Project settings (the defaults)."""
''',
    "src/roastery/datasets.py": '''\
"""A CSV file read and written as text rows (the project's only dataset type)."""
import csv
from pathlib import Path

try:
    from kedro.io import AbstractDataset
except ImportError:  # Kedro 0.18
    from kedro.io import AbstractDataSet as AbstractDataset


class CSVTable(AbstractDataset):
    """Rows of a CSV file, as lists of strings."""

    def __init__(self, filepath):
        self._filepath = Path(filepath)

    def _load(self):
        with self._filepath.open(newline="") as f:
            return list(csv.reader(f))

    def _save(self, data):
        self._filepath.parent.mkdir(parents=True, exist_ok=True)
        with self._filepath.open("w", newline="") as f:
            csv.writer(f).writerows(data)

    def _describe(self):
        return {"filepath": str(self._filepath)}

    def _exists(self):
        return self._filepath.exists()

    def load(self):
        return self._load()

    def save(self, data):
        self._save(data)
''',
    "src/roastery/pipeline_registry.py": '''\
"""The project's pipelines."""
from roastery.pipelines import forecasting, ingestion, reporting


def register_pipelines():
    ing = ingestion.create_pipeline()
    fc = forecasting.create_pipeline()
    rep = reporting.create_pipeline()
    return {"__default__": ing + fc + rep, "ingestion": ing, "forecasting": fc,
            "reporting": rep}
''',
    "src/roastery/pipelines/__init__.py": """""",
    "src/roastery/pipelines/ingestion.py": '''\
"""Ingestion: the bean orders and roast logs, cleaned and joined into roast batches."""
from kedro.pipeline import node, pipeline


def clean_bean_orders(bean_orders, min_bag_kg):
    """Drop the orders of bags lighter than the smallest bag the roastery buys."""
    return [row for row in bean_orders if float(row[2]) >= min_bag_kg]


def merge_roast_logs(cleaned_orders, roast_logs):
    """Join each roast in the log to the order its green beans came from."""
    orders = {row[0]: row for row in cleaned_orders}
    return [log + orders[log[1]][1:] for log in roast_logs if log[1] in orders]


def create_pipeline(**kwargs):
    return pipeline(
        [
            node(clean_bean_orders, ["bean_orders", "params:min_bag_kg"], "cleaned_orders",
                 name="clean_bean_orders", tags=["cleaning"]),
            node(merge_roast_logs, ["cleaned_orders", "roast_logs"], "roast_batches",
                 name="merge_roast_logs", tags=["cleaning"]),
        ],
        namespace="ingestion",
        inputs={"bean_orders", "roast_logs"},
        outputs={"roast_batches"},
    )
''',
    "src/roastery/pipelines/forecasting.py": '''\
"""Forecasting: weekly roast features, a demand model, and next month's demand."""
from kedro.pipeline import node, pipeline


def build_weekly_features(roast_batches, window_weeks):
    """Sum the kilograms roasted per origin over rolling weeks."""
    return {"window": window_weeks, "rows": len(roast_batches)}


def train_demand_model(weekly_features, model_options):
    """Fit a seasonal average of the weekly kilograms per origin."""
    return {"features": weekly_features, "options": model_options}


def forecast_demand(demand_model, weekly_features):
    """Predict the kilograms of each origin to roast next month."""
    return [["origin", "kg"], ["Ethiopia Guji", "120"], ["Colombia Huila", "95"]]


def create_pipeline(**kwargs):
    return pipeline(
        [
            node(build_weekly_features, ["roast_batches", "params:window_weeks"],
                 "weekly_features", name="build_weekly_features", tags=["features"]),
            node(train_demand_model, ["weekly_features", "params:model_options"],
                 "demand_model", name="train_demand_model", tags=["model"]),
            node(forecast_demand, ["demand_model", "weekly_features"], "demand_forecast",
                 name="forecast_demand", tags=["model"]),
        ],
        namespace="forecasting",
        inputs={"roast_batches"},
        outputs={"demand_forecast"},
    )
''',
    "src/roastery/pipelines/reporting.py": '''\
"""Reporting: the green-bean purchase plan and the roast summary."""
from kedro.pipeline import node, pipeline


def plan_green_bean_purchases(demand_forecast, reorder_margin):
    """Order each origin's forecast kilograms plus the safety margin."""
    return [[row[0], str(round(float(row[1]) * (1 + reorder_margin)))]
            for row in demand_forecast[1:]]


def summarise_roasts(roast_batches):
    """Count the roasts of each origin."""
    return {"roasts": len(roast_batches)}


def create_pipeline(**kwargs):
    return pipeline(
        [
            node(plan_green_bean_purchases, ["demand_forecast", "params:reorder_margin"],
                 "purchase_plan", name="plan_green_bean_purchases", tags=["report"]),
            node(summarise_roasts, "roast_batches", "roast_summary",
                 name="summarise_roasts", tags=["report"]),
        ]
    )
''',
}

LAUNCH = '''\
"""Serve Kedro-Viz for the project PATH on 127.0.0.1:PORT (its PyPI check answered here)."""
import inspect
import sys

from packaging.version import parse

import kedro_viz
import kedro_viz.integrations.pypi as pypi

# Kedro-Viz asks PyPI for its latest release (api/version, the settings' "You are on the
# latest version"); here it answers the installed release, as an up-to-date install online
# would, and nothing leaves the machine. Patched before the server's modules import it.
pypi.get_latest_version = lambda: parse(kedro_viz.__version__)
from kedro_viz.server import run_server

kwargs = {"host": "127.0.0.1", "port": int(sys.argv[1]), "project_path": sys.argv[2]}
if "autoreload" in inspect.signature(run_server).parameters:
    kwargs["autoreload"] = False
run_server(**kwargs)
'''


def _install(version: str) -> Path:
    return ensure_venv(f"kedro_viz-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    project = workdir / "roastery"
    for name, text in PROJECT.items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("{kedro_version}", KEDRO[version]))
    (workdir / "launch_viz.py").write_text(LAUNCH)
    port = free_port()
    argv = [str(venv / "bin" / "python"), str(workdir / "launch_viz.py"), str(port), str(project)]
    env = {"HOME": str(workdir), "KEDRO_DISABLE_TELEMETRY": "true", "DO_NOT_TRACK": "1",
           "PYTHONPATH": str(project / "src"), "COLUMNS": "200",
           "PATH": os.environ.get("PATH", "")}  # fmt: skip
    return serve(argv, port=port, cwd=workdir, workdir=workdir, ready="api/main", env=env,
                 timeout_s=300)  # fmt: skip


APP = AppSpec(
    name="kedro_viz",
    kind="data pipeline visualiser (Kedro-Viz, React): flowchart of nodes, datasets and "
    "parameters with modular pipelines, sidebar list with search and filters, pipeline "
    "drop-down, metadata panel with code, settings, publish form, feature tour",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
