"""ArchiveBox: a self-hosted web archiver (a Django project). A person pastes URLs into its
"Add" page ("URLs (one per line)", "Archive depth", "Archive methods", "Add URLs and
archive"), and every URL becomes a snapshot: a row of the snapshot list (the Django admin's
change list, restyled: a search box, action buttons over the selected rows, a "Filter"
sidebar by added date, updated date and tag), a change form (timestamp, URL, "Title",
"Tags") and a folder of archived files. The top bar links "Add", "Snapshots", "Tags", the
users or the log, "Docs", the signed-in user, the account and "Log out".

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 0.5.4 shows, and committed before any engine run on it. Both versions are PyPI's
``archivebox`` package (Django 3.1, server-rendered), served by its own ``archivebox server``
(Django's development server) with SQLite. A team on 0.5 upgrades to 0.7 (PyPI has no 0.8
here; 0.6.2's pages are 0.7.4's but for the "Add" page's bookmarklet line and its "title"
method). The drift is the app's own: the list's action buttons "Check", "Pull title",
"Archive", "Re-archive (overwrite)" become "⬇️ Title", "Pull", "Re-Snapshot", "Reset" (no
"Check"; a tag box with "+" and "–" before them); the columns reorder (the original URL
last, written in full); the "Filter" sidebar gains "By status"; the top bar's "Users" and
"Change password" give way to "Log", "Public", "Admin" and "Account"; the tag list gains the
columns "Num snapshots" and "Snapshots" and a "Delete selected Tags" action; the "Add" page
gains "URLs format" and "Tags (comma separated tag1,tag2,tag3)", its depth choices lose their
list bullets, and its archive methods lose "title".

Every archive method that needs the network or another program (Chromium, wget, curl, git,
youtube-dl, readability, Mercury, SingleFile, the Wayback Machine, favicons from Google) is
off through the app's own settings (environment variables, ``SAVE_*``/``USE_*``); only
"title" runs, which reads the page in Python. The pages it archives are the app module's own:
a few small HTML pages (a baker's notes) served on 127.0.0.1 from the work folder by Python's
``http.server``, on a port chosen when this module is imported (the flows name it through
``{{env.PACTS_ARCHIVEBOX_PAGES}}``), in the server's process group (stopped with it).

ArchiveBox refuses to run as root (0.7 reads the user from the process's uid), and this
machine runs everything as root, so the app's commands run in a user namespace as uid 1000
(``unshare --user --map-user=1000``: inside it the files of the work folder are still the
process's own). Every start uses a fresh work folder and seeds it through the app's own
commands: ``archivebox init``, ``archivebox manage createsuperuser`` (``archivist``),
``archivebox add`` of six of the pages (each archived, its title read from the page), and the
tags set through the app's own models (``archivebox manage shell``; 0.5 has no ``add --tag``):
"bread" and "sourdough" on "Sourdough Starter Guide", "bread" on "Rye Bread Basics" and
"Scoring Patterns for Loaves", "kitchen" on "Choosing a Dutch Oven" and "A Field Guide to
Flour"; "Proofing Times by Temperature" has none. Checked with ``strace -f -e trace=connect``
and a Playwright request log: docs/real-apps.md, "New held-out app: ArchiveBox".
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("0.5.4", "0.7.4")

USER, PASSWORD = "archivist", "Crumb-Jar-2024"

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "0.5.4": """asgiref==3.13.0 asttokens==3.0.2 atomicwrites==1.4.0
certifi==2026.10.19.post1 chardet==3.0.4 croniter==0.3.34 dateparser==1.5.0 Django==3.1.3
django-extensions==3.0.3 executing==2.3.0 idna==2.10 ipython==9.18.1
ipython_pygments_lexers==1.1.1 jedi==0.20.1 matplotlib-inline==0.2.2 mypy-extensions==0.4.3
natsort==8.4.0 parso==0.8.7 pexpect==4.9.0 prompt_toolkit==3.0.53 psutil==7.2.2
ptyprocess==0.7.0 pure_eval==0.2.4 Pygments==2.21.0 python-crontab==2.5.1
python-dateutil==4.0.0 pytz==2026.6 regex==2026.11.19 requests==2.24.0 six==1.17.0
sqlparse==0.6.1 stack-data==0.6.3 traitlets==5.16.1 typing_extensions==4.16.0
tzdata==2026.6 tzlocal==5.4.5 urllib3==1.25.11 w3lib==1.22.0 wcwidth==0.9.4
youtube-dl==2021.12.17""",
    "0.7.4": """asgiref==3.13.0 asttokens==3.0.2 certifi==2026.10.19.post1
charset-normalizer==3.5.3 croniter==7.0.0 dateparser==1.5.0 Django==3.1.14
django-extensions==3.1.5 executing==2.3.0 idna==3.20 ipython==9.18.1
ipython_pygments_lexers==1.1.1 jedi==0.20.1 matplotlib-inline==0.2.2 mypy_extensions==1.2.0
parso==0.8.7 pexpect==4.9.0 prompt_toolkit==3.0.53 psutil==7.2.2 ptyprocess==0.7.0
pure_eval==0.2.4 Pygments==2.21.0 python-crontab==3.4.0 python-dateutil==4.0.0
pytz==2026.6 regex==2026.11.19 requests==2.34.2 sqlparse==0.6.1 stack-data==0.6.3
traitlets==5.16.1 typing_extensions==4.16.0 tzdata==2026.6 tzlocal==5.4.5 urllib3==2.8.0
w3lib==2.5.0 wcwidth==0.9.4 yt-dlp==2026.10.26""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"archivebox=={v}", *_DEPS[v].split()) for v in VERSIONS}

# the pages' server listens here at every start of this process (chosen once, so that the
# flows can name the page they add; the server before it stopped with its app)
PAGES_PORT = free_port()
PAGES = f"http://127.0.0.1:{PAGES_PORT}"

# (file, title): the first six are archived at every start; the last is the one a flow adds
_PAGE_LIST = (
    ("sourdough", "Sourdough Starter Guide"),
    ("rye", "Rye Bread Basics"),
    ("oven", "Choosing a Dutch Oven"),
    ("flour", "A Field Guide to Flour"),
    ("proofing", "Proofing Times by Temperature"),
    ("scoring", "Scoring Patterns for Loaves"),
    ("bagels", "Boiled Bagels at Home"),
)
_TAGS = {
    "sourdough": ("bread", "sourdough"),
    "rye": ("bread",),
    "scoring": ("bread",),
    "oven": ("kitchen",),
    "flour": ("kitchen",),
}

# every program an archive method would run, and every method that reads the network
# (the Wayback Machine, Google's favicons) or needs one of those programs, off
_TOOLS = ("CHROME", "WGET", "CURL", "GIT", "YOUTUBEDL", "SINGLEFILE", "READABILITY", "MERCURY",
          "NODE")  # fmt: skip
_METHODS_OFF = ("ARCHIVE_DOT_ORG", "FAVICON", "WGET", "WARC", "PDF", "SCREENSHOT", "DOM",
                "SINGLEFILE", "READABILITY", "MERCURY", "GIT", "MEDIA", "HEADERS",
                "HTMLTOTEXT")  # fmt: skip
_SETTINGS = {
    "USE_COLOR": "False",
    "SHOW_PROGRESS": "False",
    "CHECK_SSL_VALIDITY": "False",
    "PUBLIC_INDEX": "True",
    "PUBLIC_SNAPSHOTS": "True",
    "PUBLIC_ADD_VIEW": "False",
    "SAVE_TITLE": "True",
    "TIMEOUT": "20",
    **{f"USE_{tool}": "False" for tool in _TOOLS},
    **{f"SAVE_{method}": "False" for method in _METHODS_OFF},
}

_TAG_SEED = """from core.models import Snapshot, Tag
from django.utils.text import slugify
for page, names in {tags!r}.items():
    snapshot = Snapshot.objects.get(url="{pages}/" + page + ".html")
    for name in names:
        tag, _ = Tag.objects.get_or_create(name=name, defaults={{"slug": slugify(name)}})
        snapshot.tags.add(tag)
print("tagged", Snapshot.objects.count())
"""


def _install(version: str) -> Path:
    return ensure_venv(f"archivebox-{version}", list(PINS[version]))


def _write_pages(folder: Path) -> None:
    folder.mkdir()
    for name, title in _PAGE_LIST:
        (folder / f"{name}.html").write_text(
            f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}'
            f"</title></head><body><h1>{title}</h1><p>A baker's notes: {title.lower()}.</p>"
            "</body></html>\n"
        )


def _env(workdir: Path) -> dict[str, str]:
    return {"HOME": str(workdir), "USER": USER, **_SETTINGS}


def _app(venv: Path) -> list[str]:
    # ArchiveBox will not run as root: run it as uid 1000 of a user namespace
    unshare = ["unshare", "--user", "--map-user=1000", "--map-group=1000"]
    return [*unshare, str(venv / "bin" / "archivebox")]


def _run(
    command: list[str], data: Path, workdir: Path, extra: dict[str, str] | None = None
) -> None:
    env = {**os.environ, **_env(workdir), **(extra or {})}
    with (workdir / "setup.log").open("ab") as out:
        subprocess.run(command, cwd=data, env=env, stdout=out, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, check=True, timeout=600)  # fmt: skip


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    box = _app(venv)
    pages = workdir / "pages"
    _write_pages(pages)
    data = workdir / "data"
    data.mkdir()
    port = free_port()
    # the pages' server, then the app, in one process group (stopped together)
    python = venv / "bin" / "python"
    script = (
        f"{python} -m http.server --bind 127.0.0.1 --directory {pages} {PAGES_PORT}"
        " >pages.log 2>&1 &\n"
        f"cd {data} && exec {' '.join(box)} server 127.0.0.1:{port}\n"
    )
    _run([*box, "init"], data, workdir)
    _run([*box, "manage", "createsuperuser", "--noinput", "--username", USER, "--email",
          "archivist@bakery.invalid"], data, workdir,
         {"DJANGO_SUPERUSER_PASSWORD": PASSWORD})  # fmt: skip
    pages_server = subprocess.Popen(
        [str(python), "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(pages),
         str(PAGES_PORT)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _run([*box, "add", *(f"{PAGES}/{name}.html" for name, _ in _PAGE_LIST[:-1])], data,
             workdir)  # fmt: skip
    finally:
        pages_server.terminate()
        pages_server.wait(timeout=10)
    seed = _TAG_SEED.format(tags=_TAGS, pages=PAGES)
    _run([*box, "manage", "shell", "-c", seed], data, workdir)
    return serve(["sh", "-c", script], port=port, cwd=workdir, workdir=workdir,
                 ready="admin/login/", env=_env(workdir), timeout_s=240)  # fmt: skip


APP = AppSpec(
    name="archivebox",
    kind="web archiver (ArchiveBox: add URLs, the snapshot list with its actions, filters and "
    "tags, a snapshot's form; Django)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={
        "PACTS_ARCHIVEBOX_USER": USER,
        "PACTS_ARCHIVEBOX_PASSWORD": PASSWORD,
        "PACTS_ARCHIVEBOX_PAGES": PAGES,
    },
)
