"""Jupyter Notebook: a notebook tool (a file browser of notebooks, a notebook page with menus,
a toolbar, dialogs and a live Python kernel), serving a small analytics team's folder.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 6.5.7 shows, and committed before any engine run on it. Both versions are PyPI's
``notebook`` package; the drift between them is the Notebook 7 rewrite on JupyterLab's
components: the Bootstrap page becomes a Lumino application (menus ``File Edit View Run
Kernel Settings Help``, the ``Cell`` menu gone, toolbar buttons as icon web components), the
file list opens an item on a double click, renames in place, duplicates without asking and
moves deleted files to the trash; dialogs are ``<dialog>`` elements with new wording.

The server runs with authentication off (token and password empty) on 127.0.0.1 only, as
root where the machine runs as root (``--allow-root``); its configuration, data and runtime
folders are in the start's work folder, so nothing of the user's Jupyter set-up is read.
"""

from __future__ import annotations

import json
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("6.5.7", "7.5.5")

# The versions pip resolved on Python 3.11 when the corpus entry was written, pinned so that a
# new release of a dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {
    "6.5.7": (
        "notebook==6.5.7",
        "nbclassic==1.3.3",
        "notebook_shim==0.2.4",
        "jupyter_server==2.21.1",
        "jupyter_client==7.4.9",
        "jupyter_core==5.9.1",
        "ipykernel==6.29.5",
        "ipython==9.18.1",
        "nbformat==5.11.1",
        "nbconvert==7.17.2",
        "tornado==6.6.1",
        "traitlets==5.16.1",
        "pyzmq==27.3.0",
        "Send2Trash==2.2.0",
    ),
    "7.5.5": (
        "notebook==7.5.5",
        "jupyterlab==4.5.11",
        "jupyterlab_server==2.28.1",
        "jupyter-lsp==2.3.1",
        "notebook_shim==0.2.4",
        "jupyter_server==2.21.1",
        "jupyter_client==8.10.0",
        "jupyter_core==5.9.1",
        "ipykernel==7.4.0",
        "ipython==9.18.1",
        "nbformat==5.11.1",
        "nbconvert==7.17.2",
        "tornado==6.6.1",
        "traitlets==5.16.1",
        "pyzmq==27.3.0",
        "Send2Trash==2.2.0",
    ),
}


def _notebook(cells: list[dict[str, object]]) -> str:
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    return json.dumps(
        {
            "cells": cells,
            "metadata": {"kernelspec": kernel, "language_info": {"name": "python"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    )


def _markdown(cell_id: str, source: str) -> dict[str, object]:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": source}


def _code(cell_id: str, source: str) -> dict[str, object]:
    return {"cell_type": "code", "id": cell_id, "execution_count": None, "metadata": {},
            "outputs": [], "source": source}  # fmt: skip


def seed(folder: Path) -> None:
    """The analytics team's folder: two notebooks, a data folder, a README."""
    (folder / "data").mkdir(parents=True)
    total = 'sales = {"North": 120, "South": 95}\nprint("Total:", sum(sales.values()))'
    (folder / "Sales report.ipynb").write_text(
        _notebook(
            [
                _markdown("c1", "# Quarterly sales\n\nRegional totals for the second quarter."),
                _code("c2", total),
            ]
        )
    )
    (folder / "Cleaning notes.ipynb").write_text(
        _notebook(
            [
                _markdown("c1", "# Cleaning notes\n\nHow the raw orders are cleaned."),
                _code("c2", 'rows = ["a", "b", "c"]\nprint("Rows kept:", len(rows))'),
            ]
        )
    )
    (folder / "data" / "orders.csv").write_text(
        "order,region,amount\n1,North,40\n2,South,35\n3,North,80\n"
    )
    (folder / "README.md").write_text("# Analytics team\n\nNotebooks for the quarterly reports.\n")


def _install(version: str) -> Path:
    return ensure_venv(f"jupyter-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    root = workdir / "notebooks"
    seed(root)
    port = free_port()
    if version.startswith("6."):
        auth = ["--NotebookApp.token=", "--NotebookApp.password="]
    else:
        auth = ["--IdentityProvider.token=", "--ServerApp.password="]
    argv = [
        str(venv / "bin" / "jupyter"),
        "notebook",
        "--allow-root",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--port-retries=0",
        *auth,
    ]
    env = {
        "JUPYTER_CONFIG_DIR": str(workdir / "config"),
        "JUPYTER_DATA_DIR": str(workdir / "data"),
        "JUPYTER_RUNTIME_DIR": str(workdir / "runtime"),
        "IPYTHONDIR": str(workdir / "ipython"),
        "JUPYTER_PLATFORM_DIRS": "1",
    }
    return serve(argv, port=port, cwd=root, workdir=workdir, ready="tree", env=env, timeout_s=120)


APP = AppSpec(
    name="jupyter",
    kind="notebook tool (Jupyter Notebook: file browser, notebook page, live kernel)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
