"""Calibre-Web: an e-book library in the browser, over a Calibre library (``metadata.db``
and a folder per book): a top bar ("Search Library", "Advanced Search", "Upload", "Tasks",
"Admin", the user's name, "Logout"), a sidebar of ways to browse (Books, Hot Books, Top
Rated Books, Read Books, Discover, Categories, Series, Authors, Publishers, Languages,
Ratings, File formats, Archived Books, and the user's shelves with "Create a Shelf"), book
cards that open a "Book Details" dialog, a book's page ("Download :", "Read in Browser",
the checkboxes "Read" and "Archived", "Add to shelf", "Edit Metadata"), the metadata form,
advanced search, shelves, users and the profile.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 0.6.21 shows, and committed before any engine run on it. Both versions are PyPI's
``calibreweb`` package (Flask, server-rendered, Bootstrap 3, served by Tornado). The drift
between them is the app's own: the book page's checkbox "Archived" reads "Archive" and the
page gains a "Cancel"; the metadata form is laid out in two columns (Tags, Series, Series ID,
Published Date, Publisher, Language and Rating move below the description and the upload
buttons); the sidebar loses "Books List"; "Send to eReader Email" reads "Send to eReader Email
Address. Use comma to separate emails for multiple eReaders"; advanced search's read status
gains "Any" and "Empty"; forms carry other scripts and newer Flask, SQLAlchemy 2 and lxml 6.

Every start uses a fresh work folder and seeds it through the app's own files: a Calibre
library made the way Calibre lays one out (``metadata.db`` with Calibre's tables, a folder
``Author/Title (id)`` per book holding its file, here a short plain-text edition), six books
by four authors with tags, a series, publishers, ratings and descriptions; then the app's
own settings database (``app.db``), made by the app itself (``cps -p app.db -s
admin:PASSWORD`` sets the admin's password and exits), pointed at the library and the port.
The server is the app's own (``cps -p app.db -i 127.0.0.1``). Checked with ``strace -f -e
trace=connect`` on the server of both versions while it started and served the flows' pages,
and a Playwright request log: docs/real-apps.md, "New held-out app: Calibre-Web".
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import uuid
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("0.6.21", "0.6.27")

USER, PASSWORD = "admin", "Bookshelf-2024"

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "0.6.21": """advocate==1.0.0 APScheduler==3.10.4 babel==2.19.0 blinker==1.9.0
certifi==2026.10.19.post1 cffi==2.1.1 chardet==4.0.0 charset-normalizer==3.5.3 click==8.5.1
cryptography==50.0.2 Deprecated==1.3.1 Flask==2.3.3 flask-babel==3.1.0 Flask-Limiter==3.4.1
Flask-Login==0.6.2 Flask-Principal==0.4.0 Flask-WTF==1.1.2 greenlet==3.5.6 idna==3.20
iso-639==0.4.5 itsdangerous==2.2.0 Jinja2==3.1.6 limits==5.8.0 lxml==4.9.4
markdown-it-py==4.3.0 MarkupSafe==3.0.4 mdurl==0.1.2 ndg-httpsclient==0.5.1 netifaces==0.11.0
ordered-set==4.1.0 packaging==26.4 pyasn1==0.6.5 pycparser==3.12 Pygments==2.21.0
pyOpenSSL==26.4.0 pypdf==3.15.5 pytz==2026.6 requests==2.31.0 rich==13.9.4 six==1.17.0
SQLAlchemy==1.4.54 tornado==6.3.3 typing_extensions==4.16.0 tzlocal==5.4.5 Unidecode==1.3.8
urllib3==1.26.20 Wand==0.6.13 Werkzeug==2.3.8 wrapt==2.5.2 WTForms==3.3.2""",
    "0.6.27": """APScheduler==3.11.3 babel==2.19.0 blinker==1.9.0 certifi==2026.5.20
cffi==2.1.1 chardet==5.2.0 charset-normalizer==3.5.3 click==8.5.1 cryptography==47.0.0
Deprecated==1.3.1 Flask==3.1.3 flask-babel==4.0.0 Flask-HTTPAuth==4.8.1 Flask-Limiter==4.1.1
Flask-Principal==0.4.0 Flask-WTF==1.3.0 greenlet==3.5.6 idna==3.20 iso-639==0.4.5
itsdangerous==2.2.0 Jinja2==3.1.6 limits==5.8.0 lxml==6.1.3 MarkupSafe==3.0.4
netifaces-plus==0.12.5 nh3==0.3.8 ordered-set==4.1.0 packaging==26.4 pycparser==3.12
pypdf==6.10.2 python-magic==0.4.27 pytz==2026.6 regex==2026.1.15 requests==2.34.2
SQLAlchemy==2.0.58 tornado==6.5.10 typing_extensions==4.16.0 tzlocal==5.4.5 Unidecode==1.4.0
urllib3==2.8.0 Wand==0.7.2 Werkzeug==3.1.9 wrapt==2.5.2 WTForms==3.3.2""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"calibreweb=={v}", *_DEPS[v].split()) for v in VERSIONS}

# Calibre's own tables, as Calibre creates them in a new library's metadata.db (the columns
# Calibre-Web reads; its triggers and views are Calibre's desktop bookkeeping, left out).
SCHEMA = """
CREATE TABLE books (id INTEGER PRIMARY KEY AUTOINCREMENT,
  title TEXT NOT NULL DEFAULT 'Unknown' COLLATE NOCASE, sort TEXT COLLATE NOCASE,
  timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, pubdate TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
  series_index REAL NOT NULL DEFAULT 1.0, author_sort TEXT COLLATE NOCASE,
  isbn TEXT DEFAULT '' COLLATE NOCASE, lccn TEXT DEFAULT '' COLLATE NOCASE,
  path TEXT NOT NULL DEFAULT '', flags INTEGER NOT NULL DEFAULT 1, uuid TEXT,
  has_cover BOOL DEFAULT 0,
  last_modified TIMESTAMP NOT NULL DEFAULT '2000-01-01 00:00:00+00:00');
CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE,
  sort TEXT COLLATE NOCASE, link TEXT NOT NULL DEFAULT '', UNIQUE(name));
CREATE TABLE books_authors_link (id INTEGER PRIMARY KEY, book INTEGER NOT NULL,
  author INTEGER NOT NULL, UNIQUE(book, author));
CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE,
  link TEXT NOT NULL DEFAULT '', UNIQUE(name));
CREATE TABLE books_tags_link (id INTEGER PRIMARY KEY, book INTEGER NOT NULL,
  tag INTEGER NOT NULL, UNIQUE(book, tag));
CREATE TABLE series (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE,
  sort TEXT COLLATE NOCASE, link TEXT NOT NULL DEFAULT '', UNIQUE(name));
CREATE TABLE books_series_link (id INTEGER PRIMARY KEY, book INTEGER NOT NULL,
  series INTEGER NOT NULL, UNIQUE(book));
CREATE TABLE ratings (id INTEGER PRIMARY KEY,
  rating INTEGER CHECK(rating > -1 AND rating < 11), link TEXT NOT NULL DEFAULT '',
  UNIQUE(rating));
CREATE TABLE books_ratings_link (id INTEGER PRIMARY KEY, book INTEGER NOT NULL,
  rating INTEGER NOT NULL, UNIQUE(book, rating));
CREATE TABLE languages (id INTEGER PRIMARY KEY, lang_code TEXT NOT NULL COLLATE NOCASE,
  link TEXT NOT NULL DEFAULT '', UNIQUE(lang_code));
CREATE TABLE books_languages_link (id INTEGER PRIMARY KEY, book INTEGER NOT NULL,
  lang_code INTEGER NOT NULL, item_order INTEGER NOT NULL DEFAULT 0, UNIQUE(book, lang_code));
CREATE TABLE publishers (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE,
  sort TEXT COLLATE NOCASE, link TEXT NOT NULL DEFAULT '', UNIQUE(name));
CREATE TABLE books_publishers_link (id INTEGER PRIMARY KEY, book INTEGER NOT NULL,
  publisher INTEGER NOT NULL, UNIQUE(book));
CREATE TABLE data (id INTEGER PRIMARY KEY, book INTEGER NOT NULL,
  format TEXT NOT NULL COLLATE NOCASE, uncompressed_size INTEGER NOT NULL, name TEXT NOT NULL,
  UNIQUE(book, format));
CREATE TABLE comments (id INTEGER PRIMARY KEY, book INTEGER NOT NULL,
  text TEXT NOT NULL COLLATE NOCASE, UNIQUE(book));
CREATE TABLE identifiers (id INTEGER PRIMARY KEY, book INTEGER NOT NULL,
  type TEXT NOT NULL DEFAULT 'isbn' COLLATE NOCASE, val TEXT NOT NULL COLLATE NOCASE,
  UNIQUE(book, type));
CREATE TABLE custom_columns (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL,
  name TEXT NOT NULL, datatype TEXT NOT NULL, mark_for_delete BOOL DEFAULT 0 NOT NULL,
  editable BOOL DEFAULT 1 NOT NULL, display TEXT DEFAULT '{}' NOT NULL,
  is_multiple BOOL DEFAULT 0 NOT NULL, normalized BOOL NOT NULL, UNIQUE(label));
CREATE TABLE library_id (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL, UNIQUE(uuid));
CREATE TABLE metadata_dirtied (id INTEGER PRIMARY KEY, book INTEGER NOT NULL, UNIQUE(book));
"""

# (title, author, author's sort name, tags, (series, number) or None, publisher, rating
# out of 10, description), added in this order (book ids 1-6)
Book = tuple[str, str, str, tuple[str, ...], tuple[str, float] | None, str, int, str]
BOOKS: tuple[Book, ...] = (
    ("A Study in Scarlet", "Arthur Conan Doyle", "Doyle, Arthur Conan", ("Mystery",),
     ("Sherlock Holmes", 1.0), "Ward Lock", 8, "Doctor Watson meets Sherlock Holmes."),
    ("The Hound of the Baskervilles", "Arthur Conan Doyle", "Doyle, Arthur Conan",
     ("Mystery", "Classic"), ("Sherlock Holmes", 3.0), "George Newnes", 10,
     "A curse on the moor."),
    ("Pride and Prejudice", "Jane Austen", "Austen, Jane", ("Romance", "Classic"), None,
     "T. Egerton", 10, "Five sisters and a proud man."),
    ("Emma", "Jane Austen", "Austen, Jane", ("Romance",), None, "John Murray", 6,
     "A matchmaker in Highbury."),
    ("The Time Machine", "H. G. Wells", "Wells, H. G.", ("Science Fiction",), None,
     "Heinemann", 8, "A traveller goes to the year 802,701."),
    ("Moby Dick", "Herman Melville", "Melville, Herman", ("Adventure", "Classic"), None,
     "Harper", 4, "A captain hunts a white whale."),
)  # fmt: skip


def _named(db: sqlite3.Connection, table: str, columns: str, values: tuple[object, ...]) -> int:
    """The id of the row of ``table`` whose first column is ``values[0]``, added if new."""
    marks = ", ".join("?" * len(values))
    db.execute(f"INSERT OR IGNORE INTO {table} ({columns}) VALUES ({marks})", values)
    first = columns.split(",")[0].strip()
    row = db.execute(f"SELECT id FROM {table} WHERE {first} = ?", (values[0],)).fetchone()
    return int(row[0])


def _seed_library(library: Path) -> None:
    """A Calibre library of six books, laid out as Calibre lays one out."""
    library.mkdir(parents=True)
    db = sqlite3.connect(library / "metadata.db")
    try:
        db.executescript(SCHEMA)
        db.execute("INSERT INTO library_id (uuid) VALUES (?)", (str(uuid.uuid4()),))
        english = _named(db, "languages", "lang_code", ("eng",))
        for n, (title, author, sort, tags, series, publisher, rating, text) in enumerate(
            BOOKS, start=1
        ):
            path = f"{author}/{title} ({n})"
            db.execute(
                "INSERT INTO books (id, title, sort, author_sort, timestamp, pubdate,"
                " series_index, last_modified, path, has_cover, uuid)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                (n, title, title, sort, f"2024-03-0{n} 10:00:00+00:00",
                 "1900-01-01 00:00:00+00:00", series[1] if series else 1.0,
                 "2024-03-01 10:00:00+00:00", path, str(uuid.uuid4())),
            )  # fmt: skip
            links = [("books_authors_link", "author",
                      _named(db, "authors", "name, sort", (author, sort)))]  # fmt: skip
            links += [("books_tags_link", "tag", _named(db, "tags", "name", (t,))) for t in tags]
            if series:
                named = _named(db, "series", "name, sort", (series[0], series[0]))
                links.append(("books_series_link", "series", named))
            named = _named(db, "publishers", "name, sort", (publisher, publisher))
            links.append(("books_publishers_link", "publisher", named))
            named = _named(db, "ratings", "rating", (rating,))
            links.append(("books_ratings_link", "rating", named))
            links.append(("books_languages_link", "lang_code", english))
            for table, column, ref in links:
                db.execute(f"INSERT INTO {table} (book, {column}) VALUES (?, ?)", (n, ref))
            db.execute("INSERT INTO comments (book, text) VALUES (?, ?)", (n, f"<p>{text}</p>"))
            name = f"{title} - {author}"
            body = f"{title}\n\nby {author}\n\n{text}\n"
            folder = library / path
            folder.mkdir(parents=True)
            (folder / f"{name}.txt").write_text(body)
            db.execute(
                "INSERT INTO data (book, format, uncompressed_size, name) VALUES (?, 'TXT', ?, ?)",
                (n, len(body.encode()), name),
            )
        db.commit()
    finally:
        db.close()


def _install(version: str) -> Path:
    return ensure_venv(f"calibreweb-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    library = workdir / "library"
    _seed_library(library)
    settings = workdir / "app.db"
    cps = str(venv / "bin" / "cps")
    env = {"HOME": str(workdir)}
    # the app makes its own settings database, with the admin's password, and exits
    subprocess.run([cps, "-p", str(settings), "-s", f"{USER}:{PASSWORD}"], cwd=workdir,
                   env={**os.environ, **env}, check=True, timeout=180,
                   capture_output=True)  # fmt: skip
    port = free_port()
    db = sqlite3.connect(settings)
    try:
        db.execute(
            "UPDATE settings SET config_calibre_dir = ?, config_port = ?, config_uploading = 1",
            (str(library), port),
        )
        db.commit()
    finally:
        db.close()
    command = [cps, "-p", str(settings), "-i", "127.0.0.1"]
    return serve(command, port=port, cwd=workdir, workdir=workdir, ready="login", env=env,
                 timeout_s=240)  # fmt: skip


APP = AppSpec(
    name="calibreweb",
    kind="e-book library over a Calibre library (Calibre-Web: browse, book page, metadata, "
    "shelves, search, users)",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_CALIBREWEB_USER": USER, "PACTS_CALIBREWEB_PASSWORD": PASSWORD},
)
