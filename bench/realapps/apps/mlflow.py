"""MLflow's tracking UI (a React single-page app served by ``mlflow server``)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, spawn, wait_http

VERSIONS = ("2.4.2", "2.22.5", "3.17.2")

PINS: dict[str, tuple[str, ...]] = {
    # 2.4's Flask 2 needs a Werkzeug 2; the rest keeps the resolver on wheels of its era.
    "2.4.2": (
        "mlflow==2.4.2",
        "flask<2.3",
        "werkzeug<3",
        "numpy<2",
        "pandas<2.1",
        "sqlalchemy<2",
        "pyarrow<13",
    ),
    # 2.22 imports a pool class that SQLAlchemy 2.1 no longer has.
    "2.22.5": ("mlflow==2.22.5", "sqlalchemy<2.1"),
    "3.17.2": ("mlflow==3.17.2",),
}


def install(version: str) -> Path:
    return ensure_venv(f"mlflow-{version}", list(PINS[version]))


# Run with the version's own Python and client, against the fresh SQLite store; argv[1] is
# the work folder. Fixed names and values, so every start shows the same experiments.
SEED = r"""
import os, sys
from pathlib import Path
import mlflow
from mlflow.tracking import MlflowClient

work = Path(sys.argv[1])
mlflow.set_tracking_uri("sqlite:///" + str(work / "mlflow.db"))
client = MlflowClient()
artifacts = work / "artifacts"

EXPERIMENTS = {
    "iris-classifier": [
        ("baseline-logreg", {"model": "logistic_regression", "C": "1.0", "max_iter": "200"},
         {"accuracy": 0.913, "f1_score": 0.905}, {"team": "vision", "stage": "baseline"}),
        ("random-forest-100", {"model": "random_forest", "n_estimators": "100",
         "max_depth": "6"}, {"accuracy": 0.947, "f1_score": 0.944},
         {"team": "vision", "stage": "candidate"}),
        ("gradient-boosting", {"model": "gradient_boosting", "n_estimators": "300",
         "learning_rate": "0.05"}, {"accuracy": 0.96, "f1_score": 0.958},
         {"team": "vision", "stage": "candidate"}),
    ],
    "house-prices": [
        ("ridge-alpha-0.5", {"model": "ridge", "alpha": "0.5"},
         {"rmse": 31250.4, "r2": 0.81}, {"team": "pricing", "stage": "baseline"}),
        ("xgboost-depth-8", {"model": "xgboost", "max_depth": "8", "eta": "0.1"},
         {"rmse": 24890.7, "r2": 0.88}, {"team": "pricing", "stage": "candidate"}),
    ],
    "churn-prediction": [
        ("lightgbm-v1", {"model": "lightgbm", "num_leaves": "31"},
         {"auc": 0.842, "precision": 0.71}, {"team": "growth", "stage": "candidate"}),
    ],
    "scratch-notebook": [
        ("quick-test", {"model": "dummy"}, {"accuracy": 0.5}, {"team": "growth"}),
    ],
}
NOTES = {"gradient-boosting": "Best model so far: 300 trees with a small learning rate."}

for name, runs in EXPERIMENTS.items():
    location = (artifacts / name).as_uri()
    exp_id = client.create_experiment(name, artifact_location=location,
                                      tags={"project": "demo"})
    for run_name, params, metrics, tags in runs:
        with mlflow.start_run(experiment_id=exp_id, run_name=run_name) as run:
            mlflow.log_params(params)
            for step in range(5):
                factor = 0.8 + 0.05 * step
                mlflow.log_metrics({k: round(v * factor, 4) for k, v in metrics.items()},
                                   step=step)
            mlflow.log_metrics(metrics, step=5)
            mlflow.set_tags(tags)
            if run_name in NOTES:
                mlflow.set_tag("mlflow.note.content", NOTES[run_name])
            mlflow.log_text("features: " + ", ".join(sorted(params)) + "\n", "notes.txt")
print("seeded")
"""

# No telemetry, no update checks, no reaching out at run time.
QUIET_ENV = {
    "MLFLOW_DISABLE_TELEMETRY": "true",
    "DO_NOT_TRACK": "true",
    "MLFLOW_ENABLE_ASYNC_LOGGING": "false",
    "GIT_PYTHON_REFRESH": "quiet",
    "NO_PROXY": "127.0.0.1,localhost",
    # 3.x starts background job consumers (a dozen processes) that the UI flows never use.
    "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false",
}


def start(version: str, workdir: Path) -> Served:
    venv = install(version)
    python = venv / "bin" / "python"
    seed = subprocess.run(
        [str(python), "-c", SEED, str(workdir)],
        cwd=workdir,
        env={**os.environ, **QUIET_ENV},
        capture_output=True,
        text=True,
        timeout=600,
    )
    if seed.returncode != 0:
        raise RuntimeError(f"mlflow {version}: seeding failed:\n{seed.stderr[-3000:]}")
    port = free_port()
    argv = [
        str(venv / "bin" / "mlflow"),
        "server",
        "--backend-store-uri",
        f"sqlite:///{workdir / 'mlflow.db'}",
        "--default-artifact-root",
        (workdir / "artifacts").as_uri(),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        "1",
    ]
    # mlflow server runs gunicorn/uvicorn by name: the venv's bin comes first on PATH.
    path = f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
    proc, log = spawn(argv, cwd=workdir, env={**QUIET_ENV, "PATH": path})
    base = f"http://127.0.0.1:{port}/"
    wait_http(base + "health", timeout_s=120, proc=proc)
    return Served(base_url=base, process=proc, workdir=workdir, log=log)


APP = AppSpec(
    name="mlflow",
    kind="React single-page app (MLflow tracking UI)",
    versions=VERSIONS,
    install=install,
    start=start,
)
