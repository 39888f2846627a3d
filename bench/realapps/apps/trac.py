"""Trac: an issue tracker and wiki for a software team. The team files and follows its tickets
there: the top bar ("Wiki", "Timeline", "Roadmap", "View Tickets", "New Ticket", "Search",
"Admin"; "Login", "Preferences", "Help/Guide", "About Trac"; a search box); "New Ticket"
("Create New Ticket": "Summary", "Description", "Type", "Priority", "Milestone", "Component",
..., "Create ticket"); the reports ("{1} Active Tickets") and the custom query ("Filters" with the
statuses' checkboxes and "And"/"Or" to add a filter, "Columns", "Group results by", "Update",
a checkbox per ticket and "Batch Modify"); a ticket's page (its fields, "Change History",
"Modify Ticket" with the workflow's actions "leave", "resolve", "reassign", "accept", "Add
Comment", "Submit changes"); the roadmap's milestones ("Show completed milestones"); the
timeline's filters; the wiki ("Edit this page", "Comment about this change", "Preview Page");
the administration ("Components": "Add Component:" "Name", "Owner", "Add") and the
preferences ("General": "Full name", "Email address", "Save changes"; "Localization": "Time
zone").

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 1.2.6 shows, and committed before any engine run on it. Both versions are PyPI's
``Trac``: 1.2.6 (the last 1.2, a long-term release; Genshi templates, Python 2.7) and 1.6 (the
newest, a long-term release; Jinja2 templates, Python 3), the upgrade a team on 1.2 makes.
1.4.4 (Jinja2, Python 2.7) was looked at too and draws the same pages as 1.6 (its "New
Ticket" page's screenshot is 1.6's but for the version in the footer), so it would add no
drift. **1.2.6 needs a Python 2.7**: the module takes ``PACTS_PYTHON27``, else pyenv's
``~/.pyenv/versions/2.7*/bin/python2.7``, else ``python2.7`` on the ``PATH``, and installs
1.2.6 into a folder of the cache with that Python's pip (``pip install --target``; Python
2.7 has no ``venv``). Every package is pinned below as pip then resolved it.

Every start makes a fresh environment in the work folder with Trac's own installer
(``trac-admin ENV initenv``: SQLite, no repository), seeds it through Trac's own models
(``SEED`` below: the components "booking", "timetable" and "kiosk" in place of the defaults,
the milestones "Summer timetable" (completed), "Winter timetable" and "Kiosk refresh", the
versions "2.4" and "2.5", five tickets of a ferry company's booking app, one closed as fixed,
one comment, the wiki page "HarbourGuide"; every permission granted to "anonymous", so the
flows need no sign-in: Trac signs in through the web server's HTTP authentication, which a
page cannot fill; Trac's banner as the header logo), then serves it with Trac's own server
(``tracd -s``, the one environment at the root) on 127.0.0.1. Nothing leaves the machine:
Trac's pages load their scripts and styles from the server itself (``/chrome/``), and the
server asks no outside host (docs/real-apps.md, "New held-out app: Trac").
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from realapps.harness import AppSpec, Served, cache_root, ensure_venv, free_port, serve

VERSIONS = ("1.2.6", "1.6")

# What pip resolved for `Trac==V` when the corpus entry was written (1.2.6 with `Genshi`, its
# template engine, on Python 2.7.18; 1.6 on Python 3.11), pinned so that a new release of a
# dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {
    "1.2.6": (
        "Trac==1.2.6", "Genshi==0.7.12", "setuptools==44.1.1", "six==1.17.0",
        "contextlib2==0.6.0.post1", "importlib_resources==3.3.1", "pathlib2==2.3.7.post1",
        "scandir==1.10.0", "singledispatch==3.7.0", "typing==3.10.0.0", "zipp==1.2.0",
    ),
    "1.6": ("Trac==1.6", "Jinja2==3.1.6", "MarkupSafe==3.0.4"),
}  # fmt: skip
PYTHON2 = ("1.2.6",)  # the versions that run on Python 2.7

SEED = '''"""Seed a Trac environment (with the version's own Python: 2.7 for 1.2, 3 for 1.6)."""
from __future__ import print_function

import sys
from datetime import datetime

from trac.env import Environment
from trac.perm import PermissionSystem
from trac.ticket.model import Component, Milestone, Ticket, Version
from trac.util.datefmt import utc
from trac.wiki.model import WikiPage

env = Environment(sys.argv[1])
env.config.set("header_logo", "src", "common/trac_banner.png")
env.config.set("header_logo", "alt", "Harbour Ferries")
env.config.set("project", "descr", "Harbour Ferries booking app")
env.config.save()
PermissionSystem(env).grant_permission("anonymous", "TRAC_ADMIN")
with env.db_transaction as db:
    for table in ("component", "milestone", "version"):
        db("DELETE FROM %s" % table)

for name, owner in (("booking", "marta"), ("timetable", "jonas"), ("kiosk", "priya")):
    c = Component(env)
    c.name, c.owner = name, owner
    c.insert()
MILESTONES = (
    ("Summer timetable", datetime(2026, 5, 1, tzinfo=utc), datetime(2026, 4, 28, tzinfo=utc),
     "The crossings from May to September."),
    ("Winter timetable", datetime(2026, 10, 1, tzinfo=utc), None,
     "The crossings from October to April."),
    ("Kiosk refresh", None, None, "New printers and screens at the harbour kiosks."),
)
for name, due, completed, description in MILESTONES:
    m = Milestone(env)
    m.name, m.due, m.completed, m.description = name, due, completed, description
    m.insert()
for name in ("2.4", "2.5"):
    v = Version(env)
    v.name = name
    v.insert()

TICKETS = (
    ("Winter crossings listed in May", "defect", "timetable", "Winter timetable", "major",
     "jonas", "marta", "The timetable lists the winter crossings in May.", None),
    ("Add a bicycle fare to the booking form", "enhancement", "booking", "Winter timetable",
     "minor", "marta", "jonas", "Passengers can book a bicycle with their ticket.", None),
    ("Refund page hides the cancellation fee", "defect", "booking", "Winter timetable",
     "critical", "marta", "priya", "The refund page shows no cancellation fee.", None),
    ("Kiosk prints boarding passes twice", "defect", "kiosk", "Kiosk refresh", "major",
     "priya", "jonas", "Every boarding pass comes out twice at the harbour kiosk.", None),
    ("Island route missing from the summer timetable", "defect", "timetable",
     "Summer timetable", "major", "jonas", "marta", "The island route has no crossings.",
     "fixed"),
)
for summary, kind, component, milestone, priority, owner, reporter, text, fixed in TICKETS:
    t = Ticket(env)
    t["summary"], t["type"], t["component"], t["milestone"] = summary, kind, component, milestone
    t["priority"], t["owner"], t["reporter"], t["description"] = priority, owner, reporter, text
    t["status"] = "assigned"
    t.insert()
    if fixed:
        t["status"], t["resolution"] = "closed", fixed
        t.save_changes(owner, "Deployed on 28 April.")
Ticket(env, 1).save_changes("marta", "The May page shows the October crossings too.")

page = WikiPage(env, "HarbourGuide")
page.text = ("= Harbour guide =\\n\\nHow the ferry booking team works.\\n\\n"
             "== Releases ==\\n\\nA release goes out on Tuesdays.\\n")
page.save("marta", "First guide")
print("seeded")
'''


def python27() -> str:
    """A Python 2.7 for Trac 1.2: ``PACTS_PYTHON27``, pyenv's 2.7, or ``python2.7``."""
    found = os.environ.get("PACTS_PYTHON27") or next(
        iter(sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/2.7*/bin/python2.7")))),
        None,
    )
    found = found or shutil.which("python2.7")
    if not found:
        raise RuntimeError("Trac 1.2.6 needs a Python 2.7: set PACTS_PYTHON27 to one")
    return found


def _install_py2(version: str) -> Path:
    """``Trac==version`` and its pins in ``<cache>/trac-<version>/site`` with Python 2.7's
    pip (``--target``), once, under a lock, with a stamp written last (as ``ensure_venv``)."""
    import fcntl

    root = cache_root()
    folder = root / f"trac-{version}"
    pins = PINS[version]
    stamp = folder / (".pacts-" + hashlib.sha256("\n".join(pins).encode()).hexdigest()[:16])
    if stamp.exists() and (folder / "site" / "trac" / "__init__.py").exists():
        return folder
    with open(root / f"trac-{version}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists() and (folder / "site" / "trac" / "__init__.py").exists():
            return folder
        with contextlib.suppress(FileNotFoundError):
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        subprocess.run(
            [python27(), "-m", "pip", "install", "-q", "--no-warn-script-location",
             "--target", str(folder / "site"), *pins],
            check=True, timeout=1800,
        )  # fmt: skip
        stamp.touch()
    return folder


def _install(version: str) -> Path:
    if version in PYTHON2:
        return _install_py2(version)
    return ensure_venv(f"trac-{version}", list(PINS[version]))


def _python(version: str, installed: Path) -> tuple[str, dict[str, str]]:
    """The Python that runs ``version`` and the environment it needs."""
    if version in PYTHON2:
        return python27(), {"PYTHONPATH": str(installed / "site")}
    return str(installed / "bin" / "python"), {}


def _start(version: str, workdir: Path) -> Served:
    installed = _install(version)
    python, extra = _python(version, installed)
    env = {**extra, "TZ": "UTC", "HOME": str(workdir), "PYTHONDONTWRITEBYTECODE": "1"}
    run_env = {**os.environ, **env}
    site = workdir / "env"
    with (workdir / "install.log").open("ab") as log:
        subprocess.run(
            [python, "-m", "trac.admin.console", str(site), "initenv", "Harbour Ferries",
             "sqlite:db/trac.db"],
            cwd=workdir, env=run_env, check=True, timeout=300, stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        (workdir / "seed.py").write_text(SEED)
        subprocess.run([python, "seed.py", str(site)], cwd=workdir, env=run_env, check=True,
                       timeout=300, stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
    port = free_port()
    argv = [python, "-m", "trac.web.standalone", "-s", "-b", "127.0.0.1", "-p", str(port),
            str(site)]  # fmt: skip
    return serve(argv, port=port, cwd=workdir, workdir=workdir, ready="wiki", env=env,
                 timeout_s=120)  # fmt: skip


APP = AppSpec(
    name="trac",
    kind="issue tracker and wiki (Trac: tickets, reports, the custom query with batch "
    "modify, the roadmap's milestones, the timeline, wiki pages, the administration; "
    "server-rendered pages with jQuery, Genshi templates then Jinja2)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
