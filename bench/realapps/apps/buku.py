"""buku: a bookmark manager (bukuserver, its web front end: bookmarks listed with their
tags as buttons that filter the list, a bookmark's form with URL, title, tags and
description, a tag list with usage counts and a tag's rename form, a home page with a
keyword search, and a statistics page ranking sites, tags and titles).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 4.9 shows, and committed before any engine run on it. Both versions are PyPI's ``buku``
package with its ``server`` extra (Flask, Flask-Admin 1.6.1, SQLite); the drift between them
is the app's own: the form's "Url" becomes "URL", the list's tags become separate badges
below the address and gain a "Random" tab, the home page's search gains "Match all
keywords" and "With markers", the home page's link "Statistics" becomes "Statistic".

4.9 asks for ``Flask-Admin>=1.6.1`` and breaks on 2.x (``Admin(template_mode=...)``), so
its Flask-Admin is pinned to 1.6.1, as 5.0 resolves it. ``bukuserver run`` is Flask's
``run`` command: ``--host 127.0.0.1`` binds it to loopback. The bookmarks' addresses are
never fetched (seeded with ``fetch=False``; favicons are off by default).

Every start makes a fresh SQLite database in the work folder (``BUKUSERVER_DB_FILE``) and
seeds it with buku's own ``BukuDb.add_rec``: four bookmarks of a birdwatcher, "Grey heron
field notes" (birds, river), "Robin song recordings" (audio, birds), "Compost guide"
(garden) and "River path map" (river, walks), each with a description.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("4.9", "5.0")

# The versions pip resolved on Python 3.11 when the corpus entry was written, pinned so that a
# new release of a dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {
    "4.9": (
        "buku[server]==4.9",
        "arrow==1.4.0",
        "beautifulsoup4==4.15.0",
        "certifi==2026.10.19.post1",
        "cryptography==50.0.2",
        "dominate==2.9.1",
        "Flask==2.2.5",
        "Flask-Admin==1.6.1",
        "Flask-API==3.1",
        "Flask-Bootstrap==3.3.7.1",
        "flask-paginate==2026.10.22",
        "Flask-WTF==1.3.0",
        "html5lib==1.1",
        "Jinja2==3.1.6",
        "MarkupSafe==3.0.4",
        "urllib3==1.26.20",
        "Werkzeug==2.3.8",
        "WTForms==3.3.2",
    ),
    "5.0": (
        "buku[server]==5.0",
        "arrow==1.4.0",
        "beautifulsoup4==4.15.0",
        "certifi==2026.10.19.post1",
        "cryptography==50.0.2",
        "Flask==3.1.3",
        "Flask-Admin==1.6.1",
        "flask-paginate==2026.10.22",
        "Flask-WTF==1.3.0",
        "html5lib==1.1",
        "Jinja2==3.1.6",
        "MarkupSafe==3.0.4",
        "urllib3==2.8.0",
        "Werkzeug==3.1.9",
        "WTForms==3.3.2",
    ),
}

# Run with the app's own Python: seeds the database given as the first argument.
SEED = """
import sys

from buku import BukuDb

db = BukuDb(dbfile=sys.argv[1])
for url, title, tags, desc in [
    ("https://birds.example.org/heron", "Grey heron field notes", ",birds,river,",
     "Where the herons nest along the river path"),
    ("https://birds.example.org/robin", "Robin song recordings", ",audio,birds,",
     "Dawn chorus clips"),
    ("https://garden.example.org/compost", "Compost guide", ",garden,",
     "Hot and cold composting"),
    ("https://maps.example.org/river-path", "River path map", ",river,walks,",
     "Two-hour loop"),
]:
    db.add_rec(url, title_in=title, tags_in=tags, desc=desc, fetch=False)
"""


def _install(version: str) -> Path:
    return ensure_venv(f"buku-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    db = workdir / "bookmarks.db"
    seed = workdir / "seed.py"
    seed.write_text(SEED)
    env = {**os.environ, "HOME": str(workdir), "XDG_DATA_HOME": str(workdir)}
    subprocess.run(
        [str(venv / "bin" / "python"), str(seed), str(db)],
        cwd=workdir,
        env=env,
        check=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        capture_output=True,
    )
    env["BUKUSERVER_DB_FILE"] = str(db)
    port = free_port()
    argv = [
        str(venv / "bin" / "bukuserver"),
        "run",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, env=env, timeout_s=120)


APP = AppSpec(
    name="buku",
    kind="bookmark manager (bukuserver: bookmarks with tags, search, tag list, statistics)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
