"""An Otter Wiki: a Markdown wiki whose pages live in a Git repository (a sidebar with
"Home", "A - Z", "Create page" and a "Page Index"; a page's "Edit Page" pencil, its "On this
page" contents, and a "..." menu with Attachments, History, Blame, Rename and Delete; an
editor drawn by CodeMirror with a toolbar of icon buttons named by their tooltips and a
"Save" dialog asking for a commit message; search, the page index, the changelog,
registration and login).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 2.7.0 shows, and committed before any engine run on it. Both versions are PyPI's
``otterwiki`` package (Flask, server-rendered). The drift between them is the app's own:
2.26.1 opens the editor at ``<page>?edit`` (was ``<page>/edit``) behind an "Edit Page (e)"
pencil, adds "Edit with live preview", Block Quote and Code, Block, Alert, References and
Graphics menus to the toolbar, an "Unsaved changes" dialog on leaving, an attachment and a
WikiLink picker beside the editor, "Toggle Sidebar ([)" on the menu button, and forms
carrying a CSRF token (Flask-WTF).

Served by Flask's own server (``python -m flask --app otterwiki.server run``) on 127.0.0.1,
configured by a settings file in the work folder (``OTTERWIKI_SETTINGS``: the repository,
a secret key, an SQLite file for the users). Every start uses a fresh work folder and
seeds it through the app's own storage: a Git repository of Markdown files committed with
``git`` before the app starts (a bakery's wiki: Home, Sourdough in two commits, Croissants,
Holidays and Suppliers). Checked with ``strace -f -e trace=connect`` on the server of both
versions while it started and served ten pages: no network connection at all (2 connects
each, both to the local name-service cache's Unix socket); the pages load nothing from other
hosts (a Playwright request log: 127.0.0.1 only).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("2.7.0", "2.26.1")

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "2.7.0": """beautifulsoup4==4.12.3 blinker==1.9.0 click==8.5.1 Cython==3.0.8 Flask==3.0.3
Flask-Login==0.6.3 Flask-Mail==0.9.1 Flask-SQLAlchemy==3.1.1 gitdb==4.0.12 GitPython==3.1.42
greenlet==3.5.6 itsdangerous==2.2.0 Jinja2==3.1.4 MarkupSafe==3.0.4 mistune==2.0.5
pillow==10.4.0 pluggy==1.5.0 Pygments==2.18.0 smmap==5.0.3 soupsieve==4.1.3
SQLAlchemy==2.0.36 typing_extensions==4.16.0 unidiff==0.7.5 Werkzeug==3.0.3""",
    "2.26.1": """beautifulsoup4==4.12.3 blinker==1.9.0 click==8.5.1 Cython==3.0.11
feedgen==1.0.0 Flask==3.1.3 Flask-Login==0.6.3 Flask-Mail==0.10.0 Flask-SQLAlchemy==3.1.1
Flask-WTF==1.2.2 gitdb==4.0.12 GitPython==3.2.1 greenlet==3.5.6 itsdangerous==2.2.0
Jinja2==3.1.6 lxml==6.1.1 MarkupSafe==3.0.4 mistune==3.3.3 pillow==13.0.0 pluggy==1.5.0
Pygments==2.20.0 python-dateutil==4.0.0 PyYAML==6.0.2 regex==2026.2.28 smmap==5.0.3
soupsieve==4.1.3 SQLAlchemy==2.0.36 typing_extensions==4.16.0 tzdata==2026.6
unidiff==0.7.5 Werkzeug==3.1.9 WTForms==3.3.2""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"otterwiki=={v}", *_DEPS[v].split()) for v in VERSIONS}

# (file in the repository, content, commit message), committed in this order
PAGES: tuple[tuple[str, str, str], ...] = (
    ("home.md", "# Home\n\nThe bakery's wiki: recipes, suppliers and the shop's days.\n",
     "Start the bakery wiki"),
    ("sourdough.md", "# Sourdough\n\nFeed the starter once a day.\n", "Add the sourdough page"),
    (
        "sourdough.md",
        "# Sourdough\n\nFeed the starter twice a day.\n\n## Feeding\n\nOne part starter, "
        "one part rye flour, one part water.\n\n## Baking\n\nBake at 240 degrees for "
        "forty minutes.\n",
        "Feed the starter twice a day",
    ),
    ("croissants.md", "# Croissants\n\nFold the butter in three turns.\n", "Add croissants"),
    ("holidays.md", "# Holidays\n\nThe shop closes on the first of May.\n", "Add holidays"),
    ("suppliers.md", "# Suppliers\n\nFlour from the mill by the river.\n", "Add suppliers"),
)  # fmt: skip


def _git(repo: Path, *args: str) -> None:
    identity = ["-c", "user.name=Bakery Team", "-c", "user.email=team@bakery.invalid"]
    subprocess.run(["git", *identity, *args], cwd=repo, check=True, timeout=60,
                   capture_output=True)  # fmt: skip


def _seed(workdir: Path) -> Path:
    """A Git repository of the bakery's pages, committed as a team would have written them."""
    repo = workdir / "repository"
    repo.mkdir()
    _git(repo, "init", "-q")
    for name, text, message in PAGES:
        (repo / name).write_text(text)
        _git(repo, "add", name)
        _git(repo, "commit", "-q", "-m", message)
    return repo


def _install(version: str) -> Path:
    return ensure_venv(f"otterwiki-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    repo = _seed(workdir)
    settings = workdir / "settings.cfg"
    settings.write_text(
        f"REPOSITORY = {str(repo)!r}\n"
        "SECRET_KEY = 'pacts-corpus-otterwiki-secret-key'\n"
        f"SQLALCHEMY_DATABASE_URI = 'sqlite:///{workdir / 'users.sqlite'}'\n"
        "SITE_NAME = 'Bakery Wiki'\n"
    )
    port = free_port()
    command = [str(venv / "bin" / "python"), "-m", "flask", "--app", "otterwiki.server",
               "run", "--host", "127.0.0.1", "--port", str(port)]  # fmt: skip
    env = {"HOME": str(workdir), "OTTERWIKI_SETTINGS": str(settings)}
    return serve(
        command, port=port, cwd=workdir, workdir=workdir, ready="-/healthz", env=env,
        timeout_s=120,
    )  # fmt: skip


APP = AppSpec(
    name="otterwiki",
    kind="Markdown wiki on a Git repository (An Otter Wiki: pages, editor, history, search)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
