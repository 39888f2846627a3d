"""TensorBoard: a machine-learning experiment dashboard. A person reads the runs of a training
job as charts: the "TIME SERIES" dashboard (a run list with checkboxes and a "Filter runs
(regex)" box, a "Filter tags (regex)" box, the "All", "Scalars", "Image", "Histogram" toggles,
one card per tag with "Pin card" and "Toggle full size mode" icons, and a "Settings" pane:
"Horizontal Axis", "Smoothing", "Tooltip sorting method", "Ignore outliers in chart
scaling"), the older dashboards as tabs ("SCALARS", "DISTRIBUTIONS", "HISTOGRAMS", "TEXT",
each with its own run list and options: "Show data download links", "Histogram mode"
"OVERLAY"/"OFFSET", "Enable Markdown"), and the "INACTIVE" menu of the dashboards that have
no data ("GRAPHS", "IMAGES" ...).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 2.10.1 shows, and committed before any engine run on it. Both versions are PyPI's
``tensorboard`` package (a Python server, an Angular page with Polymer dashboards inside).
The drift between them is the app's own: 2.19.0 drops the header's "UPLOAD" button, the
time-series run list gets a sortable "Run" header, a scalar card gets a data table of the
selected step ("Smoothed", "Value", "Step") and the settings pane new options ("Enable step
selection and data table", "Enable saving pins"), and the Angular Material controls are
drawn by a newer release of the library (MDC checkboxes, selects and sliders).

2.10.1 needs ``numpy<2`` (its TensorFlow stub reads ``np.bool8``) and ``six`` (its vendored
html5lib imports it; the package does not declare it): both pinned below as pip resolved
them with ``numpy==1.26.4`` asked for.

Every start uses a fresh work folder and seeds it through the app's own files: event files
written by TensorBoard's own writer (``EventFileWriter``, the package's protocol buffers and
its plugins' metadata; no TensorFlow) for three runs of a small model ("baseline",
"wide_lr", "dropout"), each with a "train" and a "validation" folder: the scalars "loss"
(with a description) and "accuracy" every 5 steps from 0 to 100, a histogram
"dense/weights" and a text "notes" per training run. TensorBoard reads them once
(``--load_fast=false --reload_interval 0``: its Python loader, no data server process) and
binds to 127.0.0.1. Checked with ``strace -f -e trace=connect`` on the server of both
versions while it started and served the flows' pages, and a Playwright request log:
docs/real-apps.md, "New held-out app: TensorBoard".
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("2.10.1", "2.19.0")

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "2.10.1": """absl-py==2.5.1 certifi==2026.10.19.post1 cffi==2.1.1
charset-normalizer==3.5.3 cryptography==50.0.2 google-auth==2.63.0 google-auth-oauthlib==0.4.6
grpcio==1.85.3 idna==3.20 Markdown==3.11.3 MarkupSafe==3.0.4 numpy==1.26.4 oauthlib==4.0.1
packaging==26.4 protobuf==3.19.6 pyasn1==0.6.5 pyasn1_modules==0.4.2 pycparser==3.12
requests==2.34.2 requests-oauthlib==2.0.0 six==1.17.0 tensorboard-data-server==0.6.1
tensorboard-plugin-wit==1.8.1 typing_extensions==4.16.0 urllib3==2.8.0 Werkzeug==3.1.9""",
    "2.19.0": """absl-py==2.5.1 grpcio==1.85.3 Markdown==3.11.3 MarkupSafe==3.0.4
numpy==2.4.6 packaging==26.4 protobuf==7.36.2 six==1.17.0 tensorboard-data-server==0.7.2
typing_extensions==4.16.0 Werkzeug==3.1.9""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"tensorboard=={v}", *_DEPS[v].split()) for v in VERSIONS}

RUNS = ("baseline", "wide_lr", "dropout")

# The seeding script, run with the app's own Python: TensorBoard's writer and protocol buffers
# write the event files a training job would leave (fixed values and times, so every start
# shows the same charts).
SEED = '''"""Three runs of a small model, written with TensorBoard's own event writer."""
import math
import os
import sys

import numpy as np
from tensorboard.compat.proto import event_pb2, summary_pb2
from tensorboard.plugins.histogram import metadata as histogram
from tensorboard.plugins.scalar import metadata as scalar
from tensorboard.plugins.text import metadata as text
from tensorboard.summary.writer.event_file_writer import EventFileWriter
from tensorboard.util.tensor_util import make_tensor_proto

RUNS = {
    "baseline": (0.10, "Baseline: SGD, learning rate 0.1, batch size 32."),
    "wide_lr": (0.35, "Wide learning rate: SGD, learning rate 0.35, batch size 32."),
    "dropout": (0.10, "Dropout 0.5 after each dense layer, learning rate 0.1."),
}
START = 1700000000.0


def value(tag, plugin, data, description=""):
    meta = plugin.create_summary_metadata(display_name=tag, description=description)
    return summary_pb2.Summary.Value(tag=tag, metadata=meta, tensor=make_tensor_proto(data))


def buckets(values, count):
    counts, edges = np.histogram(values, bins=count)
    return np.stack([edges[:-1], edges[1:], counts.astype(np.float64)], axis=1)


def write(folder, events):
    writer = EventFileWriter(folder)
    for event in events:
        writer.add_event(event)
    writer.flush()
    writer.close()


for run, (rate, note) in RUNS.items():
    for split in ("train", "validation"):
        extra = 0.15 if split == "validation" else 0.0
        events = []
        for step in range(0, 101, 5):
            loss = 2.0 * math.exp(-step * rate / 10) + extra + 0.04 * math.sin(step)
            summary = summary_pb2.Summary(value=[
                value("loss", scalar, np.float32(loss), "Cross-entropy loss of the batch"),
                value("accuracy", scalar, np.float32(1 - loss / 2.5)),
            ])
            if split == "train":
                weights = np.linspace(-1, 1, 200) * (1 + step / 100) + rate
                summary.value.append(value("dense/weights", histogram, buckets(weights, 20)))
            events.append(event_pb2.Event(wall_time=START + step * 60, step=step,
                                          summary=summary))
        if split == "train":
            notes = summary_pb2.Summary(value=[value("notes", text, np.array(note.encode()))])
            events.append(event_pb2.Event(wall_time=START, step=0, summary=notes))
        write(os.path.join(sys.argv[1], run, split), events)
'''


def _install(version: str) -> Path:
    return ensure_venv(f"tensorboard-{version}", list(PINS[version]))


def seed(venv: Path, workdir: Path) -> Path:
    """The event files of the three runs, written into ``workdir/logs`` by the app's own
    writer (the seeding script run with the app's Python)."""
    script, logs = workdir / "seed_runs.py", workdir / "logs"
    script.write_text(SEED)
    subprocess.run(
        [str(venv / "bin" / "python"), str(script), str(logs)],
        check=True,
        cwd=workdir,
        env={"HOME": str(workdir), "PATH": "/usr/bin:/bin"},
        timeout=300,
    )
    return logs


def _loaded(base_url: str, timeout_s: float = 180.0) -> None:
    """Wait until TensorBoard lists the six runs and its scalar, histogram and text
    dashboards are active (it reads the event files in a thread after it starts)."""
    want = {f"{run}/{split}" for run in RUNS for split in ("train", "validation")}
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(base_url + "data/runs", timeout=10) as r:
                runs = set(json.load(r))
            with urllib.request.urlopen(base_url + "data/plugins_listing", timeout=10) as r:
                plugins = json.load(r)
            active = all(plugins[p]["enabled"] for p in ("scalars", "histograms", "text"))
            if runs >= want and active:
                return
        except (OSError, KeyError, ValueError):
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"TensorBoard did not load the seeded runs in {timeout_s:.0f} s")
        time.sleep(1)


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    logs = seed(venv, workdir)
    port = free_port()
    argv = [
        str(venv / "bin" / "tensorboard"),
        "--logdir", str(logs),
        "--host", "127.0.0.1", "--port", str(port),
        "--load_fast=false", "--reload_interval", "0",
    ]  # fmt: skip
    return serve(
        argv,
        port=port,
        cwd=workdir,
        workdir=workdir,
        env={"HOME": str(workdir)},
        timeout_s=180,
        then=_loaded,
    )


APP = AppSpec(
    name="tensorboard",
    kind="machine-learning experiment dashboard (TensorBoard: runs, scalar charts, smoothing, "
    "histograms, text, settings pane, inactive dashboards menu)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
