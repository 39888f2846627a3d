"""Locust: a load-testing tool and its web interface. A person starts a load test from a form
("Start new load test": "Number of users (peak concurrency)", "Spawn rate (users
started/second)", "Host", "Advanced options" with "Run time", "Start swarming"), watches it
run (a header with the host, the status "RUNNING" and the user count, "Edit", "RPS",
"FAILURES", "STOP", "Reset Stats"), reads its tabs ("Statistics", "Charts", "Failures",
"Exceptions", "Current ratio", "Download Data"), changes the running test ("Edit running load
test"), stops it and starts a new one ("New test"), and reads "About".

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 2.20.1 shows, and committed before any engine run on it. Both versions are PyPI's
``locust`` package (Flask and gevent). The drift between them is the app's own: 2.20.1 serves
its classic page (Jinja and jQuery: links for tabs and header actions, dialogs drawn over the
page); 2.32.0 serves the React and MUI interface only (its legacy page is gone): the header's
actions are buttons ("EDIT", "STOP", "RESET", after a stop "NEW") beside a theme toggle icon,
the tabs are MUI tabs ("Current Ratio", and a new "Logs"), "Spawn rate" reads "Ramp up", the
start button reads "START" and the edit dialog's "UPDATE", "Advanced options" is an accordion,
"About" is a button opening a dialog closed by an unnamed icon, the statistics table's 90th
percentile becomes the 95th, the ratio headings read "Ratio Per Class" and "Total Ratio".

Every start uses a fresh work folder and seeds it through the app's own file: a locustfile
(``locustfile.py``) of a small bakery's shop with two user classes, ``Browser`` (weight 3:
"/" and "/bread") and ``Buyer`` (weight 1: "/checkout", which always fails with "payment
declined", and a task that raises "oven is cold"). No user makes a request: each reports its
request to Locust's own event hook with a fixed response time, so the statistics fill without
any connection, and the host shown (``http://bakery.invalid``, a name that never resolves) is
never contacted. The web interface binds to 127.0.0.1. Checked with ``strace -f -e
trace=connect`` on the server of both versions while it started and served the flows' pages,
and a Playwright request log: docs/real-apps.md, "New held-out app: Locust".
"""

from __future__ import annotations

from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("2.20.1", "2.32.0")

HOST = "http://bakery.invalid"

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "2.20.1": """blinker==1.9.0 brotli==1.2.1 certifi==2026.10.19.post1
charset-normalizer==3.5.3 click==8.5.1 ConfigArgParse==1.9.0 Flask==3.1.3 Flask-BasicAuth==0.2.0
flask-cors==6.0.5 gevent==26.9.0 geventhttpclient==2.6.1 greenlet==3.5.6 idna==3.20
itsdangerous==2.2.0 Jinja2==3.1.6 MarkupSafe==3.0.4 msgpack==1.2.4 psutil==7.2.2 pyzmq==27.3.0
requests==2.34.2 roundrobin==0.1.0 urllib3==2.8.0 Werkzeug==3.1.9 zope.event==6.2
zope.interface==8.7""",
    "2.32.0": """blinker==1.9.0 brotli==1.2.1 certifi==2026.10.19.post1
charset-normalizer==3.5.3 click==8.5.1 ConfigArgParse==1.9.0 Flask==3.1.3 flask-cors==6.0.5
Flask-Login==0.6.3 gevent==26.9.0 geventhttpclient==2.6.1 greenlet==3.5.6 idna==3.20
itsdangerous==2.2.0 Jinja2==3.1.6 MarkupSafe==3.0.4 msgpack==1.2.4 psutil==7.2.2 pyzmq==27.3.0
requests==2.34.2 urllib3==2.8.0 Werkzeug==3.1.9 zope.event==6.2 zope.interface==8.7""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"locust=={v}", *_DEPS[v].split()) for v in VERSIONS}

# The app's own file: a shop's load test whose users report fixed results to Locust's request
# event (no request is made), so every run shows the same names, sizes and failures.
LOCUSTFILE = '''"""A small bakery's shop, load-tested."""
from locust import User, between, task


class Browser(User):
    weight = 3
    wait_time = between(0.5, 1.0)

    @task(3)
    def home(self):
        self.environment.events.request.fire(
            request_type="GET", name="/", response_time=42, response_length=2048,
            exception=None, context={})

    @task(2)
    def bread(self):
        self.environment.events.request.fire(
            request_type="GET", name="/bread", response_time=87, response_length=4096,
            exception=None, context={})


class Buyer(User):
    weight = 1
    wait_time = between(0.5, 1.0)

    @task
    def checkout(self):
        self.environment.events.request.fire(
            request_type="POST", name="/checkout", response_time=230, response_length=128,
            exception=RuntimeError("payment declined"), context={})

    @task
    def oven(self):
        raise ValueError("oven is cold")
'''


def _install(version: str) -> Path:
    return ensure_venv(f"locust-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    (workdir / "locustfile.py").write_text(LOCUSTFILE)
    port = free_port()
    argv = [
        str(venv / "bin" / "locust"),
        "-f", "locustfile.py",
        "--web-host", "127.0.0.1", "--web-port", str(port),
        "-H", HOST,
    ]  # fmt: skip
    return serve(argv, port=port, cwd=workdir, workdir=workdir, timeout_s=120)


APP = AppSpec(
    name="locust",
    kind="load-testing tool's web interface (Locust: start, watch, edit and stop a load test; "
    "statistics, failures, exceptions, ratios, downloads)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
