"""sqlite-web: a database admin for SQLite in the browser (a database's tables in a sidebar;
for each table its structure, where columns and indexes are added, renamed and dropped, its
content page by page, a SQL query box, import and export; new tables by name).

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 0.4.1 shows, and committed before any engine run on it. Both versions are PyPI's
``sqlite-web`` package (Flask, Peewee); the drift between them is the app's own redesign
(0.4 -> 0.8): a dark top bar holds the database and table names (no longer a heading) and
the new-table field moves into a "+ Table" drop-down; the table tabs gain "Insert" and
"Export"; the query page shows the table's definition and gains "Explain" and bookmarks
("Export JSON"/"Export CSV" become "JSON"/"CSV"); a column's "Allow null" shows ticks.

0.4.1 imports ``flask.escape``, gone in Flask 2.3, so its Flask is pinned to 2.2.

Every start writes a fresh copy of a small database into the work folder (a community
garden: beds, plants and harvests, with an index) and serves it with ``sqlite_web`` on
127.0.0.1 (no browser opened).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("0.4.1", "0.8.2")

# The versions pip resolved on Python 3.11 when the corpus entry was written, pinned so that a
# new release of a dependency cannot change what is served.
PINS: dict[str, tuple[str, ...]] = {
    "0.4.1": (
        "sqlite-web==0.4.1",
        "Flask==2.2.5",
        "Werkzeug==2.2.3",
        "peewee==3.17.9",
        "Pygments==2.21.0",
        "Jinja2==3.1.6",
        "MarkupSafe==3.0.4",
        "itsdangerous==2.2.0",
        "click==8.5.1",
        "blinker==1.9.0",
    ),
    "0.8.2": (
        "sqlite-web==0.8.2",
        "Flask==3.1.3",
        "Werkzeug==3.1.9",
        "peewee==4.5.3",
        "Pygments==2.21.0",
        "Jinja2==3.1.6",
        "MarkupSafe==3.0.4",
        "itsdangerous==2.2.0",
        "click==8.5.1",
        "blinker==1.9.0",
    ),
}

SCHEMA = """
CREATE TABLE bed (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    sunny INTEGER NOT NULL DEFAULT 1,
    notes TEXT
);
CREATE TABLE plant (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    bed_id INTEGER REFERENCES bed (id),
    sown TEXT
);
CREATE TABLE harvest (
    id INTEGER PRIMARY KEY,
    plant_id INTEGER REFERENCES plant (id),
    picked TEXT NOT NULL,
    kilograms REAL NOT NULL
);
CREATE INDEX harvest_picked ON harvest (picked);
INSERT INTO bed (id, name, sunny, notes) VALUES (1, 'North bed', 0, 'Shaded by the wall'),
    (2, 'South bed', 1, NULL), (3, 'Greenhouse', 1, 'Heated from October');
INSERT INTO plant (id, name, bed_id, sown) VALUES
    (1, 'Tomato', 3, '2026-03-14'), (2, 'Courgette', 2, '2026-04-20'),
    (3, 'Runner bean', 2, '2026-05-02'), (4, 'Rhubarb', 1, '2024-10-01'),
    (5, 'Chard', 1, '2026-04-11');
INSERT INTO harvest (plant_id, picked, kilograms) VALUES
    (1, '2026-08-02', 1.5), (1, '2026-08-16', 2.25), (2, '2026-07-28', 3.0),
    (3, '2026-08-09', 0.75), (4, '2026-05-19', 1.2), (5, '2026-06-30', 0.5);
"""


def _install(version: str) -> Path:
    return ensure_venv(f"sqlite-web-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    database = workdir / "garden.db"
    with sqlite3.connect(database) as db:
        db.executescript(SCHEMA)
    db.close()
    port = free_port()
    argv = [
        str(venv / "bin" / "sqlite_web"),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-browser",
        str(database),
    ]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, timeout_s=120)


APP = AppSpec(
    name="sqlite_web",
    kind="database admin (sqlite-web: a SQLite database's tables, structure, content, queries)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
