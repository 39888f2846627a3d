"""Buildbot: a continuous-integration server's web dashboard. A team reads what its builders
built (the home page's recent builds, the builders' list, a builder's builds, a build's steps
and their logs), starts a build by hand through a force form ("Start a build": a reason, a
branch, a "Clean build" box), and sees the history as a waterfall, a console and a grid. The
workers, the build masters, the schedulers, "About" and "Settings" are pages of their own.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 3.11.9 shows, and committed before any engine run on it. Both versions are PyPI's
``buildbot`` master with its web UI (``buildbot-www``) and the three view plugins
(``buildbot-waterfall-view``, ``buildbot-console-view``, ``buildbot-grid-view``), and
``buildbot-worker`` for the local worker. 3.11.9 is the last 3.x, whose UI is an AngularJS
application; 4.x redrew the whole UI in React, and 4.3.0 (the newest) is the release a team on
3.x moves to.

The master is one of this corpus's own (``master.cfg`` below, written into the work folder at
every start, the same on both versions): "Bakery CI", three builders ("website", "docs",
"recipe-tests") whose steps are short local shell commands (``echo``; "recipe-tests"'s "unit
tests" step exits 1, so it fails), a ``LocalWorker`` "oven-worker" inside the master's process
(its protocol port on 127.0.0.1), one force scheduler for all three builders, SQLite, the web
server on 127.0.0.1, usage reporting off (``buildbotNetUsageData = None``) and no avatars
(``avatar_methods`` empty: the default asks Gravatar for the owners' pictures). Every start
uses a fresh work folder (``buildbot create-master``), and seeds builds through the master's
own API (its JSON-RPC ``force`` call, one build at a time, each waited for): "website/1",
"docs/1", "recipe-tests/1" (a failure); then one commit ("Add the December price list")
through its change hook (``/change_hook/base``), which an "on-commit" scheduler builds as
"website/2", so the changes, console and grid views have a change to show. Checked with
``strace -f -e trace=connect`` and a Playwright request log: docs/real-apps.md, "New held-out
app: Buildbot".
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("3.11.9", "4.3.0")

_PLUGINS = ("buildbot", "buildbot-www", "buildbot-waterfall-view", "buildbot-console-view",
            "buildbot-grid-view", "buildbot-worker")  # fmt: skip

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "3.11.9": """alembic==1.19.2 attrs==26.1.0 autobahn==26.10.2 Automat==25.4.16
cbor2==6.3.0 cffi==2.1.1 constantly==23.10.4 croniter==7.0.0 cryptography==50.0.2
greenlet==3.5.6 hyperlink==21.0.0 idna==3.20 importlib_resources==7.1.0 Incremental==24.11.0
Jinja2==3.1.6 Mako==1.4.3 MarkupSafe==3.0.4 msgpack==1.2.4 packaging==26.4 pycparser==3.12
PyJWT==2.15.1 python-dateutil==4.0.0 PyYAML==6.0.4 six==1.17.0 SQLAlchemy==1.4.54
Twisted==23.10.0 txaio==26.6.1 typing_extensions==4.16.0 tzdata==2026.6 ujson==6.1.0
unidiff==1.0.1 zope.interface==8.7""",
    "4.3.0": """alembic==1.20.1 attrs==26.1.0 autobahn==26.10.2 Automat==25.4.16
cbor2==6.3.0 cffi==2.1.1 constantly==23.10.4 croniter==7.0.0 cryptography==50.0.2
hyperlink==21.0.0 idna==3.20 Incremental==24.11.0 Jinja2==3.1.6 Mako==1.4.3 MarkupSafe==3.0.4
msgpack==1.2.4 multipart==2.0.1 packaging==26.4 pycparser==3.12 PyJWT==2.15.1
pyOpenSSL==26.4.0 python-dateutil==4.0.0 PyYAML==6.0.4 service-identity==26.1.0
SQLAlchemy==2.1.9 treq==26.7.0 Twisted==26.10.0 txaio==26.6.1 typing_extensions==4.16.0
tzdata==2026.6 ujson==6.1.0 unidiff==1.0.1 zope.interface==8.7""",
}
PINS: dict[str, tuple[str, ...]] = {
    v: (*(f"{p}=={v}" for p in _PLUGINS), *_DEPS[v].split()) for v in VERSIONS
}

MASTER_CFG = """# The corpus's Buildbot master: a bakery's site, built by one local worker.
import os

from buildbot.plugins import schedulers, steps, util, worker

PORT = int(os.environ["BAKERY_CI_PORT"])
PB_PORT = int(os.environ["BAKERY_CI_PB_PORT"])

c = BuildmasterConfig = {}
c["title"] = "Bakery CI"
c["titleURL"] = f"http://127.0.0.1:{PORT}/"
c["buildbotURL"] = f"http://127.0.0.1:{PORT}/"
c["buildbotNetUsageData"] = None
c["db"] = {"db_url": "sqlite:///state.sqlite"}
c["protocols"] = {"pb": {"port": f"tcp:{PB_PORT}:interface=127.0.0.1"}}
c["workers"] = [worker.LocalWorker("oven-worker")]


def shell(name, command):
    return steps.ShellCommand(name=name, command=["sh", "-c", command], logEnviron=False,
                              description=[name], descriptionDone=[name])


website = util.BuildFactory([
    shell("compile pages", "echo rendering 12 pages; echo menu.html written"),
    shell("check links", "echo checked 48 links, 0 broken"),
])
recipes = util.BuildFactory([
    shell("load recipes", "echo loaded 3 recipes"),
    shell("unit tests", "echo ran 14 tests; echo FAILED test_scaling: 250 g is not 260 g; exit 1"),
])
docs = util.BuildFactory([
    shell("build manual", "echo manual.pdf written, 36 pages"),
])
c["builders"] = [
    util.BuilderConfig(name="website", workernames=["oven-worker"], factory=website,
                       description="The bakery's public website"),
    util.BuilderConfig(name="docs", workernames=["oven-worker"], factory=docs,
                       description="The staff manual"),
    util.BuilderConfig(name="recipe-tests", workernames=["oven-worker"], factory=recipes,
                       description="Checks of the recipe scaler"),
]
c["schedulers"] = [
    schedulers.ForceScheduler(
        name="force",
        buttonName="Start a build",
        label="Start a build",
        builderNames=["website", "docs", "recipe-tests"],
        reason=util.StringParameter(name="reason", label="Reason", default="", size=40),
        codebases=[util.CodebaseParameter(
            "",
            branch=util.StringParameter(name="branch", label="Branch", default="main"),
            revision=util.FixedParameter(name="revision", default=""),
            repository=util.FixedParameter(name="repository", default=""),
            project=util.FixedParameter(name="project", default=""),
        )],
        properties=[util.BooleanParameter(name="clean", label="Clean build", default=False)],
    ),
    schedulers.SingleBranchScheduler(
        name="on-commit", change_filter=util.ChangeFilter(branch="main"), treeStableTimer=None,
        builderNames=["website"],
    ),
]
c["www"] = {
    "port": f"tcp:{PORT}:interface=127.0.0.1",
    "plugins": {"waterfall_view": {}, "console_view": {}, "grid_view": {}},
    "avatar_methods": [],
    "change_hook_dialects": {"base": True},
}
"""

# (builder, reason), forced in this order at every start, each waited for; then one commit
# through the change hook, which the "on-commit" scheduler builds on "website"
SEED_BUILDS = (
    ("website", "new menu page"),
    ("docs", "manual for the new oven"),
    ("recipe-tests", "scaler rounding"),
)
SEED_CHANGE = {
    "author": "Marta <marta@bakery.invalid>",
    "comments": "Add the December price list",
    "revision": "4f2c9e1",
    "branch": "main",
    "repository": "bakery-website",
    "project": "website",
    "files": '["prices.html"]',
}


def _install(version: str) -> Path:
    return ensure_venv(f"buildbot-{version}", list(PINS[version]))


def _api(base_url: str, path: str, body: dict[str, object] | None = None) -> dict[str, object]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base_url + "api/v2/" + path, data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, object] = json.loads(response.read())
    return answer


def seed(base_url: str) -> None:
    """Force the seeded builds through the master's own API, one at a time, each finished before
    the next (so their numbers and order are the same at every start)."""
    ids: dict[str, object] = {}
    deadline = time.monotonic() + 120
    while len(ids) < len({b for b, _ in SEED_BUILDS}):  # the builders are set up after start
        if time.monotonic() > deadline:
            raise TimeoutError("the master set up no builders in 120 s")
        time.sleep(0.5)
        builders = _api(base_url, "builders")["builders"]
        ids = {b["name"]: b["builderid"] for b in builders}  # type: ignore[attr-defined]
    for done, (builder, reason) in enumerate(SEED_BUILDS, start=1):
        params = {"builderid": str(ids[builder]), "reason": reason, "branch": "main"}
        _api(base_url, "forceschedulers/force",
             {"jsonrpc": "2.0", "method": "force", "id": done, "params": params})  # fmt: skip
        _wait_builds(base_url, done)
    hook = urllib.request.Request(
        base_url + "change_hook/base", data=urllib.parse.urlencode(SEED_CHANGE).encode()
    )
    with urllib.request.urlopen(hook, timeout=30):
        pass
    _wait_builds(base_url, len(SEED_BUILDS) + 1)


def _wait_builds(base_url: str, count: int) -> None:
    deadline = time.monotonic() + 120
    while len(_api(base_url, "builds?complete=true")["builds"]) < count:  # type: ignore[arg-type]
        if time.monotonic() > deadline:
            raise TimeoutError(f"seeded build {count} did not finish in 120 s")
        time.sleep(0.5)


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    buildbot = str(venv / "bin" / "buildbot")
    master = workdir / "master"
    with (workdir / "setup.log").open("ab") as out:
        subprocess.run([buildbot, "create-master", "-r", str(master)], cwd=workdir,
                       stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                       check=True, timeout=300)  # fmt: skip
    (master / "master.cfg").write_text(MASTER_CFG)
    port = free_port()
    env = {"HOME": str(workdir), "BAKERY_CI_PORT": str(port),
           "BAKERY_CI_PB_PORT": str(free_port())}  # fmt: skip
    argv = [buildbot, "start", "--nodaemon", str(master)]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, ready="api/v2/builders",
                 env=env, timeout_s=240, then=seed)  # fmt: skip


APP = AppSpec(
    name="buildbot",
    kind="a continuous-integration dashboard (Buildbot: builders, builds and their steps' logs, "
    "a force-build form, workers, waterfall, console and grid views; AngularJS, then React)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
